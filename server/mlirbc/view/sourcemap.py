"""The view as a source map: which characters of the text show which IR object, and back.

The printer returns one with the text it prints, the parser one for the text it reads; both describe the
text in character offsets (end exclusive). Public API (stable; other layers build on it):

* ops: `op_span(op)`, `op_name_span(op)`, `op_at(offset)` (innermost), `ops()` (text order),
  `region_spans(op)` (each region's braces), `piece_span(op, piece)` (its properties, attribute
  dictionary, type or location), `broken_spans()` (ops the parser could not read);
* values and blocks: `occurrence_at(offset)` (a `%name` or `^label`, definition or use),
  `definition(x)`, `uses(x)`, `name(x)` for a `Value` or `Block`;
* attributes and types: `attribute_at(offset)` (the innermost one, parsed on demand from the text);
* parts the view adds: `parts()` / `parts_in(start, end)` / `part_at(offset)`, each a `Part` of a kind
  below (fallback properties, attributes and types, the `// mlirbc:` comment lines, the resource
  trailer). A new kind (e.g. elided values) is one more `PART_*` name recorded by the printer and
  the parser with `MapBuilder.part`;
* symbols: `symbol_ops()`, `symbol_at(offset)`, `resolve_symbol(...)`, `symbol_references(op)`;
* aliases (`#map`, `#loc3`, `!tuple`): `aliases` (by name, what they stand for), `alias_at(offset)`,
  `alias_definition(name)`, `alias_uses(name)` (found in the text on demand: definitions start a line).

Layout: the records of each op directly inside the root op's region (a function, a global, a nested
module) and of everything nested in it form one *segment*, with offsets relative to where that op
starts. Replacing one such op after an edit (`splice`) builds a new map that shares every other
segment and only moves segment starts: the cost follows the size of the op, not of the file.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from operator import gt
from typing import NamedTuple

from ..errors import TextError
from ..ir.attributes import Attribute
from ..ir.operation import Block, BlockArgument, Operation, OpResult, Region, Value
from ..ir.types import Type
from ..syntax.attr_parser import Parser
from ..syntax.distincts import DistinctIds
from ..syntax.lexer import BARE, EOF, STRING, SYMBOL, Lexer, Token, string_value

PART_FALLBACK_PROPERTIES = "fallback-properties"
"""A fallback op's `mlirbc.properties = "0x.."` entry; `obj` is the op's `Properties`."""
PART_FALLBACK_ATTRIBUTE = "fallback-attribute"
"""`#mlirbc.fallback<...>`; `obj` is the `FallbackAttr`."""
PART_FALLBACK_TYPE = "fallback-type"
"""`!mlirbc.fallback<...>`; `obj` is the `FallbackType`."""
PART_HEADER = "header"
"""The `// mlirbc: {...}` first line; `obj` is None."""
PART_USELIST = "uselist"
"""A `// mlirbc: uselist` or `block-uselist` line (before the op, after the block label it is for)."""
PART_RESOURCES = "resources"
"""The `{-# ... #-}` trailer; `obj` is None."""

PIECE_PROPERTIES = 0
"""An op's `<{...}>` (the braces, without the angle brackets)."""
PIECE_ATTRIBUTES = 1
"""An op's discardable attribute dictionary `{...}`."""
PIECE_TYPE = 2
"""An op's function type `(...) -> ...`."""
PIECE_LOCATION = 3
"""An op's `loc(...)`."""
PIECE_CUSTOM = 4
"""An op's custom form: the text between its name and its location (regions included)."""
_CUSTOM_WINDOW = 4096
_VALUE_STARTS = frozenset(("hash", "bang", "string", "int", "float", "[", "{", "(", "-", "symbol"))
_PIECES = 5
_SYMBOL_PIECES = (PIECE_PROPERTIES, PIECE_ATTRIBUTES, PIECE_LOCATION, PIECE_CUSTOM)

_DEF = 1
_BLOCK = 2


Aliases = tuple[dict[str, Attribute], dict[str, Type]]
"""A text's attribute and type aliases by name (without the `#`/`!`)."""

_ALIAS_NAME_RE = re.compile(r"[#!][A-Za-z_][A-Za-z0-9_$\-]*")


class Span(NamedTuple):
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Occurrence:
    """A `%value` or `^block` name in the text: a definition or a use of `target` (None when the name is
    not defined anywhere it could be seen)."""

    start: int
    end: int
    target: Value | Block | None
    is_def: bool
    is_block: bool


@dataclass(frozen=True, slots=True)
class Part:
    """Something the view adds to MLIR's syntax, at [start, end); `op` is the op it belongs to."""

    kind: str
    start: int
    end: int
    obj: object
    op: Operation | None


@dataclass(frozen=True, slots=True)
class AttributeHit:
    """The innermost attribute or type at an offset, with its span and the op (and piece) it is in."""

    start: int
    end: int
    value: Attribute | Type
    op: Operation | None
    piece: int


@dataclass(frozen=True, slots=True)
class SymbolRef:
    """A symbol reference `@a::@b` in the text: its parts' names and spans."""

    names: tuple[str, ...]
    spans: tuple[Span, ...]
    op: Operation | None
    """The op whose text holds the reference."""

    def part_at(self, offset: int) -> int:
        """How many parts lead up to the one at `offset` (1 for `@a` in `@a::@b`)."""
        for i, s in enumerate(self.spans):
            if offset <= s.end:
                return i + 1
        return len(self.spans)


