"""Types, named and built as MLIR's Python bindings name and build them (`IntegerType.get_signless(32)`,
`F32Type.get()`, `RankedTensorType.get(shape, element_type)`, `Type.parse(text)`).

A `Type` is a face over one of the IR's uniqued types: two faces of the same type compare equal and hash
alike, `str(t)` is the type's MLIR text, and constructors return faces of the one uniqued IR type (no
copy is ever made).  `Type(t)` and `IntegerType(t)` cast as in MLIR's bindings (ValueError when `t` is
not of that kind); the face of a type read from a file is already of its most specific class.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import TYPE_CHECKING, ClassVar

from ..errors import TextError
from ..ir import types as T
from ..ir.structured import StructuredType
from ..syntax.attr_printer import identity_layout_text, print_type
from .errors import IRError

if TYPE_CHECKING:
    from .attributes import Attribute
    from .context import Context

_new = object.__new__


def _check(ok: bool, what: str) -> None:
    if not ok:
        raise IRError(what)


class Type:
    """Any type (MLIR's `Type`); `Type(t)` casts `t` to the generic class."""

    __slots__ = ("_t",)
    _t: T.Type
    _ir: ClassVar[tuple[type, ...]] = (T.Type,)

    def __init__(self, cast_from_type: Type) -> None:
        if not isinstance(cast_from_type, Type):
            raise TypeError(f"expected a Type, got {type(cast_from_type).__name__}")
        if not self.isinstance(cast_from_type):
            raise ValueError(f"cannot cast type to {type(self).__name__} (from {cast_from_type!r})")
        self._t = cast_from_type._t

    @classmethod
    def isinstance(cls, other: object) -> bool:
        """Whether `other` is a type of this class (MLIR's `XType.isinstance(t)`)."""
        return isinstance(other, Type) and cls._accepts(other._t)

    @classmethod
    def _accepts(cls, t: T.Type) -> bool:
        return isinstance(t, cls._ir)

    @staticmethod
    def parse(asm: str, context: Context | None = None) -> Type:
        """The type written `asm` in MLIR syntax; raises `IRError` naming what is wrong."""
        from ..syntax.attr_parser import parse_type_text
        from .context import default_context

        ctx = context if context is not None else default_context()
        try:
            return wrap_type(parse_type_text(asm, ctx.registry.syntax))
        except TextError as exc:
            raise IRError(f"cannot parse type {asm!r}: {exc}") from None

    def maybe_downcast(self) -> Type:
        return wrap_type(self._t)

    @property
    def context(self) -> Context:
        from .context import default_context

        return default_context()

    @property
    def dialect_namespace(self) -> str:
        """The dialect the type belongs to (`builtin` for builtin types)."""
        return self._t.dialect

    @property
    def is_fallback(self) -> bool:
        """A type of a custom encoding no model decodes, kept as its exact bytes."""
        return isinstance(self._t, T.FallbackType)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Type) and other._t is self._t

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self._t)

    def __str__(self) -> str:
        return str(print_type(self._t))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self})"

    def dump(self) -> None:
        print(self)


def wrap_type(t: T.Type) -> Type:
    """The face of IR type `t`, of its most specific class."""
    cls: type[Type]
    if isinstance(t, T.FloatType):
        cls = _FLOAT_CLASSES.get(t.name, FloatType)
    else:
        cls = _CLASSES.get(type(t), Type)
    f = _new(cls)
    f._t = t
    return f


def ir_type(t: object, what: str = "type") -> T.Type:
    """The IR type of a face (TypeError for anything else)."""
    if isinstance(t, Type):
        return t._t
    raise TypeError(f"{what} must be an mlirbc Type, not {type(t).__name__}")


