"""The checks ODS generates for every op, in upstream's order: the count traits (regions, results,
successors, operands), then the invariants (required attributes, attribute constraints, operand and result
types per ODS group, region constraints).

Messages are those of MLIR's `OpDefinition.cpp` traits and of the verifiers `mlir-tblgen` generates
(`operand #0 must be signless-integer-like, but got 'f32'`, `requires attribute 'predicate'`, ...).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

from ..ir.attributes import Attribute, DenseArrayAttr
from ..ir.operation import Operation, Value
from ..ir.types import IntegerType
from ..models.constraints import OpConstraints, ValueGroup
from .core import UNKNOWN, Finding, OpContext, Unknown, attr_text, inherent, type_text


def _count(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def check_counts(ctx: OpContext, c: OpConstraints) -> Finding | None:
    """ODS's implicit count traits (ZeroRegions ... AtLeastNOperands), regions first, as upstream lists
    them."""
    op = ctx.op
    fixed = sum(1 for r in c.regions if not r.variadic)
    n = len(op.regions)
    if any(r.variadic for r in c.regions):
        if n < fixed:
            return ctx.fail(f"expected {fixed} or more regions", check="ods:regions")
    elif n != fixed:
        text = "requires zero regions" if fixed == 0 else "requires one region" if fixed == 1 else \
            f"expected {fixed} regions"
        return ctx.fail(text, check="ods:regions")
    found = _value_count(c.results, len(op.results), "results", ctx)
    if found is not None:
        return found
    fixed = sum(1 for s in c.successors if not s[1])
    n = len(op.successors)
    if any(s[1] for s in c.successors):
        if n < fixed:
            return ctx.fail(f"requires at least {fixed} successors but found {n}", check="ods:successors")
    elif n != fixed:
        noun = "successor" if fixed == 1 else "successors"
        return ctx.fail(f"requires {fixed} {noun} but found {n}", check="ods:successors")
    return _value_count(c.operands, len(op.operands), "operands", ctx)


def _value_count(groups: Sequence[ValueGroup], n: int, what: str, ctx: OpContext) -> Finding | None:
    fixed = sum(1 for g in groups if not g.variadic)
    if any(g.variadic for g in groups):
        if n < fixed:
            tail = f", but found {n}" if what == "operands" else ""
            return ctx.fail(f"expected {fixed} or more {what}{tail}", check=f"ods:{what}")
        return None
    if n == fixed:
        return None
    if what == "operands":
        text = "requires zero operands" if fixed == 0 else "requires a single operand" if fixed == 1 else \
            f"expected {fixed} operands, but found {n}"
    else:
        text = "requires zero results" if fixed == 0 else "requires one result" if fixed == 1 else \
            f"expected {fixed} results"
    return ctx.fail(text, check=f"ods:{what}")


def segment_sizes(op: Operation, name: str) -> list[int] | None | Unknown:
    """The values of a segment-sizes attribute (`array<i32: ...>`), None when absent."""
    a = inherent(op, name)
    if isinstance(a, Unknown):
        return UNKNOWN
    if not isinstance(a, DenseArrayAttr) or a.element_type is not IntegerType.get(32):
        return None
    return list(struct.unpack(f"<{a.count}i", bytes(a.data)))


def partition(op: Operation, c: OpConstraints, groups: Sequence[ValueGroup], values: Sequence[Value],
              kind: str) -> list[tuple[int, int]] | None:
    """(start, size) of each ODS group's values, as upstream's `getODSOperands(i)` computes them; None when
    that cannot be known (the sizes attribute is missing or inconsistent: its own check reports it)."""
    if not groups:
        return []
    trait = "AttrSizedOperandSegments" if kind == "operand" else "AttrSizedResultSegments"
    if c.has_trait(trait):
        sizes = segment_sizes(op, f"{kind}SegmentSizes")
        if not isinstance(sizes, list) or len(sizes) != len(groups) or any(s < 0 for s in sizes) \
                or sum(sizes) != len(values):
            return None
        out, at = [], 0
        for s in sizes:
            out.append((at, s))
            at += s
        return out
    variadic = [i for i, g in enumerate(groups) if g.variadic]
    n = len(values)
    fixed = len(groups) - len(variadic)
    if len(variadic) > 1:
        same = "SameVariadicOperandSize" if kind == "operand" else "SameVariadicResultSize"
        if not c.has_trait(same) or (n - fixed) % len(variadic) or n < fixed:
            return None
        each = (n - fixed) // len(variadic)
    else:
        each = n - fixed
        if each < 0:
            return None
    out, at = [], 0
    for g in groups:
        size = each if g.variadic else 1
        out.append((at, size))
        at += size
    return out if at == n else None


def operand_groups(ctx: OpContext) -> dict[str, list[Value]] | None:
    """The op's operands per ODS group name (None when they cannot be told apart)."""
    c = ctx.constraints
    if c is None:
        return None
    ranges = partition(ctx.op, c, c.operands, ctx.op.operands, "operand")
    if ranges is None:
        return None
    return {g.name: list(ctx.op.operands[start:start + size])
            for g, (start, size) in zip(c.operands, ranges, strict=True)}


