"""IR section encoding (format 6): ops, blocks, regions (isolated ones in nested sections), use-list orders,
and the op properties payloads, which are produced and deduplicated in IR writing order (format 11.8).

An op the caller declares unchanged since it was read from the template gets its nested section copied
from the template's bytes instead of encoded again, whenever that gives the same bytes: its value ids are
its own, its attributes, types and op names keep their template numbers, and its properties indices are
the template's as long as every payload written before it is the template's, in the template's order.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Mapping, Sequence

from ..binary.stream import ByteReader, ByteWriter, encode_varint
from ..errors import DecodeError, EncodeError
from ..ir.attributes import UnknownLoc
from ..ir.operation import Block, Operation, Region, Value
from .attrtypes import ATTR, TYPE
from .numbering import Numbering
from .recorder import render
from .sections import write_section
from .template import Template

IR_SECTION = 4
_HAS_ATTRS, _HAS_RESULTS, _HAS_OPERANDS, _HAS_SUCCESSORS = 0x01, 0x02, 0x04, 0x08
_HAS_REGIONS, _HAS_USELIST, _HAS_PROPERTIES = 0x10, 0x20, 0x40
_MAX_DEPTH = 2000


class IRWriter:
    """Writes the IR section; collects the properties payloads (`payloads`) as it goes."""

    def __init__(self, num: Numbering, string_index: Callable[[bytes], int],
                 resource_index: Callable[[str], int], keep_use_orders: bool,
                 source: memoryview | None = None,
                 reuse: Mapping[Operation, tuple[int, int, int, int]] | None = None,
                 template: Template | None = None, seeded_payloads: Sequence[bytes] | None = None,
                 producer: str = "") -> None:
        self.num = num
        self.indexed_use_lists = use_lists_by_index(producer)
        """Whether the values of one op or block with use-list orders are written by index (MLIR 23 on)
        rather than in the iteration order of a `DenseMap` (MLIR 22)."""
        self.version = num.version
        self.string_index = string_index
        self.resource_index = resource_index
        self.keep_use_orders = keep_use_orders
        """Write stored use-list orders verbatim when still valid (template mode), instead of re-deriving
        the encoding from the permutation."""
        self.payloads: list[bytes] = list(seeded_payloads or ())
        self._payload_index: dict[bytes, int] = {}
        for i in range(len(self.payloads) - 1, -1, -1):
            self._payload_index[self.payloads[i]] = i
        self.seeded = seeded_payloads is not None
        """The template's payloads keep their numbers (its sections' references stay valid as they are)."""
        self._attrs = num.maps[ATTR]
        self._types = num.maps[TYPE]
        self._depth = 0
        self.source = source
        """The bytes the ops were read from, when they are also the template: an op whose references are
        ambiguous (a value stored in several template entries) takes the entry it was read with."""
        self._ambiguous = source is not None and any(num.ambiguous)
        self.reuse = reuse or {}
        """Unchanged ops -> their nested section in the template (data start, end, `prop_seq` slice)."""
        self.template = template
        self.copied = 0
        """How many nested sections were copied from the template."""

    def write(self, root: Operation) -> bytes:
        w = ByteWriter()
        w.varint_flag(1, False)  # the top-level block: one op, no arguments
        if sys.getrecursionlimit() < 4 * _MAX_DEPTH:
            sys.setrecursionlimit(4 * _MAX_DEPTH)
        self._op(w, root)
        return bytes(w.buf)

    # -- pieces -----------------------------------------------------------------------------------
    def _attr(self, a: object) -> int:
        return self._attrs[a].index

    def _type(self, t: object) -> int:
        return self._types[t].index

    def _value(self, op: Operation, v: Value) -> int:
        vid = self.num.value_ids.get(v)
        if vid is None:
            raise EncodeError(f"op '{op.name}' uses a value that is not defined in the module (its "
                              "defining op or block is no longer part of the IR)")
        return vid

    def _properties(self, op: Operation) -> int | None:
        attrs_plan = self.num.op_parts[op][1]
        if attrs_plan is None:
            return None
        kind, data = attrs_plan
        if kind == "raw":
            payload = data
            assert isinstance(payload, bytes)
        else:
            out = bytearray()
            render(data, out, self.num.attr_index, self.num.type_index,  # type: ignore[arg-type]
                   self.string_index, self.resource_index)
            payload = bytes(out)
        idx = self._payload_index.get(payload)
        if idx is None:
            idx = len(self.payloads)
            self._payload_index[payload] = idx
            self.payloads.append(payload)
        return idx

    def _copy_section(self, w: ByteWriter, op: Operation) -> bool:
        """Write the op's regions as the template's nested section, if that is what encoding them gives:
        the payloads it refers to must get the template's indices here too."""
        t = self.template
        assert t is not None
        start, end, seq_start, seq_end = self.reuse[op]
        if self.seeded:
            write_section(w, IR_SECTION, bytes(t.data[start:end]))
            self.copied += 1
            return True
        known = t.distinct_before[seq_start]
        if len(self.payloads) != known:
            return False
        seq = t.prop_seq[seq_start:seq_end]
        index = self._payload_index
        payloads = t.payloads
        n = known
        for idx in seq:
            if idx < n:
                if idx < known and index.get(payloads[idx], -1) != idx:
                    return False  # written earlier, but at another index (or not at all)
            elif idx == n:
                if payloads[idx] in index:
                    return False  # first written inside this op in the template, earlier here
                n += 1
            else:
                return False  # a file written in order never skips an index; never guess
        for idx in seq:
            if idx == len(self.payloads):
                index[payloads[idx]] = idx
                self.payloads.append(payloads[idx])
        write_section(w, IR_SECTION, bytes(t.data[start:end]))
        self.copied += 1
        return True

    def _original_refs(self, op: Operation, attrs: object
                       ) -> tuple[int, int, list[int] | None] | None:
        """(location, dictionary, result types) entry numbers as the op was read, when one of its values is
        ambiguous and the stored entries still hold the op's current values; else None."""
        amb_a, amb_t = self.num.ambiguous
        if op.location not in amb_a and attrs not in amb_a and not any(
                r.type in amb_t for r in op.results):
            return None
        assert self.source is not None
        try:
            r = ByteReader(self.source, op.offset)
            r.varint()
            mask = r.byte()
            loc = r.varint()
            dict_idx = r.varint() if mask & _HAS_ATTRS else -1
            if mask & _HAS_PROPERTIES:
                r.varint()
            types = [r.varint() for _ in range(r.varint())] if mask & _HAS_RESULTS else []
        except DecodeError:
            return None
        attr_entries, type_entries = self.num.ordered
        if loc >= len(attr_entries) or attr_entries[loc].value is not op.location:
            loc = self._attr(op.location)
        if dict_idx >= 0 and (dict_idx >= len(attr_entries) or attr_entries[dict_idx].value is not attrs):
            dict_idx = -1
        result_types: list[int] | None = None
        if len(types) == len(op.results) and all(
                t < len(type_entries) and type_entries[t].value is res.type
                for t, res in zip(types, op.results, strict=True)):
            result_types = types
        return loc, dict_idx, result_types

    def _unknown_mask_bits(self, offset: int) -> int:
        """Mask bit 0x80 as the op was read: it means nothing and readers ignore it, but a producer (or
        damage that mlir-opt accepts) may have set it, and the template's bytes are kept."""
        data = self.source
        assert data is not None
        if offset >= len(data):
            return 0
        first = data[offset]
        size = 9 if first == 0 else (first & -first).bit_length()  # bytes of the op-name varint
        at = offset + size
        return data[at] & 0x80 if at < len(data) else 0

    # -- structure --------------------------------------------------------------------------------
    def _op(self, w: ByteWriter, op: Operation) -> None:
        # The hot loop of large modules: small varints are appended inline.
        num = self.num
        buf = w.buf
        v = num.op_entries[op].index
        if v < 0x80:
            buf.append((v << 1) | 1)
        else:
            buf += encode_varint(v)
        mask_at = len(buf)
        buf.append(0)
        attrs = num.op_parts[op][0]
        refs = self._original_refs(op, attrs) if self._ambiguous and op.offset >= 0 else None
        v = refs[0] if refs is not None else self._attrs[op.location].index
        if v < 0x80:
            buf.append((v << 1) | 1)
        else:
            buf += encode_varint(v)
        mask = 0
        if attrs is not None:
            mask |= _HAS_ATTRS
            w.varint(refs[1] if refs is not None and refs[1] >= 0 else self._attr(attrs))
        if self.version >= 5:
            pidx = self._properties(op)
            if pidx is not None:
                mask |= _HAS_PROPERTIES
                w.varint(pidx)
        results = op.results
        if results:
            mask |= _HAS_RESULTS
            w.varint(len(results))
            types = refs[2] if refs is not None else None
            type_map = self._types
            for i, res in enumerate(results):
                v = types[i] if types is not None else type_map[res.type].index
                if v < 0x80:
                    buf.append((v << 1) | 1)
                else:
                    buf += encode_varint(v)
        operands = op.operands
        if operands:
            mask |= _HAS_OPERANDS
            w.varint(len(operands))
            ids = num.value_ids
            for operand in operands:
                vid = ids.get(operand)
                if vid is None:
                    vid = self._value(op, operand)
                if vid < 0x80:
                    buf.append((vid << 1) | 1)
                else:
                    buf += encode_varint(vid)
        if op.successors:
            mask |= _HAS_SUCCESSORS
            w.varint(len(op.successors))
            parent_region = op.parent.parent if op.parent is not None else None
            for succ in op.successors:
                if succ.parent is not parent_region or succ not in num.block_ids:
                    raise EncodeError(f"op '{op.name}' has a successor block outside its own region")
                w.varint(num.block_ids[succ])
        if self.version >= 3 and results:
            for res in results:
                if res.use_order is not None:  # rare: most values keep no stored order
                    if self._use_lists(w, results):
                        mask |= _HAS_USELIST
                    break
        if op.regions:
            mask |= _HAS_REGIONS
        if self.source is not None and op.offset >= 0:
            mask |= self._unknown_mask_bits(op.offset)
        buf[mask_at] = mask
        if op.regions:
            isolated = num.isolated[op]
            w.varint_flag(len(op.regions), isolated)
            self._depth += 1
            if self._depth > _MAX_DEPTH:
                raise EncodeError(f"regions nested deeper than {_MAX_DEPTH} levels")
            if isolated and self.version >= 2:
                if op in self.reuse:
                    if self._copy_section(w, op):
                        self._depth -= 1
                        return
                    self.num.number_regions(op)
                inner = ByteWriter()
                for region in op.regions:
                    self._region(inner, region)
                write_section(w, IR_SECTION, inner.buf)
            else:
                for region in op.regions:
                    self._region(w, region)
            self._depth -= 1

    def _region(self, w: ByteWriter, region: Region) -> None:
        w.varint(len(region.blocks))
        if not region.blocks:
            return
        w.varint(self.num.region_values[region])
        for block in region.blocks:
            self._block(w, block)

    def _block(self, w: ByteWriter, block: Block) -> None:
        args = block.arguments
        w.varint_flag(len(block.operations), bool(args))
        if args:
            w.varint(len(args))
            unknown = UnknownLoc.get()
            v4 = self.version >= 4
            for arg in args:
                if v4:
                    has_loc = arg.location is not unknown
                    w.varint_flag(self._type(arg.type), has_loc)
                    if has_loc:
                        w.varint(self._attr(arg.location))
                else:
                    w.varint(self._type(arg.type))
                    w.varint(self._attr(arg.location))
            if self.version >= 3:
                marker_at = len(w.buf)
                w.byte(0)
                if self._use_lists(w, args):
                    w.buf[marker_at] = _HAS_USELIST
        for op in block.operations:
            self._op(w, op)

    # -- use-list orders (format 6.4) -------------------------------------------------------------
    def _use_lists(self, w: ByteWriter, values: Sequence[Value]) -> bool:
        orders: dict[int, tuple[list[int], tuple[bool, tuple[int, ...]]]] = {}
        counts = self.num.use_counts
        for i, v in enumerate(values):
            stored = v.use_order
            if stored is None:
                continue
            n = counts.get(v, 0)
            if n < 2 and not self.keep_use_orders:
                continue  # upstream orders only values with two uses or more; a file's own order stays
            perm = permutation(stored, n)
            if perm is None:
                continue  # stale: the uses changed since the order was read
            if not self.keep_use_orders and all(k == p for k, p in enumerate(perm)):
                continue
            orders[i] = (perm, stored)
        if not orders:
            return False
        multi = len(values) != 1
        if multi:
            w.varint(len(orders))
        for i in (sorted(orders) if self.indexed_use_lists else densemap_order(list(orders))):
            perm, stored = orders[i]
            if multi:
                w.varint(i)
            if self.keep_use_orders:
                pair, entries = stored
                w.varint_flag(len(entries), pair)
                for e in entries:
                    w.varint(e)
                continue
            shuffled = [k for k, p in enumerate(perm) if k != p]
            if len(shuffled) < len(perm) // 2:
                w.varint_flag(2 * len(shuffled), True)
                for k in shuffled:
                    w.varint(perm[k])
                    w.varint(k)
            else:
                w.varint_flag(len(perm), False)
                for p in perm:
                    w.varint(p)
        return True


