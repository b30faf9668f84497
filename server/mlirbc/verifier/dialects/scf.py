"""`scf`: loops and conditionals against their regions (LoopLikeOpInterface, the values along each
control-flow edge of RegionBranchOpInterface, and the ops' own rules)."""

from __future__ import annotations

from ...ir.operation import Operation, Value
from ...ir.types import IndexType, Type
from ..core import REGIONS, Finding, OpContext, OpVerifier, type_text
from ..ods import segment_sizes
from .regions import edge, entry_args, terminator, types

YIELD = "scf.yield"


def _loop_like(ctx: OpContext, inits: list[Value], iter_args: list[Value], yielded: list[Value] | None,
               results: list[Value]) -> Finding | None:
    """LoopLikeOpInterface's counts and types (inits, region iter_args, yielded values, loop results)."""
    check = "LoopLikeOpInterface"
    if len(inits) != len(iter_args):
        return ctx.fail(f"different number of inits and region iter_args: {len(inits)} != {len(iter_args)}",
                        check=check)
    if yielded and len(iter_args) != len(yielded):
        return ctx.fail(f"different number of region iter_args and yielded values: {len(iter_args)} != "
                        f"{len(yielded)}", check=check)
    if len(results) != len(iter_args):
        return ctx.fail(f"different number of loop results and region iter_args: {len(results)} != "
                        f"{len(iter_args)}", check=check)
    for i, (init, arg) in enumerate(zip(inits, iter_args, strict=True)):
        if init.type is not arg.type:
            return ctx.fail(f"{i}-th init and {i}-th region iter_arg have different type: "
                            f"'{type_text(init.type)}'"
                            f" != '{type_text(arg.type)}'", check=check)
        if yielded and arg.type is not yielded[i].type:
            return ctx.fail(f"{i}-th region iter_arg and {i}-th yielded value have different type: "
                            f"'{type_text(arg.type)}' != '{type_text(yielded[i].type)}'", check=check)
    for i, (arg, res) in enumerate(zip(iter_args, results, strict=True)):
        if arg.type is not res.type:
            return ctx.fail(f"{i}-th region iter_arg and {i}-th loop result have different type: "
                            f"'{type_text(arg.type)}' != '{type_text(res.type)}'", check=check)
    return None


def _for_parts(op: Operation) -> tuple[list[Value], list[Value], Operation | None] | None:
    if len(op.operands) < 3 or len(op.regions) != 1:
        return None
    args = entry_args(op.regions[0])
    if not args:
        return None
    return list(op.operands[3:]), args[1:], terminator(op.regions[0], YIELD)


def verify_for(ctx: OpContext) -> Finding | None:
    parts = _for_parts(ctx.op)
    if parts is None:
        return None
    inits, iter_args, yield_op = parts
    found = _loop_like(ctx, inits, iter_args, list(yield_op.operands) if yield_op is not None else None,
                       list(ctx.op.results))
    if found is not None:
        return found
    if len(inits) != len(ctx.op.results):
        return ctx.fail("mismatch in number of loop-carried values and defined values", check="scf.for")
    return None


def verify_for_regions(ctx: OpContext) -> Finding | None:
    op = ctx.op
    parts = _for_parts(op)
    if parts is None:
        return None
    inits, iter_args, yield_op = parts
    res = types(op.results)
    found = edge(ctx, "parent", types(inits), "Region #0", types(iter_args)) or \
        edge(ctx, "parent", types(inits), "parent", res)
    if found is None and yield_op is not None:
        found = edge(ctx, f"Operation {YIELD}", types(yield_op.operands), "Region #0", types(iter_args)) or \
            edge(ctx, f"Operation {YIELD}", types(yield_op.operands), "parent", res)
    if found is not None:
        return found
    iv = op.regions[0].blocks[0].arguments[0]
    if iv.type is not op.operands[0].type:
        return ctx.fail("expected induction variable to be same type as bounds and step", check="scf.for")
    return None


