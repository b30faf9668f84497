"""IR section (format 6) decoding: blocks, ops with every mask bit, value scopes, forward references,
isolated regions in nested sections, and use-list orders.

Counts read from the file are checked against the bytes left before anything is allocated for them.
"""

from __future__ import annotations

import sys

from ..binary.stream import ByteReader
from ..errors import DecodeError
from ..ir.attributes import (
    Attribute,
    DictionaryAttr,
    LocationAttr,
    UnknownLoc,
    is_location,
)
from ..ir.operation import (
    PROPS_FALLBACK,
    Block,
    FrozenEmptyList,
    Operation,
    OpName,
    OpResult,
    Properties,
    Region,
    Value,
)
from ..ir.types import NoneType, Type
from ..models.api import isolated_from_above
from ..models.registry import Registry
from .attrtypes import AttrTypeTable
from .properties import decode_op_properties
from .sections import read_section
from .template import FallbackNote

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
        self._loc_types: set[type] = set()
        """Attribute classes already seen to be locations (the check is per op)."""
        self.pending = 0
        """Uses of values not defined yet (forward references) that are still waiting."""
        self.forwards: list[_Forward] = []
        """Every forward reference made; `seal` replaces those never defined after a failure."""
        self.prop_seq: list[int] = []
        """The properties index of every op with properties, in reading (= writing) order."""
        self.sections: dict[Operation, tuple[int, int, int, int]] = {}
        """Ops whose isolated regions sit in a nested section: op -> (data start, data end, and the
        part of `prop_seq` read inside), so that a writer can copy the section of an unchanged op."""
        self.made_up = 0
        """Block-argument locations the file does not store (UnknownLoc from hasLoc = 0)."""
        self.made_up_sections: set[Operation] = set()
        """Sections holding such a location: they refer to an attribute the table may not have."""
        self._isolated_names: dict[OpName, bool] = {}
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
        if old is not None:
            self._patch(r, values, i, old, value)
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
        """One op (the root; the ops of blocks are read by `_ops`)."""
        self._ops(r, block, blocks, values, state, 1)
        return block.operations[-1]

    def _ops(self, r: ByteReader, block: Block, blocks: list[Block],
             values: list[Value | _Forward | None], state: _RegionState | None, count: int) -> None:
        """`count` ops appended to `block`.

        The hot loop of large files.  One-byte varints (nearly all of them) are read inline from the
        buffer; anything else goes through the reader, which checks bounds and says what is wrong, so
        every error is the one the plain reads would give, at the same offset.
        """
        data = r.data
        end = r.end
        op_names = self.op_names
        n_names = len(op_names)
        table = self.table
        attr_values = table.values[0]
        type_values = table.values[1]
        n_attrs = len(attr_values)
        n_types = len(type_values)
        loc_types = self._loc_types
        props = self.props
        props_cache = self._props_cache
        new_op = _new_op
        new_result = _new_result
        ops = block.operations
        pos = r.pos
        for _ in range(count):
            # -- name and mask
            start = pos
            if pos < end and (b := data[pos]) & 1:
                idx = b >> 1
                pos += 1
            elif pos + 1 < end and b & 2:  # two bytes
                idx = (b >> 2) | (data[pos + 1] << 6)
                pos += 2
            else:
                r.pos = pos
                idx = r.varint()
                pos = r.pos
            if idx >= n_names:
                r.pos = pos
                raise r.error(f"op name index {idx} out of range ({n_names} op names)", start)
            name = op_names[idx]
            if pos >= end:
                r.pos = pos
                raise r.error("unexpected end of data while reading a byte")
            mask = data[pos]
            pos += 1
            if mask & _HAS_PROPERTIES and props is None:
                r.pos = pos
                raise r.error(f"op mask 0x{mask:02x} announces properties but the file has no "
                              "Properties section", pos - 1)
            # -- location (locations come last in the table: their numbers take up to three bytes)
            at = pos
            if pos < end and (b := data[pos]) & 1:
                a = b >> 1
                pos += 1
            elif pos + 1 < end and b & 2:  # two bytes
                a = (b >> 2) | (data[pos + 1] << 6)
                pos += 2
            elif pos + 2 < end and b & 4:  # three bytes
                a = (b >> 3) | (data[pos + 1] << 5) | (data[pos + 2] << 13)
                pos += 3
            else:
                r.pos = pos
                a = r.varint()
                pos = r.pos
            if a >= n_attrs:
                r.pos = pos
                raise r.error(f"attribute index {a} out of range ({n_attrs} attributes)", at)
            loc = attr_values[a]
            if loc is None:
                r.pos = pos
                loc = table.attr(a)
            if type(loc) not in loc_types:
                if not is_location(loc):  # type: ignore[arg-type]  # a type fails the check
                    r.pos = pos
                    raise r.error("op location is not a location attribute", at)
                if isinstance(loc, LocationAttr):  # (a dialect attribute is one by its text, not class)
                    loc_types.add(type(loc))
            op = new_op(Operation)
            op.op_name = name
            op.location = loc  # type: ignore[assignment]  # checked above: a location attribute
            op.results = _NO_RESULTS
            op.operands = _NO_OPERANDS
            op.successors = _NO_SUCCESSORS
            op.regions = _NO_REGIONS
            op.attributes = None
            op.properties = None
            op.parent = block
            op.offset = start
            if self.root is None:
                self.root = op
            ops.append(op)
            # -- attribute dictionary and properties
            if mask & _HAS_ATTRS:
                at = pos
                if pos < end and (b := data[pos]) & 1:
                    a = b >> 1
                    pos += 1
                elif pos + 1 < end and b & 2:  # two bytes
                    a = (b >> 2) | (data[pos + 1] << 6)
                    pos += 2
                else:
                    r.pos = pos
                    a = r.varint()
                    pos = r.pos
                if a >= n_attrs:
                    r.pos = pos
                    raise r.error(f"attribute index {a} out of range ({n_attrs} attributes)", at)
                d = attr_values[a]
                if d is None:
                    r.pos = pos
                    d = table.attr(a)
                if not isinstance(d, DictionaryAttr):
                    r.pos = pos
                    raise r.error("op attribute dictionary is not a dictionary attribute", at)
                op.attributes = d
            if mask & _HAS_PROPERTIES:
                at = pos
                if pos < end and (b := data[pos]) & 1:
                    pidx = b >> 1
                    pos += 1
                elif pos + 1 < end and b & 2:  # two bytes
                    pidx = (b >> 2) | (data[pos + 1] << 6)
                    pos += 2
                else:
                    r.pos = pos
                    pidx = r.varint()
                    pos = r.pos
                if props is None or pidx >= len(props):
                    r.pos = pos
                    n = 0 if props is None else len(props)
                    raise r.error(f"properties index {pidx} out of range ({n} entries)", at)
                self.prop_seq.append(pidx)
                # Identical payloads are stored once and shared by many ops: decode each (name,
                # payload) once, and the ops share the record (see `Properties`).
                key = (pidx, idx)
                cached = props_cache.get(key)
                if cached is None:
                    poff, psize = props[pidx]
                    r.pos = pos
                    cached = decode_op_properties(name, poff, psize, table, self.registry, [])
                    props_cache[key] = cached
                op.properties = cached
                if cached.kind == PROPS_FALLBACK:
                    poff, psize = props[pidx]
                    self.fallbacks.append(FallbackNote("op", name.full, cached.reason, poff, psize))
            # -- results
            if mask & _HAS_RESULTS:
                if pos < end and (b := data[pos]) & 1 and (n := b >> 1) < end - pos:
                    pos += 1
                else:
                    r.pos = pos
                    n = r.count("result", 1)
                    pos = r.pos
                results: list[OpResult] = []
                for i in range(n):
                    at = pos
                    if pos < end and (b := data[pos]) & 1:
                        t = b >> 1
                        pos += 1
                    elif pos + 1 < end and b & 2:  # two bytes
                        t = (b >> 2) | (data[pos + 1] << 6)
                        pos += 2
                    else:
                        r.pos = pos
                        t = r.varint()
                        pos = r.pos
                    if t >= n_types:
                        r.pos = pos
                        raise r.error(f"type index {t} out of range ({n_types} types)", at)
                    ty = type_values[t]
                    if ty is None:
                        r.pos = pos
                        ty = table.type(t)
                    res = new_result(OpResult)
                    res.type = ty  # type: ignore[assignment]  # the type table holds types
                    res.use_order = None
                    res.owner = op
                    res.index = i
                    results.append(res)
                op.results = results
                if state is not None:
                    r.pos = pos
                    for res in results:
                        i = state.next
                        if i >= state.end:
                            raise r.error("the region defines more values than it declares")
                        state.next = i + 1
                        old = values[i]
                        if old is not None:
                            self._patch(r, values, i, old, res)
                        values[i] = res
            # -- operands
            if mask & _HAS_OPERANDS:
                if pos < end and (b := data[pos]) & 1 and (n := b >> 1) < end - pos:
                    pos += 1
                else:
                    r.pos = pos
                    n = r.count("operand", 1)
                    pos = r.pos
                operands: list[Value] = []
                op.operands = operands
                nvals = len(values)
                for k in range(n):
                    at = pos
                    if pos < end and (b := data[pos]) & 1:
                        vid = b >> 1
                        pos += 1
                    elif pos + 1 < end and b & 2:  # two bytes
                        vid = (b >> 2) | (data[pos + 1] << 6)
                        pos += 2
                    else:
                        r.pos = pos
                        vid = r.varint()
                        pos = r.pos
                    if vid >= nvals:
                        r.pos = pos
                        raise r.error(f"operand refers to value #{vid} but only {nvals} are in scope",
                                      at)
                    v = values[vid]
                    if v is None or type(v) is _Forward:
                        if v is None:
                            v = _Forward(at)
                            values[vid] = v
                            self.pending += 1
                            self.forwards.append(v)
                        v.uses.append((op, k))
                    operands.append(v)  # type: ignore[arg-type]  # a _Forward is patched when defined
            r.pos = pos
            if mask & (_HAS_SUCCESSORS | _HAS_USELIST | _HAS_REGIONS):
                self._op_rest(r, op, mask, blocks, values)
                pos = r.pos

    def _patch(self, r: ByteReader, values: list[Value | _Forward | None], i: int,
               old: Value | _Forward, value: Value) -> None:
        """Value #i is defined after being used: point its earlier uses at it."""
        if type(old) is not _Forward:
            raise r.error(f"value #{i} is defined twice")
        for op, k in old.uses:
            op.operands[k] = value
        self.pending -= 1

    def _op_rest(self, r: ByteReader, op: Operation, mask: int, blocks: list[Block],
                 values: list[Value | _Forward | None]) -> None:
        """Successors, use-list orders and regions of one op (rarer than the parts `_ops` reads)."""
        if mask & _HAS_SUCCESSORS:
            n = r.count("successor", 1)
            successors: list[Block] = []
            for _ in range(n):
                at = r.pos
                b = r.varint()
                if b >= len(blocks):
                    raise r.error(f"successor block #{b} but the region has {len(blocks)} blocks", at)
                successors.append(blocks[b])
            op.successors = successors
        if mask & _HAS_USELIST:
            self._use_orders(r, list(op.results))
        if mask & _HAS_REGIONS:
            at = r.pos
            n, isolated = r.varint_flag()
            if n > r.remaining + 1:
                raise r.error(f"{n} regions cannot fit in the remaining data", at)
            if not isolated and n and self._isolated_trait(op.op_name):
                # Upstream's writer writes every op with the trait isolated, and its verifier refuses
                # a use inside of a value defined outside; our writer would write this op isolated
                # (other bytes) and our parser refuses such uses.
                raise r.error(f"op '{op.name}' is isolated from above (its model says so), but its "
                              "regions are stored as not isolated (upstream's writer stores such an "
                              "op's regions isolated; nothing inside may use a value defined outside)",
                              at)
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise r.error(f"regions nested deeper than {MAX_NESTING} levels", at)
            op.regions = []
            regions = [op.add_region() for _ in range(n)]
            if isolated and self.version >= 2:
                sec = read_section(r)
                if sec.id != IR_SECTION:
                    raise r.error(f"expected a nested IR section for isolated regions, found id "
                                  f"{sec.id}", sec.header_offset)
                inner: list[Value | _Forward | None] = []
                data_start, seq_start, made_up = sec.data.pos, len(self.prop_seq), self.made_up
                for region in regions:
                    self._region(sec.data, region, inner)
                if not sec.data.at_end():
                    raise sec.data.error("trailing bytes in a nested IR section")
                self.sections[op] = (data_start, sec.data.end, seq_start, len(self.prop_seq))
                if self.made_up != made_up:
                    self.made_up_sections.add(op)
            else:
                scope: list[Value | _Forward | None] = [] if isolated else values
                for region in regions:
                    self._region(r, region, scope)
            self.depth -= 1

    def _isolated_trait(self, name: OpName) -> bool:
        """Whether op `name` has the IsolatedFromAbove trait: registered, and its model says so (as the
        writer decides it)."""
        hit = self._isolated_names.get(name)
        if hit is None:
            hit = isolated_from_above(self.registry.op(name.full).model) if name.registered else False
            self._isolated_names[name] = hit
        return hit

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
        pending = self.pending
        for block in blocks:
            self._block(r, block, blocks, values, state)
        if state.next != state.end:
            self.declared_values[region] = (num_values, state.next - base)
        if self.pending != pending:  # a use in this region is still waiting for its definition
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
                    if has_loc:
                        loc: Attribute = self._location(r)
                    else:
                        loc = UnknownLoc.get()
                        self.made_up += 1
                    arg = block.add_argument(self.table.type(t_idx), loc)
                else:
                    t = self._type(r)
                    arg = block.add_argument(t, self._location(r))
                self._define(r, values, state, arg)
            if self.version >= 3:
                marker = r.byte()
                if marker:
                    self._use_orders(r, list(block.arguments))
        if num_ops:
            self._ops(r, block, blocks, values, state, num_ops)


# Ops read from a file share one empty list per kind of part they lack (most ops have no successors and
# no regions): an op holds a list of its own as soon as it has such parts.
_NO_RESULTS: list[OpResult] = FrozenEmptyList()
_NO_OPERANDS: list[Value] = FrozenEmptyList()
_NO_SUCCESSORS: list[Block] = FrozenEmptyList()
_NO_REGIONS: list[Region] = FrozenEmptyList()
_new_op = Operation.__new__
_new_result = OpResult.__new__
