"""What the server holds per bytecode file and per open view, and how a position reaches the IR.

A `Decoded` file is the original bytes, the decoded module, its print (text + span map) and the index of
that text; it is shared by every view URI of the file.  A `View` is one open document: its current text and
version, the index of that text, and the parse of that version once the text parser has run.
`Snapshot` pairs a view's text index with a module whose ops are in the same order, when there is one.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from ..bytecode.chunks import Chunks
from ..ir.module import Module
from ..ir.operation import Block, Operation, Value
from ..models.registry import Registry
from .backend import ParseOutcome, walk_ops
from .positions import LineIndex
from .textindex import VALUE, Occurrence, OpEntry, TextIndex


@dataclass
class Decoded:
    key: str
    data: bytes | memoryview
    """The file's bytes: a read-only view of its memory map (see `bytecode.mapped`)."""
    module: Module
    printed: Any
    """The PrintResult of `module`."""
    text: str
    registry: Registry
    index: TextIndex | None = None
    mtime_ns: int = 0
    index_job: asyncio.Future[TextIndex] | None = None
    """Indexing of a large view, started right after decoding."""
    saved: tuple[str, Chunks] | None = None
    """The last view text saved over this file by `mlirbc/save`, with the bytes written (as `Chunks`:
    the elided values in them are views of the original's map, not copies)."""
    elide_larger_than: int = 0
    """The elision threshold the view was printed with."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Per-file state of features (the elided values' resolver and statistics)."""


@dataclass
class View:
    uri: str
    key: str | None
    version: int
    text: str
    lines: LineIndex
    index: TextIndex | None = None
    index_version: int = -1
    parse: ParseOutcome | None = None
    parse_version: int = -1
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Snapshot:
    """A view's text index paired with IR in the same op order (None when they do not line up)."""

    index: TextIndex
    lines: LineIndex
    module: Module | None
    ops: list[Operation] | None
    source: str
    """'decoded' (the view shows the decoded file unchanged), 'parsed' (IR of the edited text) or ''."""

    def op(self, entry: OpEntry) -> Operation | None:
        if self.ops is None or entry.index >= len(self.ops):
            return None
        op = self.ops[entry.index]
        return op if op.name == entry.name else None

    def block(self, region_id: int, number: int) -> Block | None:
        if self.ops is None or region_id <= 0:
            return None
        r = self.index.regions[region_id]
        owner = self.ops[r.owner] if 0 <= r.owner < len(self.ops) else None
        if owner is None or r.ordinal >= len(owner.regions):
            return None
        blocks = owner.regions[r.ordinal].blocks
        return blocks[number] if 0 <= number < len(blocks) else None

    def value(self, o: Occurrence) -> Value | None:
        """The IR value a `%name` occurrence denotes (definition resolved first)."""
        d = self.index.definition_of(o)
        if d is None or d.kind != VALUE:
            return None
        if d.op >= 0:
            entry = self.index.ops[d.op]
            op = self.op(entry)
            if op is None:
                return None
            n = d.result + (o.result if (o is not d and o.result >= 0) else 0)
            return op.results[n] if 0 <= n < len(op.results) else None
        if d.block[0] >= 0 and d.arg >= 0:
            block = self.block(*d.block)
            if block is not None and d.arg < len(block.arguments):
                return block.arguments[d.arg]
        return None


def make_snapshot(view: View, decoded: Decoded | None) -> Snapshot | None:
    if view.index is None:
        return None
    if decoded is not None and view.text == decoded.text:
        ops = [s.op for s in decoded.printed.ops]
        if len(ops) == len(view.index.ops):
            return Snapshot(view.index, view.index.lines, decoded.module, ops, "decoded")
    if view.parse is not None and view.parse_version == view.version and \
            view.parse.module is not None:
        ops = walk_ops(view.parse.module)
        if len(ops) == len(view.index.ops):
            return Snapshot(view.index, view.index.lines, view.parse.module, ops, "parsed")
    return Snapshot(view.index, view.index.lines, None, None, "")