class IntegerType(Type):
    """`iN`, `siN`, `uiN`."""

    __slots__ = ()
    _ir = (T.IntegerType,)

    class Signedness(Enum):
        SIGNLESS = 0
        SIGNED = 1
        UNSIGNED = 2

    SIGNLESS: ClassVar[IntegerType.Signedness] = Signedness.SIGNLESS
    SIGNED: ClassVar[IntegerType.Signedness] = Signedness.SIGNED
    UNSIGNED: ClassVar[IntegerType.Signedness] = Signedness.UNSIGNED

    @staticmethod
    def get(width: int, signedness: IntegerType.Signedness = Signedness.SIGNLESS,
            context: Context | None = None) -> IntegerType:
        _check(isinstance(width, int) and 0 <= width <= 16_777_215,
               f"integer width must be between 0 and 16777215, not {width!r}")
        return wrap_type(T.IntegerType.get(width, IntegerType.Signedness(signedness).value))  # type: ignore[return-value]

    @staticmethod
    def get_signless(width: int, context: Context | None = None) -> IntegerType:
        return IntegerType.get(width, IntegerType.Signedness.SIGNLESS)

    @staticmethod
    def get_signed(width: int, context: Context | None = None) -> IntegerType:
        return IntegerType.get(width, IntegerType.Signedness.SIGNED)

    @staticmethod
    def get_unsigned(width: int, context: Context | None = None) -> IntegerType:
        return IntegerType.get(width, IntegerType.Signedness.UNSIGNED)

    @property
    def width(self) -> int:
        return self._t.width  # type: ignore[attr-defined,no-any-return]

    @property
    def signedness(self) -> IntegerType.Signedness:
        return IntegerType.Signedness(self._t.signedness)  # type: ignore[attr-defined]

    @property
    def is_signless(self) -> bool:
        return self._t.signedness == 0  # type: ignore[attr-defined,no-any-return]

    @property
    def is_signed(self) -> bool:
        return self._t.signedness == 1  # type: ignore[attr-defined,no-any-return]

    @property
    def is_unsigned(self) -> bool:
        return self._t.signedness == 2  # type: ignore[attr-defined,no-any-return]


class IndexType(Type):
    """`index`."""

    __slots__ = ()
    _ir = (T.IndexType,)

    @staticmethod
    def get(context: Context | None = None) -> IndexType:
        return wrap_type(T.IndexType.get())  # type: ignore[return-value]


class NoneType(Type):
    """`none`."""

    __slots__ = ()
    _ir = (T.NoneType,)

    @staticmethod
    def get(context: Context | None = None) -> NoneType:
        return wrap_type(T.NoneType.get())  # type: ignore[return-value]


class FloatType(Type):
    """Any builtin float type; each has its own class (`F32Type`, `BF16Type`, `Float8E4M3FNType`, ...)."""

    __slots__ = ()
    _ir = (T.FloatType,)
    _name: ClassVar[str] = ""

    @classmethod
    def _accepts(cls, t: T.Type) -> bool:
        return isinstance(t, T.FloatType) and (not cls._name or t.name == cls._name)

    @property
    def width(self) -> int:
        return self._t.width  # type: ignore[attr-defined,no-any-return]


class BF16Type(FloatType):
    """`bf16`."""

    __slots__ = ()
    _name = "bf16"

    @classmethod
    def get(cls, context: Context | None = None) -> BF16Type:
        return wrap_type(T.FloatType.get(cls._name))  # type: ignore[return-value]


class F16Type(FloatType):
    """`f16`."""

    __slots__ = ()
    _name = "f16"

    @classmethod
    def get(cls, context: Context | None = None) -> F16Type:
        return wrap_type(T.FloatType.get(cls._name))  # type: ignore[return-value]


class F32Type(FloatType):
    """`f32`."""

    __slots__ = ()
    _name = "f32"

    @classmethod
    def get(cls, context: Context | None = None) -> F32Type:
        return wrap_type(T.FloatType.get(cls._name))  # type: ignore[return-value]


class F64Type(FloatType):
    """`f64`."""

    __slots__ = ()
    _name = "f64"

    @classmethod
    def get(cls, context: Context | None = None) -> F64Type:
        return wrap_type(T.FloatType.get(cls._name))  # type: ignore[return-value]


class FloatTF32Type(FloatType):
    """`tf32`."""

    __slots__ = ()
    _name = "tf32"

    @classmethod
    def get(cls, context: Context | None = None) -> FloatTF32Type:
        return wrap_type(T.FloatType.get(cls._name))  # type: ignore[return-value]


class Float8E5M2Type(FloatType):
    """`f8E5M2`."""

    __slots__ = ()
    _name = "f8E5M2"

    @classmethod
    def get(cls, context: Context | None = None) -> Float8E5M2Type:
        return wrap_type(T.FloatType.get(cls._name))  # type: ignore[return-value]


class Float8E4M3Type(FloatType):
    """`f8E4M3`."""

    __slots__ = ()
    _name = "f8E4M3"

    @classmethod
    def get(cls, context: Context | None = None) -> Float8E4M3Type:
        return wrap_type(T.FloatType.get(cls._name))  # type: ignore[return-value]


