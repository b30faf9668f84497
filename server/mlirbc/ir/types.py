"""Builtin types and the two forms a dialect type can take when the reader has no structured model for it.

Every type is uniqued (see `uniquer`), so `is` compares values.  Construct them with the `get` class methods.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .opaque import DialectText, FallbackBytes
from .uniquer import Uniqued, unique

if TYPE_CHECKING:
    from .attributes import Attribute

DYNAMIC = -(2**63)
"""A dynamic dimension (`?`), as MLIR stores it (INT64_MIN)."""


class Type(Uniqued):
    """Base of all types."""

    __slots__ = ()

    @property
    def dialect(self) -> str:
        return "builtin"


class IntegerType(Type):
    """`iN`, `siN` or `uiN`: signedness 0 = signless, 1 = signed, 2 = unsigned."""

    __slots__ = ("width", "signedness")
    width: int
    signedness: int

    @classmethod
    def get(cls, width: int, signedness: int = 0) -> IntegerType:
        return unique(cls, (width, signedness))


class IndexType(Type):
    __slots__ = ()

    @classmethod
    def get(cls) -> IndexType:
        return unique(cls, ())


class NoneType(Type):
    __slots__ = ()

    @classmethod
    def get(cls) -> NoneType:
        return unique(cls, ())


FLOAT_WIDTHS: dict[str, int] = {
    "bf16": 16, "f16": 16, "f32": 32, "f64": 64, "f80": 80, "f128": 128, "tf32": 19,
    "f8E5M2": 8, "f8E4M3FN": 8, "f8E5M2FNUZ": 8, "f8E4M3FNUZ": 8, "f8E4M3B11FNUZ": 8,
    "f8E4M3": 8, "f8E3M4": 8, "f8E8M0FNU": 8, "f6E2M3FN": 6, "f6E3M2FN": 6, "f4E2M1FN": 4,
}
"""Bit width of every builtin float type's semantics (the width of its APFloat bit pattern)."""


class FloatType(Type):
    """Any builtin float type, named as in MLIR text (`f32`, `bf16`, `f8E5M2`, ...)."""

    __slots__ = ("name",)
    name: str

    @classmethod
    def get(cls, name: str) -> FloatType:
        if name not in FLOAT_WIDTHS:
            raise ValueError(f"unknown float type {name}")
        return unique(cls, (name,))

    @property
    def width(self) -> int:
        return FLOAT_WIDTHS[self.name]


class FunctionType(Type):
    __slots__ = ("inputs", "results")
    inputs: tuple[Type, ...]
    results: tuple[Type, ...]

    @classmethod
    def get(cls, inputs: tuple[Type, ...], results: tuple[Type, ...]) -> FunctionType:
        return unique(cls, (tuple(inputs), tuple(results)))


class ComplexType(Type):
    __slots__ = ("element",)
    element: Type

    @classmethod
    def get(cls, element: Type) -> ComplexType:
        return unique(cls, (element,))


class TupleType(Type):
    __slots__ = ("types",)
    types: tuple[Type, ...]

    @classmethod
    def get(cls, types: tuple[Type, ...]) -> TupleType:
        return unique(cls, (tuple(types),))


class ShapedType(Type):
    """Common base of tensors, memrefs and vectors."""

    __slots__ = ()
    element: Type


class RankedTensorType(ShapedType):
    __slots__ = ("shape", "element", "encoding")
    shape: tuple[int, ...]
    element: Type
    encoding: Attribute | None

    @classmethod
    def get(
        cls, shape: tuple[int, ...], element: Type, encoding: Attribute | None = None
    ) -> RankedTensorType:
        return unique(cls, (tuple(shape), element, encoding))


class UnrankedTensorType(ShapedType):
    __slots__ = ("element",)
    element: Type

    @classmethod
    def get(cls, element: Type) -> UnrankedTensorType:
        return unique(cls, (element,))


class MemRefType(ShapedType):
    """A ranked memref; `layout` is always present (the identity map when not written)."""

    __slots__ = ("shape", "element", "layout", "memory_space")
    shape: tuple[int, ...]
    element: Type
    layout: Attribute
    memory_space: Attribute | None

    @classmethod
    def get(
        cls,
        shape: tuple[int, ...],
        element: Type,
        layout: Attribute,
        memory_space: Attribute | None = None,
    ) -> MemRefType:
        return unique(cls, (tuple(shape), element, layout, memory_space))


class UnrankedMemRefType(ShapedType):
    __slots__ = ("element", "memory_space")
    element: Type
    memory_space: Attribute | None

    @classmethod
    def get(cls, element: Type, memory_space: Attribute | None = None) -> UnrankedMemRefType:
        return unique(cls, (element, memory_space))


class VectorType(ShapedType):
    """`scalable` is None when no dimension is scalable (bytecode code 19), else one flag per dim."""

    __slots__ = ("shape", "element", "scalable")
    shape: tuple[int, ...]
    element: Type
    scalable: tuple[bool, ...] | None

    @classmethod
    def get(
        cls, shape: tuple[int, ...], element: Type, scalable: tuple[bool, ...] | None = None
    ) -> VectorType:
        if scalable is not None and not any(scalable):
            scalable = None
        return unique(cls, (tuple(shape), element, None if scalable is None else tuple(scalable)))


class DialectType(DialectText, Type):
    """A type known by its exact text (`!llvm.ptr`, `tf32`-like builtin text, a model's print).

    Used for entries stored in textual form and for model-decoded dialect types: the text is the identity.
    """

    __slots__ = ("dialect_name", "text")


class FallbackType(FallbackBytes, Type):
    """A custom-encoded type that no model decodes: its dialect and the exact encoding bytes."""

    __slots__ = ("dialect_name", "data")


_NOT_ELEMENTS: dict[str, tuple[type, ...]] = {
    "tensor": (NoneType, FunctionType, TupleType, RankedTensorType, UnrankedTensorType, MemRefType,
               UnrankedMemRefType),
    "vector": (NoneType, FunctionType, TupleType, ComplexType, RankedTensorType, UnrankedTensorType,
               MemRefType, UnrankedMemRefType, VectorType),
    "memref": (NoneType, FunctionType, TupleType, RankedTensorType, UnrankedTensorType),
}


def element_type_problem(container: str, element: Type) -> str | None:
    """Why `element` cannot be the element type of a builtin `container` ("tensor", "vector" or "memref"),
    by upstream's rules for builtin element types: mlir-opt refuses such a file and such text.  A dialect's
    own types are the dialect's to check (it may implement the element interfaces): they pass."""
    if isinstance(element, _NOT_ELEMENTS[container]):
        return f"invalid {container} element type ({type(element).__name__})"
    return None


def bit_width(t: Type) -> int:
    """Bit width of the APInt/APFloat payload of an integer or float attribute of type `t` (an index is
    stored in 64 bits, as upstream's IndexType::kInternalStorageBitWidth)."""
    if isinstance(t, IntegerType):
        return t.width
    if isinstance(t, IndexType):
        return 64
    if isinstance(t, FloatType):
        return t.width
    raise ValueError("integer/float attribute of a type that is neither integer, index nor float")


def num_elements(shape: tuple[int, ...]) -> int:
    """The number of elements of a static shape; ValueError for a dynamic (or negative) dimension."""
    n = 1
    for d in shape:
        if d < 0:
            raise ValueError("a shape with a dynamic dimension has no element count")
        n *= d
    return n
