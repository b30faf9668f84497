"""`async`: `async.execute`'s body against its operands and results (the values along its control-flow
edges, async values seen as the values they hold)."""

from __future__ import annotations

from ...ir.operation import Value
from ...ir.types import Type
from ..core import REGIONS, Finding, OpContext, OpVerifier, type_text
from ..ods import partition
from .regions import edge, terminator, types


def _held(t: Type) -> str:
    """The text of the type an `!async.value<T>` holds (any other type's own text)."""
    text = type_text(t)
    return text[len("!async.value<"):-1] if text.startswith("!async.value<") and text.endswith(">") else text


def _compatible(a: Type, b: Type) -> bool:
    return _held(a) == _held(b)


def _group(ctx: OpContext, name: str, kind: str) -> list[Value] | None:
    c = ctx.constraints
    if c is None:
        return None
    groups, vals = (c.operands, ctx.op.operands) if kind == "operand" else (c.results, ctx.op.results)
    ranges = partition(ctx.op, c, groups, vals, kind)
    if ranges is None:
        return None
    for g, (start, size) in zip(groups, ranges, strict=True):
        if g.name == name:
            return list(vals[start:start + size])
    return None


def verify_execute_regions(ctx: OpContext) -> Finding | None:
    op = ctx.op
    operands, results = _group(ctx, "bodyOperands", "operand"), _group(ctx, "bodyResults", "result")
    if operands is None or results is None or len(op.regions) != 1 or not op.regions[0].blocks:
        return None
    args = list(op.regions[0].blocks[0].arguments)
    found = edge(ctx, "parent", types(operands), "Region #0", types(args), _compatible)
    if found is None:
        yield_op = terminator(op.regions[0], "async.yield")
        if yield_op is not None:
            found = edge(ctx, "Operation async.yield", types(yield_op.operands), "parent", types(results),
                         _compatible)
    if found is not None:
        return found
    if [_held(v.type) for v in operands] != [type_text(a.type) for a in args]:
        return ctx.fail("async body region argument types do not match the execute operation arguments types",
                        check="async.execute")
    return None


REGION_VERIFIERS = {
    "async.execute": OpVerifier(verify_execute_regions, REGIONS,
                                label="body arguments and yielded values against the op's values"),
}
