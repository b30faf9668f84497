"""`pdl`: patterns' matcher bodies (every matched entity bound, the operations one connected component) and
the ops' own rules."""

from __future__ import annotations

from ...ir.attributes import ArrayAttr
from ...ir.operation import Block, Operation, OpResult, Value
from ..core import REGIONS, Finding, OpContext, OpVerifier, attr_of, type_text
from ..ods import operand_groups, segment_sizes

PATTERN = "pdl.pattern"
REWRITE = "pdl.rewrite"
_RESULTS = ("pdl.result", "pdl.results")
_COMPONENT = ("pdl.operand", "pdl.operands", "pdl.result", "pdl.results", "pdl.operation")


def _group(ctx: OpContext, name: str) -> list[Value] | None:
    """The operands of one of the op's operand groups (None when the groups cannot be told apart)."""
    groups = operand_groups(ctx)
    return None if groups is None else groups.get(name)


def verify_apply_native_constraint(ctx: OpContext) -> Finding | None:
    if not ctx.op.operands:
        return ctx.fail("expected at least one argument", check="pdl.apply_native_constraint")
    return None


def verify_apply_native_rewrite(ctx: OpContext) -> Finding | None:
    if not ctx.op.operands and not ctx.op.results:
        return ctx.fail("expected at least one argument or result", check="pdl.apply_native_rewrite")
    return None


def verify_attribute(ctx: OpContext) -> Finding | None:
    if ctx.attr("value") is None:
        if ctx.parent is not None and ctx.parent.name == REWRITE:
            return ctx.fail("expected constant value when specified within a `pdl.rewrite`",
                            check="pdl.attribute")
        return None
    if ctx.op.operands:
        return ctx.fail("expected only one of [`type`, `value`] to be set", check="pdl.attribute")
    return None


def verify_operation(ctx: OpContext) -> Finding | None:
    within_rewrite = ctx.parent is not None and ctx.parent.name == REWRITE
    if within_rewrite and ctx.attr("opName") is None:
        return ctx.fail("must have an operation name when nested within a `pdl.rewrite`",
                        check="pdl.operation")
    names = ctx.attr("attributeValueNames")
    values = _group(ctx, "attributeValues")
    if isinstance(names, ArrayAttr) and values is not None and len(names.elements) != len(values):
        return ctx.fail(f"expected the same number of attribute values and attribute names, got "
                        f"{len(names.elements)} names and {len(values)} values", check="pdl.operation")
    return None


