"""The builtin dialect's attribute and type encodings (format 5.3-5.7): one table per kind from code to
class, with the decoder and encoder of each code side by side (`ATTRIBUTE_CODECS`, `TYPE_CODECS`).

Both directions work through the entry reader/writer protocols of `models.api`, extended with resource
handles, so the same code serves the reader, the writer and the numbering pass.  A builtin class without
an entry (a float type newer than the table, say) has no custom encoding and is stored as text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from ..binary.apint import read_apint, write_apint
from ..ir import attributes as A
from ..ir import types as T
from ..ir.types import bit_width
from ..models.api import EntryReader, EntryWriter
from ..syntax.attr_printer import dense_blob

MAX_INTEGER_WIDTH = (1 << 24) - 1
"""IntegerType::kMaxWidth: the widest integer type MLIR has (and the text parser accepts)."""


class BuiltinReader(EntryReader, Protocol):
    def resource_key(self, handle: int) -> str: ...


class BuiltinWriter(EntryWriter, Protocol):
    def resource(self, key: str) -> None:
        """Write the handle of the builtin dialect resource `key` (its number is known only at the end)."""
        ...


class UnknownCode(Exception):
    """A builtin code this reader does not know (a newer MLIR): the entry stays opaque."""


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
    if getattr(r, "scan", False):
        return A.DictionaryAttr.get(entries)
    # As DictionaryAttr::get: entries sorted by name (the text form reads back sorted); an empty or
    # repeated name is refused (upstream asserts; the text form cannot say it).
    ordered = tuple(sorted(entries, key=lambda e: e[0].value))
    for i, (name, _) in enumerate(ordered):
        if not name.value:
            raise ValueError("dictionary entry with an empty name")
        if i and ordered[i - 1][0].value == name.value:
            raise ValueError(f"dictionary repeats the name {name.value.decode('utf-8', 'replace')!r}")
    return A.DictionaryAttr.get(ordered)


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
    if not isinstance(t, T.IntegerType | T.IndexType):
        raise ValueError("integer attribute of a type that is neither integer nor index")
    return A.IntegerAttr.get(t, read_apint(r, bit_width(t)))


def _read_float(r: BuiltinReader) -> A.Attribute:
    t = r.type()
    if not isinstance(t, T.FloatType) and not getattr(r, "scan", False):
        raise ValueError("float attribute of a type that is not a float type")
    return A.FloatAttr.get(t, read_apint(r, bit_width(t)))


def _loc(r: BuiltinReader, a: A.Attribute) -> A.Attribute:
    """A location where the format wants one (upstream reads these as LocationAttr)."""
    if not A.is_location(a) and not getattr(r, "scan", False):
        raise ValueError(f"a {type(a).__name__} where a location belongs")
    return a


def _read_callsite_loc(r: BuiltinReader) -> A.Attribute:
    callee = _loc(r, r.attr())
    return A.CallSiteLoc.get(callee, _loc(r, r.attr()))


def _read_file_line_col_loc(r: BuiltinReader) -> A.Attribute:
    f = _string_attr(r.attr())
    return A.FileLineColLoc.get(f, r.varint(), r.varint())


def _read_fused_loc(r: BuiltinReader) -> A.Attribute:
    loc = A.FusedLoc.get(tuple(_loc(r, a) for a in _attr_list(r)), None)
    if not getattr(r, "scan", False):
        check_fused_loc(loc)
    return loc


def check_fused_loc(loc: A.FusedLoc) -> None:
    """Refuses a fused location without metadata that is not in `FusedLoc::get`'s canonical form.

    Upstream's reader builds these through `FusedLoc::get`, which rewrites such a location (drops its
    unknowns and duplicates, flattens nested fusions) and aborts when what is left is not a fused
    location; the text form reads back only the canonical one.  Keeping it as stored would change it on
    the next save, rewriting it would guess: refused, saying what upstream would make of it."""
    canonical = A.fuse_locations(loc.locations, None)
    if canonical is not loc:
        fate = ("aborts on it" if not isinstance(canonical, A.FusedLoc) else
                f"would rewrite it to {len(canonical.locations)} locations")
        n = len(loc.locations)
        raise ValueError(f"fused location without metadata not in canonical form ({n} location"
                         f"{'' if n == 1 else 's'}; it needs two or more distinct known locations and no "
                         f"nested fused location without metadata): upstream's reader {fate}")


def _read_fused_loc_with_metadata(r: BuiltinReader) -> A.Attribute:
    locs = tuple(_loc(r, a) for a in _attr_list(r))
    return A.FusedLoc.get(locs, r.attr())


def _read_name_loc(r: BuiltinReader) -> A.Attribute:
    name = _string_attr(r.attr())
    return A.NameLoc.get(name, _loc(r, r.attr()))


def _read_unknown_loc(r: BuiltinReader) -> A.Attribute:
    return A.UnknownLoc.get()


def _read_dense_resource(r: BuiltinReader) -> A.Attribute:
    from ..syntax.attr_printer import is_shaped

    t = r.type()
    if not is_shaped(t):
        raise ValueError("dense resource elements need a shaped type")
    return A.DenseResourceElementsAttr.get(t, r.resource_key(r.varint()))


def _read_dense_array(r: BuiltinReader) -> A.Attribute:
    t = r.type()
    count = r.varint()
    data = r.blob()  # (a large array stays a view of the file)
    check_dense_array(t, count, data)
    return A.DenseArrayAttr.get(t, count, data)


def check_dense_array(t: T.Type, count: int, data: bytes | memoryview) -> None:
    """As the text form (and DenseArrayAttr's element types) allow: integers of width 1 or whole bytes,
    floats of whole bytes, one element's storage per element."""
    if isinstance(t, T.IntegerType):
        size = 1 if t.width == 1 else t.width // 8 if t.width % 8 == 0 else 0
    elif isinstance(t, T.FloatType):
        from ..syntax.floats import SEMANTICS

        sem = SEMANTICS[t.name]
        size = sem.storage_bytes if sem.width % 8 == 0 else 0
    else:
        size = 0
    if not size:
        raise ValueError(f"dense array of element type {type(t).__name__} (integers and floats of whole "
                         "bytes, or i1, only)")
    if len(data) != size * count:
        raise ValueError(f"dense array of {count} elements has {len(data)} bytes of data")


def _read_dense_elements(r: BuiltinReader) -> A.Attribute:
    t = r.type()
    data = r.blob()  # (a large tensor stays a view of the file)
    return A.DenseElementsAttr.get(t, dense_blob(t, data))


def _read_dense_string_elements(r: BuiltinReader) -> A.Attribute:
    t = r.type()
    shape = getattr(t, "shape", None)
    if shape is None:
        raise ValueError("dense string elements need a ranked shaped type")
    try:
        count = T.num_elements(shape)  # (a splat too: the text says its type's shape)
    except ValueError:
        raise ValueError("dense string elements need a static shape") from None
    element = getattr(t, "element", None)
    if isinstance(element, T.IntegerType | T.IndexType | T.FloatType | T.ComplexType):
        # The parser reads a string of a number type as hex data: no text says these strings.
        raise ValueError("dense string elements of a number type")
    splat = r.varint()
    n = 1 if splat else count
    if n > r_remaining(r):
        raise ValueError(f"{n} strings do not fit in the entry")
    strings = tuple(r.string() for _ in range(n))
    if not splat and strings and strings.count(strings[0]) == n:
        # As upstream's storage (and the parser) build it: one string, or equal strings, is a splat.
        return A.DenseStringElementsAttr.get(t, True, strings[:1])
    return A.DenseStringElementsAttr.get(t, bool(splat), strings)


def _read_sparse_elements(r: BuiltinReader) -> A.Attribute:
    t = r.type()
    indices, values = r.attr(), r.attr()
    check_sparse(t, indices, values)
    return A.SparseElementsAttr.get(t, indices, values)


def check_sparse(t: T.Type, indices: A.Attribute, values: A.Attribute) -> None:
    """Sparse elements the text form can say: what the parser rebuilds from the printed literals.

    The text has no spelling for the indices' or values' types: it gives `i64` indices shaped as the
    printed literal nests (one index of the type's rank when it is one number) and values of the type's
    element, one per index.  Upstream's reader takes any integer indices (and no shaped type at all:
    mlir-opt refuses that); its printer then says something its parser reads as another attribute."""
    from ..syntax.attr_printer import dense_is_splat, print_type, static_shape

    shape = static_shape(t)
    element = getattr(t, "element", None)
    if shape is None or not isinstance(element, T.Type):
        raise ValueError(f"sparse elements need a statically shaped type, not {print_type(t)}")
    rank = len(shape)
    i64 = T.IntegerType.get(64)
    if not (isinstance(indices, A.DenseElementsAttr) and isinstance(indices.type, T.RankedTensorType)
            and indices.type.element is i64):
        raise ValueError("sparse indices must be a dense tensor of i64")
    ishape = indices.type.shape
    count = T.num_elements(ishape)
    if count == 0:
        ok = ishape == (0, rank)  # printed as `sparse<>`
    elif dense_is_splat(indices.data, i64, count):
        ok = ishape == (1, rank)  # printed as one number
    else:
        ok = (len(ishape) == 2 and ishape[1] == rank) or (rank == 1 and len(ishape) == 1)
    if not ok:
        raise ValueError(f"sparse indices of type {print_type(indices.type)} for a type of rank {rank}")
    numeric = isinstance(element, T.IntegerType | T.IndexType | T.FloatType | T.ComplexType)
    kind = A.DenseElementsAttr if numeric else A.DenseStringElementsAttr
    vtype = getattr(values, "type", None)
    if not (type(values) is kind and isinstance(vtype, T.RankedTensorType) and vtype.element == element
            and vtype.shape == (ishape[0],)):
        raise ValueError(f"sparse values must be a dense {ishape[0]}-element tensor of {print_type(element)}")


def _read_distinct(r: BuiltinReader) -> A.Attribute:
    # Each stored DistinctAttr is a distinct object: the caller passes a fresh ident.
    return A.DistinctAttr.get(getattr(r, "distinct_ident", 0), r.attr())


def _read_file_line_col_range(r: BuiltinReader) -> A.Attribute:
    f = _string_attr(r.attr())
    n = r.varint()
    if n > 4:
        raise ValueError(f"file location range with {n} numbers (at most 4)")
    return A.FileLineColRange.get(f, tuple(r.varint() for _ in range(n)))


# -- writing each code ------------------------------------------------------------------------------
def _w_array(a: A.ArrayAttr, w: BuiltinWriter) -> None:
    w.varint(len(a.elements))
    for e in a.elements:
        w.attr(e)


def _w_dictionary(a: A.DictionaryAttr, w: BuiltinWriter) -> None:
    w.varint(len(a.entries))
    for k, v in a.entries:
        w.attr(k)
        w.attr(v)


def _w_string(a: A.StringAttr, w: BuiltinWriter) -> None:
    w.string(a.value)


def _w_typed_string(a: A.StringAttr, w: BuiltinWriter) -> None:
    w.string(a.value)
    w.type(a.type)


def _w_flat_symbol_ref(a: A.FlatSymbolRefAttr, w: BuiltinWriter) -> None:
    w.attr(a.root)


def _w_symbol_ref(a: A.SymbolRefAttr, w: BuiltinWriter) -> None:
    w.attr(a.root)
    w.varint(len(a.nested))
    for n in a.nested:
        w.attr(n)


def _w_type_attr(a: A.TypeAttr, w: BuiltinWriter) -> None:
    w.type(a.type)


def _w_nothing(a: object, w: BuiltinWriter) -> None:
    pass


def _w_apint(a: A.IntegerAttr | A.FloatAttr, w: BuiltinWriter) -> None:
    w.type(a.type)
    write_apint(w, bit_width(a.type), a.bits)


def _w_callsite_loc(a: A.CallSiteLoc, w: BuiltinWriter) -> None:
    w.attr(a.callee)
    w.attr(a.caller)


def _w_file_line_col_loc(a: A.FileLineColLoc, w: BuiltinWriter) -> None:
    w.attr(a.filename)
    w.varint(a.line)
    w.varint(a.column)


def _w_fused_loc(a: A.FusedLoc, w: BuiltinWriter) -> None:
    w.varint(len(a.locations))
    for loc in a.locations:
        w.attr(loc)
    if a.metadata is not None:
        w.attr(a.metadata)


def _w_name_loc(a: A.NameLoc, w: BuiltinWriter) -> None:
    w.attr(a.name)
    w.attr(a.child)


def _w_dense_resource(a: A.DenseResourceElementsAttr, w: BuiltinWriter) -> None:
    w.type(a.type)
    w.resource(a.key)


def _w_dense_array(a: A.DenseArrayAttr, w: BuiltinWriter) -> None:
    w.type(a.element_type)
    w.varint(a.count)
    w.blob(a.data)


def _w_dense_elements(a: A.DenseElementsAttr, w: BuiltinWriter) -> None:
    w.type(a.type)
    w.blob(a.data)


def _w_dense_string_elements(a: A.DenseStringElementsAttr, w: BuiltinWriter) -> None:
    w.type(a.type)
    w.varint(1 if a.splat else 0)
    for s in a.strings:
        w.string(s)


def _w_sparse_elements(a: A.SparseElementsAttr, w: BuiltinWriter) -> None:
    w.type(a.type)
    w.attr(a.indices)
    w.attr(a.values)


def _w_distinct(a: A.DistinctAttr, w: BuiltinWriter) -> None:
    w.attr(a.referenced)


def _w_file_line_col_range(a: A.FileLineColRange, w: BuiltinWriter) -> None:
    w.attr(a.filename)
    w.varint(len(a.numbers))
    for number in a.numbers:
        w.varint(number)


def _w_integer_type(t: T.IntegerType, w: BuiltinWriter) -> None:
    w.varint((t.width << 2) | t.signedness)


def _w_function_type(t: T.FunctionType, w: BuiltinWriter) -> None:
    w.varint(len(t.inputs))
    for x in t.inputs:
        w.type(x)
    w.varint(len(t.results))
    for x in t.results:
        w.type(x)


def _w_element(t: T.ComplexType | T.UnrankedTensorType, w: BuiltinWriter) -> None:
    w.type(t.element)


def _w_memref(t: T.MemRefType, w: BuiltinWriter) -> None:
    if t.memory_space is not None:
        w.attr(t.memory_space)
    _write_shape(w, t.shape)
    w.type(t.element)
    w.attr(t.layout)


def _w_ranked_tensor(t: T.RankedTensorType, w: BuiltinWriter) -> None:
    if t.encoding is not None:
        w.attr(t.encoding)
    _write_shape(w, t.shape)
    w.type(t.element)


def _w_tuple(t: T.TupleType, w: BuiltinWriter) -> None:
    w.varint(len(t.types))
    for x in t.types:
        w.type(x)


def _w_unranked_memref(t: T.UnrankedMemRefType, w: BuiltinWriter) -> None:
    if t.memory_space is not None:
        w.attr(t.memory_space)
    w.type(t.element)


def _w_vector(t: T.VectorType, w: BuiltinWriter) -> None:
    if t.scalable is not None:
        w.varint(len(t.scalable))
        for f in t.scalable:
            w.byte(1 if f else 0)
    _write_shape(w, t.shape)
    w.type(t.element)


# -- reading the type codes ------------------------------------------------------------------------
def _r_integer_type(r: BuiltinReader) -> T.Type:
    v = r.varint()
    width, signedness = v >> 2, v & 3
    check_integer_type(width, signedness)
    return T.IntegerType.get(width, signedness)


def check_integer_type(width: int, signedness: int) -> None:
    """The text form has no spelling for signedness 3, nor for widths past MLIR's limit: upstream prints
    such a type as another one (`i32`), so reading it would silently change the IR."""
    if signedness == 3:
        raise ValueError("integer type with signedness 3 (only signless 0, signed 1 and unsigned 2 "
                         "exist)")
    if width > MAX_INTEGER_WIDTH:
        raise ValueError(f"integer type of width {width} (at most {MAX_INTEGER_WIDTH})")




def check_memref_layout(layout: A.Attribute) -> A.Attribute:
    """A memref's layout is a layout attribute (upstream reads it as a `MemRefLayoutAttrInterface`: of the
    builtin ones, affine maps and strided layouts; a dialect's attribute may be one, which only its
    dialect knows).  Another builtin attribute there (a location, an integer) is refused, as mlir-opt
    refuses it: its text would read back as the memory space."""
    if isinstance(layout, A.DialectAttr):
        if layout.dialect_name != "builtin" or layout.text.startswith(("affine_map", "strided")):
            return layout
    elif isinstance(layout, A.FallbackAttr) or type(layout).__module__ != A.__name__:
        return layout
    raise ValueError(f"memref layout is a {type(layout).__name__}, not a layout attribute (an affine map "
                     "or a strided layout)")


def element_of(container: str, t: T.Type) -> T.Type:
    """`t`, checked as the element type of a builtin `container` (T.element_type_problem)."""
    problem = T.element_type_problem(container, t)
    if problem is not None:
        raise ValueError(problem)
    return t


def _r_memref(r: BuiltinReader) -> T.Type:
    shape = _shape(r)
    elem = element_of("memref", r.type())
    return T.MemRefType.get(shape, elem, check_memref_layout(r.attr()), None)


def _memory_space(space: A.Attribute) -> A.Attribute | None:
    # As upstream's MemRefType::get: an integer memory space of value 0 is the default (no memory
    # space), whatever its type; the text parser drops it too, so the view reads back as it printed.
    return None if isinstance(space, A.IntegerAttr) and space.bits == 0 else space


def _r_memref_space(r: BuiltinReader) -> T.Type:
    space = r.attr()
    shape = _shape(r)
    elem = element_of("memref", r.type())
    return T.MemRefType.get(shape, elem, check_memref_layout(r.attr()), _memory_space(space))


def _r_ranked_tensor(r: BuiltinReader) -> T.Type:
    shape = _shape(r)
    return T.RankedTensorType.get(shape, element_of("tensor", r.type()), None)


def _r_ranked_tensor_encoded(r: BuiltinReader) -> T.Type:
    enc = r.attr()
    shape = _shape(r)
    return T.RankedTensorType.get(shape, element_of("tensor", r.type()), enc)


def _r_unranked_memref_space(r: BuiltinReader) -> T.Type:
    space = r.attr()
    return T.UnrankedMemRefType.get(element_of("memref", r.type()), _memory_space(space))


def _r_vector(r: BuiltinReader) -> T.Type:
    shape = _shape(r)
    return T.VectorType.get(shape, element_of("vector", r.type()), None)


def _r_scalable_vector(r: BuiltinReader) -> T.Type:
    n = r.varint()
    if n > r_remaining(r):
        raise ValueError("scalable flag list is longer than the entry")
    flags = tuple(bool(r.byte()) for _ in range(n))
    shape = _shape(r)
    elem = element_of("vector", r.type())
    if len(flags) != len(shape):
        raise ValueError("scalable flags do not match the vector rank")
    return T.VectorType.get(shape, elem, flags)


# -- the table -------------------------------------------------------------------------------------
X = TypeVar("X")


@dataclass(frozen=True)
class Codec(Generic[X]):
    """One builtin code (format 5.3, 5.4): the class it stands for, how to read and write it, and, when
    a class has several codes (a string with or without a type, ...), which of its values take this
    one."""

    code: int
    cls: type[X]
    read: Callable[[BuiltinReader], X]
    write: Callable[[Any, BuiltinWriter], None]
    when: Callable[[Any], bool] = field(default=lambda x: True)


def _float_codec(code: int, name: str) -> Codec[T.Type]:
    def read(r: BuiltinReader) -> T.Type:
        return T.FloatType.get(name)

    def when(t: T.FloatType) -> bool:
        return t.name == name

    return Codec(code, T.FloatType, read, _w_nothing, when)


def _untyped(a: A.StringAttr) -> bool:
    return isinstance(a.type, T.NoneType)


ATTRIBUTE_CODECS: tuple[Codec[A.Attribute], ...] = (
    Codec(0, A.ArrayAttr, _read_array, _w_array),
    Codec(1, A.DictionaryAttr, _read_dictionary, _w_dictionary),
    Codec(2, A.StringAttr, _read_string, _w_string, _untyped),
    Codec(3, A.StringAttr, _read_typed_string, _w_typed_string, lambda a: not _untyped(a)),
    Codec(4, A.FlatSymbolRefAttr, _read_flat_symbol_ref, _w_flat_symbol_ref),
    Codec(5, A.SymbolRefAttr, _read_symbol_ref, _w_symbol_ref),
    Codec(6, A.TypeAttr, _read_type_attr, _w_type_attr),
    Codec(7, A.UnitAttr, _read_unit, _w_nothing),
    Codec(8, A.IntegerAttr, _read_integer, _w_apint),
    Codec(9, A.FloatAttr, _read_float, _w_apint),
    Codec(10, A.CallSiteLoc, _read_callsite_loc, _w_callsite_loc),
    Codec(11, A.FileLineColLoc, _read_file_line_col_loc, _w_file_line_col_loc),
    Codec(12, A.FusedLoc, _read_fused_loc, _w_fused_loc, lambda a: a.metadata is None),
    Codec(13, A.FusedLoc, _read_fused_loc_with_metadata, _w_fused_loc,
          lambda a: a.metadata is not None),
    Codec(14, A.NameLoc, _read_name_loc, _w_name_loc),
    Codec(15, A.UnknownLoc, _read_unknown_loc, _w_nothing),
    Codec(16, A.DenseResourceElementsAttr, _read_dense_resource, _w_dense_resource),
    Codec(17, A.DenseArrayAttr, _read_dense_array, _w_dense_array),
    Codec(18, A.DenseElementsAttr, _read_dense_elements, _w_dense_elements),
    Codec(19, A.DenseStringElementsAttr, _read_dense_string_elements, _w_dense_string_elements),
    Codec(20, A.SparseElementsAttr, _read_sparse_elements, _w_sparse_elements),
    Codec(21, A.DistinctAttr, _read_distinct, _w_distinct),
    Codec(22, A.FileLineColRange, _read_file_line_col_range, _w_file_line_col_range),
)
"""Every builtin attribute code, indexed by code (reading is a table lookup, not a chain of tests)."""

TYPE_CODECS: tuple[Codec[T.Type], ...] = (
    Codec(0, T.IntegerType, _r_integer_type, _w_integer_type),
    Codec(1, T.IndexType, lambda r: T.IndexType.get(), _w_nothing),
    Codec(2, T.FunctionType, lambda r: T.FunctionType.get(_type_list(r), _type_list(r)),
          _w_function_type),
    _float_codec(3, "bf16"),
    _float_codec(4, "f16"),
    _float_codec(5, "f32"),
    _float_codec(6, "f64"),
    _float_codec(7, "f80"),
    _float_codec(8, "f128"),
    Codec(9, T.ComplexType, lambda r: T.ComplexType.get(r.type()), _w_element),
    Codec(10, T.MemRefType, _r_memref, _w_memref, lambda t: t.memory_space is None),
    Codec(11, T.MemRefType, _r_memref_space, _w_memref, lambda t: t.memory_space is not None),
    Codec(12, T.NoneType, lambda r: T.NoneType.get(), _w_nothing),
    Codec(13, T.RankedTensorType, _r_ranked_tensor, _w_ranked_tensor, lambda t: t.encoding is None),
    Codec(14, T.RankedTensorType, _r_ranked_tensor_encoded, _w_ranked_tensor,
          lambda t: t.encoding is not None),
    Codec(15, T.TupleType, lambda r: T.TupleType.get(_type_list(r)), _w_tuple),
    Codec(16, T.UnrankedMemRefType, lambda r: T.UnrankedMemRefType.get(element_of("memref", r.type()), None),
          _w_unranked_memref, lambda t: t.memory_space is None),
    Codec(17, T.UnrankedMemRefType, _r_unranked_memref_space, _w_unranked_memref,
          lambda t: t.memory_space is not None),
    Codec(18, T.UnrankedTensorType, lambda r: T.UnrankedTensorType.get(element_of("tensor", r.type())),
          _w_element),
    Codec(19, T.VectorType, _r_vector, _w_vector, lambda t: t.scalable is None),
    Codec(20, T.VectorType, _r_scalable_vector, _w_vector, lambda t: t.scalable is not None),
)
"""Every builtin type code, indexed by code."""

assert all(c.code == i for i, c in enumerate(ATTRIBUTE_CODECS))
assert all(c.code == i for i, c in enumerate(TYPE_CODECS))


def _by_class(codecs: tuple[Codec[X], ...]) -> dict[type, tuple[Codec[X], ...]]:
    out: dict[type, list[Codec[X]]] = {}
    for c in codecs:
        out.setdefault(c.cls, []).append(c)
    return {k: tuple(v) for k, v in out.items()}


_ATTR_BY_CLASS = _by_class(ATTRIBUTE_CODECS)
_TYPE_BY_CLASS = _by_class(TYPE_CODECS)


def decode_attribute(r: BuiltinReader) -> A.Attribute:
    code = r.varint()
    if code >= len(ATTRIBUTE_CODECS):
        raise UnknownCode(f"unknown builtin attribute code {code}")
    return ATTRIBUTE_CODECS[code].read(r)


def decode_type(r: BuiltinReader) -> T.Type:
    code = r.varint()
    if code >= len(TYPE_CODECS):
        raise UnknownCode(f"unknown builtin type code {code}")
    return TYPE_CODECS[code].read(r)


def _encode(x: object, by_class: dict[type, tuple[Codec[Any], ...]], w: BuiltinWriter) -> bool:
    for cls in type(x).__mro__:
        for c in by_class.get(cls, ()):
            if c.when(x):
                w.varint(c.code)
                c.write(x, w)
                return True
    return False


def encode_attribute(a: A.Attribute, w: BuiltinWriter) -> bool:
    """Write the custom encoding of a builtin attribute; False if it has none (stored as text)."""
    return _encode(a, _ATTR_BY_CLASS, w)


def encode_type(t: T.Type, w: BuiltinWriter) -> bool:
    """Write the custom encoding of a builtin type; False if it has none (stored as text)."""
    return _encode(t, _TYPE_BY_CLASS, w)
