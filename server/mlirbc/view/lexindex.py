"""Names in text the parser could not read: a small index over the tokens of one range.

When an op does not parse, its text is not in the source map; navigation there still works on its
tokens (`syntax.lexer`, skipping what does not lex).  Scoping follows braces: a name resolves to its
definition in the innermost enclosing `{...}` that has one, then outward.  A `%name` is a definition when
it leads its line (results, `%a, %b = ...` included) or stands in a block label's argument list; a
`^label` leading its line is a block definition.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from ..errors import TextError
from ..syntax.lexer import BLOCK, EOF, VALUE, Lexer, Token


@dataclass(frozen=True, slots=True)
class LexName:
    start: int
    end: int
    name: str
    """`%0` (without `#N`) or `^bb1`."""
    is_def: bool
    is_block: bool
    scope: int
    """Index of the innermost `{` scope holding the name (0: the whole range)."""


class LexIndex:
    """The `%value` and `^block` names of text[start:end]."""

    def __init__(self, text: str, start: int, end: int) -> None:
        self.start, self.end = start, end
        self.names: list[LexName] = []
        self.parents: list[int] = [-1]  # scope -> enclosing scope
        tokens = _tokens(text, start, end)
        stack = [0]
        results = False  # inside `%a, %b:2 =` at the start of a line
        label_depth = 0  # paren depth inside a block label's argument list (-1: before its '(')
        for k, tok in enumerate(tokens):
            lead = k == 0 or "\n" in text[tokens[k - 1].end:tok.start]
            kind = tok.kind
            nxt = tokens[k + 1].kind if k + 1 < len(tokens) else EOF
            if kind == VALUE:
                is_def = lead or results or (label_depth > 0 and nxt == ":")
                results = lead or results
                self.names.append(LexName(tok.start, tok.end, tok.text.split("#", 1)[0], is_def,
                                          False, stack[-1]))
            elif not (results and kind in (",", ":", "int")):
                results = False
            if kind == "{":
                self.parents.append(stack[-1])
                stack.append(len(self.parents) - 1)
            elif kind == "}" and len(stack) > 1:
                stack.pop()
            elif kind == BLOCK:
                is_def = lead and nxt in (":", "(")
                self.names.append(LexName(tok.start, tok.end, tok.text, is_def, True, stack[-1]))
                if is_def and nxt == "(":
                    label_depth = -1
            elif kind == "(" and label_depth != 0:
                label_depth = 1 if label_depth < 0 else label_depth + 1
            elif kind == ")" and label_depth > 0:
                label_depth -= 1
        self._starts = [n.start for n in self.names]

    def at(self, offset: int) -> LexName | None:
        i = bisect_right(self._starts, offset) - 1
        if i >= 0 and self.names[i].start <= offset <= self.names[i].end:
            return self.names[i]
        return None

    def _chain(self, scope: int) -> list[int]:
        out = []
        while scope >= 0:
            out.append(scope)
            scope = self.parents[scope]
        return out

    def definition(self, name: LexName) -> LexName | None:
        if name.is_def:
            return name
        for scope in self._chain(name.scope):
            for n in self.names:
                if n.is_def and n.scope == scope and n.name == name.name and \
                        n.is_block == name.is_block:
                    return n
        return None

    def references(self, name: LexName) -> list[LexName]:
        d = self.definition(name)
        if d is None:
            return [name]
        return [n for n in self.names if n.name == name.name and n.is_block == name.is_block
                and self.definition(n) == d]

    def visible(self, offset: int) -> list[LexName]:
        """Value definitions visible at `offset`, innermost first, one per name."""
        scope = 0
        for n in self.names:
            if n.start > offset:
                break
            scope = n.scope
        seen: set[str] = set()
        out: list[LexName] = []
        for s in self._chain(scope):
            for n in self.names:
                if n.is_def and not n.is_block and n.scope == s and n.name not in seen:
                    seen.add(n.name)
                    out.append(n)
        return out


def _tokens(text: str, start: int, end: int) -> list[Token]:
    lexer = Lexer(text, start, end)
    out: list[Token] = []
    while True:
        try:
            tok = lexer.next()
        except TextError:
            lexer.reset(lexer.resume_at)
            continue
        if tok.kind == EOF:
            return out
        out.append(tok)


_NOT_KEYWORDS = frozenset(("loc", "true", "false", "unit", "dense", "dense_resource", "sparse", "array",
                           "distinct", "affine_map", "affine_set", "strided", "tensor", "memref", "vector",
                           "complex", "tuple", "index", "none"))


def custom_keywords(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The keywords of an op's custom form in text[start:end] (`ins`, `to`, `step`, `iter_args`, ...):
    bare words outside its regions and brackets that are not types or attribute keywords."""
    from ..syntax.attr_parser import _simple_type
    from ..syntax.lexer import BARE, EOF, Lexer

    out: list[tuple[int, int]] = []
    depth = 0
    lexer = Lexer(text, start, end)
    try:
        tok = lexer.next()
        while tok.kind != EOF:
            kind = tok.kind
            if kind in ("{", "[", "<"):
                depth += 1
            elif kind in ("}", "]", ">"):
                depth = max(0, depth - 1)
            elif kind == BARE and depth == 0 and tok.text not in _NOT_KEYWORDS and \
                    _simple_type(tok.text) is None and "." not in tok.text:
                out.append((tok.start, tok.end))
            tok = lexer.next()
    except TextError:
        pass
    return out