class _Segment:
    """The records of one op (and everything nested in it), offsets relative to the op's start.

    Ops are in text (pre-)order; `parent[i]` is the index of op i's enclosing op, -1 when that op is
    outside the segment.  Occurrences are sorted by start once the segment is finished.
    """

    __slots__ = ("length", "ops", "op_start", "op_end", "name_start", "name_end", "parent",
                 "pieces", "regions", "sym", "broken", "_op_index", "occ_start", "occ_end",
                 "occ_target", "occ_flags", "defs", "parts", "_uses", "_op_index_built")

    def __init__(self) -> None:
        self.length = 0
        self.ops: list[Operation | None] = []
        self.op_start = array("i")
        self.op_end = array("i")
        self.name_start = array("i")
        self.name_end = array("i")
        self.parent = array("i")
        self.pieces = array("i")  # _PIECES (start, end) pairs per op, -1 when absent
        self.regions: dict[int, list[tuple[int, int]]] = {}
        self.sym: dict[int, str] = {}
        self.broken: set[int] = set()
        self._op_index: dict[Operation, int] | None = None
        self.occ_start = array("i")
        self.occ_end = array("i")
        self.occ_target: list[Value | Block | None] = []
        self.occ_flags = bytearray()
        self.defs: dict[Value | Block, int] = {}
        self.parts: list[tuple[str, int, int, object, int]] = []
        self._uses: dict[Value | Block, list[int]] | None = None

    # -- building ---------------------------------------------------------------------------------
    def _finish(self) -> None:
        starts = self.occ_start
        if any(map(gt, starts, islice(starts, 1, None))):
            order = sorted(range(len(starts)), key=starts.__getitem__)
            where = [0] * len(order)
            for new, old in enumerate(order):
                where[old] = new
            self.occ_start = array("i", [starts[i] for i in order])
            self.occ_end = array("i", [self.occ_end[i] for i in order])
            self.occ_target = [self.occ_target[i] for i in order]
            self.occ_flags = bytearray(self.occ_flags[i] for i in order)
            self.defs = {k: where[v] for k, v in self.defs.items()}
        self.parts.sort(key=lambda p: p[1])

    @property
    def op_index(self) -> dict[Operation, int]:
        """Op -> its index, made on first use (a view printed and never queried, as `mlirbc decode`'s,
        does not pay a dictionary entry per op)."""
        index = self._op_index
        if index is None:
            index = self._op_index = {op: i for i, op in enumerate(self.ops) if op is not None}
        return index

    @op_index.setter
    def op_index(self, index: dict[Operation, int]) -> None:
        self._op_index = index

    # -- queries (relative offsets) ---------------------------------------------------------------
    def op_at(self, rel: int) -> int:
        i = bisect_right(self.op_start, rel) - 1
        while i >= 0:
            if self.op_start[i] <= rel <= self.op_end[i]:
                return i
            i = self.parent[i]
        return -1

    def occ_at(self, rel: int) -> int:
        i = bisect_right(self.occ_start, rel) - 1
        if i >= 0 and self.occ_start[i] <= rel <= self.occ_end[i]:
            return i
        return -1

    def uses(self) -> dict[Value | Block, list[int]]:
        if self._uses is None:
            out: dict[Value | Block, list[int]] = {}
            flags = self.occ_flags
            for i, t in enumerate(self.occ_target):
                if t is not None and not flags[i] & _DEF:
                    out.setdefault(t, []).append(i)
            self._uses = out
        return self._uses


