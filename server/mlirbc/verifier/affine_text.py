"""The shape of an affine map kept as text (`affine_map<(d0, d1)[s0] -> (d0 + s0, d1)>`): how many
dimensions, symbols and results it has, which is all the verifiers ask of one."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..ir.attributes import Attribute, DialectAttr


@dataclass(frozen=True)
class MapShape:
    dims: int
    symbols: int
    results: int


def _items(text: str) -> int:
    """How many comma-separated items a parenthesised list holds (nested brackets kept whole)."""
    body = text.strip()
    if not body:
        return 0
    depth, n = 0, 1
    for ch in body:  # (not `<`/`>`: a set's constraints hold `>= 0`)
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            n += 1
    return n


def _group(text: str, at: int, open_ch: str, close_ch: str) -> tuple[str, int] | None:
    """The text inside the bracket group starting at `at` (which must be `open_ch`), and the index after."""
    if at >= len(text) or text[at] != open_ch:
        return None
    depth = 0
    for i in range(at, len(text)):
        if text[i] == open_ch:
            depth += 1
        elif text[i] == close_ch:
            depth -= 1
            if depth == 0:
                return text[at + 1:i], i + 1
    return None


def _shape(a: Attribute | None, kind: str, arrow: str) -> MapShape | None:
    """`kind<(dims)[symbols] ARROW (results)>` read as its counts (None for anything else)."""
    if not isinstance(a, DialectAttr) or not a.text.startswith(f"{kind}<") or not a.text.endswith(">"):
        return None
    body = a.text[len(kind) + 1:-1].strip()
    dims = _group(body, 0, "(", ")")
    if dims is None:
        return None
    rest = body[dims[1]:].lstrip()
    syms = 0
    if rest.startswith("["):
        group = _group(rest, 0, "[", "]")
        if group is None:
            return None
        syms = _items(group[0])
        rest = rest[group[1]:].lstrip()
    if not rest.startswith(arrow):
        return None
    rest = rest[len(arrow):].lstrip()
    results = _group(rest, 0, "(", ")")
    if results is None or rest[results[1]:].strip():
        return None
    return MapShape(_items(dims[0]), syms, _items(results[0]))


def set_shape(a: Attribute | None) -> MapShape | None:
    """The dimensions and symbols of an `affine_set<...>` attribute (`results`: its constraints)."""
    return _shape(a, "affine_set", ":")


def map_shape(a: Attribute | None) -> MapShape | None:
    """The shape of an `affine_map<...>` attribute (None for anything else, or text this cannot read)."""
    return _shape(a, "affine_map", "->")


# -- the results of an affine map, as expressions --------------------------------------------------------

Expr = tuple[object, ...]
"""`("d", i)`, `("s", i)`, `("c", n)`, or `(op, lhs, rhs)` with op one of `+ * floordiv ceildiv mod`."""

_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z_0-9]*)|(.))")


def _split_top(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if text.strip():
        parts.append(text[start:])
    return [p.strip() for p in parts]


class _Parser:
    def __init__(self, text: str, names: dict[str, Expr]) -> None:
        self.tokens: list[str] = []
        for m in _TOKEN.finditer(text):
            tok = m.group(1) or m.group(2) or m.group(3)
            if tok and not tok.isspace():
                self.tokens.append(tok)
        self.at = 0
        self.names = names

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> str:
        tok = self.tokens[self.at]
        self.at += 1
        return tok

    def sum(self) -> Expr:
        e = self.product()
        while self.peek() in ("+", "-"):
            op = self.take()
            rhs = self.product()
            e = ("+", e, rhs if op == "+" else ("*", rhs, ("c", -1)))
        return e

    def product(self) -> Expr:
        e = self.unary()
        while self.peek() in ("*", "floordiv", "ceildiv", "mod"):
            op = self.take()
            e = (op, e, self.unary())
        return e

    def unary(self) -> Expr:
        tok = self.take()
        if tok == "-":
            return ("*", self.unary(), ("c", -1))
        if tok == "(":
            e = self.sum()
            if self.take() != ")":
                raise ValueError("expected )")
            return e
        if tok.isdigit():
            return ("c", int(tok))
        hit = self.names.get(tok)
        if hit is None:
            raise ValueError(f"unknown name {tok}")
        return hit


@dataclass(frozen=True)
class AffineMapText:
    dims: int
    symbols: int
    results: tuple[Expr, ...]
    dims_text: str = ""
    """The dimension list as written (`d0, d1`)."""
    result_texts: tuple[str, ...] = ()


def parse_map(a: Attribute | None) -> AffineMapText | None:
    """An `affine_map<...>` attribute's results as expressions (None: anything else, or text this cannot
    read)."""
    if not isinstance(a, DialectAttr) or not a.text.startswith("affine_map<") or not a.text.endswith(">"):
        return None
    body = a.text[len("affine_map<"):-1].strip()
    dims = _group(body, 0, "(", ")")
    if dims is None:
        return None
    names: dict[str, Expr] = {n: ("d", i) for i, n in enumerate(_split_top(dims[0]))}
    rest = body[dims[1]:].lstrip()
    nsyms = 0
    if rest.startswith("["):
        group = _group(rest, 0, "[", "]")
        if group is None:
            return None
        syms = _split_top(group[0])
        nsyms = len(syms)
        names.update({n: ("s", i) for i, n in enumerate(syms)})
        rest = rest[group[1]:].lstrip()
    if not rest.startswith("->"):
        return None
    rest = rest[2:].lstrip()
    results = _group(rest, 0, "(", ")")
    if results is None or rest[results[1]:].strip():
        return None
    out = []
    texts = _split_top(results[0])
    try:
        for text in texts:
            p = _Parser(text, names)
            out.append(p.sum())
            if p.peek() is not None:
                return None
    except (ValueError, IndexError):
        return None
    return AffineMapText(len(names) - nsyms, nsyms, tuple(out), dims[0].strip(), tuple(texts))


def evaluate(e: Expr, dims: list[int]) -> int | None:
    """The value of an expression at `dims` (None: it names a symbol, or divides by zero)."""
    kind = e[0]
    if kind == "d":
        return dims[int(str(e[1]))]
    if kind == "c":
        return int(str(e[1]))
    if kind == "s":
        return None
    a = evaluate(e[1], dims)  # type: ignore[arg-type]
    b = evaluate(e[2], dims)  # type: ignore[arg-type]
    if a is None or b is None:
        return None
    if kind == "+":
        return a + b
    if kind == "*":
        return a * b
    if b == 0:
        return None
    if kind == "floordiv":
        return a // b
    if kind == "ceildiv":
        return -((-a) // b)
    if kind == "mod":
        return a % b
    return None
