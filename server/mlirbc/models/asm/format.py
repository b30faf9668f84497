"""Compiles an op's declarative assembly format (ODS `assemblyFormat`) into a tree of plain elements.

The grammar is mlir-tblgen's (`OpFormatGen`): backquoted literals (`` `to` ``, `` `(` ``, the spaces
`` ` ` `` and `` `` `` and the newline `` `\\n` ``), variables `$name` (an operand, attribute, property,
region, successor or, inside `type(...)`, a result), the directives `attr-dict`, `attr-dict-with-keyword`,
`prop-dict`, `operands`, `results`, `regions`, `successors`, `type(...)`, `qualified(...)`,
`functional-type(a, b)`, `ref(...)`, `custom<Name>(...)`, `oilist(...)`, and optional groups
`( ... $anchor^ ... ) : ( ... )?`.

The tree is JSON data (lists whose first item names the element), made once when the syntax data is
generated (or when a user's ODS JSON is loaded) and interpreted by the declarative syntax model:

    ["lit", text]                       ["ws", "" | " " | "\\n"]
    ["operand", name]                   ["attr", name, qualified]     ["prop", name]
    ["region", name]                    ["successor", name]           ["result", name]
    ["operands"] ["results"] ["regions"] ["successors"]
    ["attr-dict", with_keyword]         ["prop-dict"]
    ["type", arg, qualified]            ["functional-type", inputs, results]
    ["custom", name, [args]]            ["ref", arg]                  ["string", text]
    ["optional", then, else, anchor, inverted]   (anchor: index into `else` when inverted, else `then`)
    ["oilist", [[literal, [elements]], ...]]
"""

from __future__ import annotations

from typing import Any

Element = list[Any]

_PUNCT = "^:,=<>?()*|[]"
_DIRECTIVES = frozenset({
    "attr-dict", "attr-dict-with-keyword", "prop-dict", "custom", "functional-type", "operands", "ref",
    "regions", "results", "successors", "type", "qualified", "oilist",
})


class FormatError(Exception):
    """The format string does not follow the declarative format grammar (or names unknown variables)."""