class SourceMap:
    """Offsets of one text <-> the IR objects it shows (see the module docstring for the API)."""

    def __init__(self, text: str, root: _Segment, segments: list[_Segment], bases: list[int],
                 aliases: Aliases | None = None, distincts: DistinctIds | None = None) -> None:
        self.text = text
        self.aliases: Aliases = aliases if aliases is not None else ({}, {})
        """The text's attribute and type aliases by name (without `#`/`!`)."""
        self.distincts: DistinctIds = distincts if distincts is not None else DistinctIds()
        """What the text's `distinct[N]` stand for (`syntax.distincts`): a printed view's numbering, or
        what a parse found."""
        self._root = root
        self._segments = segments
        self._bases = bases
        self._top: dict[Operation, int] = {}
        for i, seg in enumerate(segments):
            op = seg.ops[0] if seg.ops else None
            if op is not None:
                self._top[op] = i
        self._root_op = root.ops[0] if root.ops else None
        self._symbols: dict[tuple[int, str], Operation] | None = None

    # -- locating records -------------------------------------------------------------------------
    def _locate(self, offset: int) -> tuple[_Segment, int]:
        i = bisect_right(self._bases, offset) - 1
        if i >= 0:
            base = self._bases[i]
            if offset <= base + self._segments[i].length:
                return self._segments[i], base
        return self._root, 0

    def _segment_of(self, op: Operation) -> tuple[_Segment, int] | None:
        """The segment holding `op`'s record, by walking up to the op directly inside the root."""
        o: Operation | None = op
        while o is not None:
            if o is self._root_op:
                return self._root, 0
            i = self._top.get(o)
            if i is not None:
                return self._segments[i], self._bases[i]
            block = o.parent
            region = block.parent if block is not None else None
            o = region.parent if region is not None else None
        return None

    def _record(self, op: Operation) -> tuple[_Segment, int, int] | None:
        found = self._segment_of(op)
        if found is None:
            return None
        seg, base = found
        i = seg.op_index.get(op)
        return None if i is None else (seg, base, i)

    def _owner_op(self, x: Value | Block) -> Operation | None:
        if isinstance(x, OpResult):
            return x.owner
        block = x.owner if isinstance(x, BlockArgument) else x
        if isinstance(block, Block):
            region = block.parent
            return region.parent if isinstance(region, Region) else None
        return None

    # -- ops --------------------------------------------------------------------------------------
    @property
    def root(self) -> Operation | None:
        """The top-level op of the text (None when the text shows none)."""
        return self._root_op

    def op_span(self, op: Operation) -> Span | None:
        """Where `op` is written, from its first result name to the end of its location."""
        r = self._record(op)
        if r is None:
            return None
        seg, base, i = r
        return Span(base + seg.op_start[i], base + seg.op_end[i])

    def op_name_span(self, op: Operation) -> Span | None:
        """The quoted op name (`"dialect.op"`)."""
        r = self._record(op)
        if r is None:
            return None
        seg, base, i = r
        if seg.name_start[i] < 0:
            return None
        return Span(base + seg.name_start[i], base + seg.name_end[i])

    def piece_span(self, op: Operation, piece: int) -> Span | None:
        """One piece of the op's text (PIECE_PROPERTIES, _ATTRIBUTES, _TYPE or _LOCATION)."""
        r = self._record(op)
        if r is None:
            return None
        seg, base, i = r
        s = seg.pieces[i * 2 * _PIECES + 2 * piece]
        return None if s < 0 else Span(base + s, base + seg.pieces[i * 2 * _PIECES + 2 * piece + 1])

    def region_spans(self, op: Operation) -> list[Span]:
        """Each region of the op, from its `{` to just after its `}`."""
        r = self._record(op)
        if r is None:
            return []
        seg, base, i = r
        return [Span(base + s, base + e) for s, e in seg.regions.get(i, ())]

    def op_at(self, offset: int) -> Operation | None:
        """The innermost op whose text contains `offset` (None outside every op or in a broken one
        the parser could not build)."""
        seg, base = self._locate(offset)
        i = seg.op_at(offset - base)
        if i < 0 and seg is not self._root:
            i = self._root.op_at(offset)
            seg = self._root
        return seg.ops[i] if i >= 0 else None

    def op_name_at(self, offset: int) -> Operation | None:
        """The op whose quoted name contains `offset`."""
        seg, base = self._locate(offset)
        rel = offset - base
        i = bisect_right(seg.op_start, rel) - 1
        while i >= 0:
            if seg.name_start[i] <= rel <= seg.name_end[i] and seg.name_start[i] >= 0:
                return seg.ops[i]
            i = seg.parent[i]
        return None

    def ops(self) -> Iterator[tuple[Operation, Span]]:
        """Every op the text shows, in text order, with its span."""
        yield from self.ops_in(0, len(self.text))

    def ops_in(self, start: int, end: int) -> Iterator[tuple[Operation, Span]]:
        """The ops whose text starts in [start, end), in text order."""
        root = self._root
        first = self._bases[0] if self._bases else len(self.text) + 1
        # The root segment holds the root op (which starts before every segment) and, in text that
        # does not parse, stray ops after it.
        for i, op in enumerate(root.ops):
            if op is not None and root.op_start[i] < first and start <= root.op_start[i] < end:
                yield op, Span(root.op_start[i], root.op_end[i])
        lo = max(bisect_right(self._bases, start) - 1, 0)
        for k in range(lo, len(self._segments)):
            base = self._bases[k]
            if base >= end:
                break
            seg = self._segments[k]
            for j in range(bisect_left(seg.op_start, start - base), len(seg.ops)):
                s = seg.op_start[j] + base
                if s >= end:
                    break
                op = seg.ops[j]
                if op is not None:
                    yield op, Span(s, seg.op_end[j] + base)
        for i, op in enumerate(root.ops):
            if op is not None and root.op_start[i] >= first and start <= root.op_start[i] < end:
                yield op, Span(root.op_start[i], root.op_end[i])

    def regions(self) -> Iterator[tuple[Operation | None, Span]]:
        """Every region in the text (its braces), with the op that holds it, in text order."""
        out: list[tuple[Operation | None, Span]] = []
        for seg, base in [(self._root, 0), *zip(self._segments, self._bases, strict=True)]:
            for i, spans in seg.regions.items():
                out += [(seg.ops[i], Span(base + s, base + e)) for s, e in spans]
        out.sort(key=lambda x: x[1])
        yield from out

    def enclosing(self, offset: int) -> list[tuple[Operation | None, Span]]:
        """The ops whose text contains `offset`, innermost first; None for an op the parser started
        but could not build (its span is still known)."""
        out: list[tuple[Operation | None, Span]] = []
        seg, base = self._locate(offset)
        for s, b in ((seg, base), (self._root, 0)) if seg is not self._root else ((seg, base),):
            i = s.op_at(offset - b)
            while i >= 0:
                out.append((s.ops[i], Span(b + s.op_start[i], b + s.op_end[i])))
                i = s.parent[i]
        return out

    def broken_spans(self) -> list[Span]:
        """Ops the parser started but could not read (the text there is not part of the IR)."""
        out = [Span(self._root.op_start[i], self._root.op_end[i]) for i in self._root.broken]
        for seg, base in zip(self._segments, self._bases, strict=True):
            out += [Span(base + seg.op_start[i], base + seg.op_end[i]) for i in seg.broken]
        out.sort()
        return out

    def parent_op(self, op: Operation) -> Operation | None:
        """The op whose region holds `op`, as the text nests them."""
        r = self._record(op)
        if r is None:
            return None
        seg, _, i = r
        p = seg.parent[i]
        if p >= 0:
            return seg.ops[p]
        return None if seg is self._root else self._root_op

    # -- values and blocks ------------------------------------------------------------------------
    def _occurrence(self, seg: _Segment, base: int, i: int) -> Occurrence:
        f = seg.occ_flags[i]
        return Occurrence(base + seg.occ_start[i], base + seg.occ_end[i], seg.occ_target[i],
                          bool(f & _DEF), bool(f & _BLOCK))

    def occurrence_at(self, offset: int) -> Occurrence | None:
        """The `%value` or `^block` name at `offset` (its end included)."""
        seg, base = self._locate(offset)
        i = seg.occ_at(offset - base)
        if i < 0 and seg is not self._root:
            seg, base = self._root, 0
            i = seg.occ_at(offset)
        return self._occurrence(seg, base, i) if i >= 0 else None

    def occurrences_in(self, start: int, end: int) -> Iterator[Occurrence]:
        """Every name occurrence starting in [start, end), in text order."""
        items: list[Occurrence] = []
        root = self._root
        for i in range(bisect_left(root.occ_start, start), len(root.occ_start)):
            if root.occ_start[i] >= end:
                break
            items.append(self._occurrence(root, 0, i))
        lo = max(bisect_right(self._bases, start) - 1, 0)
        for k in range(lo, len(self._segments)):
            base = self._bases[k]
            if base >= end:
                break
            seg = self._segments[k]
            for i in range(bisect_left(seg.occ_start, start - base), len(seg.occ_start)):
                if seg.occ_start[i] + base >= end:
                    break
                items.append(self._occurrence(seg, base, i))
        items.sort(key=lambda o: o.start)
        yield from items

    def _def_record(self, x: Value | Block) -> tuple[_Segment, int, int] | None:
        owner = self._owner_op(x)
        candidates: list[tuple[_Segment, int]] = []
        if owner is not None:
            found = self._segment_of(owner)
            if found is not None:
                candidates.append(found)
        if isinstance(x, OpResult) and owner is not None and owner in self._top:
            # a result of an op directly in the root: defined in that op's segment
            candidates.insert(0, (self._segments[self._top[owner]], self._bases[self._top[owner]]))
        for seg, base in candidates:
            i = seg.defs.get(x)
            if i is not None:
                return seg, base, i
        i = self._root.defs.get(x)
        return (self._root, 0, i) if i is not None else None

    def definition(self, x: Value | Block) -> Span | None:
        """Where a value or block is named first: its result name, block argument or label."""
        r = self._def_record(x)
        if r is None:
            return None
        seg, base, i = r
        return Span(base + seg.occ_start[i], base + seg.occ_end[i])

    def name(self, x: Value | Block) -> str | None:
        """The name the text gives a value or block (`%3`, `%arg0`, `^bb1`), without `:N` / `#N`."""
        d = self.definition(x)
        return None if d is None else self.text[d.start:d.end]

    def uses(self, x: Value | Block) -> list[Span]:
        """Every use of a value (operand) or block (successor), in text order."""
        spans: list[Span] = []
        owner = self._owner_op(x)
        found = self._segment_of(owner) if owner is not None else None
        if found is not None and found[0] is not self._root and not (
                isinstance(x, OpResult) and owner in self._top):
            places = [found]  # nested in one segment: uses cannot leave it
        else:
            places = [(self._root, 0), *zip(self._segments, self._bases, strict=True)]
        for seg, base in places:
            for i in seg.uses().get(x, ()):
                spans.append(Span(base + seg.occ_start[i], base + seg.occ_end[i]))
        spans.sort()
        return spans

    # -- parts ------------------------------------------------------------------------------------
    def _part(self, seg: _Segment, base: int, p: tuple[str, int, int, object, int]) -> Part:
        kind, s, e, obj, op_i = p
        return Part(kind, base + s, base + e, obj, seg.ops[op_i] if op_i >= 0 else None)

    def parts(self, kind: str | None = None) -> Iterator[Part]:
        """Every part the view adds (optionally of one kind), in text order."""
        for part in self.parts_in(0, len(self.text) + 1):
            if kind is None or part.kind == kind:
                yield part

    def parts_in(self, start: int, end: int) -> Iterator[Part]:
        items: list[Part] = []
        for p in self._root.parts:
            if start <= p[1] < end:
                items.append(self._part(self._root, 0, p))
        lo = max(bisect_right(self._bases, start) - 1, 0)
        for k in range(lo, len(self._segments)):
            base = self._bases[k]
            if base >= end:
                break
            seg = self._segments[k]
            for p in seg.parts:
                if start <= base + p[1] < end:
                    items.append(self._part(seg, base, p))
        items.sort(key=lambda p: p.start)
        yield from items

    def part_at(self, offset: int) -> Part | None:
        """The innermost part containing `offset`."""
        seg, base = self._locate(offset)
        best: Part | None = None
        for s, b in ((seg, base), (self._root, 0)):
            for p in s.parts:
                if b + p[1] <= offset <= b + p[2]:
                    cand = self._part(s, b, p)
                    if best is None or cand.start >= best.start:
                        best = cand
            if best is not None:
                return best
        return None

    # -- attributes -------------------------------------------------------------------------------
    def attribute_at(self, offset: int) -> AttributeHit | None:
        """The innermost attribute or type written at `offset` inside an op's properties, attribute
        dictionary, type or location (parsed from the text on demand, so it is the very object the
        IR holds: attributes and types are uniqued)."""
        seg, base = self._locate(offset)
        rel = offset - base
        i = seg.op_at(rel)
        if i < 0 and seg is not self._root:
            seg, base, rel = self._root, 0, offset
            i = seg.op_at(rel)
        if i < 0:
            return None
        for piece in range(_PIECES):
            s = seg.pieces[i * 2 * _PIECES + 2 * piece]
            e = seg.pieces[i * 2 * _PIECES + 2 * piece + 1]
            if s >= 0 and s <= rel <= e:
                return self._descend(base + s, base + e, piece, offset, seg.ops[i])
        return None

    def _descend(self, start: int, end: int, piece: int, offset: int,
                 op: Operation | None) -> AttributeHit | None:
        if piece == PIECE_CUSTOM:
            return self._descend_custom(start, end, offset, op)
        p = _SpanParser(self.text, start, end, self.aliases, self.distincts)
        try:
            if piece == PIECE_TYPE:
                p.parse_function_type()
            elif piece == PIECE_LOCATION:
                p.parse_loc()
            else:
                p.parse_attribute_dict()
        except TextError:
            return None
        best: tuple[int, int, Attribute | Type] | None = None
        for s, e, v in p.found:
            if s <= offset <= e and (best is None or e - s <= best[1] - best[0]):
                best = (s, e, v)
        if best is None:
            return None
        return AttributeHit(best[0], best[1], best[2], op, piece)

    def _descend_custom(self, start: int, end: int, offset: int, op: Operation | None
                        ) -> AttributeHit | None:
        """In an op's custom form nothing says where attributes and types are: each token before
        `offset` (within a bounded window) that can begin one is tried."""
        lexer = Lexer(self.text, max(start, offset - _CUSTOM_WINDOW), end)
        best: tuple[int, int, Attribute | Type] | None = None
        try:
            tok = lexer.next()
            while tok.kind != EOF and tok.start <= offset:
                if tok.kind in _VALUE_STARTS or (tok.kind == BARE and tok.text not in ("loc", "to", "step")):
                    p = _SpanParser(self.text, tok.start, end, self.aliases, self.distincts)
                    try:
                        if tok.kind == "bang" or tok.kind == "(":
                            p.parse_type()
                        else:
                            p.parse_attribute()
                    except TextError:
                        pass
                    for s, e, v in p.found:
                        if s <= offset <= e and (best is None or e - s <= best[1] - best[0]):
                            best = (s, e, v)
                tok = lexer.next()
        except TextError:
            pass
        if best is None:
            return None
        return AttributeHit(best[0], best[1], best[2], op, PIECE_CUSTOM)

    # -- symbols ----------------------------------------------------------------------------------
    def symbol_name(self, op: Operation) -> str | None:
        r = self._record(op)
        return None if r is None else r[0].sym.get(r[2])

    def symbol_ops(self) -> Iterator[tuple[Operation, str]]:
        """Ops that define a symbol (`sym_name`), in text order."""
        root = self._root
        for i, name in sorted(root.sym.items()):
            op = root.ops[i]
            if op is not None:
                yield op, name
        for seg in self._segments:
            for i, name in sorted(seg.sym.items()):
                op = seg.ops[i]
                if op is not None:
                    yield op, name

    def symbol_name_span(self, op: Operation) -> Span | None:
        """The `"name"` string of the op's `sym_name` in its properties or attributes (in a custom form,
        the first `@name` of that name)."""
        custom = self.piece_span(op, PIECE_CUSTOM)
        name = self.symbol_name(op)
        if custom is not None and name is not None:
            lexer = Lexer(self.text, custom.start, custom.end)
            try:
                tok = lexer.next()
                while tok.kind != EOF and tok.kind != "{":
                    if tok.kind == SYMBOL and string_value(tok).decode("utf-8", "surrogateescape") == name:
                        return Span(tok.start, tok.end)
                    tok = lexer.next()
            except TextError:
                pass
        for piece in (PIECE_PROPERTIES, PIECE_ATTRIBUTES):
            span = self.piece_span(op, piece)
            if span is None:
                continue
            lexer = Lexer(self.text, span.start, span.end)
            depth = 0
            try:
                tok = lexer.next()
                while tok.kind != EOF:
                    if tok.kind in ("{", "[", "(", "<"):
                        depth += 1
                    elif tok.kind in ("}", "]", ")", ">"):
                        depth -= 1
                    elif depth == 1 and tok.kind == BARE and tok.text == "sym_name":
                        eq = lexer.next()
                        value = lexer.next()
                        if eq.kind == "=" and value.kind == STRING:
                            return Span(value.start, value.end)
                    tok = lexer.next()
            except TextError:
                continue
        return None

    def _symbol_table(self) -> dict[tuple[int, str], Operation]:
        if self._symbols is None:
            table: dict[tuple[int, str], Operation] = {}
            for op, name in self.symbol_ops():
                parent = self.parent_op(op)
                table.setdefault((id(parent), name), op)
            self._symbols = table
        return self._symbols

    def symbol_at(self, offset: int) -> SymbolRef | None:
        """The symbol reference (`@a`, `@a::@b`) at `offset` inside an op's attributes."""
        op = self.op_at(offset)
        if op is None:
            return None
        for piece in _SYMBOL_PIECES:
            span = self.piece_span(op, piece)
            if span is None or not span.start <= offset <= span.end:
                continue
            for ref in _symbol_refs(self.text, span.start, span.end, op):
                if ref.spans[0].start <= offset <= ref.spans[-1].end:
                    return ref
        return None

    def resolve_symbol(self, ref: SymbolRef, parts: int | None = None) -> Operation | None:
        """The op that `ref` (its first `parts` parts) names, looked up from the op holding it outward
        through the enclosing ops' symbol tables, then into nested ones."""
        names = ref.names[:parts] if parts is not None else ref.names
        if not names:
            return None
        table = self._symbol_table()
        scope = ref.op
        found: Operation | None = None
        while True:
            found = table.get((id(scope), names[0]))
            if found is not None or scope is None:
                break
            scope = self.parent_op(scope)
        if found is None:
            return None
        for name in names[1:]:
            nxt = table.get((id(found), name))
            if nxt is None:
                return None
            found = nxt
        return found

    def symbol_refs_in(self, start: int, end: int) -> list[SymbolRef]:
        """Every symbol reference written in an op's attributes between `start` and `end`."""
        out: list[SymbolRef] = []
        text = self.text
        at = text.find("@", start, end)
        while at >= 0:
            nxt = text.find("@", at + 1, end)
            op = self.op_at(at)
            if op is not None:
                for piece in _SYMBOL_PIECES:
                    span = self.piece_span(op, piece)
                    if span is None or not span.start <= at < span.end:
                        continue
                    out += [r for r in _symbol_refs(text, span.start, span.end, op)
                            if start <= r.spans[0].start < end]
                    nxt = text.find("@", span.end, end)  # the piece is done
                    break
            at = nxt
        return out

    def symbol_references(self, target: Operation) -> list[Span]:
        """The spans of every reference part that resolves to `target`."""
        out: list[Span] = []
        for ref in self.symbol_refs_in(0, len(self.text)):
            for k in range(1, len(ref.names) + 1):
                if self.resolve_symbol(ref, k) is target:
                    out.append(ref.spans[k - 1])
        return out

    # -- editing ----------------------------------------------------------------------------------
    def top_level(self) -> Iterator[tuple[Operation, Span]]:
        """The ops directly in the root op's regions (the units `splice` replaces), in text order."""
        for seg, base in zip(self._segments, self._bases, strict=True):
            op = seg.ops[0]
            if op is not None:
                yield op, Span(base, base + seg.length)

    def splice(self, old: Operation, new_text: str, piece: SourceMap) -> SourceMap:
        """The map of `new_text`, where `old` (an op directly in the root) was replaced by the single op
        that `piece` maps (built by `MapBuilder(..., single=True)` over `new_text`); every other
        segment is shared, the ones after the edit move."""
        k = self._top[old]
        seg = self._segments[k]
        base = self._bases[k]
        delta = len(new_text) - len(self.text)
        new_seg = piece._segments[0]
        new_base = piece._bases[0]
        end_old = base + seg.length
        segments = list(self._segments)
        segments[k] = new_seg
        bases = self._bases[:k] + [new_base] + [b + delta for b in self._bases[k + 1:]]
        return SourceMap(new_text, _shift_segment(self._root, end_old, delta, new_seg, old),
                         segments, bases, self.aliases, self.distincts)

    # -- aliases ----------------------------------------------------------------------------------
    def alias_at(self, offset: int) -> tuple[str, Span] | None:
        """The alias reference or definition (`#loc3`, `!tuple`) at `offset`, if it names an alias."""
        text = self.text
        start = offset
        while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_$-"):
            start -= 1
        if start > 0 and text[start - 1] in "#!":  # inside the name, not on its sigil
            start -= 1
        m = _ALIAS_NAME_RE.match(text, start)
        if m is None or m.end() < offset:
            return None
        name = m.group()
        table = self.aliases[0] if name[0] == "#" else self.aliases[1]
        if name[1:] not in table:
            return None
        return name, Span(m.start(), m.end())

    def alias_definition(self, name: str) -> Span | None:
        """Where alias `name` (`#loc3`) is defined: its name at the start of its definition line."""
        m = re.compile("^" + re.escape(name) + r"[ \t]*=", re.M).search(self.text)
        return None if m is None else Span(m.start(), m.start() + len(name))

    def alias_uses(self, name: str) -> list[Span]:
        """Every use of alias `name` outside its definition's own name (strings skipped)."""
        out: list[Span] = []
        d = self.alias_definition(name)
        pattern = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"|' + re.escape(name) + r"(?![A-Za-z0-9_$.\-])")
        for m in pattern.finditer(self.text):
            if m.group()[0] == '"' or (d is not None and m.start() == d.start):
                continue
            out.append(Span(m.start(), m.end()))
        return out


