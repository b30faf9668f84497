"""Attributes and locations, named and built as MLIR's Python bindings name and build them
(`StringAttr.get`, `IntegerAttr.get(type, value)`, `DenseElementsAttr.get(array)`, `Location.file(...)`,
`Attribute.parse(text)`), with `.value` where MLIR's have it.

An `Attribute` is a face over one of the IR's uniqued attributes: faces of the same attribute compare
equal and hash alike, `str(a)` is its MLIR text, and constructors return faces of the one uniqued IR
attribute.  Attributes read from a file get the face of their most specific class, so `isinstance(a,
IntegerAttr)` works and `IntegerAttr(a)` casts as in MLIR's bindings (ValueError otherwise).

Dense data of any dialect (a builtin `dense<...>`, a JAX export's `#vhlo.tensor_v1<...>`) is reached the
same way: `dense_type`, `dense_values()` (a NumPy array when NumPy is installed, else a memoryview),
`with_dense_data(array)`.  NumPy is never required: every constructor takes the buffer protocol.
"""

from __future__ import annotations

import math
import operator
import struct
import sys
from collections.abc import Iterator, Mapping, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import TextError
from ..ir import attributes as A
from ..ir import types as T
from ..ir.digest import Bytes
from ..ir.structured import StructuredAttr
from ..syntax.attr_printer import dense_storage, element_storage_bytes, print_attribute, print_location
from ..syntax.floats import FINITE, INF, NAN, SEMANTICS, decode_float, double_to_float
from .context import _pop, _push, _top
from .errors import IRError
from .types import ShapedType, Type, ir_type, wrap_type

if TYPE_CHECKING:
    from .context import Context

_new = object.__new__
_I1 = T.IntegerType.get(1)


class Attribute:
    """Any attribute (MLIR's `Attribute`); `Attribute(a)` casts `a` to the generic class."""

    __slots__ = ("_a",)
    _a: A.Attribute
    _ir: ClassVar[tuple[type, ...]] = (A.Attribute,)

    def __init__(self, cast_from_attr: Attribute) -> None:
        if not isinstance(cast_from_attr, Attribute):
            raise TypeError(f"expected an Attribute, got {type(cast_from_attr).__name__}")
        if not self.isinstance(cast_from_attr):
            raise ValueError(f"cannot cast attribute to {type(self).__name__} (from {cast_from_attr!r})")
        self._a = cast_from_attr._a

    @classmethod
    def isinstance(cls, other: object) -> bool:
        """Whether `other` is an attribute of this class (MLIR's `XAttr.isinstance(a)`)."""
        return isinstance(other, Attribute) and cls._accepts(other._a)

    @classmethod
    def _accepts(cls, a: A.Attribute) -> bool:
        return isinstance(a, cls._ir)

    @staticmethod
    def parse(asm: str, context: Context | None = None) -> Attribute:
        """The attribute written `asm` in MLIR syntax; raises `IRError` naming what is wrong."""
        from ..syntax.attr_parser import parse_attribute_text
        from .context import default_context

        ctx = context if context is not None else default_context()
        try:
            return wrap_attr(parse_attribute_text(asm, ctx.registry.syntax))
        except TextError as exc:
            raise IRError(f"cannot parse attribute {asm!r}: {exc}") from None

    def maybe_downcast(self) -> Attribute:
        return wrap_attr(self._a)

    def get_named(self, name: str) -> NamedAttribute:
        return NamedAttribute(name, self)

    @property
    def type(self) -> Type:
        """The attribute's type (NoneType for attributes without one)."""
        t = getattr(self._a, "type", None)
        return wrap_type(t if isinstance(t, T.Type) else T.NoneType.get())

    @property
    def context(self) -> Context:
        from .context import default_context

        return default_context()

    @property
    def dialect_namespace(self) -> str:
        """The dialect the attribute belongs to (`builtin` for builtin attributes)."""
        return self._a.dialect

    @property
    def is_fallback(self) -> bool:
        """An attribute of a custom encoding no model decodes, kept as its exact bytes."""
        return isinstance(self._a, A.FallbackAttr)

    # -- dense data of any dialect -----------------------------------------------------------------
    @property
    def dense_type(self) -> ShapedType | None:
        """The builtin shaped type describing the dense data this attribute holds (a `dense<...>`
        tensor, a dialect's tensor constant such as `#vhlo.tensor_v1<...>`), None when it holds none."""
        found = _payload(self._a)
        return wrap_type(found[0]) if found is not None else None  # type: ignore[return-value]

    def dense_values(self) -> Any:
        """The elements as a NumPy array of the dense type's shape when NumPy is installed, else as a
        flat memoryview of the element storage (`struct` format of the element type).  IRError for an
        attribute without dense data or elements NumPy cannot hold."""
        found = _payload(self._a)
        if found is None:
            raise IRError(f"{self} holds no dense data")
        shaped, data, encoding = found
        return _values(shaped, data, encoding)

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        """`numpy.array(attr)`: the elements of the dense data the attribute holds (a builtin `dense<...>`
        or a dialect's tensor constant such as `#vhlo.tensor_v1<...>`) in its shape; an attribute
        without dense data is one object, as NumPy takes any other object."""
        if _payload(self._a) is None:
            np = _numpy()
            if np is None:
                raise IRError(f"{self} holds no dense data")
            one = np.empty((), dtype=object)
            one[()] = self
            return one
        values = self.dense_values()
        return values if dtype is None else values.astype(dtype)

    def with_dense_data(self, array: Any) -> Attribute:
        """The same kind of attribute with the same type, holding the elements of `array` (anything with
        the buffer protocol, e.g. a NumPy array, whose element size matches the element type; a single
        element stands for all).  IRError when the elements do not fit."""
        found = _payload(self._a)
        if found is None:
            raise IRError(f"{self} holds no dense data")
        shaped, _, encoding = found
        element = shaped.element  # type: ignore[attr-defined]
        count = _count(shaped)
        data = _elements_from_buffer(array, element, count, self)
        a = self._a
        if isinstance(a, A.DenseElementsAttr):
            return wrap_attr(A.DenseElementsAttr.get(a.type, dense_storage(data, element, count)))
        assert isinstance(a, StructuredAttr)
        payload = a.payload()
        assert payload is not None
        if encoding == "vhlo-bool":
            data = _vhlo_bool_wire(data, count)
        elif _is_bool(element):
            data = _unpack_bits(data, count)
        return wrap_attr(a.with_field(payload.field, data))

    # -- comparison and text --------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Attribute) and other._a is self._a

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self._a)

    def __str__(self) -> str:
        return str(print_attribute(self._a))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self})"

    def dump(self) -> None:
        print(self)


