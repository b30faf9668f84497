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
}


def transformer(snippet: str | None) -> TypeFn | None:
    """The function of a transformer snippet (None: identity); raises KeyError for an unknown one."""
    if snippet is None:
        return None
    return TRANSFORMERS[" ".join(snippet.split())]


INFER: dict[str, InferFn] = {}
"""Ops whose declarative form leaves all result types to C++ inference (ported per op)."""


def known(snippet: Any) -> bool:
    return snippet is None or " ".join(str(snippet).split()) in TRANSFORMERS
