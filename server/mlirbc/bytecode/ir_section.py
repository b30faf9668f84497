"""IR section (format 6) decoding: blocks, ops with every mask bit, value scopes, forward references,
isolated regions in nested sections, and use-list orders.

Counts read from the file are checked against the bytes left before anything is allocated for them.
"""

from __future__ import annotations

import sys

from ..errors import DecodeError
from ..ir.attributes import (
    Attribute,
    DictionaryAttr,
    UnknownLoc,
    is_location,
)
from ..ir.module import FallbackNote
from ..ir.operation import (
    PROPS_FALLBACK,
    Block,
    Operation,
    OpName,
    OpResult,
    Properties,
    Region,
    Value,
)
from ..ir.types import NoneType, Type
from ..models.registry import Registry
from .attrtypes import AttrTypeTable
from .properties import decode_op_properties
from .sections import read_section
from .stream import ByteReader

MAX_NESTING = 512
IR_SECTION = 4

_HAS_ATTRS, _HAS_RESULTS, _HAS_OPERANDS, _HAS_SUCCESSORS = 0x01, 0x02, 0x04, 0x08
_HAS_REGIONS, _HAS_USELIST, _HAS_PROPERTIES = 0x10, 0x20, 0x40


class _Forward:
    """A use of a value id before its definition; patched when the id is defined."""

    __slots__ = ("uses", "offset")

    def __init__(self, offset: int) -> None:
        self.uses: list[tuple[Operation, int]] = []
        self.offset = offset


class _RegionState:
    __slots__ = ("next", "end")

    def __init__(self, next_id: int, end: int) -> None:
        self.next = next_id
        self.end = end


