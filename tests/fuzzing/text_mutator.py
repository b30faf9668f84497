"""Mutations of text views and of JSON-RPC messages for the fuzz targets.

Text views: what a user's edit (or a hostile file) does to MLIR generic text: unbalanced brackets (one or a
thousand), deleted, duplicated and swapped lines, huge integer literals and result counts, long or
unterminated strings, lone surrogates, deep nesting of parentheses and regions, duplicated dictionary keys,
swapped types and names, edits of the `// mlirbc:` header (versions, producers, dialect versions) and
splices from another view.

JSON-RPC messages: a random node of a valid message replaced by a value of another type, a boundary integer
(-1, 2^31, 2^53, ...), a long or NUL-carrying string, deep nesting, or removed; the envelope fields too.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

TEXT_KINDS = ("brackets", "lines", "number", "string", "surrogate", "nesting", "dupkey", "swap",
              "header", "splice", "chars")
JSON_KINDS = ("replace", "int", "string", "deep", "remove", "envelope", "bytes")

_BRACKETS = "(){}[]<>"
_TOKEN_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"|%[\w#.$-]+|\^\w+|[A-Za-z_][\w.$]*|\d+|\S')
_TYPES = ("i1", "i32", "i64", "f32", "f64", "index", "none", "tensor<2xf32>", "memref<?xi8>", "si8",
          "ui16", "!foo.bar", "vector<[4]xf16>", "complex<f32>", "tuple<>", "i16777215", "i0")


def encode_text(text: str) -> bytes:
    """Text as fuzz-input bytes; lone surrogates survive (`surrogatepass`)."""
    return text.encode("utf-8", "surrogatepass")


def decode_text(data: bytes) -> str:
    """Fuzz-input bytes as text: UTF-8 with lone surrogates; undecodable bytes become escapes."""
    try:
        return data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return data.decode("utf-8", "surrogateescape")


class TextMutator:
    def __init__(self, donors: list[str]) -> None:
        self.donors = [d for d in donors if d]

    def mutate(self, text: str, rng: random.Random, kind: str | None = None) -> tuple[str, str]:
        kind = kind or rng.choice(TEXT_KINDS)
        out = getattr(self, f"_m_{kind}")(text, rng)
        if out == text:
            return self._m_chars(text, rng), "chars"
        return out, kind

    def _pos(self, text: str, rng: random.Random) -> int:
        return rng.randrange(len(text) + 1)

    def _m_brackets(self, text: str, rng: random.Random) -> str:
        n = rng.choice((1, 1, 2, 3, 10, 100, 300))
        if n > 10 and rng.random() < 0.5:
            # many unbalanced tokens spread over the text: the recovery stress case
            chars = list(text)
            for _ in range(n):
                chars.insert(rng.randrange(len(chars) + 1), rng.choice(_BRACKETS))
            return "".join(chars)
        p = self._pos(text, rng)
        return text[:p] + "".join(rng.choice(_BRACKETS) for _ in range(n)) + text[p:]

    def _m_lines(self, text: str, rng: random.Random) -> str:
        lines = text.split("\n")
        if not lines:
            return text
        i = rng.randrange(len(lines))
        op = rng.randrange(4)
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif op == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            cut = rng.randrange(len(text) + 1)
            return text[:cut]
        return "\n".join(lines)

    def _m_number(self, text: str, rng: random.Random) -> str:
        choices = ("0", "-1", "4294967296", "18446744073709551616", "9" * rng.choice((20, 400, 4400)),
                   "0x" + "F" * rng.choice((16, 17, 40, 1000)), "1.0e999", "-0.0", "0x7FC00001",
                   "2147483648", "1" + "0" * 20001)
        spots = [m for m in re.finditer(r"\b\d+\b", text)]
        value = rng.choice(choices)
        if spots and rng.random() < 0.7:
            m = rng.choice(spots)
            return text[:m.start()] + value + text[m.end():]
        # a result count: `%x:N = ...`
        m2 = list(re.finditer(r"(%\w+) = ", text))
        if m2:
            m = rng.choice(m2)
            return text[:m.start()] + f"{m.group(1)}:{rng.choice(('0', '2', '99999999999', '9' * 5000))}" \
                + text[m.end() - 3:]
        return text + value

    def _m_string(self, text: str, rng: random.Random) -> str:
        p = self._pos(text, rng)
        n = rng.choice((0, 1, 100, 5000))
        body = rng.choice(("x" * n, "\\" * 3, "\\zz", "\\n\\t\\\"", "\x00", "\u2028", "é" * 10))
        closing = '"' if rng.random() < 0.5 else ""
        return text[:p] + '"' + body + closing + text[p:]

    def _m_surrogate(self, text: str, rng: random.Random) -> str:
        s = chr(rng.randrange(0xD800, 0xE000))
        strings = [m for m in re.finditer(r'"(?:[^"\\\n]|\\.)*"', text)]
        if strings and rng.random() < 0.8:
            m = rng.choice(strings)
            at = rng.randrange(m.start() + 1, m.end())
            return text[:at] + s + text[at:]
        p = self._pos(text, rng)
        return text[:p] + s + text[p:]

    def _m_nesting(self, text: str, rng: random.Random) -> str:
        depth = rng.choice((50, 100, 520))
        kind = rng.randrange(4)
        if kind == 0:
            inner = "(" * depth + ")" * depth
        elif kind == 1:
            inner = "[" * depth + "]" * depth
        elif kind == 2:
            # (compact: 520 levels of openers take under 5 KB, so they fit in the text targets' input bound)
            inner = '"t.r"()({' * depth + "}):()->()" * depth
        else:
            inner = "tensor<" * depth + "f32" + ">" * depth
        p = text.rfind("\n", 0, self._pos(text, rng)) + 1
        return text[:p] + inner + "\n" + text[p:]

    def _m_dupkey(self, text: str, rng: random.Random) -> str:
        dicts = [m for m in re.finditer(r"\{([A-Za-z_][\w.$]*) = ", text)]
        if not dicts:
            return text
        m = rng.choice(dicts)
        end = text.find("}", m.end())
        if end < 0:
            return text
        entry = text[m.start() + 1:end].split(", ")[0]
        return text[:end] + ", " + entry + text[end:]

    def _m_swap(self, text: str, rng: random.Random) -> str:
        toks = list(_TOKEN_RE.finditer(text))
        if not toks:
            return text
        m = rng.choice(toks)
        tok = m.group(0)
        if tok.startswith("%"):
            others = [t.group(0) for t in toks if t.group(0).startswith("%")]
            new = rng.choice(others + ["%9999", "%arg0", "%0#7"])
        elif tok[0].isalpha():
            new = rng.choice(_TYPES)
        else:
            new = rng.choice(("", tok + tok, ",", ":", "->", "loc(unknown)", "#loc", "^bb1"))
        return text[:m.start()] + new + text[m.end():]

    def _m_header(self, text: str, rng: random.Random) -> str:
        m = re.match(r"// mlirbc: (\{[^\n]*\})", text)
        if m is None:
            return text
        try:
            facts = json.loads(m.group(1))
        except ValueError:
            return text
        op = rng.randrange(5)
        if op == 0:
            facts["version"] = rng.choice((0, 1, 4, 5, 6, 7, -1, "6", None, 1 << 70))
        elif op == 1:
            facts["producer"] = rng.choice(("", "MLIR22.1.8", "\ud800", "a\x00b", "x" * 10_000, 5))
        elif op == 2:
            versions = facts.setdefault("dialect_versions", {})
            if isinstance(versions, dict):
                name = rng.choice(("builtin", "func", "arith", "vhlo", "sdy", "x"))
                versions[name] = rng.choice(("00", "01", "0102", "zz", "", "ff" * 20))
        elif op == 3:
            facts = rng.choice(([], "x", 1, None))  # type: ignore[assignment]
        else:
            facts.pop(rng.choice(list(facts) or ["version"]), None)
        line = "// mlirbc: " + json.dumps(facts, ensure_ascii=rng.random() < 0.5)
        return line + text[m.end():]

    def _m_splice(self, text: str, rng: random.Random) -> str:
        if not self.donors:
            return text
        donor = rng.choice(self.donors)
        a = self._pos(donor, rng)
        b = min(len(donor), a + rng.randrange(1, 400))
        p = self._pos(text, rng)
        q = min(len(text), p + rng.randrange(0, 200))
        return text[:p] + donor[a:b] + text[q:]

    def _m_chars(self, text: str, rng: random.Random) -> str:
        chars = list(text)
        for _ in range(rng.randint(1, 4)):
            p = rng.randrange(len(chars) + 1)
            op = rng.randrange(3)
            if op == 0 and chars and p < len(chars):
                del chars[p]
            elif op == 1:
                chars.insert(p, rng.choice('(){}[]<>,:=%^#!@"\\\n x0-.'))
            elif chars and p < len(chars):
                chars[p] = chr(rng.randrange(0x110000)) if rng.random() < 0.1 else rng.choice("0aZ_ ")
        return "".join(chars)


# -- JSON-RPC -----------------------------------------------------------------------------------------
NODE_DEPTH = 64
"""Nodes deeper than this are not picked for a mutation.  An earlier `deep` mutation leaves thousands of
nested lists in a message, and listing every path into them cost the square of the depth (on a long run's
corpus the mutator took more than a third of the server target's time); the deep nodes are all alike,
and the nodes a message really has lie far above this depth."""


def _nodes(value: Any) -> list[tuple[Any, ...]]:
    """The paths of `value`'s nodes in pre-order, down to `NODE_DEPTH`."""
    out: list[tuple[Any, ...]] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    while stack:
        node, path = stack.pop()
        out.append(path)
        if len(path) >= NODE_DEPTH:
            continue
        if isinstance(node, dict):
            stack.extend((v, path + (k,)) for k, v in reversed(node.items()))
        elif isinstance(node, list):
            stack.extend((node[i], path + (i,)) for i in reversed(range(len(node))))
    return out


def _set(root: Any, path: tuple[Any, ...], value: Any, remove: bool = False) -> Any:
    if not path:
        return value
    parent = root
    for p in path[:-1]:
        parent = parent[p]
    if remove:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return root


_ODD_VALUES: tuple[Any, ...] = (None, True, 0, -1, 1.5, 2**31, 2**31 - 1, 2**53 + 1, -(2**63), "", "x",
                                 [], {}, [1, 2], {"a": 1}, "file:///dev/zero", "file:///tmp/%00x",
                                 "mlirbc:///dev/null", "http://example.com/x.mlirbc", "file:///",
                                 "file:///proc/self/mem", "/relative/../../etc/passwd")


class JsonMutator:
    def mutate(self, body: bytes, rng: random.Random, kind: str | None = None) -> tuple[bytes, str]:
        kind = kind or rng.choice(JSON_KINDS)
        try:
            msg = json.loads(body)
        except (ValueError, RecursionError):
            msg = None
        if msg is None or kind == "bytes":
            return self._bytes(body, rng), "bytes"
        paths = _nodes(msg)
        path = rng.choice(paths)
        if kind == "replace":
            msg = _set(msg, path, rng.choice(_ODD_VALUES))
        elif kind == "int":
            msg = _set(msg, path, rng.choice((-1, -(2**31) - 1, 2**31, 2**32, 2**63, 2**64, 10**30)))
        elif kind == "string":
            msg = _set(msg, path, rng.choice(("\x00", "a" * 100_000, "\ud800", "%00", "file:///dev/stdin",
                                              "file://host/x", "file:///tmp", "../x.mlirbc")))
        elif kind == "deep":
            depth = rng.choice((50, 999, 5000, 100_000))
            raw = json.dumps(msg)
            nested = "[" * depth + "]" * depth
            # splice the deep value in as text: json.dumps would recurse
            if path and isinstance(path[-1], str):
                marker = "\"__deep__\""
                msg = _set(msg, path, "__deep__")
                return json.dumps(msg).replace(marker, nested, 1).encode(), kind
            return (raw[:-1] + ', "deep": ' + nested + "}").encode() if raw.endswith("}") \
                else nested.encode(), kind
        elif kind == "remove":
            if path:
                msg = _set(msg, path, None, remove=True)
        else:  # envelope
            field = rng.choice(("jsonrpc", "id", "method", "params"))
            if isinstance(msg, dict):
                if rng.random() < 0.3:
                    msg.pop(field, None)
                else:
                    msg[field] = rng.choice(_ODD_VALUES + ("1.0", "2.0", 123, {"x": 1}))
        try:
            return json.dumps(msg).encode("utf-8", "surrogatepass"), kind
        except (ValueError, RecursionError):
            return self._bytes(body, rng), "bytes"

    def _bytes(self, body: bytes, rng: random.Random) -> bytes:
        b = bytearray(body)
        for _ in range(rng.randint(1, 3)):
            p = rng.randrange(len(b) + 1)
            op = rng.randrange(3)
            if op == 0 and p < len(b):
                del b[p]
            elif op == 1:
                b[p:p] = rng.choice((b"{", b"}", b"[", b"]", b'"', b",", b"\\", b"\xff", b"\x00", b"1e999"))
            elif p < len(b):
                b[p] = rng.randrange(256)
        return bytes(b)