class Float8E4M3FNType(FloatType):
    """`f8E4M3FN`."""

    __slots__ = ()
    _name = "f8E4M3FN"

    @classmethod
    def get(cls, context: Context | None = None) -> Float8E4M3FNType:
        return wrap_type(T.FloatType.get(cls._name))  # type: ignore[return-value]


class Float8E5M2FNUZType(FloatType):
    """`f8E5M2FNUZ`."""

    __slots__ = ()
    _name = "f8E5M2FNUZ"

    @classmethod
    def get(cls, context: Context | None = None) -> Float8E5M2FNUZType:
        return wrap_type(T.FloatType.get(cls._name))  # type: ignore[return-value]


class Float8E4M3FNUZType(FloatType):
    """`f8E4M3FNUZ`."""

    __slots__ = ()
    _name = "f8E4M3FNUZ"

    @classmethod
    def get(cls, context: Context | None = None) -> Float8E4M3FNUZType:
        return wrap_type(T.FloatType.get(cls._name))  # type: ignore[return-value]


class Float8E4M3B11FNUZType(FloatType):
    """`f8E4M3B11FNUZ`."""

    __slots__ = ()
    _name = "f8E4M3B11FNUZ"

    @classmethod
    def get(cls, context: Context | None = None) -> Float8E4M3B11FNUZType:
        return wrap_type(T.FloatType.get(cls._name))  # type: ignore[return-value]


class Float8E3M4Type(FloatType):
    """`f8E3M4`."""

    __slots__ = ()
    _name = "f8E3M4"

    @classmethod
    def get(cls, context: Context | None = None) -> Float8E3M4Type:
        return wrap_type(T.FloatType.get(cls._name))  # type: ignore[return-value]


class Float8E8M0FNUType(FloatType):
    """`f8E8M0FNU`."""

    __slots__ = ()
    _name = "f8E8M0FNU"

    @classmethod
    def get(cls, context: Context | None = None) -> Float8E8M0FNUType:
        return wrap_type(T.FloatType.get(cls._name))  # type: ignore[return-value]


class Float6E2M3FNType(FloatType):
    """`f6E2M3FN`."""

    __slots__ = ()
    _name = "f6E2M3FN"

    @classmethod
    def get(cls, context: Context | None = None) -> Float6E2M3FNType:
        return wrap_type(T.FloatType.get(cls._name))  # type: ignore[return-value]


class Float6E3M2FNType(FloatType):
    """`f6E3M2FN`."""

    __slots__ = ()
    _name = "f6E3M2FN"

    @classmethod
    def get(cls, context: Context | None = None) -> Float6E3M2FNType:
        return wrap_type(T.FloatType.get(cls._name))  # type: ignore[return-value]


class Float4E2M1FNType(FloatType):
    """`f4E2M1FN`."""

    __slots__ = ()
    _name = "f4E2M1FN"

    @classmethod
    def get(cls, context: Context | None = None) -> Float4E2M1FNType:
        return wrap_type(T.FloatType.get(cls._name))  # type: ignore[return-value]


class Float80Type(FloatType):
    """`f80`."""

    __slots__ = ()
    _name = "f80"

    @classmethod
    def get(cls, context: Context | None = None) -> Float80Type:
        return wrap_type(T.FloatType.get(cls._name))  # type: ignore[return-value]


class Float128Type(FloatType):
    """`f128`."""

    __slots__ = ()
    _name = "f128"

    @classmethod
    def get(cls, context: Context | None = None) -> Float128Type:
        return wrap_type(T.FloatType.get(cls._name))  # type: ignore[return-value]


_FLOAT_CLASSES: dict[str, type[FloatType]] = {
    c._name: c for c in (BF16Type, F16Type, F32Type, F64Type, FloatTF32Type, Float8E5M2Type, Float8E4M3Type,
                         Float8E4M3FNType, Float8E5M2FNUZType, Float8E4M3FNUZType, Float8E4M3B11FNUZType,
                         Float8E3M4Type, Float8E8M0FNUType, Float6E2M3FNType, Float6E3M2FNType,
                         Float4E2M1FNType, Float80Type, Float128Type)}


class ComplexType(Type):
    """`complex<T>`: `element_type`."""

    __slots__ = ()
    _ir = (T.ComplexType,)

    @staticmethod
    def get(element_type: Type) -> ComplexType:
        e = ir_type(element_type, "element_type")
        _check(isinstance(e, T.IntegerType | T.FloatType),
               f"complex element type must be an integer or float type, not {element_type}")
        return wrap_type(T.ComplexType.get(e))  # type: ignore[return-value]

    @property
    def element_type(self) -> Type:
        return wrap_type(self._t.element)  # type: ignore[attr-defined]