class IRDecoder:
    def __init__(self, version: int, op_names: list[OpName], table: AttrTypeTable,
                 props: list[tuple[int, int]] | None, registry: Registry,
                 fallbacks: list[FallbackNote]) -> None:
        self.version = version
        self.op_names = op_names
        self.table = table
        self.props = props
        self.registry = registry
        self.fallbacks = fallbacks
        self.depth = 0
        self.use_orders: list[tuple[Value, int]] = []
        self.root: Operation | None = None
        self.declared_values: dict[Region, tuple[int, int]] = {}
        """Regions that declare more values than they define: region -> (declared, defined)."""
        self._props_cache: dict[tuple[int, int], Properties] = {}
        self.forwards: list[_Forward] = []
        """Every forward reference made; `seal` replaces those never defined after a failure."""
        """The root op, available as soon as it is created (partial views after an error)."""
        if sys.getrecursionlimit() < 8 * MAX_NESTING:
            sys.setrecursionlimit(8 * MAX_NESTING)

    def decode(self, r: ByteReader) -> Operation:
        at = r.pos
        num_ops, has_args = r.varint_flag()
        if has_args or num_ops != 1:
            raise r.error(f"the top-level block must hold exactly one op and no arguments "
                          f"(found {num_ops} ops{', with arguments' if has_args else ''})", at)
        holder = Block()
        values: list[Value | _Forward | None] = []
        op = self._op(r, holder, [holder], values, None)
        self._check_use_orders()
        return op

    def seal(self) -> None:
        """After decoding stopped part-way: operands still waiting for a definition that never came
        become values of type `none` that no op defines, so the partial IR holds only real values (the
        printer shows them as mlir-opt shows an undefined value)."""
        for fwd in self.forwards:
            for op, k in fwd.uses:
                if op.operands[k] is fwd:  # type: ignore[comparison-overlap]
                    op.operands[k] = Value(NoneType.get())
        self.forwards.clear()

    # -- pieces ---------------------------------------------------------------------------------
    def _attr(self, r: ByteReader) -> Attribute:
        at = r.pos
        idx = r.varint()
        values = self.table.values[0]
        if idx >= len(values):
            raise r.error(f"attribute index {idx} out of range ({len(values)} attributes)", at)
        v = values[idx]
        return v if v is not None else self.table.attr(idx)  # type: ignore[return-value]

    def _type(self, r: ByteReader) -> Type:
        at = r.pos
        idx = r.varint()
        values = self.table.values[1]
        if idx >= len(values):
            raise r.error(f"type index {idx} out of range ({len(values)} types)", at)
        v = values[idx]
        return v if v is not None else self.table.type(idx)  # type: ignore[return-value]

    def _location(self, r: ByteReader) -> Attribute:
        at = r.pos
        loc = self._attr(r)
        if not is_location(loc):
            raise r.error("op location is not a location attribute", at)
        return loc

    def _define(self, r: ByteReader, values: list[Value | _Forward | None], state: _RegionState,
                value: Value) -> None:
        i = state.next
        if i >= state.end:
            raise r.error("the region defines more values than it declares")
        state.next = i + 1
        old = values[i]
        if isinstance(old, _Forward):
            for op, k in old.uses:
                op.operands[k] = value
        elif old is not None:
            raise r.error(f"value #{i} is defined twice")
        values[i] = value

    def _use_orders(self, r: ByteReader, targets: list[Value]) -> None:
        n = len(targets)
        at = r.pos
        count = r.count("use-list order", 2) if n > 1 else 1
        if count > n:
            raise r.error(f"{count} use-list orders for {n} values", at)
        for _ in range(count):
            at = r.pos
            idx = r.varint() if n > 1 else 0
            if idx >= n:
                raise r.error(f"use-list order for value {idx} of {n}", at)
            length, pair = r.varint_flag()
            if length > r.remaining:
                raise r.error(f"use-list order of {length} entries runs past the data", at)
            if pair and length % 2:
                raise r.error("use-list order in pair form needs an even number of entries", at)
            entries = tuple(r.varint() for _ in range(length))
            targets[idx].use_order = (pair, entries)
            self.use_orders.append((targets[idx], at))

    def _check_use_orders(self) -> None:
        if not self.use_orders or self.root is None:
            return
        uses: dict[int, int] = {}
        for op in self.root.walk():
            for v in op.operands:
                uses[id(v)] = uses.get(id(v), 0) + 1
        for value, at in self.use_orders:
            n = uses.get(id(value), 0)
            assert value.use_order is not None
            pair, entries = value.use_order
            if pair:
                perm = list(range(n))
                ok = all(e < n for e in entries)
                if ok:
                    for k in range(0, len(entries), 2):
                        perm[entries[k + 1]] = entries[k]
                    ok = sorted(perm) == list(range(n))
            else:
                ok = len(entries) == n and sorted(entries) == list(range(n))
            if not ok:
                raise DecodeError(f"use-list order is not a permutation of the value's {n} uses", at,
                                  "IR")

    # -- structure ------------------------------------------------------------------------------
    def _op(self, r: ByteReader, block: Block, blocks: list[Block],
            values: list[Value | _Forward | None], state: _RegionState | None) -> Operation:
        start = r.pos
        idx = r.varint()
        if idx >= len(self.op_names):
            raise r.error(f"op name index {idx} out of range ({len(self.op_names)} op names)", start)
        name = self.op_names[idx]
        mask_at = r.pos
        mask = r.byte()
        if mask & _HAS_PROPERTIES and self.props is None:
            raise r.error(f"op mask 0x{mask:02x} announces properties but the file has no "
                          "Properties section", mask_at)
        op = Operation(name, self._location(r))
        op.offset = start
        if self.root is None:
            self.root = op
        block.append(op)
        if mask & _HAS_ATTRS:
            at = r.pos
            d = self._attr(r)
            if not isinstance(d, DictionaryAttr):
                raise r.error("op attribute dictionary is not a dictionary attribute", at)
            op.attributes = d
        if mask & _HAS_PROPERTIES:
            at = r.pos
            pidx = r.varint()
            if self.props is None or pidx >= len(self.props):
                n = 0 if self.props is None else len(self.props)
                raise r.error(f"properties index {pidx} out of range ({n} entries)", at)
            poff, psize = self.props[pidx]
            # Identical payloads are stored once and shared by many ops: decode each (name, payload)
            # once and give every op its own Properties record.
            key = (pidx, idx)
            cached = self._props_cache.get(key)
            if cached is None:
                cached = decode_op_properties(name, poff, psize, self.table, self.registry, [])
                self._props_cache[key] = cached
            op.properties = Properties(cached.kind, dict(cached.values), cached.attribute, cached.raw,
                                       cached.model, cached.reason, cached.offset)
            if cached.kind == PROPS_FALLBACK:
                self.fallbacks.append(FallbackNote("op", name.full, cached.reason, poff, psize))
        if mask & _HAS_RESULTS:
            n = r.count("result", 1)
            types = [self._type(r) for _ in range(n)]
            op.results = [OpResult(t, op, i) for i, t in enumerate(types)]
            if state is not None:
                for res in op.results:
                    self._define(r, values, state, res)
        if mask & _HAS_OPERANDS:
            n = r.count("operand", 1)
            operands: list[Value] = []
            op.operands = operands
            nvals = len(values)
            for k in range(n):
                at = r.pos
                vid = r.varint()
                if vid >= nvals:
                    raise r.error(f"operand refers to value #{vid} but only {nvals} are in scope", at)
                v = values[vid]
                if v is None or isinstance(v, _Forward):
                    if v is None:
                        v = _Forward(at)
                        values[vid] = v
                        self.forwards.append(v)
                    v.uses.append((op, k))
                    operands.append(v)  # type: ignore[arg-type]  # patched when defined
                else:
                    operands.append(v)
        if mask & _HAS_SUCCESSORS:
            n = r.count("successor", 1)
            for _ in range(n):
                at = r.pos
                b = r.varint()
                if b >= len(blocks):
                    raise r.error(f"successor block #{b} but the region has {len(blocks)} blocks", at)
                op.successors.append(blocks[b])
        if mask & _HAS_USELIST:
            self._use_orders(r, list(op.results))
        if mask & _HAS_REGIONS:
            at = r.pos
            n, isolated = r.varint_flag()
            if n > r.remaining + 1:
                raise r.error(f"{n} regions cannot fit in the remaining data", at)
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise r.error(f"regions nested deeper than {MAX_NESTING} levels", at)
            regions = [op.add_region() for _ in range(n)]
            if isolated and self.version >= 2:
                sec = read_section(r)
                if sec.id != IR_SECTION:
                    raise r.error(f"expected a nested IR section for isolated regions, found id "
                                  f"{sec.id}", sec.header_offset)
                inner: list[Value | _Forward | None] = []
                for region in regions:
                    self._region(sec.data, region, inner)
                if not sec.data.at_end():
                    raise sec.data.error("trailing bytes in a nested IR section")
            else:
                scope: list[Value | _Forward | None] = [] if isolated else values
                for region in regions:
                    self._region(r, region, scope)
            self.depth -= 1
        return op

    def _region(self, r: ByteReader, region: Region, values: list[Value | _Forward | None]) -> None:
        num_blocks = r.count("block", 1)
        if num_blocks == 0:
            return
        at = r.pos
        num_values = r.varint()
        # A region may declare more values than it defines (upstream accepts that), so the bound
        # only keeps a hostile count from allocating: a few slots per remaining byte.
        if num_values > 16 * r.remaining + 4096:
            raise r.error(f"region declares {num_values} values, more than the remaining "
                          f"{r.remaining} bytes could define", at)
        base = len(values)
        values.extend([None] * num_values)
        state = _RegionState(base, base + num_values)
        blocks = [region.add_block() for _ in range(num_blocks)]
        for block in blocks:
            self._block(r, block, blocks, values, state)
        if state.next != state.end:
            self.declared_values[region] = (num_values, state.next - base)
        for i in range(base, base + num_values):
            v = values[i]
            if isinstance(v, _Forward):
                raise DecodeError(f"value #{i} is used but never defined", v.offset, r.section)
        del values[base:]

    def _block(self, r: ByteReader, block: Block, blocks: list[Block],
               values: list[Value | _Forward | None], state: _RegionState) -> None:
        num_ops, has_args = r.varint_flag()
        if num_ops > r.remaining:
            raise r.error(f"block of {num_ops} ops cannot fit in the remaining {r.remaining} bytes")
        if has_args:
            n = r.count("block argument", 1)
            for _ in range(n):
                if self.version >= 4:
                    t_idx, has_loc = r.varint_flag()
                    if t_idx >= self.table.count(1):
                        raise r.error(f"type index {t_idx} out of range")
                    loc: Attribute = self._location(r) if has_loc else UnknownLoc.get()
                    arg = block.add_argument(self.table.type(t_idx), loc)
                else:
                    t = self._type(r)
                    arg = block.add_argument(t, self._location(r))
                self._define(r, values, state, arg)
            if self.version >= 3:
                marker = r.byte()
                if marker:
                    self._use_orders(r, list(block.arguments))
        for _ in range(num_ops):
            self._op(r, block, blocks, values, state)
