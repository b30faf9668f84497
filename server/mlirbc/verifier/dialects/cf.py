"""Branches (`cf`, and `llvm`'s, which follow the same rules): each successor's operands against its target
block's arguments (BranchOpInterface), and a switch's case values against its destinations."""

from __future__ import annotations

import struct

from ...ir.attributes import DenseArrayAttr, DenseElementsAttr
from ...ir.operation import Value
from ...ir.types import IntegerType, ShapedType, num_elements
from ..core import Finding, OpContext, OpVerifier, attr_of, type_text
from ..ods import segment_sizes
from .regions import branch


def _segments(ctx: OpContext) -> list[int] | None:
    sizes = segment_sizes(ctx.op, "operandSegmentSizes")
    return sizes if isinstance(sizes, list) and sum(sizes) == len(ctx.op.operands) else None


def verify_br(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if len(op.successors) != 1:
        return None
    return branch(ctx, 0, op.operands, op.successors[0])


def verify_cond_br(ctx: OpContext) -> Finding | None:
    op = ctx.op
    sizes = _segments(ctx)
    if sizes is None or len(sizes) != 3 or len(op.successors) != 2:
        return None
    true_ops = op.operands[sizes[0]:sizes[0] + sizes[1]]
    false_ops = op.operands[sizes[0] + sizes[1]:]
    return branch(ctx, 0, true_ops, op.successors[0]) or branch(ctx, 1, false_ops, op.successors[1])


def _int_array(a: object) -> list[int] | None:
    if isinstance(a, DenseArrayAttr) and a.element_type is IntegerType.get(32):
        return list(struct.unpack(f"<{a.count}i", bytes(a.data)))
    return None


def verify_switch(ctx: OpContext) -> Finding | None:
    op = ctx.op
    sizes = _segments(ctx)
    if sizes is None or len(sizes) != 3 or not op.successors:
        return None
    cases = op.successors[1:]
    # BranchOpInterface (a trait: before the op's own verify)
    default_ops = op.operands[sizes[0]:sizes[0] + sizes[1]]
    found = branch(ctx, 0, default_ops, op.successors[0])
    if found is not None:
        return found
    case_sizes = _int_array(attr_of(op, "case_operand_segments"))
    if case_sizes is not None and len(case_sizes) == len(cases) and sum(case_sizes) == sizes[2]:
        at = sizes[0] + sizes[1]
        for i, (dest, n) in enumerate(zip(cases, case_sizes, strict=True)):
            operands: list[Value] = op.operands[at:at + n]
            at += n
            found = branch(ctx, i + 1, operands, dest)
            if found is not None:
                return found
    flag_name = "flag" if op.name == "cf.switch" else "value"
    values = attr_of(op, "case_values")
    # an empty flag segment: upstream's accessor reads the operand where the segment starts
    if isinstance(values, DenseElementsAttr) and (sizes[0] == 1 or (sizes[0] == 0 and op.operands)):
        vtype = values.type
        if isinstance(vtype, ShapedType) and op.name == "cf.switch":
            flag_type = op.operands[0].type
            if vtype.element is not flag_type:
                return ctx.fail(f"'{flag_name}' type ('{type_text(flag_type)}') should match case value type "
                                f"('{type_text(vtype.element)}')", check=op.name)
            count = _numel(vtype)
            if count is not None and count != len(cases):
                return ctx.fail(f"number of case values ({count}) should match number of case destinations "
                                f"({len(cases)})", check=op.name)
    return None


def _numel(t: ShapedType) -> int | None:
    shape = getattr(t, "shape", None)
    if shape is None or any(d < 0 for d in shape):
        return None
    return num_elements(shape)


_BR = "successor operands against the target blocks' arguments"
VERIFIERS = {
    "cf.br": OpVerifier(verify_br, label=_BR),
    "cf.cond_br": OpVerifier(verify_cond_br, label=_BR),
    "cf.switch": OpVerifier(verify_switch, label="case values; " + _BR),
    "llvm.br": OpVerifier(verify_br, label=_BR),
    "llvm.cond_br": OpVerifier(verify_cond_br, label=_BR),
    "llvm.switch": OpVerifier(verify_switch, label=_BR),
}