class TupleType(Type):
    """`tuple<...>`: `num_types`, `get_type(i)`; `TupleType.get_tuple([...])`."""

    __slots__ = ()
    _ir = (T.TupleType,)

    @staticmethod
    def get_tuple(elements: Sequence[Type], context: Context | None = None) -> TupleType:
        return wrap_type(T.TupleType.get(tuple(ir_type(e) for e in elements)))  # type: ignore[return-value]

    @property
    def num_types(self) -> int:
        return len(self._t.types)  # type: ignore[attr-defined]

    def get_type(self, pos: int) -> Type:
        return wrap_type(self._t.types[pos])  # type: ignore[attr-defined]


class FunctionType(Type):
    """`(inputs) -> results`: `inputs`, `results`; `FunctionType.get(inputs, results)`."""

    __slots__ = ()
    _ir = (T.FunctionType,)

    @staticmethod
    def get(inputs: Sequence[Type], results: Sequence[Type], context: Context | None = None) -> FunctionType:
        return wrap_type(T.FunctionType.get(tuple(ir_type(t) for t in inputs),  # type: ignore[return-value]
                                            tuple(ir_type(t) for t in results)))

    @property
    def inputs(self) -> list[Type]:
        return [wrap_type(t) for t in self._t.inputs]  # type: ignore[attr-defined]

    @property
    def results(self) -> list[Type]:
        return [wrap_type(t) for t in self._t.results]  # type: ignore[attr-defined]


class ShapedType(Type):
    """Tensors, memrefs and vectors."""

    __slots__ = ()
    _ir = (T.ShapedType,)

    @property
    def element_type(self) -> Type:
        return wrap_type(self._t.element)  # type: ignore[attr-defined]

    @property
    def has_rank(self) -> bool:
        return hasattr(self._t, "shape")

    @property
    def rank(self) -> int:
        return len(self._shape())

    def _shape(self) -> tuple[int, ...]:
        shape = getattr(self._t, "shape", None)
        if shape is None:
            raise ValueError(f"{self} is not ranked")
        return shape  # type: ignore[no-any-return]

    @property
    def shape(self) -> list[int]:
        return list(self._shape())

    @property
    def has_static_shape(self) -> bool:
        return self.has_rank and T.DYNAMIC not in self._shape()

    def is_dynamic_dim(self, dim: int) -> bool:
        return self._shape()[dim] == T.DYNAMIC

    def is_static_dim(self, dim: int) -> bool:
        return self._shape()[dim] != T.DYNAMIC

    def get_dim_size(self, dim: int) -> int:
        return self._shape()[dim]

    @staticmethod
    def is_dynamic_size(dim_size: int) -> bool:
        return dim_size == T.DYNAMIC

    @staticmethod
    def is_static_size(dim_size: int) -> bool:
        return dim_size != T.DYNAMIC

    @staticmethod
    def get_dynamic_size() -> int:
        return T.DYNAMIC


def _shape(shape: Sequence[int]) -> tuple[int, ...]:
    out = tuple(int(d) for d in shape)
    for d in out:
        _check(d >= 0 or d == T.DYNAMIC, f"dimension {d} is neither a size nor the dynamic size "
                                         f"(ShapedType.get_dynamic_size())")
    return out


def _element(container: str, element_type: Type) -> T.Type:
    e = ir_type(element_type, "element_type")
    problem = T.element_type_problem(container, e)
    if problem is not None:
        raise IRError(f"{problem}: {element_type}")
    return e


class RankedTensorType(ShapedType):
    """`tensor<2x?xf32>`: `shape`, `element_type`, `encoding`; `RankedTensorType.get(shape, element_type)`
    (`ShapedType.get_dynamic_size()` for `?`)."""

    __slots__ = ()
    _ir = (T.RankedTensorType,)

    @staticmethod
    def get(shape: Sequence[int], element_type: Type, encoding: Attribute | None = None,
            loc: object = None) -> RankedTensorType:
        from .attributes import ir_attr

        enc = ir_attr(encoding) if encoding is not None else None
        return wrap_type(T.RankedTensorType.get(_shape(shape), _element("tensor", element_type), enc))  # type: ignore[return-value]

    @property
    def encoding(self) -> Attribute | None:
        from .attributes import wrap_attr

        enc = self._t.encoding  # type: ignore[attr-defined]
        return wrap_attr(enc) if enc is not None else None