def permutation(stored: tuple[bool, tuple[int, ...]], n: int) -> list[int] | None:
    """The permutation a stored use-list order describes for a value with `n` uses, or None if it does
    not fit (`perm[k]` = use-list position of the use with the k-th largest use id)."""
    pair, entries = stored
    if pair:
        if len(entries) % 2:
            return None
        perm = list(range(n))
        for j in range(0, len(entries), 2):
            src, dst = entries[j], entries[j + 1]
            if src >= n or dst >= n:
                return None
            perm[dst] = src
    else:
        if len(entries) != n:
            return None
        perm = list(entries)
    if sorted(perm) != list(range(n)):
        return None
    return perm


_MLIR_MAJOR = re.compile(r"MLIR(\d+)")


def use_lists_by_index(producer: str) -> bool:
    """Whether a writer that names itself `producer` orders the use-list orders of one op's results (or one
    block's arguments) by index: MLIR 24's writer does (all 11 files of the IREE held-out run with more than
    one such value and a `DenseMap` order that differs read back only so), and so does MLIR 23's (jaxlib
    0.10.2's `MLIR23.0.0git`: the corpus's scf test input it writes); MLIR 22's iterates a `DenseMap` (the 4
    upstream corpus files of the same kind); any other producer is written as MLIR 22 writes."""
    m = _MLIR_MAJOR.match(producer)
    return m is not None and int(m.group(1)) >= 23


def densemap_order(keys: list[int]) -> list[int]:
    """Iteration order of an LLVM `DenseMap<unsigned, ...>` after inserting `keys` in order: upstream
    collects the per-value orders in one, so that is the order they are written in."""
    buckets: list[int | None] = []
    count = 0
    for k in keys:
        if (count + 1) * 4 >= len(buckets) * 3:
            old = [x for x in buckets if x is not None]
            buckets = [None] * max(64, 2 * len(buckets))
            for x in old:
                _densemap_insert(buckets, x)
        _densemap_insert(buckets, k)
        count += 1
    return [x for x in buckets if x is not None]


def _densemap_insert(buckets: list[int | None], key: int) -> None:
    mask = len(buckets) - 1
    b = (key * 37) & 0xFFFFFFFF & mask
    probe = 1
    while buckets[b] is not None:
        b = (b + probe) & mask
        probe += 1
    buckets[b] = key
