"""Where IR objects sit in a text view: the small interface the graph builder reads positions through.

`SourceMap` answers "op -> text range", "value -> printed name" and "block -> label" for one text; the
builder never looks at text itself.  `PrintSourceMap` feeds it from the printer's span map (a view
printed from a module), `ParseSourceMap` from the parser's (a text read back); the language server
feeds it from its own index of the (possibly edited) text.
Ranges are LSP ranges: 0-based lines, columns in UTF-16 code units, end exclusive.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ..errors import TextSpan
from ..ir.operation import Block, Operation, Value
from ..syntax.elision import FIND_RE
from ..view.parser import ParseResult
from ..view.printer import PrintResult


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


class PrintSourceMap:
    """A SourceMap over the printer's output for a module (the text exactly as printed)."""

    def __init__(self, printed: PrintResult) -> None:
        self._printed = printed
        self._spans = {id(s.op): s for s in printed.ops}
        self._lines: list[str] | None = None

    def _line(self, n: int) -> str:
        if self._lines is None:
            self._lines = self._printed.text.split("\n")
        return self._lines[n] if 0 <= n < len(self._lines) else ""

    def op_range(self, op: Operation) -> TextRange | None:
        s = self._spans.get(id(op))
        if s is None:
            return None
        return TextRange(s.start_line, utf16_column(self._line(s.start_line), s.start_col),
                         s.end_line, utf16_column(self._line(s.end_line), s.end_col))

    def value_name(self, value: Value) -> str | None:
        return self._printed.names.get(id(value))

    def block_label(self, block: Block) -> str | None:
        region = block.parent
        if region is not None and region.blocks and region.blocks[0] is block and \
                not block.arguments and block.operations:
            return None  # printed without a label
        return self._printed.block_names.get(id(block))

    def block_range(self, block: Block) -> TextRange | None:
        if self.block_label(block) is None:
            return None
        # The label is the line above the block's first op, or above the first op's use-list comment;
        # an empty block's label stands alone: find it from the previous op of the region instead.
        first = block.operations[0] if block.operations else None
        span = self._spans.get(id(first)) if first is not None else None
        if span is None:
            return None
        line = span.start_line - 1
        while line > 0 and self._line(line).lstrip().startswith("//"):
            line -= 1
        text = self._line(line)
        start = len(text) - len(text.lstrip())
        label = self.block_label(block) or ""
        if not text.startswith(label, start):
            return None
        return TextRange(line, start, line, start + len(label))


class ParseSourceMap:
    """A SourceMap over a text the parser read (a `.mlir` file, or an edited view)."""

    def __init__(self, result: ParseResult, text: str) -> None:
        self._spans = {id(p.op): p.span for p in result.ops}
        self._names: dict[int, str] = {}
        self._labels: dict[int, TextSpan] = {}
        self._label_names: dict[int, str] = {}
        for ref in result.names:
            if not ref.is_def or ref.target is None:
                continue
            if isinstance(ref.target, Block):
                self._labels[id(ref.target)] = ref.span
                self._label_names[id(ref.target)] = ref.name
            else:
                self._names.setdefault(id(ref.target), ref.name)
        self._text = text
        self._lines: list[str] | None = None

    def _range(self, span: TextSpan) -> TextRange:
        if self._lines is None:
            self._lines = self._text.split("\n")
        lines = self._lines

        def col(line: int, c: int) -> int:
            return utf16_column(lines[line], c) if 0 <= line < len(lines) else c

        return TextRange(span.start_line, col(span.start_line, span.start_col),
                         span.end_line, col(span.end_line, span.end_col))

    def op_range(self, op: Operation) -> TextRange | None:
        span = self._spans.get(id(op))
        return self._range(span) if span is not None else None

    def value_name(self, value: Value) -> str | None:
        return self._names.get(id(value))

    def block_label(self, block: Block) -> str | None:
        return self._label_names.get(id(block))

    def block_range(self, block: Block) -> TextRange | None:
        span = self._labels.get(id(block))
        return self._range(span) if span is not None else None


def elided_probe(text: str, source: SourceMap) -> Callable[[Operation], bool]:
    """Whether an op's own text (not its regions') holds an elided-value placeholder, as the view shows it.

    In the generic form an op without regions has its lines to itself, and an op with regions keeps its
    own properties on its first line and its attributes, type and location on its last.
    """
    lines = text.split("\n")

    def probe(op: Operation) -> bool:
        r = source.op_range(op)
        if r is None or not 0 <= r.start_line <= r.end_line < len(lines):
            return False
        if op.regions:
            own = [lines[r.start_line], lines[r.end_line]]
        else:
            own = lines[r.start_line:r.end_line + 1]
        return any("mlirbc.elided" in line and FIND_RE.search(line) for line in own)

    return probe
