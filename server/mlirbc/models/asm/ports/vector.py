"""`vector.transfer_read` and `vector.transfer_write` (VectorOps.cpp's print/parse: a minor-identity
permutation map and an all-false `in_bounds` left out, the mask's type inferred)."""

from __future__ import annotations

import re

from ....ir.attributes import Attribute
from ....ir.operation import Operation
from ....ir.types import IndexType, IntegerType, RankedTensorType, ShapedType, Type, VectorType
from ....syntax.attr_parser import parse_attribute_text
from ....syntax.attr_printer import plain_attribute_text
from ..api import AsmParser, AsmPrinter, OperandRef, OpState, OpSyntax, SyntaxModelError
from .base import Port, attr_entries

_MAP = re.compile(r"affine_map<\(([^)]*)\) -> \(([^)]*)\)>")


def minor_identity(dims: int, results: int) -> str:
    """AffineMap::getMinorIdentityMap as MLIR prints it."""
    d = ", ".join(f"d{i}" for i in range(dims))
    r = ", ".join(f"d{i}" for i in range(dims - results, dims))
    return f"affine_map<({d}) -> ({r})>"


def _minor_identity_results(a: Attribute | None) -> int | None:
    """The number of results of a minor identity map (None: not one)."""
    if a is None:
        return None
    m = _MAP.fullmatch(plain_attribute_text(a))
    if m is None:
        return None
    dims = [x for x in m.group(1).split(", ") if x]
    results = [x for x in m.group(2).split(", ") if x]
    return len(results) if minor_identity(len(dims), len(results)) == plain_attribute_text(a) else None


def _all_false(a: Attribute | None) -> bool:
    return a is not None and plain_attribute_text(a).strip("[]").replace("false", "").replace(", ", "") == ""


def _element_rank(shaped: Type) -> int:
    element = getattr(shaped, "element", None)
    return len(element.shape) if isinstance(element, VectorType) else 0


def _mask_type(vector: VectorType) -> VectorType:
    """inferTransferOpMaskType for a minor identity map: the vector's shape in `i1`."""
    return VectorType.get(vector.shape, IntegerType.get(1), vector.scalable)


def _print_transfer_attrs(p: AsmPrinter, entries: list[tuple[str, Attribute]]) -> bool:
    """printTransferAttrs; whether the permutation map is a minor identity."""
    values = dict(entries)
    elided = {"operandSegmentSizes"}
    minor = _minor_identity_results(values.get("permutation_map")) is not None
    if minor:
        elided.add("permutation_map")
    if _all_false(values.get("in_bounds")):
        elided.add("in_bounds")
    p.optional_attr_dict([(k, v) for k, v in entries if k not in elided])
    return minor


def _parse_transfer_attrs(p: AsmParser, state: OpState, shaped: Type, vector: Type) -> None:
    """The defaults the parser fills in: the minor identity map, an all-false `in_bounds`."""
    if not isinstance(shaped, ShapedType) or not isinstance(vector, VectorType):
        raise p.error("requires a shaped type and a vector type")
    shape = getattr(shaped, "shape", None)
    if not isinstance(shape, tuple):
        raise p.error("requires a ranked shaped type")
    results = len(vector.shape) - _element_rank(shaped)
    if "permutation_map" not in state.attributes:
        if len(shape) < results:
            raise p.error("expected a custom permutation_map when rank(source) != rank(destination)")
        state.attributes["permutation_map"] = parse_attribute_text(minor_identity(len(shape), results))
    else:
        m = _MAP.fullmatch(plain_attribute_text(state.attributes["permutation_map"]))
        if m is None:
            raise p.error("expected an affine map")
        results = len([x for x in m.group(2).split(", ") if x])
    if "in_bounds" not in state.attributes:
        state.attributes["in_bounds"] = parse_attribute_text("[" + ", ".join(["false"] * results) + "]")


def _print_indices(p: AsmPrinter, values: list[object]) -> None:
    p.write("[")
    for i, v in enumerate(values):
        if i:
            p.write(", ")
        p.operand(v)  # type: ignore[arg-type]
    p.write("]")