def wrap_attr(a: A.Attribute) -> Attribute:
    """The face of IR attribute `a`, of its most specific class."""
    cls = _CLASSES.get(type(a), Attribute)
    if cls is IntegerAttr and a.type is _I1:  # type: ignore[attr-defined]
        cls = BoolAttr
    elif cls is DenseElementsAttr:
        e = a.type.element  # type: ignore[attr-defined]
        if isinstance(e, T.IntegerType | T.IndexType):
            cls = DenseIntElementsAttr
        elif isinstance(e, T.FloatType):
            cls = DenseFPElementsAttr
    elif cls is _DenseArray:
        cls = _ARRAY_CLASSES.get(_array_key(a.element_type), Attribute)  # type: ignore[attr-defined]
    f = _new(cls)
    f._a = a
    return f


def ir_attr(a: object, what: str = "attribute") -> A.Attribute:
    """The IR attribute of a face (TypeError for anything else)."""
    if isinstance(a, Attribute):
        return a._a
    raise TypeError(f"{what} must be an mlirbc Attribute, not {type(a).__name__}")


class NamedAttribute:
    """A name bound to an attribute (what iterating a `DictAttr` gives)."""

    __slots__ = ("name", "attr")

    def __init__(self, name: str, attr: Attribute) -> None:
        self.name = name
        self.attr = attr

    def __repr__(self) -> str:
        return f"NamedAttribute({self.name}={self.attr})"


# -- scalars ------------------------------------------------------------------------------------------------


class StringAttr(Attribute):
    """`"text"`: `value` (str), `value_bytes`; `StringAttr.get(str | bytes)`, `get_typed(type, str)`."""

    __slots__ = ()
    _ir = (A.StringAttr,)

    @staticmethod
    def get(value: str | bytes, context: Context | None = None) -> StringAttr:
        if not isinstance(value, str | bytes):
            raise TypeError(f"StringAttr.get takes str or bytes, not {type(value).__name__}")
        return wrap_attr(A.StringAttr.get(value))  # type: ignore[return-value]

    @staticmethod
    def get_typed(type: Type, value: str) -> StringAttr:
        return wrap_attr(A.StringAttr.get(value, ir_type(type)))  # type: ignore[return-value]

    @property
    def value(self) -> str:
        return self._a.text  # type: ignore[attr-defined,no-any-return]

    @property
    def value_bytes(self) -> bytes:
        return self._a.value  # type: ignore[attr-defined,no-any-return]


def _int_type(t: T.Type, what: str) -> T.Type:
    if not isinstance(t, T.IntegerType | T.IndexType):
        raise IRError(f"{what} needs an integer or index type, not {wrap_type(t)}")
    return t


def _width(t: T.Type) -> int:
    return t.width if isinstance(t, T.IntegerType) else 64


def _signed_value(bits: int, t: T.Type) -> int:
    """MLIR's reading of an integer: unsigned types as unsigned, the others two's complement."""
    w = _width(t)
    if w == 0 or (isinstance(t, T.IntegerType) and t.signedness == 2):
        return bits
    return bits - (1 << w) if bits >> (w - 1) & 1 else bits


def _int_bits(value: int, t: T.Type) -> int:
    w = _width(t)
    if w == 0:  # i0 holds only 0
        if value != 0:
            raise IRError(f"integer {value} does not fit {print_type_text(t)}")
        return 0
    sign = t.signedness if isinstance(t, T.IntegerType) else 0
    lo = 0 if sign == 2 else -(1 << (w - 1))
    hi = (1 << (w - 1)) - 1 if sign == 1 else (1 << w) - 1
    if not lo <= value <= hi:
        raise IRError(f"integer {value} does not fit {print_type_text(t)}")
    return value & ((1 << w) - 1)


def print_type_text(t: T.Type) -> str:
    return str(wrap_type(t))


class IntegerAttr(Attribute):
    """`42 : i32`: `value` (signed for signless and signed types), `type`; `IntegerAttr.get(type, value)`."""

    __slots__ = ()
    _ir = (A.IntegerAttr,)

    @staticmethod
    def get(type: Type, value: int) -> IntegerAttr:
        t = _int_type(ir_type(type), "IntegerAttr")
        try:
            value = operator.index(value)  # ints, bools and NumPy's integers, as MLIR's bindings take them
        except TypeError:
            raise TypeError(f"IntegerAttr.get takes an int, not {value.__class__.__name__}") from None
        return wrap_attr(A.IntegerAttr.get(t, _int_bits(value, t)))  # type: ignore[return-value]

    @property
    def value(self) -> int:
        return _signed_value(self._a.bits, self._a.type)  # type: ignore[attr-defined]

    def __int__(self) -> int:
        return self.value


class BoolAttr(IntegerAttr):
    """`true`/`false`: an `i1` integer attribute."""

    __slots__ = ()

    @classmethod
    def _accepts(cls, a: A.Attribute) -> bool:
        return isinstance(a, A.IntegerAttr) and a.type is _I1

    @staticmethod
    def get(value: bool, context: Context | None = None) -> BoolAttr:  # type: ignore[override]
        return wrap_attr(A.IntegerAttr.get(_I1, 1 if value else 0))  # type: ignore[return-value]

    @property
    def value(self) -> bool:
        return bool(self._a.bits)  # type: ignore[attr-defined]

    def __bool__(self) -> bool:
        return self.value


