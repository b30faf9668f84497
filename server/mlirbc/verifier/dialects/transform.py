"""`transform`: the possible top-level transform ops (PossibleTopLevelTransformOpTrait: the entry block's
handles against the op's operands) and `transform.foreach` (targets against the body's arguments, results
against what the body yields)."""

from __future__ import annotations

from ...ir.types import Type
from ..core import Finding, OpContext, OpVerifier
from ..predicates import dialect_and_mnemonic, is_builtin_type, opaque

_KINDS = {
    ("transform", "any_op"): "op",
    ("transform", "op"): "op",
    ("transform", "any_value"): "value",
    ("transform", "any_param"): "param",
    ("transform", "param"): "param",
}

TOP_LEVEL = "PossibleTopLevelTransformOpTrait"


def handle_kind(t: Type) -> str | None:
    """`op`, `value` or `param` for the transform dialect's handle and parameter types known here, `none` for
    a builtin type (which implements none of their interfaces), None where it cannot be said (another
    dialect's type may implement them)."""
    if opaque(t):
        return None
    if is_builtin_type(t):
        return "none"
    dm = dialect_and_mnemonic(t)
    return _KINDS.get(dm) if dm is not None else None


def verify_possible_top_level(ctx: OpContext) -> Finding | None:
    op = ctx.op
    check = TOP_LEVEL
    if len(op.regions) < 1:
        return ctx.fail("expects at least one region", check=check)
    blocks = op.regions[0].blocks
    if len(blocks) != 1:
        return ctx.fail("expects a single-block region", check=check)
    args = blocks[0].arguments
    if not args:
        return ctx.fail("expects the entry block to have at least one argument", check=check)
    first = handle_kind(args[0].type)
    if first is None:
        return None
    if first != "op":
        return ctx.fail("expects the first entry block argument to be of type implementing "
                        "TransformHandleTypeInterface", check=check)
    if op.operands and args[0].type is not op.operands[0].type:
        return ctx.fail("expects the type of the block argument to match the type of the operand",
                        check=check)
    kinds = [handle_kind(a.type) for a in args[1:]]
    if None in kinds:
        return None
    if "none" in kinds:
        return ctx.fail("expects trailing entry block arguments to be of type implementing "
                        "TransformHandleTypeInterface, TransformValueHandleTypeInterface or "
                        "TransformParamTypeInterface", check=check)
    nested = any((c := ctx.model_of(a)) is not None and any(t[0] == "unchecked" and t[2:3] == (TOP_LEVEL,)
                                                            for t in c.traits)
                 for a in ctx.ancestors)
    if nested and len(op.operands) != len(args):
        return ctx.fail("expects operands to be provided for a nested op", check=check)
    return None


def verify_foreach(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        return None
    block = op.regions[0].blocks[0]
    args = block.arguments
    if len(op.operands) != len(args):
        return ctx.fail("expects the same number of targets as the body has block arguments", check=op.name)
    if any(v.type is not a.type for v, a in zip(op.operands, args, strict=True)):
        return ctx.fail("expects co-indexed targets and the body's block arguments to have the same "
                        "op/value/param type", check=op.name)
    last = block.operations[-1] if block.operations else None
    if last is None or last.name != "transform.yield":
        return None
    if len(op.results) != len(last.operands):
        return ctx.fail("expects the same number of results as the yield terminator has operands",
                        check=op.name)
    if any(r.type is not v.type for r, v in zip(op.results, last.operands, strict=True)):
        return ctx.fail("expects co-indexed results and yield operands to have the same op/value/param type",
                        check=op.name)
    return None


VERIFIERS = {
    "transform.foreach": OpVerifier(verify_foreach, label="targets against the body's arguments, results "
                                                          "against the yielded values"),
}
INTERFACES = {
    TOP_LEVEL: OpVerifier(verify_possible_top_level,
                          label="entry block handles against the operands (possible top-level transform op)"),
}