def check_segments(ctx: OpContext, c: OpConstraints, kind: str) -> Finding | None:
    """The AttrSized{Operand,Result}Segments trait: the sizes add up to the number of values."""
    name = f"{kind}SegmentSizes"
    sizes = segment_sizes(ctx.op, name)
    if isinstance(sizes, Unknown):
        return None
    if sizes is None:
        a = inherent(ctx.op, name)
        if a is None or isinstance(a, Attribute):
            return ctx.fail(f"requires dense i32 array attribute '{name}'", part=("attribute", name),
                            check=f"trait:AttrSized{kind.capitalize()}Segments")
        return None
    if any(s < 0 for s in sizes):
        return ctx.fail(f"'{name}' attribute cannot have negative elements", part=("attribute", name),
                        check=f"trait:AttrSized{kind.capitalize()}Segments")
    n = len(ctx.op.operands if kind == "operand" else ctx.op.results)
    if sum(sizes) != n:
        return ctx.fail(f"{kind} count ({n}) does not match with the total size ({sum(sizes)}) specified in "
                        f"attribute '{name}'", part=("attribute", name),
                        check=f"trait:AttrSized{kind.capitalize()}Segments")
    return None


def check_invariants(ctx: OpContext, c: OpConstraints, attributes: bool = True) -> Finding | None:
    """What `mlir-tblgen`'s `verifyInvariantsImpl` checks: required attributes (by name), attribute
    constraints (in declaration order), operand and result types per group, region constraints."""
    op = ctx.op
    preds = ctx.verifier.preds
    if c.attrs and attributes:
        values: dict[str, Attribute | None] = {}
        for spec in c.attrs:
            a = inherent(op, spec.name)
            if isinstance(a, Unknown):
                values = {}
                break
            values[spec.name] = a
        else:
            for spec in sorted(c.attrs, key=lambda s: s.name.encode()):
                if spec.presence == "req" and values.get(spec.name) is None:
                    return ctx.fail(f"requires attribute '{spec.name}'", part=("attribute", spec.name),
                                    check="ods:attribute")
            for spec in c.attrs:
                a = values.get(spec.name)
                if a is None or spec.constraint is None:
                    continue
                if preds.answer(spec.constraint.pred, a) is False:
                    return ctx.fail(f"attribute '{spec.name}' failed to satisfy constraint: "
                                    f"{spec.constraint.summary}", part=("attribute", spec.name),
                                    check="ods:attribute")
    for kind, groups, vals in (("operand", c.operands, op.operands),
                               ("result", c.results, op.results)):
        ranges = partition(op, c, groups, vals, kind)
        if ranges is None:
            continue
        for g, (start, size) in zip(groups, ranges, strict=True):
            if g.quantifier == "?" and size > 1:
                return ctx.fail(f"{kind} group starting at #{start} requires 0 or 1 element, but found "
                                f"{size}",
                                part=(kind, start), check=f"ods:{kind}")
            if g.quantifier == "**" and g.segment_attr:
                inner = segment_sizes(op, g.segment_attr)
                if isinstance(inner, list):
                    if any(n < 0 for n in inner):
                        return ctx.fail(f"'{g.segment_attr}' attribute cannot have negative elements",
                                        part=("attribute", g.segment_attr), check=f"ods:{kind}")
                    if sum(inner) != size:
                        return ctx.fail(f"{g.name} count ({size}) does not match with the total size "
                                        f"({sum(inner)}) specified in attribute '{g.segment_attr}'",
                                        part=("attribute", g.segment_attr), check=f"ods:{kind}")
            if g.constraint is None:
                continue
            for i in range(start, start + size):
                t = ctx.t(vals[i])
                if preds.answer(g.constraint.pred, t) is False:
                    return ctx.fail(f"{kind} #{i} must be {g.constraint.summary}, but got '{type_text(t)}'",
                                    part=(kind, i), check=f"ods:{kind}")
    for i, region_spec in enumerate(c.regions):
        if region_spec.variadic or region_spec.blocks is None or i >= len(op.regions):
            continue
        summary, how, n = region_spec.blocks
        have = len(op.regions[i].blocks)
        ok = have == n if how == "eq" else have >= n if how == "ge" else have <= n
        if not ok:
            label = f" ('{region_spec.name}')" if region_spec.name else ""
            return ctx.fail(f"region #{i}{label} failed to verify constraint: {summary}", part=("region", i),
                            check="ods:region")
    return None


__all__ = ["attr_text", "check_counts", "check_invariants", "check_segments", "partition"]