def _float_value(bits: int, name: str) -> float:
    sem = SEMANTICS[name]
    kind, sign, m, q = decode_float(bits, sem)
    if kind == NAN:
        return math.nan
    if kind == INF:
        return -math.inf if sign else math.inf
    if kind != FINITE:
        return -0.0 if sign else 0.0
    try:
        v = math.ldexp(m, q)
    except OverflowError:
        v = math.inf
    return -v if sign else v


class FloatAttr(Attribute):
    """`1.5 : f32`: `value` (a Python float); `FloatAttr.get(type, value)`, `get_f32`, `get_f64`
    (the value rounded to the type as upstream rounds it)."""

    __slots__ = ()
    _ir = (A.FloatAttr,)

    @staticmethod
    def get(type: Type, value: float, loc: object = None) -> FloatAttr:
        t = ir_type(type)
        if not isinstance(t, T.FloatType):
            raise IRError(f"FloatAttr needs a float type, not {type}")
        return wrap_attr(A.FloatAttr.get(t, double_to_float(float(value), SEMANTICS[t.name])))  # type: ignore[return-value]

    @staticmethod
    def get_unchecked(type: Type, value: float, context: Context | None = None) -> FloatAttr:
        return FloatAttr.get(type, value)

    @staticmethod
    def get_f32(value: float, context: Context | None = None) -> FloatAttr:
        return FloatAttr.get(wrap_type(T.FloatType.get("f32")), value)

    @staticmethod
    def get_f64(value: float, context: Context | None = None) -> FloatAttr:
        return FloatAttr.get(wrap_type(T.FloatType.get("f64")), value)

    @property
    def value(self) -> float:
        return _float_value(self._a.bits, self._a.type.name)  # type: ignore[attr-defined]

    def __float__(self) -> float:
        return self.value


class UnitAttr(Attribute):
    """`unit`: a present flag."""

    __slots__ = ()
    _ir = (A.UnitAttr,)

    @staticmethod
    def get(context: Context | None = None) -> UnitAttr:
        return wrap_attr(A.UnitAttr.get())  # type: ignore[return-value]


class TypeAttr(Attribute):
    """A type as an attribute: `value` is the type; `TypeAttr.get(type)`."""

    __slots__ = ()
    _ir = (A.TypeAttr,)

    @staticmethod
    def get(value: Type, context: Context | None = None) -> TypeAttr:
        return wrap_attr(A.TypeAttr.get(ir_type(value)))  # type: ignore[return-value]

    @property
    def value(self) -> Type:
        return wrap_type(self._a.type)  # type: ignore[attr-defined]


class FlatSymbolRefAttr(Attribute):
    """`@name`."""

    __slots__ = ()
    _ir = (A.FlatSymbolRefAttr,)

    @staticmethod
    def get(value: str, context: Context | None = None) -> FlatSymbolRefAttr:
        if not isinstance(value, str | bytes):
            raise TypeError(f"FlatSymbolRefAttr.get takes a str, not {type(value).__name__}")
        return wrap_attr(A.FlatSymbolRefAttr.get(A.StringAttr.get(value)))  # type: ignore[return-value]

    @property
    def value(self) -> str:
        return self._a.root.text  # type: ignore[attr-defined,no-any-return]


class SymbolRefAttr(Attribute):
    """`@root::@nested...` (a flat reference is a `FlatSymbolRefAttr`, which this class also accepts)."""

    __slots__ = ()
    _ir = (A.SymbolRefAttr, A.FlatSymbolRefAttr)

    @staticmethod
    def get(symbols: Sequence[str], context: Context | None = None) -> SymbolRefAttr:
        names = list(symbols)
        if not names:
            raise IRError("SymbolRefAttr needs at least one symbol name")
        root = A.StringAttr.get(names[0])
        if len(names) == 1:
            f = _new(SymbolRefAttr)
            f._a = A.FlatSymbolRefAttr.get(root)
            return f
        nested = tuple(A.FlatSymbolRefAttr.get(A.StringAttr.get(n)) for n in names[1:])
        return wrap_attr(A.SymbolRefAttr.get(root, nested))  # type: ignore[return-value]

    @property
    def value(self) -> list[str]:
        a = self._a
        if isinstance(a, A.FlatSymbolRefAttr):
            return [a.root.text]
        return [a.root.text] + [n.root.text for n in a.nested]  # type: ignore[attr-defined]


# -- containers ---------------------------------------------------------------------------------------------


class ArrayAttr(Attribute):
    """`[a, b, ...]`: a sequence of attributes; `ArrayAttr.get([...])`."""

    __slots__ = ()
    _ir = (A.ArrayAttr,)

    @staticmethod
    def get(attributes: Sequence[Attribute], context: Context | None = None) -> ArrayAttr:
        return wrap_attr(A.ArrayAttr.get(tuple(ir_attr(a, "ArrayAttr element") for a in attributes)))  # type: ignore[return-value]

    def __len__(self) -> int:
        return len(self._a.elements)  # type: ignore[attr-defined]

    def __getitem__(self, index: int) -> Attribute:
        return wrap_attr(self._a.elements[index])  # type: ignore[attr-defined]

    def __iter__(self) -> Iterator[Attribute]:
        return (wrap_attr(e) for e in self._a.elements)  # type: ignore[attr-defined]

    def __add__(self, other: Sequence[Attribute]) -> ArrayAttr:
        return ArrayAttr.get([*self, *other])


def dictionary(values: Mapping[str, A.Attribute]) -> A.DictionaryAttr:
    """The IR dictionary of these named IR attributes, sorted by name as MLIR keeps them."""
    entries = []
    for name in values:
        if not isinstance(name, str) or not name:
            raise IRError(f"attribute names must be non-empty strings, not {name!r}")
        entries.append((A.StringAttr.get(name), values[name]))
    entries.sort(key=lambda kv: kv[0].value)
    return A.DictionaryAttr.get(tuple(entries))