def _shift_segment(root: _Segment, after: int, delta: int, new_top: _Segment,
                   old_top: Operation) -> _Segment:
    """A copy of the root segment with every offset at or past `after` moved by `delta`."""
    out = _Segment()
    out.length = root.length + delta

    def mv(x: int) -> int:
        return x + delta if x >= after else x

    out.ops = list(root.ops)
    out.op_start = array("i", [mv(x) for x in root.op_start])
    out.op_end = array("i", [mv(x) for x in root.op_end])
    out.name_start = array("i", [mv(x) if x >= 0 else x for x in root.name_start])
    out.name_end = array("i", [mv(x) if x >= 0 else x for x in root.name_end])
    out.parent = root.parent
    out.pieces = array("i", [mv(x) if x >= 0 else x for x in root.pieces])
    out.regions = {i: [(mv(s), mv(e)) for s, e in rs] for i, rs in root.regions.items()}
    out.sym = root.sym
    out.broken = root.broken
    out.op_index = root.op_index
    out.occ_start = array("i", [mv(x) for x in root.occ_start])
    out.occ_end = array("i", [mv(x) for x in root.occ_end])
    out.occ_target = root.occ_target
    out.occ_flags = root.occ_flags
    out.defs = root.defs
    out.parts = [(k, mv(s), mv(e), o, i) for k, s, e, o, i in root.parts]
    return out


