"""`affine`: maps against their operands (apply, min, max) and `affine.yield` against its parent."""

from __future__ import annotations

from ..affine_text import map_shape
from ..core import Finding, OpContext, OpVerifier, attr_of

_PARENTS = ("affine.parallel", "affine.if", "affine.for")


def _map_operands(results_check: str) -> OpVerifier:
    def check(ctx: OpContext) -> Finding | None:
        op = ctx.op
        shape = map_shape(attr_of(op, "map"))
        if shape is None:
            return None
        if len(op.operands) != shape.dims + shape.symbols:
            return ctx.fail("operand count and affine map dimension and symbol count must match",
                            check=op.name)
        if results_check == "one" and shape.results != 1:
            return ctx.fail("mapping must produce one value", check=op.name)
        if results_check == "some" and shape.results == 0:
            return ctx.fail("affine map expect at least one result", check=op.name)
        return None

    return OpVerifier(check, label="operands against the map's dimensions and symbols")


def verify_yield(ctx: OpContext) -> Finding | None:
    parent = ctx.parent
    if parent is None:
        return None
    if parent.name not in _PARENTS:
        return ctx.fail("only terminates affine.if/for/parallel regions", check="affine.yield")
    if len(parent.results) != len(ctx.op.operands):
        return ctx.fail("parent of yield must have same number of results as the yield operands",
                        check="affine.yield")
    if any(r.type is not v.type for r, v in zip(parent.results, ctx.op.operands, strict=True)):
        return ctx.fail("types mismatch between yield op and its parent", check="affine.yield")
    return None


VERIFIERS = {
    "affine.apply": _map_operands("one"),
    "affine.min": _map_operands("some"),
    "affine.max": _map_operands("some"),
    "affine.yield": OpVerifier(verify_yield, label="operands against the parent's results"),
}