class DictAttr(Attribute):
    """`{name = value, ...}` (sorted by name, as MLIR keeps it): `d["name"]`, `"name" in d`, `len(d)`,
    iteration gives `NamedAttribute`s; `DictAttr.get({...})`."""

    __slots__ = ()
    _ir = (A.DictionaryAttr,)

    @staticmethod
    def get(value: Mapping[str, Attribute] | None = None, context: Context | None = None) -> DictAttr:
        items = dict(value or {})
        return wrap_attr(dictionary({k: ir_attr(v, f"attribute '{k}'") for k, v in items.items()}))  # type: ignore[return-value]

    def __len__(self) -> int:
        return len(self._a.entries)  # type: ignore[attr-defined]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._a.lookup(name) is not None  # type: ignore[attr-defined]

    def __getitem__(self, key: str | int) -> Any:
        if isinstance(key, int):
            k, v = self._a.entries[key]  # type: ignore[attr-defined]
            return NamedAttribute(k.text, wrap_attr(v))
        found = self._a.lookup(key)  # type: ignore[attr-defined]
        if found is None:
            raise KeyError(key)
        return wrap_attr(found)

    def __iter__(self) -> Iterator[NamedAttribute]:
        return (NamedAttribute(k.text, wrap_attr(v)) for k, v in self._a.entries)  # type: ignore[attr-defined]


# -- dense elements -----------------------------------------------------------------------------------------


def _is_bool(t: T.Type) -> bool:
    return isinstance(t, T.IntegerType) and t.width == 1


def _count(shaped: T.Type) -> int:
    n = 1
    for d in getattr(shaped, "shape", ()):
        if d < 0:
            raise IRError(f"dense data needs a static shape, not {wrap_type(shaped)}")
        n *= d
    return n


_FORMATS: dict[str, tuple[str, int, bool]] = {
    "b": ("int", 8, True), "B": ("int", 8, False), "h": ("int", 16, True), "H": ("int", 16, False),
    "i": ("int", 32, True), "I": ("int", 32, False), "l": ("int", 0, True), "L": ("int", 0, False),
    "q": ("int", 64, True), "Q": ("int", 64, False), "n": ("int", 0, True), "N": ("int", 0, False),
    "e": ("float", 16, True), "f": ("float", 32, True), "d": ("float", 64, True), "?": ("bool", 1, False),
    "Zf": ("complex", 32, True), "Zd": ("complex", 64, True),
}
"""struct/NumPy buffer formats: kind, bits (0: the item size says), signed."""


def _buffer(array: Any) -> tuple[memoryview, str, tuple[int, ...]]:
    """A C-contiguous, little-endian byte view of `array`, its format letter and its shape."""
    try:
        mv = memoryview(array)
    except TypeError:
        raise TypeError(f"expected an object with the buffer protocol (a NumPy array, array.array, "
                        f"bytes), not {type(array).__name__}") from None
    if not mv.c_contiguous:
        np = _numpy()
        if np is None:
            raise IRError("the array is not C-contiguous (make a contiguous copy)")
        mv = memoryview(np.ascontiguousarray(array))
    fmt = mv.format
    order = fmt[0] if fmt and fmt[0] in "<>=!@" else ""
    letter = fmt[len(order):]
    if order in (">", "!") or (order in ("", "@", "=") and sys.byteorder == "big"):
        raise IRError("big-endian arrays are not supported: convert to little-endian first")
    shape = tuple(mv.shape or ())
    return mv.cast("B"), letter, shape


def _element_for(letter: str, itemsize: int, signless: bool) -> T.Type:
    spec = _FORMATS.get(letter)
    if spec is None:
        raise IRError(f"cannot infer an element type from buffer format {letter!r}: pass type=")
    kind, bits, signed = spec
    bits = bits or itemsize * 8
    if kind == "bool":
        return _I1
    if kind == "float":
        return T.FloatType.get({16: "f16", 32: "f32", 64: "f64"}[bits])
    if kind == "complex":
        return T.ComplexType.get(T.FloatType.get({32: "f32", 64: "f64"}[bits]))
    return T.IntegerType.get(bits, 0 if signless else (1 if signed else 2))