def _apply_moves(root: _Segment, segments: list[_Segment], bases: list[int],
                 moves: Sequence[tuple[int, int]]) -> list[int]:
    """Move the records of a text by `moves` (see `syntax.distincts.Moves`), in place; the new bases."""
    ats = [at for at, _ in moves]
    prefix = [0]
    for _, delta in moves:
        prefix.append(prefix[-1] + delta)

    def shift(x: int) -> int:
        return prefix[bisect_right(ats, x)]

    def move(seg: _Segment, base: int) -> None:
        s0 = shift(base)

        def mv(x: int) -> int:
            return x + shift(base + x) - s0 if x >= 0 else x

        for name in ("op_start", "op_end", "name_start", "name_end", "pieces", "occ_start", "occ_end"):
            setattr(seg, name, array("i", [mv(x) for x in getattr(seg, name)]))
        seg.regions = {i: [(mv(a), mv(b)) for a, b in rs] for i, rs in seg.regions.items()}
        seg.parts = [(k, mv(a), mv(b), o, i) for k, a, b, o, i in seg.parts]
        seg.length = mv(seg.length)

    out: list[int] = []
    for seg, base in zip(segments, bases, strict=True):
        if shift(base + seg.length) != shift(base):
            move(seg, base)
        out.append(base + shift(base))
    move(root, 0)
    return out


