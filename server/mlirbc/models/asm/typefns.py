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


def _dialect_params(t: Type, prefix: str) -> list[str]:
    """The top-level comma-separated parameters of a dialect type printed `prefix<...>`."""
    from ...syntax.attr_printer import plain_type_text
    from .directives_upstream import _split_top

    text = plain_type_text(t)
    if not text.startswith(prefix + "<") or not text.endswith(">"):
        raise ValueError(f"not a {prefix} type")
    return [part.strip() for part in _split_top(text[len(prefix) + 1:-1])]


def _type(text: str) -> Type:
    from ...syntax.attr_parser import parse_type_text

    return parse_type_text(text)


def spirv_unary_result(t: Type) -> Type:
    """SPIR-V's `getUnaryOpResultType`: `i1`, or a vector of as many `i1` as the operand has elements."""
    i1 = IntegerType.get(1)
    if isinstance(t, VectorType):
        n = 1
        for d in t.shape:
            n *= d
        return VectorType.get((n,), i1)
    from ...syntax.attr_printer import plain_type_text

    if plain_type_text(t).startswith("!spirv.coopmatrix"):
        raise ValueError("a cooperative matrix")
    return i1


def spirv_pointee(t: Type) -> Type:
    """`!spirv.ptr<T, StorageClass>` -> T."""
    params = _dialect_params(t, "!spirv.ptr")
    if len(params) != 2:
        raise ValueError("not a SPIR-V pointer type")
    return _type(params[0])


def _smt_array(t: Type) -> tuple[str, str]:
    params = _dialect_params(t, "!smt.array")
    if len(params) != 1 or not params[0].startswith("[") or not params[0].endswith("]"):
        raise ValueError("not an SMT array type")
    domain, arrow, range_ = params[0][1:-1].partition(" -> ")
    if not arrow:
        raise ValueError("not an SMT array type")
    return domain, range_


def smt_array_range(t: Type) -> Type:
    return _type(_smt_array(t)[1])


def smt_array_domain(t: Type) -> Type:
    return _type(_smt_array(t)[0])


def _smt_func(t: Type) -> tuple[list[str], str]:
    """`!smt.func<(domain, ...) range>` -> (domain texts, range text)."""
    from ...syntax.attr_printer import plain_type_text
    from .directives_upstream import _split_top

    text = plain_type_text(t)
    if not text.startswith("!smt.func<(") or not text.endswith(">"):
        raise ValueError("not an SMT function type")
    body = text[len("!smt.func<"):-1]
    depth = 0
    for i, c in enumerate(body):
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            depth -= 1
            if depth == 0:
                inner = body[1:i].strip()
                domain = [part.strip() for part in _split_top(inner)] if inner else []
                return domain, body[i + 1:].strip()
    raise ValueError("not an SMT function type")


def function_inputs(t: Type) -> list[Type]:
    """`cast<FunctionType>($_self).getInputs()` (func.call_indirect's operands from its callee's type)."""
    from ...ir.types import FunctionType

    if not isinstance(t, FunctionType):
        raise ValueError("not a function type")
    return list(t.inputs)


def function_results(t: Type) -> list[Type]:
    """`cast<FunctionType>($_self).getResults()`."""
    from ...ir.types import FunctionType

    if not isinstance(t, FunctionType):
        raise ValueError("not a function type")
    return list(t.results)


def smt_func_domain(t: Type) -> list[Type]:
    return [_type(d) for d in _smt_func(t)[0]]


def smt_func_range(t: Type) -> Type:
    return _type(_smt_func(t)[1])


def ptr_metadata(t: Type) -> Type:
    """`PtrMetadataType::get(cast<PtrLikeTypeInterface>($_self))`: `!ptr.ptr_metadata<T>`."""
    from ...syntax.attr_printer import plain_type_text

    return _type(f"!ptr.ptr_metadata<{plain_type_text(t)}>")


def async_value_type(t: Type) -> Type:
    """`!async.value<T>` -> T."""
    params = _dialect_params(t, "!async.value")
    if len(params) != 1:
        raise ValueError("not an async value type")
    return _type(params[0])


def emitc_lvalue_value_type(t: Type) -> Type:
    """`!emitc.lvalue<T>` -> T."""
    params = _dialect_params(t, "!emitc.lvalue")
    if len(params) != 1:
        raise ValueError("not an emitc lvalue type")
    return _type(params[0])


def emitc_pointer_to_value(t: Type) -> Type:
    """`!emitc.lvalue<T>` -> `!emitc.ptr<T>` (emitc.address_of)."""
    from ...syntax.attr_printer import plain_type_text

    return _type(f"!emitc.ptr<{plain_type_text(emitc_lvalue_value_type(t))}>")