def _parse_indices(p: AsmParser) -> list[OperandRef]:
    p.parse_punct("[")
    out: list[OperandRef] = []
    if not p.parse_optional_punct("]"):
        out.append(p.parse_operand())
        while p.parse_optional_punct(","):
            out.append(p.parse_operand())
        p.parse_punct("]")
    return out


def _check_mask(minor: bool, mask: list[object], vector: Type) -> None:
    if mask and (not minor or not isinstance(vector, VectorType) or
                 getattr(mask[0], "type", None) is not _mask_type(vector)):
        raise SyntaxModelError("a mask whose type is not inferred here (non-minor-identity map)")


def _mask_ref_type(p: AsmParser, state: OpState, vector: Type) -> Type:
    if _minor_identity_results(state.attributes.get("permutation_map")) is None or \
            not isinstance(vector, VectorType):
        raise p.error("a mask with this permutation map is not supported here")
    return _mask_type(vector)


class TransferReadOp(Port):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        g = view.operand_groups()
        base, indices, padding, mask = g["base"], g["indices"], g["padding"], g["mask"]
        if len(op.results) != 1:
            raise SyntaxModelError("vector.transfer_read has one result")
        p.write(" ")
        p.operand(base[0])
        _print_indices(p, list(indices))
        p.write(", ")
        p.operand(padding[0])
        if mask:
            p.write(", ")
            p.operand(mask[0])
        minor = _print_transfer_attrs(p, attr_entries(view, set()))
        _check_mask(minor, list(mask), op.results[0].type)
        p.write(" : ")
        p.type(base[0].type)
        p.write(", ")
        p.type(op.results[0].type)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        from ..declarative_parse import i32_array

        base = p.parse_operand()
        indices = _parse_indices(p)
        p.parse_punct(",")
        padding = p.parse_operand()
        mask = p.parse_operand() if p.parse_optional_punct(",") else None
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        p.parse_punct(":")
        shaped = p.parse_type()
        p.parse_punct(",")
        vector = p.parse_type()
        _parse_transfer_attrs(p, state, shaped, vector)
        element = getattr(shaped, "element", None)
        assert isinstance(element, Type)
        p.resolve_operands([base, *indices, padding], [shaped, *[IndexType.get()] * len(indices), element],
                           state)
        if mask is not None:
            p.resolve_operands([mask], [_mask_ref_type(p, state, vector)], state)
        state.attributes["operandSegmentSizes"] = i32_array([1, len(indices), 1, int(mask is not None)])
        state.result_types.append(vector)


class TransferWriteOp(Port):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        g = view.operand_groups()
        value, base, indices, mask = g["valueToStore"], g["base"], g["indices"], g["mask"]
        p.write(" ")
        p.operand(value[0])
        p.write(", ")
        p.operand(base[0])
        _print_indices(p, list(indices))
        if mask:
            p.write(", ")
            p.operand(mask[0])
        minor = _print_transfer_attrs(p, attr_entries(view, set()))
        _check_mask(minor, list(mask), value[0].type)
        p.write(" : ")
        p.type(value[0].type)
        p.write(", ")
        p.type(base[0].type)
        expected = [base[0].type] if isinstance(base[0].type, RankedTensorType) else []
        if [r.type for r in op.results] != expected:
            raise SyntaxModelError("the result is not the written tensor's type")

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        from ..declarative_parse import i32_array

        value = p.parse_operand()
        p.parse_punct(",")
        base = p.parse_operand()
        indices = _parse_indices(p)
        mask = p.parse_operand() if p.parse_optional_punct(",") else None
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        p.parse_punct(":")
        vector = p.parse_type()
        p.parse_punct(",")
        shaped = p.parse_type()
        _parse_transfer_attrs(p, state, shaped, vector)
        index = IndexType.get()
        p.resolve_operands([value, base, *indices], [vector, shaped, *[index] * len(indices)], state)
        if mask is not None:
            p.resolve_operands([mask], [_mask_ref_type(p, state, vector)], state)
        state.attributes["operandSegmentSizes"] = i32_array([1, 1, len(indices), int(mask is not None)])
        if isinstance(shaped, RankedTensorType):
            state.result_types.append(shaped)


MODELS: list[OpSyntax] = [TransferReadOp("vector.transfer_read"), TransferWriteOp("vector.transfer_write")]