class _SpanParser(Parser):
    """An attribute parser over a piece of a larger text that records every attribute and type it
    builds with its span (used on demand for `attribute_at`)."""

    def __init__(self, text: str, start: int, end: int, aliases: Aliases, distincts: DistinctIds) -> None:
        super().__init__(Lexer(text, start, end), attr_aliases=aliases[0], type_aliases=aliases[1],
                         distincts=distincts.copy())
        self.found: list[tuple[int, int, Attribute | Type]] = []

    def _attr(self) -> Attribute:
        start = self.tok.start
        a = super()._attr()
        self.found.append((start, self.prev_end, a))
        return a

    def _type(self) -> Type:
        start = self.tok.start
        t = super()._type()
        self.found.append((start, self.prev_end, t))
        return t

    def parse_loc(self) -> Attribute:
        start = self.tok.start
        a = super().parse_loc()
        self.found.append((start, self.prev_end, a))
        return a


def _symbol_refs(text: str, start: int, end: int, op: Operation | None) -> list[SymbolRef]:
    """The symbol references among the tokens of text[start:end] (strings are skipped by lexing)."""
    out: list[SymbolRef] = []
    lexer = Lexer(text, start, end)
    try:
        tok: Token = lexer.next()
        while tok.kind != EOF:
            if tok.kind != SYMBOL:
                tok = lexer.next()
                continue
            names = [string_value(tok).decode("utf-8", "replace")]
            spans = [Span(tok.start, tok.end)]
            tok = lexer.next()
            while tok.kind == "::":
                nxt = lexer.next()
                if nxt.kind != SYMBOL:
                    tok = nxt
                    break
                names.append(string_value(nxt).decode("utf-8", "replace"))
                spans.append(Span(nxt.start, nxt.end))
                tok = lexer.next()
            out.append(SymbolRef(tuple(names), tuple(spans), op))
    except TextError:
        pass
    return out