def _pack_bits(flags: Bytes) -> bytes:
    out = bytearray((len(flags) + 7) // 8)
    for i, f in enumerate(flags):
        if f:
            out[i // 8] |= 1 << (i % 8)
    return bytes(out)


def _unpack_bits(packed: Bytes, count: int) -> bytes:
    if len(packed) == 1 and count > 1:  # a splat
        return bytes([1 if packed[0] else 0])
    return bytes((packed[i // 8] >> (i % 8)) & 1 for i in range(count))


def _vhlo_bool_wire(packed: Bytes, count: int) -> bytes:
    """VHLO stores a boolean splat as one byte 0xFF/0x00, other data bit-packed (as packed here)."""
    if len(packed) == 1 and count > 1:
        return b"\xff" if packed[0] & 1 else b"\x00"
    return bytes(packed)


def _elements_from_buffer(array: Any, element: T.Type, count: int, what: object) -> bytes:
    """The dense storage of `count` elements of type `element` from a buffer (one element: a splat):
    little-endian elements, booleans bit-packed."""
    mv, letter, _ = _buffer(array)
    if _is_bool(element):
        if letter not in ("?", "b", "B"):
            raise IRError(f"boolean elements need a bool or byte array, not format {letter!r}")
        flags = bytes(mv)
        if len(flags) not in (1, count):
            raise IRError(f"{what}: {len(flags)} elements given for {count}")
        if len(flags) == 1:
            return b"\x01" if flags[0] else b"\x00"
        return _pack_bits(flags)
    size = element_storage_bytes(element)
    if size is None:
        raise IRError(f"{what}: elements of type {wrap_type(element)} cannot be set from a buffer")
    spec = _FORMATS.get(letter)
    itemsize = _itemsize(array)
    expect_float = isinstance(element, T.FloatType) or (isinstance(element, T.ComplexType)
                                                        and isinstance(element.element, T.FloatType))
    if spec is not None and spec[0] in ("float", "complex") and not expect_float:
        raise IRError(f"{what}: a float array cannot give elements of type {wrap_type(element)}")
    if spec is not None and spec[0] in ("int", "bool") and expect_float and \
            not (isinstance(element, T.FloatType) and element.name not in ("f16", "f32", "f64")):
        raise IRError(f"{what}: an integer array cannot give elements of type {wrap_type(element)}")
    if itemsize != size:
        raise IRError(f"{what}: array elements of {itemsize} bytes cannot be elements of type "
                      f"{wrap_type(element)} ({size} bytes each)")
    n = len(mv) // size
    if n not in (1, count) or len(mv) % size:
        raise IRError(f"{what}: {n} elements given for {count}")
    return bytes(mv)


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        return None
    return numpy


_NP_TYPES = {("int", 8, 1): "i1", ("int", 8, 2): "u1", ("int", 8, 0): "i1", ("int", 16, 1): "<i2",
             ("int", 16, 2): "<u2", ("int", 16, 0): "<i2", ("int", 32, 1): "<i4", ("int", 32, 2): "<u4",
             ("int", 32, 0): "<i4", ("int", 64, 1): "<i8", ("int", 64, 2): "<u8", ("int", 64, 0): "<i8"}


def _struct_format(element: T.Type) -> str | None:
    if isinstance(element, T.IndexType):
        return "q"
    if isinstance(element, T.IntegerType) and element.width in (8, 16, 32, 64):
        letter = {8: "b", 16: "h", 32: "i", 64: "q"}[element.width]
        return letter.upper() if element.signedness == 2 else letter
    if isinstance(element, T.FloatType):
        return {"f16": "e", "f32": "f", "f64": "d"}.get(element.name)
    return None


def _values(shaped: T.Type, data: Bytes, encoding: str) -> Any:
    element = shaped.element  # type: ignore[attr-defined]
    count = _count(shaped)
    shape = tuple(getattr(shaped, "shape", ()))
    if _is_bool(element):
        raw = bytes(data) if encoding == "vhlo-bool" and len(data) == count else \
            _unpack_bits(b"\x01" if encoding == "vhlo-bool" and len(data) == 1 and data[0] == 0xFF
                         else data, count)
        if len(raw) == 1 and count != 1:
            raw = raw * count
        np = _numpy()
        if np is None:
            return memoryview(raw).cast("?")
        return np.frombuffer(raw, dtype=bool).reshape(shape)
    fmt = _struct_format(element)
    size = element_storage_bytes(element)
    if size is not None and len(data) == size and count != 1:
        data = bytes(data) * count  # a splat
    np = _numpy()
    if np is None:
        if fmt is None:
            raise IRError(f"elements of type {wrap_type(element)} need NumPy to be read")
        return memoryview(bytes(data)).cast(fmt)  # type: ignore[call-overload]
    if fmt is not None:
        return np.frombuffer(bytes(data), dtype=np.dtype(fmt).newbyteorder("<")).reshape(shape)
    if isinstance(element, T.FloatType) and element.name == "bf16":
        try:
            import ml_dtypes
        except ImportError:
            raise IRError("bf16 elements need ml_dtypes to be read as an array") from None
        return np.frombuffer(bytes(data), dtype=ml_dtypes.bfloat16).reshape(shape)
    if isinstance(element, T.ComplexType) and isinstance(element.element, T.FloatType) and \
            element.element.name in ("f32", "f64"):
        dt = np.complex64 if element.element.name == "f32" else np.complex128
        return np.frombuffer(bytes(data), dtype=dt).reshape(shape)
    raise IRError(f"elements of type {wrap_type(element)} cannot be read as an array")


def _payload(a: A.Attribute) -> tuple[T.Type, Bytes, str] | None:
    """(builtin shaped type, stored data, encoding) of the dense data an attribute holds."""
    if isinstance(a, A.DenseElementsAttr):
        return a.type, a.data, "raw-packed"
    if isinstance(a, StructuredAttr):
        p = a.payload()
        if p is not None:
            return p.shaped_type, p.data, p.encoding
    return None


class DenseElementsAttr(Attribute):
    """`dense<...> : T` of integers, floats or complex numbers (the raw data of MLIR's storage)."""

    __slots__ = ()
    _ir = (A.DenseElementsAttr,)

    @staticmethod
    def get(array: Any, signless: bool = True, type: Type | None = None,
            shape: Sequence[int] | None = None, context: Context | None = None) -> DenseElementsAttr:
        """From a buffer (a NumPy array, `array.array`, ...) as MLIR's bindings: the element type from the
        buffer's format unless `type` is given (an element type, or a whole shaped type), the shape from
        the buffer unless `shape` is given; one element with a larger shape is a splat.  A list of
        attributes is taken too (`type`: the shaped type, else a 1-d tensor of the first's type)."""
        if isinstance(array, list | tuple) and (not array or isinstance(array[0], Attribute)):
            return DenseElementsAttr._from_attributes(list(array), type)
        mv, letter, buf_shape = _buffer(array)
        explicit = ir_type(type) if type is not None else None
        if isinstance(explicit, T.ShapedType):
            element = explicit.element
            dims = tuple(getattr(explicit, "shape", ()))
        else:
            element = explicit if explicit is not None else _element_for(letter, _itemsize(array), signless)
            dims = tuple(shape) if shape is not None else buf_shape
        tensor = T.RankedTensorType.get(dims, element) if not isinstance(explicit, T.ShapedType) \
            else explicit
        problem = T.element_type_problem("tensor", element)
        if problem is not None:
            raise IRError(problem)
        count = _count(tensor)
        data = _elements_from_buffer(array, element, count, "DenseElementsAttr.get")
        return wrap_attr(A.DenseElementsAttr.get(tensor, dense_storage(data, element, count)))  # type: ignore[return-value]

    @staticmethod
    def _from_attributes(attrs: list[Attribute], type: Type | None) -> DenseElementsAttr:
        if not attrs and type is None:
            raise IRError("DenseElementsAttr.get of an empty list needs type=")
        irs = [ir_attr(a) for a in attrs]
        element = irs[0].type if irs else ir_type(type).element  # type: ignore[attr-defined]
        tensor = ir_type(type) if type is not None else T.RankedTensorType.get((len(irs),), element)
        if not isinstance(tensor, T.ShapedType):
            raise IRError(f"type must be a shaped type, not {type}")
        element = tensor.element
        count = _count(tensor)
        if len(irs) not in (1, count):
            raise IRError(f"{len(irs)} attributes given for {count} elements")
        parts = [_element_bytes(a, element) for a in irs]
        if _is_bool(element):
            data = _pack_bits(b"".join(parts)) if len(parts) > 1 else parts[0]
        else:
            data = b"".join(parts)
        return wrap_attr(A.DenseElementsAttr.get(tensor, dense_storage(data, element, count)))  # type: ignore[return-value]

    @staticmethod
    def get_splat(shaped_type: Type, element_attr: Attribute) -> DenseElementsAttr:
        t = ir_type(shaped_type)
        if not isinstance(t, T.ShapedType):
            raise IRError(f"get_splat needs a shaped type, not {shaped_type}")
        data = _element_bytes(ir_attr(element_attr), t.element)
        return wrap_attr(A.DenseElementsAttr.get(t, data))  # type: ignore[return-value]

    @property
    def is_splat(self) -> bool:
        a = self._a
        assert isinstance(a, A.DenseElementsAttr)
        element = a.type.element  # type: ignore[attr-defined]
        count = _count(a.type)
        if _is_bool(element):
            return count == 1 or (len(a.data) == 1 and (count > 8 or a.data[0] in (0, 0xFF)))
        size = element_storage_bytes(element)
        return size is not None and len(a.data) == size

    def get_splat_value(self) -> Attribute:
        """The one element of a splat, as an attribute (IntegerAttr, FloatAttr, BoolAttr)."""
        if not self.is_splat:
            raise ValueError(f"{self} is not a splat")
        a = self._a
        element = a.type.element  # type: ignore[attr-defined]
        if _is_bool(element):
            return wrap_attr(A.IntegerAttr.get(_I1, a.data[0] & 1))  # type: ignore[attr-defined]
        bits = int.from_bytes(bytes(a.data), "little")  # type: ignore[attr-defined]
        if isinstance(element, T.FloatType):
            return wrap_attr(A.FloatAttr.get(element, bits))
        if isinstance(element, T.IntegerType | T.IndexType):
            return wrap_attr(A.IntegerAttr.get(element, bits))
        raise IRError(f"elements of type {wrap_type(element)} have no attribute form here")

    def __len__(self) -> int:
        return _count(self._a.type)  # type: ignore[attr-defined]

    def __getitem__(self, index: int) -> Any:
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(index)
        return _element_attr(self._a, index)


def _itemsize(array: Any) -> int:
    return memoryview(array).itemsize


def _element_bytes(a: A.Attribute, element: T.Type) -> bytes:
    if _is_bool(element):
        if not isinstance(a, A.IntegerAttr) or a.type is not element:
            raise IRError(f"element {print_attribute(a)} is not of type i1")
        return b"\x01" if a.bits else b"\x00"
    size = element_storage_bytes(element)
    if isinstance(a, A.IntegerAttr | A.FloatAttr) and a.type is element and size is not None:
        return a.bits.to_bytes(size, "little")
    raise IRError(f"element {print_attribute(a)} is not of type {wrap_type(element)}")


def _element_attr(a: A.Attribute, index: int) -> Any:
    """Element `index` of a dense elements attribute, as MLIR's bindings give it (int, float, bool)."""
    data = a.data  # type: ignore[attr-defined]
    element = a.type.element  # type: ignore[attr-defined]
    if _is_bool(element):
        if len(data) == 1 and _count(a.type) > 1:  # type: ignore[attr-defined]
            return bool(data[0] & 1)
        return bool((data[index // 8] >> (index % 8)) & 1)
    size = element_storage_bytes(element)
    if size is None:
        raise IRError(f"elements of type {wrap_type(element)} cannot be read one by one")
    if len(data) == size:
        index = 0
    bits = int.from_bytes(bytes(data[index * size:(index + 1) * size]), "little")
    if isinstance(element, T.IntegerType | T.IndexType):
        return _signed_value(bits, element)
    if isinstance(element, T.FloatType):
        return _float_value(bits, element.name)
    raise IRError(f"elements of type {wrap_type(element)} cannot be read one by one")


class DenseIntElementsAttr(DenseElementsAttr):
    """Dense elements of an integer or index type (`attr[i]` is an int)."""

    __slots__ = ()

    @classmethod
    def _accepts(cls, a: A.Attribute) -> bool:
        return isinstance(a, A.DenseElementsAttr) and isinstance(a.type.element, T.IntegerType | T.IndexType)  # type: ignore[attr-defined]


class DenseFPElementsAttr(DenseElementsAttr):
    """Dense elements of a float type (`attr[i]` is a float)."""

    __slots__ = ()

    @classmethod
    def _accepts(cls, a: A.Attribute) -> bool:
        return isinstance(a, A.DenseElementsAttr) and isinstance(a.type.element, T.FloatType)  # type: ignore[attr-defined]


class DenseResourceElementsAttr(Attribute):
    """`dense_resource<key> : T`: the data lives in the module's resources."""

    __slots__ = ()
    _ir = (A.DenseResourceElementsAttr,)

    @property
    def name(self) -> str:
        return self._a.key  # type: ignore[attr-defined,no-any-return]


# -- dense arrays (array<i64: 1, 2>) -----------------------------------------------------------------------


class _DenseArray(Attribute):
    """Common base of the dense array attributes (`array<T: ...>`)."""

    __slots__ = ()
    _ir = (A.DenseArrayAttr,)
    _element: ClassVar[str] = ""
    _fmt: ClassVar[str] = ""

    @classmethod
    def _accepts(cls, a: A.Attribute) -> bool:
        return isinstance(a, A.DenseArrayAttr) and _array_key(a.element_type) == cls._element

    @classmethod
    def _element_type(cls) -> T.Type:
        if cls._element.startswith("f"):
            return T.FloatType.get(cls._element)
        return T.IntegerType.get(int(cls._element[1:]))

    @classmethod
    def _get(cls, values: Sequence[Any]) -> Any:
        vals = list(values)
        et = cls._element_type()
        if cls._fmt == "?":
            data = bytes(1 if v else 0 for v in vals)
        elif cls._fmt in ("f", "d"):
            data = struct.pack(f"<{len(vals)}{cls._fmt}", *[float(v) for v in vals])
        else:
            w = et.width  # type: ignore[attr-defined]
            data = b"".join(_int_bits(int(v), et).to_bytes(w // 8, "little") for v in vals)
        return wrap_attr(A.DenseArrayAttr.get(et, len(vals), data))

    def _items(self) -> list[Any]:
        a = self._a
        if self._fmt == "?":
            return [bool(b) for b in bytes(a.data)]  # type: ignore[attr-defined]
        return list(struct.unpack(f"<{a.count}{self._fmt}", bytes(a.data)))  # type: ignore[attr-defined]

    def __len__(self) -> int:
        return self._a.count  # type: ignore[attr-defined,no-any-return]

    def __getitem__(self, index: int) -> Any:
        return self._items()[index]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._items())

    def __add__(self, other: Sequence[Any]) -> Any:
        return type(self)._get([*self._items(), *other])


def _array_key(t: T.Type) -> str:
    if isinstance(t, T.IntegerType):
        return f"i{t.width}"
    if isinstance(t, T.FloatType):
        return t.name
    return ""


class DenseBoolArrayAttr(_DenseArray):
    """`array<i1: true, false>`."""

    __slots__ = ()
    _element, _fmt = "i1", "?"

    @staticmethod
    def get(values: Sequence[bool], context: Context | None = None) -> DenseBoolArrayAttr:
        return DenseBoolArrayAttr._get(values)  # type: ignore[no-any-return]


class DenseI8ArrayAttr(_DenseArray):
    """`array<i8: ...>`."""

    __slots__ = ()
    _element, _fmt = "i8", "b"

    @staticmethod
    def get(values: Sequence[int], context: Context | None = None) -> DenseI8ArrayAttr:
        return DenseI8ArrayAttr._get(values)  # type: ignore[no-any-return]


class DenseI16ArrayAttr(_DenseArray):
    """`array<i16: ...>`."""

    __slots__ = ()
    _element, _fmt = "i16", "h"

    @staticmethod
    def get(values: Sequence[int], context: Context | None = None) -> DenseI16ArrayAttr:
        return DenseI16ArrayAttr._get(values)  # type: ignore[no-any-return]


class DenseI32ArrayAttr(_DenseArray):
    """`array<i32: ...>`."""

    __slots__ = ()
    _element, _fmt = "i32", "i"

    @staticmethod
    def get(values: Sequence[int], context: Context | None = None) -> DenseI32ArrayAttr:
        return DenseI32ArrayAttr._get(values)  # type: ignore[no-any-return]


class DenseI64ArrayAttr(_DenseArray):
    """`array<i64: ...>` (sizes, permutations, strides)."""

    __slots__ = ()
    _element, _fmt = "i64", "q"

    @staticmethod
    def get(values: Sequence[int], context: Context | None = None) -> DenseI64ArrayAttr:
        return DenseI64ArrayAttr._get(values)  # type: ignore[no-any-return]


class DenseF32ArrayAttr(_DenseArray):
    """`array<f32: ...>`."""

    __slots__ = ()
    _element, _fmt = "f32", "f"

    @staticmethod
    def get(values: Sequence[float], context: Context | None = None) -> DenseF32ArrayAttr:
        return DenseF32ArrayAttr._get(values)  # type: ignore[no-any-return]


class DenseF64ArrayAttr(_DenseArray):
    """`array<f64: ...>`."""

    __slots__ = ()
    _element, _fmt = "f64", "d"

    @staticmethod
    def get(values: Sequence[float], context: Context | None = None) -> DenseF64ArrayAttr:
        return DenseF64ArrayAttr._get(values)  # type: ignore[no-any-return]


_ARRAY_CLASSES: dict[str, type[Attribute]] = {
    c._element: c for c in (DenseBoolArrayAttr, DenseI8ArrayAttr, DenseI16ArrayAttr, DenseI32ArrayAttr,
                            DenseI64ArrayAttr, DenseF32ArrayAttr, DenseF64ArrayAttr)}


# -- locations -------------------------------------------------------------------------------------------


class Location:
    """A source location (MLIR's `Location`): `Location.unknown()`, `.file(name, line, col)`,
    `.name(name, child)`, `.fused([...])`, `.callsite(callee, frames)`; `str(loc)` is `loc(...)`.
    Usable as a context manager: ops created inside get it by default."""

    __slots__ = ("_a",)

    def __init__(self, attr: Attribute) -> None:
        a = ir_attr(attr)
        if not A.is_location(a):
            raise ValueError(f"{attr} is not a location")
        self._a = a

    @staticmethod
    def _of(a: A.Attribute) -> Location:
        loc = _new(Location)
        loc._a = a
        return loc

    @staticmethod
    def unknown(context: Context | None = None) -> Location:
        return Location._of(A.UnknownLoc.get())

    @staticmethod
    def file(filename: str, line: int, col: int, end_line: int | Context | None = None,
             end_col: int | None = None, context: Context | None = None) -> Location:
        """`"filename":line:col`, or the range to `end_line:end_col` (MLIR's two overloads)."""
        name = A.StringAttr.get(filename)
        if end_line is None or not isinstance(end_line, int):
            return Location._of(A.FileLineColLoc.get(name, int(line), int(col)))
        from ..syntax.attr_parser import file_range

        return Location._of(file_range(name, int(line), int(col), int(end_line),
                                       int(end_col if end_col is not None else col)))

    @staticmethod
    def name(name: str, childLoc: Location | None = None, context: Context | None = None) -> Location:  # noqa: N803
        child = childLoc._a if childLoc is not None else A.UnknownLoc.get()
        return Location._of(A.NameLoc.get(A.StringAttr.get(name), child))

    @staticmethod
    def fused(locations: Sequence[Location], metadata: Attribute | None = None,
              context: Context | None = None) -> Location:
        meta = ir_attr(metadata) if metadata is not None else None
        return Location._of(A.fuse_locations([loc._a for loc in locations], meta))

    @staticmethod
    def callsite(callee: Location, frames: Sequence[Location], context: Context | None = None) -> Location:
        if not frames:
            raise IRError("Location.callsite needs at least one frame")
        caller = frames[-1]._a
        for frame in reversed(frames[:-1]):
            caller = A.CallSiteLoc.get(frame._a, caller)
        return Location._of(A.CallSiteLoc.get(callee._a, caller))

    @staticmethod
    def from_attr(attribute: Attribute, context: Context | None = None) -> Location:
        return Location(attribute)

    @property
    def attr(self) -> Attribute:
        return wrap_attr(self._a)

    @property
    def context(self) -> Context:
        from .context import default_context

        return default_context()

    def is_a_file(self) -> bool:
        return isinstance(self._a, A.FileLineColLoc | A.FileLineColRange)

    def is_a_name(self) -> bool:
        return isinstance(self._a, A.NameLoc)

    def is_a_callsite(self) -> bool:
        return isinstance(self._a, A.CallSiteLoc)

    def is_a_fused(self) -> bool:
        return isinstance(self._a, A.FusedLoc)

    def is_a_unknown(self) -> bool:
        return isinstance(self._a, A.UnknownLoc)

    def _range(self) -> tuple[str, int, int, int, int]:
        a = self._a
        if isinstance(a, A.FileLineColLoc):
            return a.filename.text, a.line, a.column, a.line, a.column
        if isinstance(a, A.FileLineColRange):
            n = a.numbers
            sl = n[0] if n else 0
            sc = n[1] if len(n) > 1 else 0
            if len(n) == 4:
                return a.filename.text, sl, sc, n[2], n[3]
            return a.filename.text, sl, sc, sl, n[2] if len(n) == 3 else sc
        raise ValueError(f"{self} is not a file location")

    @property
    def filename(self) -> str:
        return self._range()[0]

    @property
    def start_line(self) -> int:
        return self._range()[1]

    @property
    def start_col(self) -> int:
        return self._range()[2]

    @property
    def end_line(self) -> int:
        return self._range()[3]

    @property
    def end_col(self) -> int:
        return self._range()[4]

    @property
    def name_str(self) -> str:
        if not isinstance(self._a, A.NameLoc):
            raise ValueError(f"{self} is not a name location")
        return self._a.name.text

    @property
    def child_loc(self) -> Location:
        if not isinstance(self._a, A.NameLoc):
            raise ValueError(f"{self} is not a name location")
        return Location._of(self._a.child)

    @property
    def callee(self) -> Location:
        if not isinstance(self._a, A.CallSiteLoc):
            raise ValueError(f"{self} is not a callsite location")
        return Location._of(self._a.callee)

    @property
    def caller(self) -> Location:
        if not isinstance(self._a, A.CallSiteLoc):
            raise ValueError(f"{self} is not a callsite location")
        return Location._of(self._a.caller)

    @property
    def locations(self) -> list[Location]:
        if not isinstance(self._a, A.FusedLoc):
            raise ValueError(f"{self} is not a fused location")
        return [Location._of(x) for x in self._a.locations]

    def __enter__(self) -> Location:
        _push("location", self)
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        _pop("location", self)

    @staticmethod
    def _current_or_none() -> Location | None:
        found = _top("location")
        return found if isinstance(found, Location) else None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Location) and other._a is self._a

    def __hash__(self) -> int:
        return hash(self._a)

    def __str__(self) -> str:
        return f"loc({print_location(self._a)})"

    def __repr__(self) -> str:
        return str(self)


class _CurrentLocation:
    """`Location.current`: the innermost `with Location...:`, None outside any (as MLIR's bindings)."""

    def __get__(self, obj: object, owner: type | None = None) -> Location | None:
        return Location._current_or_none()


Location.current = _CurrentLocation()  # type: ignore[attr-defined]


_CLASSES: dict[type, type[Attribute]] = {
    A.StringAttr: StringAttr, A.IntegerAttr: IntegerAttr, A.FloatAttr: FloatAttr, A.UnitAttr: UnitAttr,
    A.TypeAttr: TypeAttr, A.FlatSymbolRefAttr: FlatSymbolRefAttr, A.SymbolRefAttr: SymbolRefAttr,
    A.ArrayAttr: ArrayAttr, A.DictionaryAttr: DictAttr, A.DenseElementsAttr: DenseElementsAttr,
    A.DenseResourceElementsAttr: DenseResourceElementsAttr, A.DenseArrayAttr: _DenseArray,
}

__all__ = ["Attribute", "NamedAttribute", "StringAttr", "IntegerAttr", "BoolAttr", "FloatAttr", "UnitAttr",
           "TypeAttr", "FlatSymbolRefAttr", "SymbolRefAttr", "ArrayAttr", "DictAttr", "DenseElementsAttr",
           "DenseIntElementsAttr", "DenseFPElementsAttr", "DenseResourceElementsAttr", "DenseBoolArrayAttr",
           "DenseI8ArrayAttr", "DenseI16ArrayAttr", "DenseI32ArrayAttr", "DenseI64ArrayAttr",
           "DenseF32ArrayAttr", "DenseF64ArrayAttr", "Location"]
