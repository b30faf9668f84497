"""The traits that constrain IR, checked as upstream's `OpTrait` implementations check them.

`check_trait` answers one trait entry of an op's constraint data (`models.ods_constraints`): structural
traits (single block, implicit terminator, parent op) run before the op's invariants, the others after, in
declaration order.  Whatever involves a value this verifier cannot judge (a dialect's type that might be
shaped) is not checked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..ir.attributes import (
    Attribute,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    DenseStringElementsAttr,
    FloatAttr,
    IntegerAttr,
    SparseElementsAttr,
    StringAttr,
)
from ..ir.operation import Operation
from ..ir.types import (
    DYNAMIC,
    ComplexType,
    IntegerType,
    MemRefType,
    RankedTensorType,
    ShapedType,
    Type,
    UnrankedMemRefType,
    UnrankedTensorType,
    VectorType,
    num_elements,
)
from ..models.constraints import OpConstraints
from .core import Finding, OpContext, Unknown, inherent
from .ods import partition
from .predicates import is_builtin_type, opaque


def _judgeable(types: Sequence[Type]) -> bool:
    """Whether every type is one whose shape and element type this verifier knows (builtin, not opaque)."""
    return all(is_builtin_type(t) and not opaque(t) for t in types)


def element_or_self(t: Type) -> Type:
    return t.element if isinstance(t, ShapedType) else t


def _ranked_shape(t: Type) -> tuple[int, ...] | None:
    if isinstance(t, RankedTensorType | MemRefType | VectorType):
        return t.shape
    return None


def compatible_shape(a: Type, b: Type) -> bool:
    """Upstream's `verifyCompatibleShape`: both shaped or neither; unranked fits any; dims equal or one
    dynamic."""
    sa, sb = isinstance(a, ShapedType), isinstance(b, ShapedType)
    if not sa or not sb:
        return sa == sb
    ra, rb = _ranked_shape(a), _ranked_shape(b)
    if ra is None or rb is None:
        return True
    if len(ra) != len(rb):
        return False
    return all(x == y or x == DYNAMIC or y == DYNAMIC for x, y in zip(ra, rb, strict=True))


def compatible_shapes(types: Sequence[Type]) -> bool:
    """Upstream's `verifyCompatibleShapes` over a list."""
    shaped = [isinstance(t, ShapedType) for t in types]
    if not any(shaped):
        return True
    if not all(shaped):
        return False
    scalable = {isinstance(t, VectorType) and t.scalable is not None for t in types}
    if len(scalable) > 1:
        return False
    shapes = [s for s in (_ranked_shape(t) for t in types) if s is not None]
    if not shapes:
        return True
    rank = len(shapes[0])
    if any(len(s) != rank for s in shapes):
        return False
    for i in range(rank):
        static = {s[i] for s in shapes if s[i] != DYNAMIC}
        if len(static) > 1:
            return False
    return True


def _encoding(t: Type) -> Attribute | None:
    return t.encoding if isinstance(t, RankedTensorType) else None


# -- one function per trait ------------------------------------------------------------------------------
def _single_block(ctx: OpContext, no_terminator: bool) -> Finding | None:
    for i, region in enumerate(ctx.op.regions):
        if not region.blocks:
            continue
        if len(region.blocks) != 1:
            return ctx.fail(f"expects region #{i} to have 0 or 1 blocks", part=("region", i),
                            check="trait:SingleBlock")
        if not no_terminator and not region.blocks[0].operations:
            return ctx.fail("expects a non-empty block", part=("region", i), check="trait:SingleBlock")
    return None


def _has_parent(ctx: OpContext, names: list[str]) -> Finding | None:
    parent = ctx.parent
    if parent is not None and parent.name in names:
        return None
    if len(names) == 1:
        return ctx.fail(f"expects parent op '{names[0]}'", check="trait:HasParent")
    return ctx.fail(f"expects parent op to be one of '{', '.join(names)}'", check="trait:HasParent")


def _is_terminator(ctx: OpContext) -> Finding | None:
    block = ctx.block
    if block is None or not block.operations or block.operations[-1] is not ctx.op:
        return ctx.fail("must be the last operation in the parent block", check="trait:IsTerminator")
    return None


def _no_region_arguments(ctx: OpContext) -> Finding | None:
    op = ctx.op
    for i, region in enumerate(op.regions):
        if region.blocks and region.blocks[0].arguments:
            text = f"region #{i} should have no arguments" if len(op.regions) > 1 else \
                "region should have no arguments"
            return ctx.fail(text, part=("block", i), check="trait:NoRegionArguments")
    return None