def emitc_lvalue_of_pointee(t: Type) -> Type:
    """`!emitc.ptr<T>` -> `!emitc.lvalue<T>` (emitc.dereference)."""
    params = _dialect_params(t, "!emitc.ptr")
    if len(params) != 1:
        raise ValueError("not an emitc pointer type")
    return _type(f"!emitc.lvalue<{params[0]}>")


def pdl_range(t: Type) -> Type:
    """`pdl::RangeType::get($_self)`."""
    from ...syntax.attr_parser import parse_type_text
    from ...syntax.attr_printer import print_type

    text = print_type(t)
    if not text.startswith("!pdl."):
        raise ValueError("not a PDL type")
    return parse_type_text(f"!pdl.range<{text[len('!pdl.'):]}>")


def pdl_value_of(t: Type) -> Type:
    """pdl_interp.get_value_type's operand for its result type: `!pdl.value`, or a range of them for a
    range of types."""
    from ...syntax.attr_parser import parse_type_text
    from ...syntax.attr_printer import print_type

    text = print_type(t)
    if not text.startswith("!pdl."):
        raise ValueError("not a PDL type")
    return parse_type_text("!pdl.range<value>" if text.startswith("!pdl.range<") else "!pdl.value")


def _torch_tensor_swap(t: Type, source: str, target: str) -> Type:
    from ...syntax.attr_parser import parse_type_text
    from ...syntax.attr_printer import print_type

    text = print_type(t)
    rest = text[len(source):]
    if not text.startswith(source) or rest[:1] not in ("", "<"):
        raise ValueError(f"not a {source} type")
    return parse_type_text(target + rest)


def torch_with_value_semantics(t: Type) -> Type:
    """torch-mlir's `NonValueTensorType::getWithValueSemantics`: `!torch.tensor` to `!torch.vtensor`."""
    return _torch_tensor_swap(t, "!torch.tensor", "!torch.vtensor")


def torch_without_value_semantics(t: Type) -> Type:
    """torch-mlir's `ValueTensorType::getWithoutValueSemantics`: `!torch.vtensor` to `!torch.tensor`."""
    return _torch_tensor_swap(t, "!torch.vtensor", "!torch.tensor")


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
    "cast<NonValueTensorType>($_self).getWithValueSemantics()": torch_with_value_semantics,
    "cast<ValueTensorType>($_self).getWithoutValueSemantics()": torch_without_value_semantics,
    "getGetValueTypeOpValueType($_self)": pdl_value_of,
    "cast<ShapedType>($_self).getElementType()": element_type,
    "getUnaryOpResultType($_self)": spirv_unary_result,
    "llvm::cast<PointerType>($_self).getPointeeType()": spirv_pointee,
    "cast<ArrayType>($_self).getRangeType()": smt_array_range,
    "cast<ArrayType>($_self).getDomainType()": smt_array_domain,
    "::llvm::cast<ValueType>($_self).getValueType()": async_value_type,
    "::llvm::cast<LValueType>($_self).getValueType()": emitc_lvalue_value_type,
    "emitc::PointerType::get(::llvm::cast<emitc::LValueType>($_self).getValueType())": emitc_pointer_to_value,
    "emitc::LValueType::get(::llvm::cast<emitc::PointerType>($_self).getPointee())": emitc_lvalue_of_pointee,
    "cast<SMTFuncType>($_self).getRangeType()": smt_func_range,
    "PtrMetadataType::get(cast<PtrLikeTypeInterface>($_self))": ptr_metadata,
}
LIST_TRANSFORMERS: dict[str, Callable[[Type], list[Type]]] = {
    "cast<SMTFuncType>($_self).getDomainTypes()": smt_func_domain,
    "::llvm::cast<FunctionType>($_self).getInputs()": function_inputs,
    "::llvm::cast<FunctionType>($_self).getResults()": function_results,
}
"""Transformers that give the types of a whole variadic group from one value's type."""


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
    return [IntegerType.get(1)] * len(parsed.operand_types.get("retained", []))


def _ptr_add(parsed: Parsed, p: AsmParser) -> list[Type]:
    """ptr.ptr_add: the base's type; a scalar base with a vector or tensor offset gives that shape of it."""
    from ...ir.types import RankedTensorType

    bases = parsed.operand_types.get("base") or []
    offsets = parsed.operand_types.get("offset") or []
    if len(bases) != 1 or len(offsets) != 1:
        raise p.error("ptr.ptr_add needs a base and an offset type")
    base, offset = bases[0], offsets[0]
    if isinstance(base, VectorType | RankedTensorType):
        return [base]
    if isinstance(offset, VectorType):
        return [VectorType.get(offset.shape, base, offset.scalable)]
    if isinstance(offset, RankedTensorType) and offset.encoding is None:
        return [RankedTensorType.get(offset.shape, base, None)]
    return [base]