def _tokens(fmt: str) -> list[tuple[str, str]]:
    """(kind, text) pairs: `lit`, `var`, `ident`, `string`, or the punctuation character itself."""
    out: list[tuple[str, str]] = []
    i, n = 0, len(fmt)
    while i < n:
        c = fmt[i]
        if c in " \t\r\n\0":
            i += 1
        elif c == "`":
            j = fmt.find("`", i + 1)
            if j < 0:
                raise FormatError("unexpected end of file in literal")
            out.append(("lit", fmt[i + 1:j]))
            i = j + 1
        elif c == "$":
            j = i + 1
            if j >= n or not (fmt[j].isalpha() or fmt[j] == "_"):
                raise FormatError("expected variable name")
            while j < n and (fmt[j].isalnum() or fmt[j] == "_"):
                j += 1
            out.append(("var", fmt[i + 1:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and fmt[j] != '"':
                j += 2 if fmt[j] == "\\" else 1
            if j >= n:
                raise FormatError("unterminated string")
            out.append(("string", fmt[i + 1:j]))
            i = j + 1
        elif c.isalpha() or c == "_":
            j = i + 1
            while j < n and (fmt[j].isalnum() or fmt[j] in "_-"):
                j += 1
            out.append(("ident", fmt[i:j]))
            i = j
        elif c in _PUNCT:
            out.append((c, c))
            i += 1
        else:
            raise FormatError(f"unexpected character {c!r}")
    return out


class _FormatParser:
    def __init__(self, fmt: str, kinds: dict[str, str]) -> None:
        self.toks = _tokens(fmt)
        self.i = 0
        self.kinds = kinds
        """variable name -> operand | attr | prop | region | successor | result"""

    def peek(self) -> tuple[str, str]:
        return self.toks[self.i] if self.i < len(self.toks) else ("eof", "")

    def take(self, kind: str | None = None) -> tuple[str, str]:
        tok = self.peek()
        if kind is not None and tok[0] != kind:
            raise FormatError(f"expected '{kind}', found {tok[1] or 'end of format'!r}")
        self.i += 1
        return tok

    def elements(self, stop: str = "eof") -> list[Element]:
        out: list[Element] = []
        while self.peek()[0] != stop:
            out.append(self.element("top"))
        return out

    def element(self, ctx: str) -> Element:
        kind, text = self.peek()
        if kind == "lit":
            self.i += 1
            return _literal(text)
        if kind == "var":
            self.i += 1
            return self.variable(text, ctx)
        if kind == "string" and ctx == "custom":
            self.i += 1
            return ["string", text]
        if kind == "ident" and text in _DIRECTIVES:
            self.i += 1
            return self.directive(text, ctx)
        if kind == "(" and ctx == "top":
            self.i += 1
            return self.optional_group()
        raise FormatError(f"unexpected {text!r} in the format")

    def variable(self, name: str, ctx: str) -> Element:
        kind = self.kinds.get(name)
        if kind is None:
            raise FormatError(f"'${name}' is not an argument, result, region or successor of the op")
        if kind == "result" and ctx not in ("type", "custom-type"):
            raise FormatError(f"result '${name}' can only be used inside a type directive")
        if kind == "attr":
            return ["attr", name, False]
        return [kind, name]

    def directive(self, name: str, ctx: str) -> Element:
        if name == "attr-dict":
            return ["attr-dict", False]
        if name == "attr-dict-with-keyword":
            return ["attr-dict", True]
        if name == "prop-dict":
            return ["prop-dict"]
        if name in ("operands", "results", "regions", "successors"):
            return [name]
        if name == "type":
            self.take("(")
            arg = self.type_operand(ctx)
            self.take(")")
            return ["type", arg, False]
        if name == "qualified":
            self.take("(")
            inner = self.element(ctx)
            self.take(")")
            if inner[0] == "attr":
                return ["attr", inner[1], True]
            if inner[0] == "type":
                return ["type", inner[1], True]
            raise FormatError("qualified applies to an attribute or a type directive")
        if name == "functional-type":
            self.take("(")
            inputs = self.type_operand(ctx)
            self.take(",")
            results = self.type_operand(ctx)
            self.take(")")
            return ["functional-type", inputs, results]
        if name == "ref":
            self.take("(")
            inner = self.element("ref")
            self.take(")")
            return ["ref", inner]
        if name == "custom":
            self.take("<")
            cname = self.take("ident")[1]
            self.take(">")
            self.take("(")
            args: list[Element] = []
            if self.peek()[0] != ")":
                while True:
                    args.append(self.element("custom"))
                    if self.peek()[0] != ",":
                        break
                    self.i += 1
            self.take(")")
            return ["custom", cname, args]
        if name == "oilist":
            self.take("(")
            clauses: list[list[Any]] = []
            while True:
                lit = self.take("lit")[1]
                body: list[Element] = []
                while self.peek()[0] not in ("|", ")"):
                    body.append(self.element("top"))
                clauses.append([lit, body])
                if self.take()[0] == ")":
                    break
            return ["oilist", clauses]
        raise FormatError(f"unsupported directive {name}")

    def type_operand(self, ctx: str) -> Element:
        kind, text = self.peek()
        if kind == "var":
            self.i += 1
            el = self.variable(text, "type")
            if el[0] not in ("operand", "result"):
                raise FormatError(f"'${text}' in a type directive is not an operand or result")
            return el
        if kind == "ident" and text in ("operands", "results"):
            self.i += 1
            return [text]
        if kind == "ident" and text == "ref":
            self.i += 1
            self.take("(")
            inner = self.type_operand(ctx)
            self.take(")")
            return inner
        raise FormatError(f"expected an operand or result in a type directive, found {text!r}")

    def optional_group(self) -> Element:
        anchor: tuple[str, int] | None = None

        def children(which: str) -> list[Element]:
            nonlocal anchor
            out: list[Element] = []
            while True:
                out.append(self.element("top"))
                if self.peek()[0] == "^":
                    self.i += 1
                    if anchor is not None:
                        raise FormatError("only one element can be the anchor of an optional group")
                    anchor = (which, len(out) - 1)
                if self.peek()[0] == ")":
                    self.i += 1
                    return out

        then = children("then")
        inverted = anchor is None
        els: list[Element] = []
        if self.peek()[0] == ":":
            self.i += 1
            self.take("(")
            els = children("else")
        self.take("?")
        if anchor is None:
            raise FormatError("optional group has no anchor element")
        return ["optional", then, els, anchor[1], inverted]


def _literal(text: str) -> Element:
    if text in ("", " ", "\\n"):
        return ["ws", text]
    return ["lit", text]


def parse_format(fmt: str, kinds: dict[str, str]) -> list[Element]:
    """The element tree of one op's format; `kinds` maps each variable name of the op to `operand`,
    `attr`, `prop`, `region`, `successor` or `result`.  Raises FormatError."""
    p = _FormatParser(fmt, kinds)
    return p.elements()


def walk(elements: list[Element]) -> list[Element]:
    """Every element of a tree, depth first (optional groups, oilist clauses, directive arguments)."""
    out: list[Element] = []
    stack = list(reversed(elements))
    while stack:
        el = stack.pop()
        out.append(el)
        kind = el[0]
        if kind == "optional":
            stack.extend(reversed(el[1] + el[2]))
        elif kind == "oilist":
            for _, body in reversed(el[1]):
                stack.extend(reversed(body))
        elif kind == "custom":
            stack.extend(reversed(el[2]))
        elif kind in ("type", "ref"):
            stack.append(el[1])
        elif kind == "functional-type":
            stack.extend([el[2], el[1]])
    return out