def _at_least_one(ctx: OpContext, results_too: bool) -> Finding | None:
    op = ctx.op
    if not op.operands:
        return ctx.fail("expected 1 or more operands, but found 0", check="ods:operands")
    if results_too and not op.results:
        return ctx.fail("expected 1 or more results", check="ods:results")
    return None


def _same_operands_and_result_type(ctx: OpContext) -> Finding | None:
    found = _at_least_one(ctx, True)
    if found is not None:
        return found
    op = ctx.op
    first = ctx.t(op.results[0])
    others = [ctx.t(r) for r in op.results[1:]] + [ctx.t(v) for v in op.operands]
    if all(t is first for t in others):
        return None
    if not _judgeable([first, *others]):
        return None
    elem, enc = element_or_self(first), _encoding(first)
    for t in others:
        if element_or_self(t) is not elem or not compatible_shape(t, first):
            return ctx.fail("requires the same type for all operands and results",
                            check="trait:SameOperandsAndResultType")
        if enc is not None and _encoding(t) is not enc:
            return ctx.fail("requires the same encoding for all operands and results",
                            check="trait:SameOperandsAndResultType")
    return None


def _same_type_operands(ctx: OpContext) -> Finding | None:
    ops = ctx.op.operands
    if len(ops) < 2:
        return None
    first = ctx.t(ops[0])
    if any(ctx.t(v) is not first for v in ops[1:]):
        return ctx.fail("requires all operands to have the same type", check="trait:SameTypeOperands")
    return None


def _same_shape(ctx: OpContext, results_too: bool) -> Finding | None:
    found = _at_least_one(ctx, results_too)
    if found is not None:
        return found
    types = [ctx.t(v) for v in ctx.op.operands] + ([ctx.t(r) for r in ctx.op.results] if results_too else [])
    if not _judgeable(types) or compatible_shapes(types):
        return None
    what = "operands and results" if results_too else "operands"
    name = "SameOperandsAndResultShape" if results_too else "SameOperandsShape"
    return ctx.fail(f"requires the same shape for all {what}", check=f"trait:{name}")


def _same_element_type(ctx: OpContext, results_too: bool) -> Finding | None:
    found = _at_least_one(ctx, results_too)
    if found is not None:
        return found
    op = ctx.op
    types = [ctx.t(v) for v in op.operands] + ([ctx.t(r) for r in op.results] if results_too else [])
    if not _judgeable(types):
        return None
    if results_too:
        elem = element_or_self(ctx.t(op.results[0]))
        if any(element_or_self(t) is not elem for t in types):
            return ctx.fail("requires the same element type for all operands and results",
                            check="trait:SameOperandsAndResultElementType")
        return None
    elem = element_or_self(types[0])
    if any(element_or_self(t) is not elem for t in types[1:]):
        return ctx.fail("requires the same element type for all operands",
                        check="trait:SameOperandsElementType")
    return None


def _same_rank(ctx: OpContext) -> Finding | None:
    found = _at_least_one(ctx, True)
    if found is not None:
        return found
    types = [ctx.t(v) for v in ctx.op.operands] + [ctx.t(r) for r in ctx.op.results]
    if not _judgeable(types):
        return None
    ranks = {len(s) for s in (_ranked_shape(t) for t in types) if s is not None}
    if len(ranks) > 1:
        return ctx.fail("requires the same rank for all operands and results",
                        check="trait:SameOperandsAndResultRank")
    return None


def _mappable(t: Type) -> bool:
    return isinstance(t, VectorType | RankedTensorType | UnrankedTensorType)


def _elementwise(ctx: OpContext) -> Finding | None:
    op = ctx.op
    types = [ctx.t(v) for v in op.operands] + [ctx.t(r) for r in op.results]
    if any(opaque(t) for t in types):
        return None
    res = [t for t in (ctx.t(r) for r in op.results) if _mappable(t)]
    opd = [t for t in (ctx.t(v) for v in op.operands) if _mappable(t)]
    if not res and not opd:
        return None
    check = "trait:Elementwise"
    if res and not opd:
        return ctx.fail("if a result is non-scalar, then at least one operand must be non-scalar",
                        check=check)
    if not res:
        return ctx.fail("if an operand is non-scalar, then there must be at least one non-scalar result",
                        check=check)
    if len(res) != len(op.results):
        return ctx.fail("if an operand is non-scalar, then all results must be non-scalar", check=check)
    both = opd + res
    base = {type(t) for t in both}
    if len(base) != 1 or not compatible_shapes(both):
        return ctx.fail("all non-scalar operands/results must have the same shape and base type", check=check)
    return None