NameHandle = tuple[_Segment, int]
"""A recorded name occurrence whose target a builder's user sets later (`MapBuilder.resolve`)."""


class MapBuilder:
    """Records a map while a text is printed or parsed (offsets of the whole text).

    Ops are opened and closed as they nest (`open_op` ... `close_op`); an op opened directly inside the
    root op starts a segment.  With `single=True` the first op opened is such an op itself (the map of
    one op re-parsed in place, for `SourceMap.splice`).
    """

    def __init__(self, single: bool = False) -> None:
        self.root = _Segment()
        self.segments: list[_Segment] = []
        self.bases: list[int] = []
        self._stack: list[tuple[_Segment, int, int]] = []  # (segment, base, op index)
        self._seg: _Segment = self.root
        self._base = 0
        self._single = single
        self.aliases: Aliases = ({}, {})
        """The text's aliases by name (set by the printer or parser that writes or reads them)."""

    def _current(self) -> tuple[_Segment, int]:
        return self._seg, self._base

    # -- ops --------------------------------------------------------------------------------------
    def open_op(self, start: int, op: Operation | None = None) -> None:
        depth = len(self._stack)
        if depth == (0 if self._single else 1):
            seg = _Segment()
            self.segments.append(seg)
            self.bases.append(start)
            self._seg, self._base = seg, start
        seg, base = self._seg, self._base
        i = len(seg.ops)
        seg.ops.append(op)
        seg.op_start.append(start - base)
        seg.op_end.append(start - base)
        seg.name_start.append(-1)
        seg.name_end.append(-1)
        top = self._stack[-1] if self._stack else None
        seg.parent.append(top[2] if top is not None and top[0] is seg else -1)
        seg.pieces.extend((-1,) * (2 * _PIECES))
        self._stack.append((seg, base, i))

    def leaf_op(self, op: Operation, start: int, end: int, name_at: int, name_end: int, dict_start: int,
                dict_end: int, loc_at: int, custom_end: int, results: Sequence[OpResult], results_end: int,
                uses: list[tuple[int, int, Value]], symbol: str | None) -> None:
        """An op of one line without regions, successors or several results at once (the pretty
        printer's hot path): `open_op`, `results` (its result's name at `start`), `value_uses`, `symbol`
        and `close_op` with its pieces: its attribute dictionary (where it has one), its location (up to
        `end`) and its custom form (from the end of its name to `custom_end`)."""
        stack = self._stack
        if len(stack) <= (0 if self._single else 1):  # a segment of its own, or the root
            self.open_op(start, op)
            if results:
                self.results(list(results), start, results_end)
            self.value_uses(uses)
            if symbol is not None:
                self.symbol(symbol)
            self.close_op(end, name=(name_at, name_end),
                          pieces=(-1, -1, dict_start, dict_end, -1, -1, loc_at, end, name_end, custom_end))
            return
        seg, base, parent = stack[-1]
        i = len(seg.ops)
        seg.ops.append(op)
        seg.op_start.append(start - base)
        seg.op_end.append(end - base)
        seg.name_start.append(name_at - base)
        seg.name_end.append(name_end - base)
        seg.parent.append(parent)
        if dict_start >= 0:
            seg.pieces.extend((-1, -1, dict_start - base, dict_end - base, -1, -1, loc_at - base, end - base,
                               name_end - base, custom_end - base))
        else:
            seg.pieces.extend((-1, -1, -1, -1, -1, -1, loc_at - base, end - base, name_end - base,
                               custom_end - base))
        starts, ends, targets, flags = seg.occ_start, seg.occ_end, seg.occ_target, seg.occ_flags
        if results:
            k = len(targets)
            starts.append(start - base)
            ends.append(results_end - base)
            targets.append(results[0])
            flags.append(_DEF)
            seg.defs[results[0]] = k
        for s, e, v in uses:
            starts.append(s - base)
            ends.append(e - base)
            targets.append(v)
            flags.append(0)
        if symbol is not None:
            seg.sym[i] = symbol

    def set_op(self, op: Operation) -> None:
        seg, _, i = self._stack[-1]
        seg.ops[i] = op

    def op_name(self, start: int, end: int) -> None:
        seg, base, i = self._stack[-1]
        seg.name_start[i] = start - base
        seg.name_end[i] = end - base

    def piece(self, piece: int, start: int, end: int) -> None:
        seg, base, i = self._stack[-1]
        at = i * 2 * _PIECES + 2 * piece
        seg.pieces[at] = start - base
        seg.pieces[at + 1] = end - base

    def region(self, start: int, end: int) -> None:
        seg, base, i = self._stack[-1]
        seg.regions.setdefault(i, []).append((start - base, end - base))

    def symbol(self, name: str) -> None:
        seg, _, i = self._stack[-1]
        seg.sym[i] = name

    def value_uses(self, uses: list[tuple[int, int, Value]]) -> None:
        """Record several value uses (start, end, value) at once (the printer's hot path)."""
        seg, base = self._seg, self._base
        starts, ends = seg.occ_start, seg.occ_end
        targets, flags = seg.occ_target, seg.occ_flags
        for start, end, v in uses:
            starts.append(start - base)
            ends.append(end - base)
            targets.append(v)
            flags.append(0)

    def results(self, results: list[OpResult], start: int, end: int) -> None:
        """The name at [start, end) defines the op's results (`%0` or `%0:2`)."""
        seg, base = self._seg, self._base
        i = len(seg.occ_target)
        seg.occ_start.append(start - base)
        seg.occ_end.append(end - base)
        seg.occ_target.append(results[0])
        seg.occ_flags.append(_DEF)
        defs = seg.defs
        for r in results:
            defs[r] = i

    def close_op(self, end: int, broken: bool = False,
                 pieces: tuple[int, ...] | None = None,
                 name: tuple[int, int] | None = None) -> None:
        """Finish the innermost op; `pieces` gives the start and end of its properties, attributes,
        type and location at once (-1 when absent) instead of one `piece` call each, `name` where its
        name is (instead of `op_name`)."""
        seg, base, i = self._stack.pop()
        if name is not None:
            seg.name_start[i] = name[0] - base
            seg.name_end[i] = name[1] - base
        if pieces is not None:
            at = i * 2 * _PIECES
            values = [x - base if x >= 0 else -1 for x in pieces]
            values.extend([-1] * (2 * _PIECES - len(values)))
            seg.pieces[at:at + 2 * _PIECES] = array("i", values)
        seg.op_end[i] = end - base
        if broken:
            seg.broken.add(i)
        if seg is not self.root and (not self._stack or self._stack[-1][0] is not seg):
            seg.length = end - base
            self._seg, self._base = self.root, 0

    @property
    def depth(self) -> int:
        return len(self._stack)

    @property
    def current_segment(self) -> _Segment:
        """Where records go now (for a caller that counts what a step recorded)."""
        return self._seg

    # -- names ------------------------------------------------------------------------------------
    def occurrence(self, target: Value | Block | None, start: int, end: int, is_def: bool,
                   is_block: bool) -> NameHandle:
        """Record a name; the handle lets the caller set the target later (`resolve`)."""
        seg, base = self._seg, self._base
        i = len(seg.occ_target)
        seg.occ_start.append(start - base)
        seg.occ_end.append(end - base)
        seg.occ_target.append(target)
        seg.occ_flags.append((_DEF if is_def else 0) | (_BLOCK if is_block else 0))
        if is_def and target is not None:
            seg.defs[target] = i
        return seg, i

    def define(self, handle: NameHandle, *targets: Value | Block) -> None:
        """Make the occurrence `handle` the definition of `targets` (the first becomes its target)."""
        seg, i = handle
        if seg.occ_target[i] is None and targets:
            seg.occ_target[i] = targets[0]
        for t in targets:
            seg.defs.setdefault(t, i)

    def resolve(self, handle: NameHandle, target: Value | Block) -> None:
        seg, i = handle
        seg.occ_target[i] = target

    # -- parts ------------------------------------------------------------------------------------
    def part(self, kind: str, start: int, end: int, obj: object) -> None:
        seg, base = self._seg, self._base
        op_i = self._stack[-1][2] if self._stack and self._stack[-1][0] is seg else -1
        seg.parts.append((kind, start - base, end - base, obj, op_i))

    # -- result -----------------------------------------------------------------------------------
    def finish(self, text: str, moves: Sequence[tuple[int, int]] = ()) -> SourceMap:
        """The map of `text`; `moves`: where `text` moved from the text the records were made for
        (distinct attributes renumbered after printing)."""
        while self._stack:  # ops left open by a parse that gave up: they run to the end
            self.close_op(len(text), broken=True)
        if moves:
            self.bases = _apply_moves(self.root, self.segments, self.bases, moves)
        self.root.length = len(text)
        self.root._finish()
        for seg in self.segments:
            seg._finish()
        return SourceMap(text, self.root, self.segments, self.bases, self.aliases)


