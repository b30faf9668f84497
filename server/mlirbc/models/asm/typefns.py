"""Type transformers of `TypesMatchWith` constraints (C++ snippets in ODS) as Python functions.

The parser of a declarative format finds a type the format does not print from another value's type
through such a transformer (`::llvm::cast<ShapedType>($_self).getElementType()`, ...).  Each snippet
upstream and IREE use is normalized (whitespace collapsed) and mapped here; a format whose transformer is
not here cannot be read back, so its ops print generic.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...ir.types import (
    ComplexType,
    IntegerType,
    MemRefType,
    RankedTensorType,
    Type,
    UnrankedMemRefType,
    UnrankedTensorType,
    VectorType,
)

if TYPE_CHECKING:
    from .api import AsmParser
    from .declarative_parse import Parsed

TypeFn = Callable[[Type], Type]
InferFn = Callable[["Parsed", "AsmParser"], list[Type]]
"""An op's InferTypeOpInterface: its result types from what its text gave."""


def element_type(t: Type) -> Type:
    if isinstance(t, RankedTensorType | UnrankedTensorType | MemRefType | UnrankedMemRefType | VectorType):
        return t.element
    if isinstance(t, ComplexType):
        return t.element
    raise ValueError("not a shaped or complex type")


def element_or_self(t: Type) -> Type:
    try:
        return element_type(t)
    except ValueError:
        return t


def i1_same_shape(t: Type) -> Type:
    i1 = IntegerType.get(1)
    if isinstance(t, VectorType):
        return VectorType.get(t.shape, i1, t.scalable)
    if isinstance(t, RankedTensorType):
        return RankedTensorType.get(t.shape, i1, t.encoding)
    if isinstance(t, UnrankedTensorType):
        return UnrankedTensorType.get(i1)
    return i1


def identity(t: Type) -> Type:
    return t


def _vector(t: Type) -> VectorType:
    if not isinstance(t, VectorType):
        raise ValueError("not a vector type")
    return t


def int_of_lanes(t: Type) -> Type:
    """`IntegerType::get(ctx, cast<VectorType>($_self).getShape()[0])` (x86vector masks)."""
    return IntegerType.get(_vector(t).shape[0])


def i1_vector_of_lanes(t: Type) -> Type:
    """`VectorType::get({cast<VectorType>($_self).getShape()[0]}, i1)` (x86vector masks)."""
    return VectorType.get((_vector(t).shape[0],), IntegerType.get(1))


def svbool_shape(t: Type) -> Type:
    """The vector with its trailing (scalable) dimension set to 16 (arm_sve's svbool conversions)."""
    v = _vector(t)
    if not v.shape:
        raise ValueError("a 0-d vector")
    return VectorType.get((*v.shape[:-1], 16), v.element, v.scalable)


def pdl_range(t: Type) -> Type:
    """`pdl::RangeType::get($_self)`."""
    from ...syntax.attr_parser import parse_type_text
    from ...syntax.attr_printer import print_type

    text = print_type(t)
    if not text.startswith("!pdl."):
        raise ValueError("not a PDL type")
    return parse_type_text(f"!pdl.range<{text[len('!pdl.'):]}>")


TRANSFORMERS: dict[str, TypeFn] = {
    "$_self": identity,
    "::llvm::cast<Type>($_self)": identity,
    "::llvm::cast<ComplexType>($_self).getElementType()": element_type,
    "::llvm::cast<TensorType>($_self).getElementType()": element_type,
    "::llvm::cast<mlir::VectorType>($_self).getElementType()": element_type,
    "::llvm::cast<::mlir::VectorType>($_self).getElementType()": element_type,
    "::llvm::cast<VectorType>($_self).getElementType()": element_type,
    "::llvm::cast<MemRefType>($_self).getElementType()": element_type,
    "::llvm::cast<ShapedType>($_self).getElementType()": element_type,
    "::mlir::getElementTypeOrSelf($_self)": element_or_self,
    "getI1SameShape($_self)": i1_same_shape,
    "::getI1SameShape($_self)": i1_same_shape,
    "::llvm::cast<ShapedType>($_self).clone( IntegerType::get($_self.getContext(), 1))": i1_same_shape,
    "::llvm::cast<mlir::VectorType>($_self).cloneWith({}, IntegerType::get($_ctxt, 1))": i1_same_shape,
    "IntegerType::get($_self.getContext(), (::llvm::cast<VectorType>($_self).getShape()[0]))": int_of_lanes,
    "VectorType::get({::llvm::cast<VectorType>($_self).getShape()[0]}, "
    "IntegerType::get($_self.getContext(), 1))": i1_vector_of_lanes,
    # one element type per operand (the parser repeats a single type over the operand list)
    "SmallVector<Type, 2>(::llvm::cast<RankedTensorType>($_self).getNumElements(), "
    "::llvm::cast<RankedTensorType>($_self).getElementType())": element_type,
    "VectorType(VectorType::Builder(::llvm::cast<VectorType>($_self)).setDim(::llvm::cast<VectorType>($_self)"
    ".getRank() - 1, 16))": svbool_shape,
    "pdl::RangeType::get($_self)": pdl_range,
}


def transformer(snippet: str | None) -> TypeFn | None:
    """The function of a transformer snippet (None: identity); raises KeyError for an unknown one."""
    if snippet is None:
        return None
    return TRANSFORMERS[" ".join(snippet.split())]


def _shuffle(parsed: Parsed, p: AsmParser) -> list[Type]:
    """vector.shuffle: v1's vector type with its leading dimension (or, 0-d, one dimension) the mask's
    length."""
    from ...ir.attributes import DenseArrayAttr

    types = parsed.all_operand_types or []
    mask = parsed.attrs.get("mask")
    if not types or not isinstance(types[0], VectorType) or not isinstance(mask, DenseArrayAttr):
        raise p.error("vector.shuffle needs vector operands and a mask")
    v1 = types[0]
    scalable = None if v1.scalable is None else (False, *v1.scalable[1:])
    return [VectorType.get((mask.count, *v1.shape[1:]), v1.element, scalable)]


def _dealloc(parsed: Parsed, p: AsmParser) -> list[Type]:
    """bufferization.dealloc: one `i1` per retained memref."""
    return [IntegerType.get(1)] * len(parsed.operands.get("retained", []))


INFER: dict[str, InferFn] = {
    "vector.shuffle": _shuffle,
    "bufferization.dealloc": _dealloc,
}
"""Ops whose declarative form leaves all result types to C++ inference (ported per op)."""


def known(snippet: Any) -> bool:
    return snippet is None or " ".join(str(snippet).split()) in TRANSFORMERS
