"""The fast path of the attribute/type table: decodes the common builtin encodings of a whole table in one
batch, before the IR asks for them.

Large files hold one location attribute per op, so the table is as long as the IR and its per-entry cost
matters as much as the per-op cost.  The general path (`attrtypes.AttrTypeTable.resolve`) builds an entry
reader per entry and goes through the builtin codec's reader protocol; this module reads the bytes
directly, with small varints inline.

It never decides anything the general path would decide differently: it only fills entries whose bytes
are a well-formed builtin encoding it knows (exactly the value `builtin_codec` would give, every byte
consumed) and whose references are already decoded.  Everything else (other dialects, textual entries,
rarer builtin codes, anything damaged, references it cannot resolve within a few levels) stays for the
general path, which decodes on first use and reports errors with their offsets.  So the batch may run or
not without changing a result or an error, only the time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..ir import attributes as A
from ..ir import types as T
from ..ir.digest import LARGE
from ..syntax.attr_printer import dense_blob
from .builtin_codec import check_dense_array, check_integer_type, element_of

if TYPE_CHECKING:
    from .attrtypes import AttrTypeTable

ATTR = 0
TYPE = 1

_MAX_DEPTH = 24
"""How deep the batch follows references to entries not decoded yet (deeper chains, such as call-site
locations thousands deep, resolve over the reverse-order pass or fall to the general path)."""


class _Bail(Exception):
    """The entry is not one the fast path handles (or its bytes are damaged): leave it alone."""


class _Missing(Exception):
    """A reference could not be decoded by the fast path yet."""




def _varint(data: Any, pos: int) -> tuple[int, int]:
    """A varint of more than one byte (the caller handles the one-byte form inline): (value, next pos)."""
    b = data[pos]
    if b & 1:
        return b >> 1, pos + 1
    if b == 0:
        return int.from_bytes(data[pos + 1:pos + 9], "little"), pos + 9
    n = (b & -b).bit_length() - 1
    return int.from_bytes(data[pos:pos + 1 + n], "little") >> (n + 1), pos + 1 + n


_KEEP_BAILS = bytes(b & 2 for b in range(256))
_DYNAMIC = T.DYNAMIC


def _eligible(dialects: Sequence[int], custom: bytearray, builtin: set[int]) -> bytearray:
    """1 for each entry with a custom encoding whose dialect is in `builtin`, else 0 (byte-wise, without a
    Python loop over the entries when there are fewer than 256 dialects, as in every real file)."""
    n = len(custom)
    try:
        dialect_bytes = bytes(list(dialects))  # (not bytes(array): that is its raw buffer)
    except ValueError:
        return bytearray(1 if custom[i] and dialects[i] in builtin else 0 for i in range(n))
    is_builtin = dialect_bytes.translate(bytes(1 if i in builtin else 0 for i in range(256)))
    both = int.from_bytes(is_builtin, "little") & int.from_bytes(custom, "little")
    return bytearray(both.to_bytes(n, "little"))


class BatchDecoder:
    """Decodes every builtin entry it can of one table (see the module docstring)."""

    def __init__(self, table: AttrTypeTable) -> None:
        self.table = table
        self.data = table.data
        self.strings = table.strings
        self.values = table.values
        self.offsets = table.offsets
        builtin = {i for i, d in enumerate(table.dialects) if d.name == "builtin"}
        # Entries this path may decode: a custom encoding of the builtin dialect.
        self.eligible = [_eligible(table.entry_dialects[kind], table.custom[kind], builtin)
                         for kind in (ATTR, TYPE)]
        self.failed: list[bytearray] = [bytearray(len(self.values[ATTR])), bytearray(len(self.values[TYPE]))]
        self.depth = 0
        self.attr_fns: Sequence[Callable[[BatchDecoder, int, int], tuple[Any, int]] | None] = _ATTR_FNS
        self.type_fns: Sequence[Callable[[BatchDecoder, int, int], tuple[Any, int]] | None] = _TYPE_FNS

    def run(self) -> None:
        # Reverse order first: upstream numbers an entry before the entries it references, and sorting by
        # use count keeps that order among equals, so a chain's far end comes last.  References to
        # earlier entries (a location's file name, shared types) are followed directly.
        for _ in range(2):
            progress = False
            # A missing reference is worth another try in the next pass; a bail is final.
            self.failed = [f.translate(_KEEP_BAILS) for f in self.failed]
            for kind in (TYPE, ATTR):
                values = self.values[kind]
                eligible = self.eligible[kind]
                failed = self.failed[kind]
                for i in range(len(values) - 1, -1, -1):
                    if values[i] is None and eligible[i] and not failed[i]:
                        if self.entry(kind, i) is not None:
                            progress = True
            if not progress:
                break

    def entry(self, kind: int, idx: int) -> Any:
        """The decoded entry, or None; bit 1 of `failed` marks a bail (never retried), bit 0 a missing
        reference (retried in the next pass)."""
        values = self.values[kind]
        v = values[idx]
        if v is not None:
            return v
        failed = self.failed[kind]
        if failed[idx] or not self.eligible[kind][idx] or self.depth >= _MAX_DEPTH:
            return None
        offsets = self.offsets[kind]
        pos = offsets[idx]
        end = offsets[idx + 1]
        data = self.data
        self.depth += 1
        try:
            code = data[pos]
            if not code & 1 or pos >= end:
                raise _Bail
            fns = self.attr_fns if kind == ATTR else self.type_fns
            code >>= 1
            fn = fns[code] if code < len(fns) else None
            if fn is None:
                raise _Bail
            v, pos = fn(self, pos + 1, end)
            if pos != end:
                raise _Bail
        except _Missing:
            failed[idx] = 1
            return None
        except (_Bail, IndexError, ValueError):
            failed[idx] = 2
            return None
        finally:
            self.depth -= 1
        values[idx] = v
        return v

    # -- references ------------------------------------------------------------------------------
    def attr(self, pos: int) -> tuple[Any, int]:
        b = self.data[pos]
        if b & 1:
            idx = b >> 1
            pos += 1
        else:
            idx, pos = _varint(self.data, pos)
        values = self.values[ATTR]
        if idx >= len(values):
            raise _Bail
        v = values[idx]
        if v is None:
            v = self.entry(ATTR, idx)
            if v is None:
                raise _Missing
        return v, pos

    def type(self, pos: int) -> tuple[Any, int]:
        b = self.data[pos]
        if b & 1:
            idx = b >> 1
            pos += 1
        else:
            idx, pos = _varint(self.data, pos)
        values = self.values[TYPE]
        if idx >= len(values):
            raise _Bail
        v = values[idx]
        if v is None:
            v = self.entry(TYPE, idx)
            if v is None:
                raise _Missing
        return v, pos

    def string_attr(self, pos: int) -> tuple[A.StringAttr, int]:
        v, pos = self.attr(pos)
        if type(v) is not A.StringAttr:
            raise _Bail
        return v, pos

    def count(self, pos: int, end: int) -> tuple[int, int]:
        b = self.data[pos]
        if b & 1:
            n = b >> 1
            pos += 1
        else:
            n, pos = _varint(self.data, pos)
        if n > end - pos:
            raise _Bail
        return n, pos

    def attr_list(self, pos: int, end: int) -> tuple[tuple[Any, ...], int]:
        n, pos = self.count(pos, end)
        out = []
        for _ in range(n):
            a, pos = self.attr(pos)
            out.append(a)
        return tuple(out), pos

    def type_list(self, pos: int, end: int) -> tuple[tuple[Any, ...], int]:
        n, pos = self.count(pos, end)
        out = []
        for _ in range(n):
            t, pos = self.type(pos)
            out.append(t)
        return tuple(out), pos

    def shape(self, pos: int, end: int) -> tuple[tuple[int, ...], int]:
        n, pos = self.count(pos, end)
        data = self.data
        dims = []
        for _ in range(n):
            b = data[pos]
            if b & 1:
                u = b >> 1
                pos += 1
            else:
                u, pos = _varint(data, pos)
            d = (u >> 1) ^ -(u & 1)
            if d < 0 and d != _DYNAMIC:
                raise _Bail
            dims.append(d)
        return tuple(dims), pos

    def apint(self, t: Any, pos: int) -> tuple[int, int]:
        """An integer/float payload of at most 64 bits (wider ones go the general way)."""
        if type(t) is T.IntegerType:
            width = t.width
        elif type(t) is T.IndexType:
            width = 64
        elif type(t) is T.FloatType:
            width = t.width
        else:
            raise _Bail
        mask = (1 << width) - 1
        data = self.data
        if width <= 8:
            return data[pos] & mask, pos + 1
        if width > 64:
            raise _Bail
        b = data[pos]
        if b & 1:
            u = b >> 1
            pos += 1
        else:
            u, pos = _varint(data, pos)
        return ((u >> 1) ^ -(u & 1)) & mask, pos


# -- attributes (codes of format 5.3) ------------------------------------------------------------------

def _a_array(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    elems, pos = d.attr_list(pos, end)
    return A.ArrayAttr.get(elems), pos


def _a_dictionary(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    n, pos = d.count(pos, end)
    entries: list[tuple[A.StringAttr, Any]] = []
    for _ in range(n):
        k, pos = d.string_attr(pos)
        v, pos = d.attr(pos)
        if not k.value or (entries and entries[-1][0].value >= k.value):
            raise _Bail  # empty, repeated or unsorted names: the general path sorts or refuses them
        entries.append((k, v))
    return A.DictionaryAttr.get(tuple(entries)), pos


def _string(d: BatchDecoder, pos: int) -> tuple[bytes, int]:
    b = d.data[pos]
    if b & 1:
        idx = b >> 1
        pos += 1
    else:
        idx, pos = _varint(d.data, pos)
    strings = d.strings
    if idx >= len(strings):
        raise _Bail
    return strings[idx], pos


def _a_string(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    s, pos = _string(d, pos)
    return A.StringAttr.get(s), pos


def _a_typed_string(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    s, pos = _string(d, pos)
    t, pos = d.type(pos)
    return A.StringAttr.get(s, t), pos


def _a_flat_symbol_ref(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    s, pos = d.string_attr(pos)
    return A.FlatSymbolRefAttr.get(s), pos


def _a_type(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    t, pos = d.type(pos)
    return A.TypeAttr.get(t), pos


def _a_unit(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    return A.UnitAttr.get(), pos


def _a_integer(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    t, pos = d.type(pos)
    if type(t) is not T.IntegerType and type(t) is not T.IndexType:
        raise _Bail
    bits, pos = d.apint(t, pos)
    return A.IntegerAttr.get(t, bits), pos


def _a_float(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    t, pos = d.type(pos)
    if type(t) is not T.FloatType:
        raise _Bail
    bits, pos = d.apint(t, pos)
    return A.FloatAttr.get(t, bits), pos


def _a_callsite(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    callee, pos = d.attr(pos)
    caller, pos = d.attr(pos)
    _locs((callee, caller))
    return A.CallSiteLoc.get(callee, caller), pos


def _a_file_line_col(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    f, pos = d.string_attr(pos)
    data = d.data
    b = data[pos]
    if b & 1:
        line = b >> 1
        pos += 1
    elif b & 2:  # two bytes: lines past 63
        line = (b >> 2) | (data[pos + 1] << 6)
        pos += 2
    else:
        line, pos = _varint(data, pos)
    b = data[pos]
    if b & 1:
        col = b >> 1
        pos += 1
    else:
        col, pos = _varint(data, pos)
    return A.FileLineColLoc.get(f, line, col), pos


def _a_fused(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    locs, pos = d.attr_list(pos, end)
    _locs(locs)
    loc = A.FusedLoc.get(locs, None)
    if A.fuse_locations(locs, None) is not loc:
        raise _Bail  # not canonical: the general path says why it is refused
    return loc, pos


def _a_fused_metadata(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    locs, pos = d.attr_list(pos, end)
    _locs(locs)
    meta, pos = d.attr(pos)
    return A.FusedLoc.get(locs, meta), pos


def _a_name_loc(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    name, pos = d.string_attr(pos)
    child, pos = d.attr(pos)
    _locs((child,))
    return A.NameLoc.get(name, child), pos


def _a_unknown_loc(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    return A.UnknownLoc.get(), pos


def _locs(attrs: Sequence[Any]) -> None:
    for a in attrs:
        if not isinstance(a, A.LocationAttr) and not A.is_location(a):
            raise _Bail  # the general path says what is wrong


def _blob(d: BatchDecoder, pos: int, end: int) -> tuple[bytes, int]:
    n, pos = d.count(pos, end)
    if n >= LARGE:
        raise _Bail  # a large payload stays a view of the (mapped) file: the general path keeps it so
    return bytes(d.data[pos:pos + n]), pos + n


def _a_dense_array(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    t, pos = d.type(pos)
    count, pos = _varint(d.data, pos)
    blob, pos = _blob(d, pos, end)
    check_dense_array(t, count, blob)
    return A.DenseArrayAttr.get(t, count, blob), pos


def _a_dense_elements(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    t, pos = d.type(pos)
    blob, pos = _blob(d, pos, end)
    return A.DenseElementsAttr.get(t, dense_blob(t, blob)), pos


_ATTR_FNS: tuple[Callable[[BatchDecoder, int, int], tuple[Any, int]] | None, ...] = (
    _a_array,               # 0
    _a_dictionary,          # 1
    _a_string,              # 2
    _a_typed_string,        # 3
    _a_flat_symbol_ref,     # 4
    None,                   # 5 symbol ref (nested)
    _a_type,                # 6
    _a_unit,                # 7
    _a_integer,             # 8
    _a_float,               # 9
    _a_callsite,            # 10
    _a_file_line_col,       # 11
    _a_fused,               # 12
    _a_fused_metadata,      # 13
    _a_name_loc,            # 14
    _a_unknown_loc,         # 15
    None,                   # 16 dense resource
    _a_dense_array,         # 17
    _a_dense_elements,      # 18
)


# -- types (codes of format 5.4) -----------------------------------------------------------------------

def _t_integer(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    v, pos = _varint(d.data, pos)
    check_integer_type(v >> 2, v & 3)
    return T.IntegerType.get(v >> 2, v & 3), pos


def _t_index(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    return T.IndexType.get(), pos


def _t_function(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    inputs, pos = d.type_list(pos, end)
    results, pos = d.type_list(pos, end)
    return T.FunctionType.get(inputs, results), pos


def _t_float(name: str) -> Callable[[BatchDecoder, int, int], tuple[Any, int]]:
    def fn(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
        return T.FloatType.get(name), pos
    return fn


def _t_complex(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    t, pos = d.type(pos)
    return T.ComplexType.get(t), pos


def _t_none(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    return T.NoneType.get(), pos


def _t_ranked_tensor(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    shape, pos = d.shape(pos, end)
    t, pos = d.type(pos)
    return T.RankedTensorType.get(shape, element_of("tensor", t), None), pos


def _t_tuple(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    types, pos = d.type_list(pos, end)
    return T.TupleType.get(types), pos


def _t_unranked_tensor(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    t, pos = d.type(pos)
    return T.UnrankedTensorType.get(element_of("tensor", t)), pos


def _t_vector(d: BatchDecoder, pos: int, end: int) -> tuple[Any, int]:
    shape, pos = d.shape(pos, end)
    t, pos = d.type(pos)
    return T.VectorType.get(shape, element_of("vector", t), None), pos


_TYPE_FNS: tuple[Callable[[BatchDecoder, int, int], tuple[Any, int]] | None, ...] = (
    _t_integer,             # 0
    _t_index,               # 1
    _t_function,            # 2
    _t_float("bf16"),       # 3
    _t_float("f16"),        # 4
    _t_float("f32"),        # 5
    _t_float("f64"),        # 6
    _t_float("f80"),        # 7
    _t_float("f128"),       # 8
    _t_complex,             # 9
    None,                   # 10 memref (its layout and memory space need checks the general path makes)
    None,                   # 11 memref with memory space
    _t_none,                # 12
    _t_ranked_tensor,       # 13
    None,                   # 14 ranked tensor with encoding
    _t_tuple,               # 15
    None,                   # 16 unranked memref
    None,                   # 17 unranked memref with memory space
    _t_unranked_tensor,     # 18
    _t_vector,              # 19
)


def decode_builtin_entries(table: AttrTypeTable) -> None:
    """Decode every builtin entry of `table` the fast path can (see the module docstring)."""
    BatchDecoder(table).run()