# -- StableHLO's traits (mlir::hlo::OpTrait) ----------------------------------------------------------------
def hlo_compatible(a: Type, b: Type, elements_only: bool = False) -> bool | None:
    """StableHLO's `isCompatibleForHloTypeInference` for the types this verifier knows (None: cannot
    say, e.g. a quantized or bounded element type)."""
    if a is b:
        return True
    if not _judgeable([a, b]):
        return None
    ta = isinstance(a, RankedTensorType | UnrankedTensorType)
    tb = isinstance(b, RankedTensorType | UnrankedTensorType)
    if not ta or not tb:
        return False if (ta or tb) else None
    assert isinstance(a, ShapedType) and isinstance(b, ShapedType)
    if not _judgeable([a.element, b.element]) or _encoding(a) is not None or _encoding(b) is not None:
        return None
    if a.element is not b.element:
        return False
    return True if elements_only else compatible_shape(a, b)


def _hlo_compatible_all(ctx: OpContext, elements: bool, results_too: bool, what: str,
                        name: str) -> Finding | None:
    op = ctx.op
    types = [ctx.t(v) for v in op.operands] + ([ctx.t(r) for r in op.results] if results_too else [])
    if not types:
        return None
    expected = ctx.t(op.operands[0]) if op.operands else ctx.t(op.results[0])
    if elements:
        expected_e = expected.element if isinstance(expected, ShapedType) else expected
        for t in types:
            e = t.element if isinstance(t, ShapedType) else t
            ok = True if e is expected_e else (None if not _judgeable([e, expected_e]) else False)
            if ok is False:
                return ctx.fail(f"requires compatible element types for all {what}", check=f"trait:{name}")
        return None
    for t in types:
        if hlo_compatible(t, expected) is False:
            return ctx.fail(f"requires compatible types for all {what}", check=f"trait:{name}")
    return None


# -- PredOpTrait families -----------------------------------------------------------------------------------
def _named_type(ctx: OpContext, c: OpConstraints, name: str) -> Type | None:
    """The type of the operand, result or typed attribute an ODS name refers to (None: not one value)."""
    op = ctx.op
    for kind, groups, vals in (("operand", c.operands, op.operands), ("result", c.results, op.results)):
        for i, g in enumerate(groups):
            if g.name != name:
                continue
            if g.variadic:
                return None
            ranges = partition(op, c, groups, vals, kind)
            if ranges is None:
                return None
            start, size = ranges[i]
            if size == 1:
                return ctx.t(vals[start])
            # a single value's segment left empty: upstream's accessor reads the value where the segment
            # starts (`*getODSOperands(i).begin()`), which its predicates then judge
            return ctx.t(vals[start]) if size == 0 and start < len(vals) else None
    a = inherent(op, name)
    if isinstance(a, Unknown) or a is None:
        return None
    if isinstance(a, IntegerAttr | FloatAttr | DenseElementsAttr | DenseStringElementsAttr
                  | DenseResourceElementsAttr | SparseElementsAttr | StringAttr):
        return ctx.ty(a.type)
    return None


def _all_match(ctx: OpContext, c: OpConstraints, summary: str, what: str, names: list[str]) -> Finding | None:
    types = [_named_type(ctx, c, n) for n in names]
    known = [t for t in types if t is not None]
    if len(known) != len(types) or len(known) < 2:
        return None
    if all(t is known[0] for t in known):
        return None
    if not _judgeable(known):
        return None
    key: Callable[[Type], Any]
    if what == "type":
        key = lambda t: t  # noqa: E731
    elif what == "element type":
        key = element_or_self
    elif what in ("shape", "rank", "element count"):
        shapes = [_ranked_shape(t) for t in known]
        if any(s is None for s in shapes):
            return None
        if what == "shape":
            key = _ranked_shape
        elif what == "rank":
            key = lambda t: len(_ranked_shape(t) or ())  # noqa: E731
        else:
            if any(DYNAMIC in (s or ()) for s in shapes):
                return None
            key = lambda t: num_elements(_ranked_shape(t) or ())  # noqa: E731
    else:
        return None
    first = key(known[0])
    if any(key(t) != first for t in known[1:]):
        return ctx.fail(f"failed to verify that {summary}", check="trait:AllMatch")
    return None