class NoMapBuilder(MapBuilder):
    """Records nothing: for a text written to a file (`mlirbc decode`), where nobody asks what sits where.
    Its map is empty; a fifth of printing a large module is spent recording the map."""

    def open_op(self, start: int, op: Operation | None = None) -> None:
        pass

    def set_op(self, op: Operation) -> None:
        pass

    def op_name(self, start: int, end: int) -> None:
        pass

    def piece(self, piece: int, start: int, end: int) -> None:
        pass

    def region(self, start: int, end: int) -> None:
        pass

    def symbol(self, name: str) -> None:
        pass

    def value_uses(self, uses: list[tuple[int, int, Value]]) -> None:
        pass

    def results(self, results: list[OpResult], start: int, end: int) -> None:
        pass

    def close_op(self, end: int, broken: bool = False,
                 pieces: tuple[int, ...] | None = None,
                 name: tuple[int, int] | None = None) -> None:
        pass

    def occurrence(self, target: Value | Block | None, start: int, end: int, is_def: bool,
                   is_block: bool) -> NameHandle:
        return self.root, -1

    def leaf_op(self, op: Operation, start: int, end: int, name_at: int, name_end: int, dict_start: int,
                dict_end: int, loc_at: int, custom_end: int, results: Sequence[OpResult], results_end: int,
                uses: list[tuple[int, int, Value]], symbol: str | None) -> None:
        pass

    def define(self, handle: NameHandle, *targets: Value | Block) -> None:
        pass

    def resolve(self, handle: NameHandle, target: Value | Block) -> None:
        pass

    def part(self, kind: str, start: int, end: int, obj: object) -> None:
        pass