def _bv_width(t: Type | None) -> int | None:
    from ...syntax.attr_printer import print_type

    text = print_type(t) if t is not None else ""
    if text.startswith("!smt.bv<") and text.endswith(">") and text[8:-1].isdigit():
        return int(text[8:-1])
    return None


def _bv_constant(parsed: Parsed, p: AsmParser) -> list[Type]:
    """smt.bv.constant: the type of its `#smt.bv<v> : !smt.bv<w>` value."""
    from .directives_iree import literal_type

    value = parsed.attrs.get("value")
    t = literal_type(value) if value is not None else None
    if t is None or _bv_width(t) is None:
        raise p.error("smt.bv.constant needs a typed bit-vector value")
    return [t]


def _bv_concat(parsed: Parsed, p: AsmParser) -> list[Type]:
    """smt.bv.concat: a bit vector as wide as both operands."""
    types = parsed.all_operand_types or []
    widths = [_bv_width(t) for t in types]
    if len(widths) != 2 or None in widths:
        raise p.error("smt.bv.concat needs two bit-vector operands")
    return [_type(f"!smt.bv<{sum(w for w in widths if w is not None)}>")]


def wasm_local_element(t: Type) -> Type:
    """`!wasmssa<local ref to T>` -> T."""
    from ...syntax.attr_printer import plain_type_text

    text = plain_type_text(t)
    prefix = "!wasmssa<local ref to "
    if not text.startswith(prefix) or not text.endswith(">"):
        raise ValueError("not a WasmSSA local reference")
    return _type(text[len(prefix):-1])


def _wasm_local(parsed: Parsed, p: AsmParser) -> list[Type]:
    """wasmssa.local: a reference to a local of its `type`."""
    from ...ir.attributes import TypeAttr
    from ...syntax.attr_printer import plain_type_text

    t = parsed.attrs.get("type")
    if not isinstance(t, TypeAttr):
        raise p.error("wasmssa.local needs a type")
    return [_type(f"!wasmssa<local ref to {plain_type_text(t.type)}>")]


def _wasm_local_value(parsed: Parsed, p: AsmParser) -> list[Type]:
    """wasmssa.local_get / local_tee (inferTeeGetResType): the referenced local's type."""
    refs = parsed.operand_types.get("localVar") or []
    try:
        return [wasm_local_element(refs[0])] if len(refs) == 1 else []
    except ValueError as exc:
        raise p.error(str(exc)) from None


INFER: dict[str, InferFn] = {
    "vector.shuffle": _shuffle,
    "bufferization.dealloc": _dealloc,
    "ptr.ptr_add": _ptr_add,
    "smt.bv.constant": _bv_constant,
    "smt.bv.concat": _bv_concat,
    "wasmssa.local": _wasm_local,
    "wasmssa.local_get": _wasm_local_value,
    "wasmssa.local_tee": _wasm_local_value,
}
"""Ops whose declarative form leaves all result types to C++ inference (ported per op)."""


def derive(snippet: str | None, base: list[Type]) -> list[Type]:
    """The types a transformer snippet gives for `base` (a list transformer: for its one type); raises
    ValueError for a type the transformer does not take, KeyError for an unknown snippet."""
    return deriver(snippet)(base)


def deriver(snippet: str | None) -> Callable[[list[Type]], list[Type]]:
    """`derive` for one snippet, looked up once (a format's printer checks every op it prints with it);
    raises KeyError for an unknown snippet."""
    if snippet is None:
        return list
    key = " ".join(snippet.split())
    many = LIST_TRANSFORMERS.get(key)
    if many is not None:
        def derive_list(base: list[Type]) -> list[Type]:
            if len(base) != 1:
                raise ValueError("expected one type to derive a list of types from")
            return many(base[0])

        return derive_list
    fn = TRANSFORMERS[key]
    return lambda base: [fn(t) for t in base]


def gives_list(snippet: str | None) -> bool:
    """Whether the snippet gives a whole group's types (not one type, repeated over the group)."""
    return snippet is not None and " ".join(snippet.split()) in LIST_TRANSFORMERS


def known(snippet: Any) -> bool:
    if snippet is None:
        return True
    key = " ".join(str(snippet).split())
    return key in TRANSFORMERS or key in LIST_TRANSFORMERS