def _transform(t: Type, how: str) -> Type | None:
    if how == "same":
        return t
    if how == "elem":
        return t.element if isinstance(t, ShapedType) else None
    if how == "eos":
        return element_or_self(t)
    if how == "celem":
        return t.element if isinstance(t, ComplexType) else None
    if how == "i1_same_shape":
        i1 = IntegerType.get(1)
        if isinstance(t, RankedTensorType):
            return RankedTensorType.get(t.shape, i1, t.encoding)
        if isinstance(t, UnrankedTensorType):
            return UnrankedTensorType.get(i1)
        if isinstance(t, VectorType):
            return VectorType.get(t.shape, i1, t.scalable)
        if isinstance(t, MemRefType):
            return MemRefType.get(t.shape, i1, t.layout, t.memory_space)
        if isinstance(t, UnrankedMemRefType):
            return UnrankedMemRefType.get(i1, t.memory_space)
        return i1
    return None


def _types_match_with(ctx: OpContext, c: OpConstraints, summary: str, lhs: str, rhs: str,
                      how: str) -> Finding | None:
    a, b = _named_type(ctx, c, lhs), _named_type(ctx, c, rhs)
    if a is None or b is None or not _judgeable([a, b]):
        return None
    want = _transform(a, how)
    if want is None or want is b:
        return None
    return ctx.fail(f"failed to verify that {summary}", check="trait:TypesMatchWith")


def check_trait(ctx: OpContext, c: OpConstraints, trait: tuple[Any, ...]) -> Finding | None:
    """One trait of the op's constraint data (see `models.ods_constraints`); None when it holds or is not
    modelled."""
    name = trait[0]
    if name == "SingleBlock":
        return _single_block(ctx, c.has_trait("NoTerminator"))
    if name == "HasParent":
        return _has_parent(ctx, list(trait[2]))
    if name == "IsTerminator":
        return _is_terminator(ctx)
    if name == "NoRegionArguments":
        return _no_region_arguments(ctx)
    if name == "SameOperandsAndResultType":
        return _same_operands_and_result_type(ctx)
    if name == "SameTypeOperands":
        return _same_type_operands(ctx)
    if name == "SameOperandsShape":
        return _same_shape(ctx, False)
    if name == "SameOperandsAndResultShape":
        return _same_shape(ctx, True)
    if name == "SameOperandsElementType":
        return _same_element_type(ctx, False)
    if name == "SameOperandsAndResultElementType":
        return _same_element_type(ctx, True)
    if name == "SameOperandsAndResultRank":
        return _same_rank(ctx)
    if name == "Elementwise":
        return _elementwise(ctx)
    if name == "AllMatch":
        return _all_match(ctx, c, trait[2], trait[3], list(trait[4]))
    if name == "TypesMatchWith":
        return _types_match_with(ctx, c, trait[2], trait[3], trait[4], trait[5])
    if name == "CompatibleOperandsAndResultType":
        return _hlo_compatible_all(ctx, False, True, "operands and results", name)
    if name == "CompatibleOperandsAndResultElementType":
        return _hlo_compatible_all(ctx, True, True, "operands and results", name)
    if name == "CompatibleOperandsElementType":
        return _hlo_compatible_all(ctx, True, False, "operands", name)
    return None


def check_implicit_terminator(ctx: OpContext, terminator: str, no_terminator: bool) -> Finding | None:
    """SingleBlockImplicitTerminator's region check (after the regions were verified)."""
    found = _single_block(ctx, no_terminator)
    if found is not None:
        return found
    for region in ctx.op.regions:
        if not region.blocks or not region.blocks[0].operations:
            continue
        last: Operation = region.blocks[0].operations[-1]
        if last.name != terminator:
            return ctx.fail(f"expects regions to end with '{terminator}', found '{last.name}'",
                            check="trait:SingleBlockImplicitTerminator")
    return None


MODELLED = frozenset({"SingleBlock", "HasParent", "IsTerminator", "NoRegionArguments",
                      "SameOperandsAndResultType", "SameTypeOperands", "SameOperandsShape",
                      "SameOperandsAndResultShape", "SameOperandsElementType",
                      "SameOperandsAndResultElementType", "SameOperandsAndResultRank",
                      "Elementwise", "AllMatch", "TypesMatchWith", "SingleBlockImplicitTerminator",
                      "AttrSizedOperandSegments", "AttrSizedResultSegments", "SymbolTable", "NoTerminator",
                      "IsolatedFromAbove", "SameVariadicOperandSize", "SameVariadicResultSize", "ReturnLike",
                      "ConstantLike", "AffineScope", "Scalarizable", "Vectorizable", "Tensorizable",
                      "CompatibleOperandsAndResultType", "CompatibleOperandsAndResultElementType",
                      "CompatibleOperandsElementType"})
"""Trait entries this module (or the engine) checks, or that constrain nothing; `explain` lists others."""