def verify_if(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if op.results and (len(op.regions) < 2 or not op.regions[1].blocks):
        return ctx.fail("must have an else block if defining values", check="scf.if")
    return None


def _to_parent(ctx: OpContext, names: str | tuple[str, ...], results: list[Type]) -> Finding | None:
    """Every region's terminator (of `names`) against the op's results."""
    for region in ctx.op.regions:
        term = terminator(region, names)
        if term is not None:
            found = edge(ctx, f"Operation {term.name}", types(term.operands), "parent", results)
            if found is not None:
                return found
    return None


def verify_if_regions(ctx: OpContext) -> Finding | None:
    return _to_parent(ctx, YIELD, types(ctx.op.results))


def verify_execute_region_regions(ctx: OpContext) -> Finding | None:
    return _to_parent(ctx, YIELD, types(ctx.op.results))


def verify_index_switch_regions(ctx: OpContext) -> Finding | None:
    return _to_parent(ctx, YIELD, types(ctx.op.results))


def verify_while(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if len(op.regions) != 2 or not op.regions[0].blocks or not op.regions[1].blocks:
        return None
    before, after = op.regions
    if not before.blocks[0].operations or before.blocks[0].operations[-1].name != "scf.condition":
        return ctx.fail("expects the 'before' region to terminate with 'scf.condition'", check="scf.while")
    if not after.blocks[0].operations or after.blocks[0].operations[-1].name != YIELD:
        return ctx.fail("expects the 'after' region to terminate with 'scf.yield'", check="scf.while")
    return None


def verify_while_regions(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if len(op.regions) != 2:
        return None
    before_args, after_args = entry_args(op.regions[0]), entry_args(op.regions[1])
    if before_args is None or after_args is None:
        return None
    found = edge(ctx, "parent", types(op.operands), "Region #0", types(before_args))
    if found is not None:
        return found
    cond = terminator(op.regions[0], "scf.condition")
    if cond is not None and cond.operands:
        forwarded = types(cond.operands[1:])
        found = edge(ctx, "Operation scf.condition", forwarded, "parent", types(op.results)) or \
            edge(ctx, "Operation scf.condition", forwarded, "Region #1", types(after_args))
        if found is not None:
            return found
    yield_op = terminator(op.regions[1], YIELD)
    if yield_op is not None:
        return edge(ctx, f"Operation {YIELD}", types(yield_op.operands), "Region #0", types(before_args))
    return None


def verify_parallel(ctx: OpContext) -> Finding | None:
    op = ctx.op
    sizes = segment_sizes(op, "operandSegmentSizes")
    if not isinstance(sizes, list) or len(sizes) != 4 or len(op.regions) != 1 or not op.regions[0].blocks:
        return None
    steps, inits = sizes[2], sizes[3]
    if steps == 0:
        return ctx.fail("needs at least one tuple element for lowerBound, upperBound and step",
                        check="scf.parallel")
    body = op.regions[0].blocks[0]
    if len(body.arguments) != steps:
        return ctx.fail(f"expects the same number of induction variables: {len(body.arguments)} as bound "
                        f"and step "
                        f"values: {steps}", check="scf.parallel")
    if any(not isinstance(a.type, IndexType) for a in body.arguments):
        return ctx.fail("expects arguments for the induction variable to be of index type",
                        check="scf.parallel")
    if not body.operations or body.operations[-1].name != "scf.reduce":
        return ctx.fail("expects body to terminate with 'scf.reduce'", check="scf.parallel")
    reductions = len(body.operations[-1].regions)
    if len(op.results) != reductions:
        return ctx.fail(f"expects number of results: {len(op.results)} to be the same as number of "
                        f"reductions: "
                        f"{reductions}", check="scf.parallel")
    if len(op.results) != inits:
        return ctx.fail(f"expects number of results: {len(op.results)} to be the same as number of initial "
                        f"values: {inits}", check="scf.parallel")
    return None


VERIFIERS = {
    "scf.parallel": OpVerifier(verify_parallel, label="induction variables, reductions and initial values"),
    "scf.for": OpVerifier(verify_for, label="inits, region iter_args, yielded values and results agree"),
    "scf.if": OpVerifier(verify_if, label="an else region when it has results"),
    "scf.while": OpVerifier(verify_while, label="its regions' terminators"),
}
REGION_VERIFIERS = {
    "scf.for": OpVerifier(verify_for_regions, REGIONS, label="values along its control-flow edges, induction "
                                                             "variable type"),
    "scf.if": OpVerifier(verify_if_regions, REGIONS, label="yielded values against its results"),
    "scf.while": OpVerifier(verify_while_regions, REGIONS, label="values along its control-flow edges"),
    "scf.execute_region": OpVerifier(verify_execute_region_regions, REGIONS,
                                     label="yielded values against its results"),
    "scf.index_switch": OpVerifier(verify_index_switch_regions, REGIONS,
                                   label="yielded values against its results"),
}