def verify_range(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if len(op.results) != 1:
        return None
    result = type_text(op.results[0].type)
    if not (result.startswith("!pdl.range<") and result.endswith(">")):
        return None
    element = "!pdl." + result[len("!pdl.range<"):-1]
    for v in op.operands:
        t = type_text(v.type)
        got = "!pdl." + t[len("!pdl.range<"):-1] if t.startswith("!pdl.range<") else t
        if got != element:
            return ctx.fail(f"expected operand to have element type {element}, but got {got}",
                            check="pdl.range")
    return None


def verify_replace(ctx: OpContext) -> Finding | None:
    repl_op, repl_values = _group(ctx, "replOperation"), _group(ctx, "replValues")
    if repl_op and repl_values:
        return ctx.fail("expected no replacement values to be provided when the replacement operation is "
                        "present", check="pdl.replace")
    return None


def verify_results(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if ctx.attr("index") is None and len(op.results) == 1 and type_text(op.results[0].type) == "!pdl.value":
        return ctx.fail("expected `pdl.range<value>` result type when no index is specified, but got: "
                        "!pdl.value", check="pdl.results")
    return None


def verify_rewrite_regions(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if not op.regions:
        return None
    region = op.regions[0]
    if ctx.attr("name") is not None:
        if region.blocks:
            return ctx.fail("expected rewrite region to be empty when rewrite is external", check=REWRITE)
        return None
    if not region.blocks:
        return ctx.fail("expected rewrite region to be non-empty if external name is not specified",
                        check=REWRITE)
    if _group(ctx, "externalArgs"):
        return ctx.fail("expected no external arguments when the rewrite is specified inline", check=REWRITE)
    return None


def _binds(name: str, op: Operation) -> bool:
    """Whether an op of the matcher body must be bound (pdl.attribute/type/types only when not constant)."""
    if name in ("pdl.operand", "pdl.operands", "pdl.operation"):
        return True
    key = {"pdl.attribute": "value", "pdl.type": "constantType", "pdl.types": "constantTypes"}.get(name)
    return key is not None and attr_of(op, key) is None


def _users(block: Block) -> dict[int, list[Operation]]:
    """id(op) -> the ops using one of its results, in and under the block."""
    out: dict[int, list[Operation]] = {}
    for holder in block.operations:
        for user in holder.walk():
            for v in user.operands:
                if isinstance(v, OpResult):
                    out.setdefault(id(v.owner), []).append(user)
    return out


def verify_pattern_regions(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if not op.regions or not op.regions[0].blocks:
        return None
    body = op.regions[0].blocks[0]
    users = _users(body)
    verifier = ctx.verifier

    def binding(o: Operation) -> bool:
        return any(u.name not in _RESULTS or binding(u) for u in users.get(id(o), ()))

    for child in body.operations:
        if _binds(child.name, child) and not verifier.failed(child) and not binding(child):
            return Finding(child,
                           f"'{child.name}' op expected a bindable user when defined in the matcher body "
                                  f"of a `pdl.pattern`", check=PATTERN)
    term = body.operations[-1] if body.operations else None
    if term is None or term.name != REWRITE:
        return None  # the terminator's own check says so
    for child in body.operations:
        for inner in child.walk():
            if not inner.name.startswith("pdl."):
                return ctx.fail("expected only `pdl` operations within the pattern body", check=PATTERN)
    if not any(child.name == "pdl.operation" for child in body.operations):
        return ctx.fail("the pattern must contain at least one `pdl.operation`", check=PATTERN)
    in_body = {id(child) for child in body.operations}
    rewrite_region_ops = {id(o) for r in term.regions for b in r.blocks for o in b.operations}

    def in_rewrite(u: Operation) -> bool:
        return u is term or id(u) in rewrite_region_ops

    visited: set[int] = set()

    def visit(o: Operation) -> None:
        stack = [o]
        while stack:
            cur = stack.pop()
            if id(cur) not in in_body or cur.name == REWRITE or id(cur) in visited:
                continue
            visited.add(id(cur))
            if cur.name == "pdl.operation":
                stack.extend(v.owner for v in _operand_values(cur) if isinstance(v, OpResult))
            elif cur.name in _RESULTS and cur.operands and isinstance(cur.operands[0], OpResult):
                stack.append(cur.operands[0].owner)
            stack.extend(users.get(id(cur), ()))

    first = True
    for child in body.operations:
        if child.name not in _COMPONENT or not any(in_rewrite(u) for u in users.get(id(child), ())):
            continue
        if first:
            visit(child)
            first = False
        elif id(child) not in visited:
            return ctx.fail("the operations must form a connected component", check=PATTERN)
    return None


def _operand_values(op: Operation) -> list[Value]:
    """A pdl.operation's `operandValues` (its first segment)."""
    seg = segment_sizes(op, "operandSegmentSizes")
    if isinstance(seg, list) and seg:
        return list(op.operands[:seg[0]])
    return []


VERIFIERS = {
    "pdl.apply_native_constraint": OpVerifier(verify_apply_native_constraint, label="at least one argument"),
    "pdl.apply_native_rewrite": OpVerifier(verify_apply_native_rewrite,
                                           label="at least one argument or result"),
    "pdl.attribute": OpVerifier(verify_attribute, label="constant within a rewrite; type or value"),
    "pdl.operation": OpVerifier(verify_operation, label="name within a rewrite; attribute names and values"),
    "pdl.range": OpVerifier(verify_range, label="operand element types"),
    "pdl.replace": OpVerifier(verify_replace, label="replacement op or values"),
    "pdl.results": OpVerifier(verify_results, label="range type without an index"),
}
REGION_VERIFIERS = {
    "pdl.rewrite": OpVerifier(verify_rewrite_regions, REGIONS, label="inline body or external name"),
    "pdl.pattern": OpVerifier(verify_pattern_regions, REGIONS,
                              label="matched entities bound, one connected component, pdl ops only"),
}
