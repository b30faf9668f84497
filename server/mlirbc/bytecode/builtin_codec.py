"""The builtin dialect's attribute and type encodings (format 5.3-5.7), decode and encode side by side.

Both directions work through the entry reader/writer protocols of `models.api`, extended with resource
handles, so the same code serves the reader, the writer and the numbering pass.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..ir import attributes as A
from ..ir import types as T
from ..models.api import EntryReader, EntryWriter

_MASK64 = (1 << 64) - 1


class BuiltinReader(EntryReader, Protocol):
    def resource_key(self, handle: int) -> str: ...


class BuiltinWriter(EntryWriter, Protocol):
    def resource(self, key: str) -> None:
        """Write the handle of the builtin dialect resource `key` (its number is known only at the end)."""
        ...


class UnknownCode(Exception):
    """A builtin code this reader does not know (a newer MLIR): the entry stays opaque."""


def bit_width(t: T.Type) -> int:
    """Bit width of the APInt/APFloat payload of an integer or float attribute of type `t`."""
    if isinstance(t, T.IntegerType):
        return t.width
    if isinstance(t, T.IndexType):
        return 64
    if isinstance(t, T.FloatType):
        return t.width
    raise ValueError("integer/float attribute of a type that is neither integer, index nor float")


def read_apint(r: EntryReader, width: int) -> int:
    mask = (1 << width) - 1
    if width <= 8:
        return r.byte() & mask
    if width <= 64:
        return r.signed_varint() & mask
    n = r.varint()
    if n > (width + 63) // 64:
        raise ValueError(f"{n} active words for a {width}-bit integer")
    bits = 0
    for i in range(n):
        bits |= (r.signed_varint() & _MASK64) << (64 * i)
    return bits & mask


def _as_int64(v: int) -> int:
    v &= _MASK64
    return v - (1 << 64) if v >> 63 else v


def write_apint(w: EntryWriter, width: int, bits: int) -> None:
    if width <= 8:
        w.byte(bits & 0xFF)
    elif width <= 64:
        w.signed_varint(_as_int64(bits))
    else:
        words = []
        v = bits
        while v:
            words.append(v & _MASK64)
            v >>= 64
        if not words:
            words = [0]
        w.varint(len(words))
        for word in words:
            w.signed_varint(_as_int64(word))


def _shape(r: EntryReader) -> tuple[int, ...]:
    n = r.varint()
    if n > r_remaining(r):
        raise ValueError(f"shape of rank {n} is longer than the entry")
    shape = tuple(r.signed_varint() for _ in range(n))
    for d in shape:
        if d < 0 and d != T.DYNAMIC:
            raise ValueError(f"negative dimension {d} in a shape")
    return shape


def _write_shape(w: EntryWriter, shape: tuple[int, ...]) -> None:
    w.varint(len(shape))
    for d in shape:
        w.signed_varint(d)


def _attr_list(r: EntryReader) -> tuple[A.Attribute, ...]:
    n = r.varint()
    if n > r_remaining(r):
        raise ValueError(f"list of {n} entries is longer than the entry")
    return tuple(r.attr() for _ in range(n))


def _type_list(r: EntryReader) -> tuple[T.Type, ...]:
    n = r.varint()
    if n > r_remaining(r):
        raise ValueError(f"list of {n} entries is longer than the entry")
    return tuple(r.type() for _ in range(n))


def r_remaining(r: EntryReader) -> int:
    rem = getattr(r, "remaining", None)
    return rem if isinstance(rem, int) else 1 << 62


def _string_attr(a: A.Attribute) -> A.StringAttr:
    if not isinstance(a, A.StringAttr):
        raise ValueError("expected a string attribute")
    return a


def _read_array(r: BuiltinReader) -> A.Attribute:
    return A.ArrayAttr.get(_attr_list(r))


def _read_dictionary(r: BuiltinReader) -> A.Attribute:
    n = r.varint()
    if n > r_remaining(r):
        raise ValueError(f"dictionary of {n} entries is longer than the entry")
    entries = tuple((_string_attr(r.attr()), r.attr()) for _ in range(n))
    return A.DictionaryAttr.get(entries)


def _read_string(r: BuiltinReader) -> A.Attribute:
    return A.StringAttr.get(r.string())


def _read_typed_string(r: BuiltinReader) -> A.Attribute:
    s = r.string()
    return A.StringAttr.get(s, r.type())


def _read_flat_symbol_ref(r: BuiltinReader) -> A.Attribute:
    return A.FlatSymbolRefAttr.get(_string_attr(r.attr()))


def _read_symbol_ref(r: BuiltinReader) -> A.Attribute:
    root = _string_attr(r.attr())
    nested = []
    for a in _attr_list(r):
        if not isinstance(a, A.FlatSymbolRefAttr):
            raise ValueError("nested symbol reference is not a flat symbol reference")
        nested.append(a)
    return A.SymbolRefAttr.get(root, tuple(nested))


def _read_type_attr(r: BuiltinReader) -> A.Attribute:
    return A.TypeAttr.get(r.type())


def _read_unit(r: BuiltinReader) -> A.Attribute:
    return A.UnitAttr.get()


def _read_integer(r: BuiltinReader) -> A.Attribute:
    t = r.type()
    # MLIR only builds integer attributes of integer and index types; anything else is damage, and its
    # text (`5 : f32`) would not read back.
    if not isinstance(t, (T.IntegerType, T.IndexType)):
        raise ValueError("integer attribute whose type is neither integer nor index")
    return A.IntegerAttr.get(t, read_apint(r, bit_width(t)))


def _read_float(r: BuiltinReader) -> A.Attribute:
    t = r.type()
    if not isinstance(t, T.FloatType):
        raise ValueError("float attribute whose type is not a float type")
    return A.FloatAttr.get(t, read_apint(r, bit_width(t)))


def _read_callsite_loc(r: BuiltinReader) -> A.Attribute:
    return A.CallSiteLoc.get(r.attr(), r.attr())


def _read_file_line_col_loc(r: BuiltinReader) -> A.Attribute:
    f = _string_attr(r.attr())
    return A.FileLineColLoc.get(f, r.varint(), r.varint())


def _read_fused_loc(r: BuiltinReader) -> A.Attribute:
    return A.FusedLoc.get(_attr_list(r), None)


def _read_fused_loc_with_metadata(r: BuiltinReader) -> A.Attribute:
    locs = _attr_list(r)
    return A.FusedLoc.get(locs, r.attr())


def _read_name_loc(r: BuiltinReader) -> A.Attribute:
    name = _string_attr(r.attr())
    return A.NameLoc.get(name, r.attr())


def _read_unknown_loc(r: BuiltinReader) -> A.Attribute:
    return A.UnknownLoc.get()


def _read_dense_resource(r: BuiltinReader) -> A.Attribute:
    t = r.type()
    return A.DenseResourceElementsAttr.get(t, r.resource_key(r.varint()))


def _read_dense_array(r: BuiltinReader) -> A.Attribute:
    t = r.type()
    count = r.varint()
    return A.DenseArrayAttr.get(t, count, r.blob())  # a large array stays a view of the file


def _read_dense_elements(r: BuiltinReader) -> A.Attribute:
    t = r.type()
    return A.DenseElementsAttr.get(t, r.blob())  # a large tensor stays a view of the file


def _read_dense_string_elements(r: BuiltinReader) -> A.Attribute:
    t = r.type()
    splat = r.varint()
    n = 1 if splat else _num_elements(t)
    if n > r_remaining(r):
        raise ValueError(f"{n} strings do not fit in the entry")
    return A.DenseStringElementsAttr.get(t, bool(splat), tuple(r.string() for _ in range(n)))


def _read_sparse_elements(r: BuiltinReader) -> A.Attribute:
    t = r.type()
    return A.SparseElementsAttr.get(t, r.attr(), r.attr())


def _read_distinct(r: BuiltinReader) -> A.Attribute:
    # Each stored DistinctAttr is a distinct object: the caller passes a fresh ident.
    return A.DistinctAttr.get(getattr(r, "distinct_ident", 0), r.attr())


def _read_file_line_col_range(r: BuiltinReader) -> A.Attribute:
    f = _string_attr(r.attr())
    n = r.varint()
    if n > 4:
        raise ValueError(f"file location range with {n} numbers (at most 4)")
    return A.FileLineColRange.get(f, tuple(r.varint() for _ in range(n)))


_ATTR_DECODERS: tuple[Callable[[BuiltinReader], A.Attribute], ...] = (
    _read_array,
    _read_dictionary,
    _read_string,
    _read_typed_string,
    _read_flat_symbol_ref,
    _read_symbol_ref,
    _read_type_attr,
    _read_unit,
    _read_integer,
    _read_float,
    _read_callsite_loc,
    _read_file_line_col_loc,
    _read_fused_loc,
    _read_fused_loc_with_metadata,
    _read_name_loc,
    _read_unknown_loc,
    _read_dense_resource,
    _read_dense_array,
    _read_dense_elements,
    _read_dense_string_elements,
    _read_sparse_elements,
    _read_distinct,
    _read_file_line_col_range,
)
"""Decoder of each builtin attribute code, indexed by code (a table: code 11, the commonest, is
not the twelfth test of a chain)."""


def decode_attribute(r: BuiltinReader) -> A.Attribute:
    code = r.varint()
    if code >= len(_ATTR_DECODERS):
        raise UnknownCode(f"unknown builtin attribute code {code}")
    return _ATTR_DECODERS[code](r)

def _num_elements(t: T.Type) -> int:
    shape = getattr(t, "shape", None)
    if shape is None:
        raise ValueError("dense string elements need a ranked shaped type")
    n = 1
    for d in shape:
        if d < 0:
            raise ValueError("dense string elements need a static shape")
        n *= d
    return n


def decode_type(r: BuiltinReader) -> T.Type:
    code = r.varint()
    if code == 0:
        v = r.varint()
        return T.IntegerType.get(v >> 2, v & 3)
    if code == 1:
        return T.IndexType.get()
    if code == 2:
        return T.FunctionType.get(_type_list(r), _type_list(r))
    if 3 <= code <= 8:
        return T.FloatType.get(("bf16", "f16", "f32", "f64", "f80", "f128")[code - 3])
    if code == 9:
        return T.ComplexType.get(r.type())
    if code == 10:
        shape = _shape(r)
        elem = r.type()
        return T.MemRefType.get(shape, elem, r.attr(), None)
    if code == 11:
        space = r.attr()
        shape = _shape(r)
        elem = r.type()
        return T.MemRefType.get(shape, elem, r.attr(), space)
    if code == 12:
        return T.NoneType.get()
    if code == 13:
        shape = _shape(r)
        return T.RankedTensorType.get(shape, r.type(), None)
    if code == 14:
        enc = r.attr()
        shape = _shape(r)
        return T.RankedTensorType.get(shape, r.type(), enc)
    if code == 15:
        return T.TupleType.get(_type_list(r))
    if code == 16:
        return T.UnrankedMemRefType.get(r.type(), None)
    if code == 17:
        space = r.attr()
        return T.UnrankedMemRefType.get(r.type(), space)
    if code == 18:
        return T.UnrankedTensorType.get(r.type())
    if code == 19:
        shape = _shape(r)
        return T.VectorType.get(shape, r.type(), None)
    if code == 20:
        n = r.varint()
        if n > r_remaining(r):
            raise ValueError("scalable flag list is longer than the entry")
        flags = tuple(bool(r.byte()) for _ in range(n))
        shape = _shape(r)
        elem = r.type()
        if len(flags) != len(shape):
            raise ValueError("scalable flags do not match the vector rank")
        return T.VectorType.get(shape, elem, flags)
    raise UnknownCode(f"unknown builtin type code {code}")


_FLOAT_CODES = {"bf16": 3, "f16": 4, "f32": 5, "f64": 6, "f80": 7, "f128": 8}


def encode_attribute(a: A.Attribute, w: BuiltinWriter) -> bool:
    """Write the custom encoding of a builtin attribute; False if it has none (stored as text)."""
    if isinstance(a, A.ArrayAttr):
        w.varint(0)
        w.varint(len(a.elements))
        for e in a.elements:
            w.attr(e)
    elif isinstance(a, A.DictionaryAttr):
        w.varint(1)
        w.varint(len(a.entries))
        for k, v in a.entries:
            w.attr(k)
            w.attr(v)
    elif isinstance(a, A.StringAttr):
        if isinstance(a.type, T.NoneType):
            w.varint(2)
            w.string(a.value)
        else:
            w.varint(3)
            w.string(a.value)
            w.type(a.type)
    elif isinstance(a, A.FlatSymbolRefAttr):
        w.varint(4)
        w.attr(a.root)
    elif isinstance(a, A.SymbolRefAttr):
        w.varint(5)
        w.attr(a.root)
        w.varint(len(a.nested))
        for n in a.nested:
            w.attr(n)
    elif isinstance(a, A.TypeAttr):
        w.varint(6)
        w.type(a.type)
    elif isinstance(a, A.UnitAttr):
        w.varint(7)
    elif isinstance(a, A.IntegerAttr):
        w.varint(8)
        w.type(a.type)
        write_apint(w, bit_width(a.type), a.bits)
    elif isinstance(a, A.FloatAttr):
        w.varint(9)
        w.type(a.type)
        write_apint(w, bit_width(a.type), a.bits)
    elif isinstance(a, A.CallSiteLoc):
        w.varint(10)
        w.attr(a.callee)
        w.attr(a.caller)
    elif isinstance(a, A.FileLineColLoc):
        w.varint(11)
        w.attr(a.filename)
        w.varint(a.line)
        w.varint(a.column)
    elif isinstance(a, A.FusedLoc):
        w.varint(12 if a.metadata is None else 13)
        w.varint(len(a.locations))
        for loc in a.locations:
            w.attr(loc)
        if a.metadata is not None:
            w.attr(a.metadata)
    elif isinstance(a, A.NameLoc):
        w.varint(14)
        w.attr(a.name)
        w.attr(a.child)
    elif isinstance(a, A.UnknownLoc):
        w.varint(15)
    elif isinstance(a, A.DenseResourceElementsAttr):
        w.varint(16)
        w.type(a.type)
        w.resource(a.key)
    elif isinstance(a, A.DenseArrayAttr):
        w.varint(17)
        w.type(a.element_type)
        w.varint(a.count)
        w.blob(a.data)
    elif isinstance(a, A.DenseElementsAttr):
        w.varint(18)
        w.type(a.type)
        w.blob(a.data)
    elif isinstance(a, A.DenseStringElementsAttr):
        w.varint(19)
        w.type(a.type)
        w.varint(1 if a.splat else 0)
        for s in a.strings:
            w.string(s)
    elif isinstance(a, A.SparseElementsAttr):
        w.varint(20)
        w.type(a.type)
        w.attr(a.indices)
        w.attr(a.values)
    elif isinstance(a, A.DistinctAttr):
        w.varint(21)
        w.attr(a.referenced)
    elif isinstance(a, A.FileLineColRange):
        w.varint(22)
        w.attr(a.filename)
        w.varint(len(a.numbers))
        for number in a.numbers:
            w.varint(number)
    else:
        return False
    return True


def encode_type(t: T.Type, w: BuiltinWriter) -> bool:
    """Write the custom encoding of a builtin type; False if it has none (stored as text)."""
    if isinstance(t, T.IntegerType):
        w.varint(0)
        w.varint((t.width << 2) | t.signedness)
    elif isinstance(t, T.IndexType):
        w.varint(1)
    elif isinstance(t, T.FunctionType):
        w.varint(2)
        w.varint(len(t.inputs))
        for x in t.inputs:
            w.type(x)
        w.varint(len(t.results))
        for x in t.results:
            w.type(x)
    elif isinstance(t, T.FloatType):
        code = _FLOAT_CODES.get(t.name)
        if code is None:
            return False
        w.varint(code)
    elif isinstance(t, T.ComplexType):
        w.varint(9)
        w.type(t.element)
    elif isinstance(t, T.MemRefType):
        if t.memory_space is None:
            w.varint(10)
        else:
            w.varint(11)
            w.attr(t.memory_space)
        _write_shape(w, t.shape)
        w.type(t.element)
        w.attr(t.layout)
    elif isinstance(t, T.NoneType):
        w.varint(12)
    elif isinstance(t, T.RankedTensorType):
        if t.encoding is None:
            w.varint(13)
        else:
            w.varint(14)
            w.attr(t.encoding)
        _write_shape(w, t.shape)
        w.type(t.element)
    elif isinstance(t, T.TupleType):
        w.varint(15)
        w.varint(len(t.types))
        for x in t.types:
            w.type(x)
    elif isinstance(t, T.UnrankedMemRefType):
        if t.memory_space is None:
            w.varint(16)
        else:
            w.varint(17)
            w.attr(t.memory_space)
        w.type(t.element)
    elif isinstance(t, T.UnrankedTensorType):
        w.varint(18)
        w.type(t.element)
    elif isinstance(t, T.VectorType):
        if t.scalable is None:
            w.varint(19)
        else:
            w.varint(20)
            w.varint(len(t.scalable))
            for f in t.scalable:
                w.byte(1 if f else 0)
        _write_shape(w, t.shape)
        w.type(t.element)
    else:
        return False
    return True
