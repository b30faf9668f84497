"""Where IR objects sit in a text view: the small interface the graph builder reads positions through.

`SourceMap` answers "op -> text range", "value -> printed name" and "block -> label" for one text; the
builder never looks at text itself.  `ViewSourceMap` feeds it from a view's source map
(`view.sourcemap`: the printer's for a view printed from a module, the parser's for a text read back,
the language server's for the current, possibly edited, text).
Ranges are LSP ranges: 0-based lines, columns in UTF-16 code units, end exclusive.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ..ir.operation import Block, Operation, OpResult, Value
from ..syntax.elision import FIND_RE
from ..syntax.textlines import TextLines
from ..view.sourcemap import SourceMap as ViewMap


@dataclass(frozen=True, slots=True)
class TextRange:
    start_line: int
    start_char: int
    end_line: int
    end_char: int

    def to_json(self) -> dict[str, dict[str, int]]:
        return {"start": {"line": self.start_line, "character": self.start_char},
                "end": {"line": self.end_line, "character": self.end_char}}


class SourceMap(Protocol):
    """Positions and names of IR objects in one text (any answer may be None: not in this text)."""

    def op_range(self, op: Operation) -> TextRange | None:
        """The whole op, from its first result name (or its quoted name) to the end of its location."""

    def value_name(self, value: Value) -> str | None:
        """The value as the text names it: `%3`, `%3#1`, `%arg0`."""

    def block_label(self, block: Block) -> str | None:
        """`^bb1`; None for an entry block the text shows without a label."""

    def block_range(self, block: Block) -> TextRange | None:
        """The block's label (`^bb1`) where the block starts, when it has one."""


def utf16_column(line: str, col: int) -> int:
    """A column counted in code points -> the same column in UTF-16 code units."""
    prefix = line[:col]
    if prefix.isascii():
        return col
    return len(prefix.encode("utf-16-le")) // 2


class ViewSourceMap:
    """A SourceMap over a text view's own source map (`view.sourcemap`, from the printer or the parser)."""

    def __init__(self, smap: ViewMap, text: str, lines: TextLines | None = None) -> None:
        self._map = smap
        self._text = text
        self._lines = lines if lines is not None else TextLines(text)

    @property
    def lines(self) -> TextLines:
        return self._lines

    def _range(self, start: int, end: int) -> TextRange:
        sl, sc = self._lines.position(start)
        el, ec = self._lines.position(end)
        return TextRange(sl, self._utf16(sl, start, sc), el, self._utf16(el, end, ec))

    def _utf16(self, line: int, offset: int, col: int) -> int:
        prefix = self._text[self._lines.line_start(line):offset]
        return col if prefix.isascii() else len(prefix.encode("utf-16-le")) // 2

    def op_range(self, op: Operation) -> TextRange | None:
        span = self._map.op_span(op)
        return self._range(span.start, span.end) if span is not None else None

    def value_name(self, value: Value) -> str | None:
        name = self._map.name(value)
        if name is not None and isinstance(value, OpResult) and len(value.owner.results) > 1:
            return f"{name}#{value.index}"
        return name

    def block_label(self, block: Block) -> str | None:
        return self._map.name(block)

    def block_range(self, block: Block) -> TextRange | None:
        span = self._map.definition(block)
        return self._range(span.start, span.end) if span is not None else None


def elided_probe(text: str, source: SourceMap, lines: TextLines | None = None
                 ) -> Callable[[Operation], bool]:
    """Whether an op's own text (not its regions') holds an elided-value placeholder, as the view shows it.

    In the generic form an op without regions has its lines to itself, and an op with regions keeps its
    own properties on its first line and its attributes, type and location on its last.  `lines` (the
    text's line table, when the caller has one) spares a pass over a large text per request: only the
    lines of the ops asked about are read.
    """
    table = lines if lines is not None else TextLines(text)
    count = table.line_count

    def line(i: int) -> str:
        return text[table.line_start(i):table.line_end(i)]

    def probe(op: Operation) -> bool:
        r = source.op_range(op)
        if r is None or not 0 <= r.start_line <= r.end_line < count:
            return False
        if op.regions:
            own = [line(r.start_line), line(r.end_line)]
        else:
            own = [line(i) for i in range(r.start_line, r.end_line + 1)]
        return any("mlirbc.elided" in s and FIND_RE.search(s) for s in own)

    return probe