class UnrankedTensorType(ShapedType):
    """`tensor<*xT>`."""

    __slots__ = ()
    _ir = (T.UnrankedTensorType,)

    @staticmethod
    def get(element_type: Type, loc: object = None) -> UnrankedTensorType:
        return wrap_type(T.UnrankedTensorType.get(_element("tensor", element_type)))  # type: ignore[return-value]


class MemRefType(ShapedType):
    """`memref<4x4xf32>`: `shape`, `element_type`, `layout` (the identity map when not given),
    `memory_space`."""

    __slots__ = ()
    _ir = (T.MemRefType,)

    @staticmethod
    def get(shape: Sequence[int], element_type: Type, layout: Attribute | None = None,
            memory_space: Attribute | None = None, loc: object = None) -> MemRefType:
        from ..ir.attributes import DialectAttr
        from .attributes import ir_attr

        dims = _shape(shape)
        lay = ir_attr(layout) if layout is not None else \
            DialectAttr.get("builtin", identity_layout_text(len(dims)))
        space = ir_attr(memory_space) if memory_space is not None else None
        return wrap_type(T.MemRefType.get(dims, _element("memref", element_type), lay, space))  # type: ignore[return-value]

    @property
    def layout(self) -> Attribute:
        from .attributes import wrap_attr

        return wrap_attr(self._t.layout)  # type: ignore[attr-defined]

    @property
    def memory_space(self) -> Attribute | None:
        from .attributes import wrap_attr

        space = self._t.memory_space  # type: ignore[attr-defined]
        return wrap_attr(space) if space is not None else None


class UnrankedMemRefType(ShapedType):
    """`memref<*xT>`."""

    __slots__ = ()
    _ir = (T.UnrankedMemRefType,)

    @staticmethod
    def get(element_type: Type, memory_space: Attribute | None, loc: object = None) -> UnrankedMemRefType:
        from .attributes import ir_attr

        space = ir_attr(memory_space) if memory_space is not None else None
        return wrap_type(T.UnrankedMemRefType.get(_element("memref", element_type), space))  # type: ignore[return-value]

    @property
    def memory_space(self) -> Attribute | None:
        from .attributes import wrap_attr

        space = self._t.memory_space  # type: ignore[attr-defined]
        return wrap_attr(space) if space is not None else None


class VectorType(ShapedType):
    """`vector<4x[8]xf32>`: `shape`, `element_type`, `scalable_dims`."""

    __slots__ = ()
    _ir = (T.VectorType,)

    @staticmethod
    def get(shape: Sequence[int], element_type: Type, *, scalable: Sequence[bool] | None = None,
            scalable_dims: Sequence[int] | None = None, loc: object = None) -> VectorType:
        dims = _shape(shape)
        _check(T.DYNAMIC not in dims, "vector dimensions must be static")
        flags: tuple[bool, ...] | None = None
        if scalable is not None:
            _check(len(scalable) == len(dims), "scalable needs one flag per dimension")
            flags = tuple(bool(s) for s in scalable)
        elif scalable_dims is not None:
            flags = tuple(i in set(scalable_dims) for i in range(len(dims)))
        return wrap_type(T.VectorType.get(dims, _element("vector", element_type), flags))  # type: ignore[return-value]

    @property
    def scalable(self) -> bool:
        return self._t.scalable is not None  # type: ignore[attr-defined]

    @property
    def scalable_dims(self) -> list[bool]:
        flags = self._t.scalable  # type: ignore[attr-defined]
        return list(flags) if flags is not None else [False] * self.rank


_CLASSES: dict[type, type[Type]] = {
    T.IntegerType: IntegerType, T.IndexType: IndexType, T.NoneType: NoneType, T.ComplexType: ComplexType,
    T.TupleType: TupleType, T.FunctionType: FunctionType, T.RankedTensorType: RankedTensorType,
    T.UnrankedTensorType: UnrankedTensorType, T.MemRefType: MemRefType,
    T.UnrankedMemRefType: UnrankedMemRefType, T.VectorType: VectorType,
    T.DialectType: Type, T.FallbackType: Type, StructuredType: Type,
}

__all__ = ["Type", "IntegerType", "IndexType", "NoneType", "FloatType", "ComplexType", "TupleType",
           "FunctionType", "ShapedType", "RankedTensorType", "UnrankedTensorType", "MemRefType",
           "UnrankedMemRefType", "VectorType", *(c.__name__ for c in _FLOAT_CLASSES.values())]
