"""The affine dialect's region ops (ports of AffineOps.cpp's print/parse): `affine.for` (`%i = 0 to
%n step 2 iter_args(...)`, bounds as a constant, one symbol or `max map(dims)[symbols]`), `affine.if`
(`#set(dims)[symbols] -> T { } else { }`) and `affine.parallel` (bounds over SSA values grouped by
`max(...)`/`min(...)`, steps, reductions)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ....ir.attributes import ArrayAttr, Attribute, IntegerAttr, StringAttr
from ....ir.operation import Operation, Value
from ....ir.types import IndexType, IntegerType
from ....syntax.attr_parser import parse_attribute_text
from ....syntax.attr_printer import plain_attribute_text
from ...affine_build import AffineSyntaxError, parse_integer_set
from ..api import AsmParser, AsmPrinter, OperandRef, OpState, OpSyntax, SyntaxModelError
from .affine import AffinePort, parse_attr_dict, parse_dims_and_symbols, print_dims_and_symbols
from .affine_ssa import (
    MapText,
    SsaNames,
    check_readable,
    map_of,
    parse_ssa_expr,
    parse_ssa_list,
    print_ssa_expr,
)
from .base import print_types
from .scf import (
    parse_arrow_types,
    parse_induction_vars,
    parse_iter_args,
    parse_results_then_else,
    print_arrow_types,
    print_iter_args,
    print_then_else,
)

_INT64 = 1 << 64


def _signed(a: IntegerAttr) -> int:
    return a.bits - _INT64 if a.bits >= 1 << 63 else a.bits


def _index(value: int) -> Attribute:
    return IntegerAttr.get(IndexType.get(), value % _INT64)


def _all_index(values: Sequence[Value]) -> bool:
    return all(isinstance(v.type, IndexType) for v in values)


# -- affine.for -----------------------------------------------------------------------------------------
def _print_bound(p: AsmPrinter, a: Attribute, operands: Sequence[Value], prefix: str) -> None:
    """printBound: a constant, a single symbol operand, else `[max|min] map(dims)[symbols]`."""
    m = map_of(a)
    if len(operands) != m.dims + m.syms or not _all_index(operands):
        raise SyntaxModelError("a bound's operands do not match its map")
    if len(m.results) == 1:
        if m.dims == 0 and m.syms == 0 and re.fullmatch(r"-?\d+", m.results[0]):
            p.write(m.results[0])
            return
        if m.dims == 0 and m.syms == 1 and m.results[0] == "s0":
            p.operand(operands[0])
            return
    else:
        p.write(prefix + " ")
    p.attribute(a)
    print_dims_and_symbols(p, operands, m.dims)


def _parse_bound(p: AsmParser, state: OpState, name: str, prefix: str) -> list[OperandRef]:
    """parseBound; the bound's operands (resolved by the caller, in order)."""
    keyword = p.parse_optional_keyword(prefix)
    index = IndexType.get()
    ref = p.parse_optional_operand()
    if ref is not None:
        if p.peek_text() == ",":
            raise p.error("expected only one loop bound operand")
        state.attributes[name] = parse_attribute_text("affine_map<()[s0] -> (s0)>")
        return [ref]
    a = p.parse_attribute(index)
    if isinstance(a, IntegerAttr):
        state.attributes[name] = parse_attribute_text(f"affine_map<() -> ({_signed(a)})>")
        return []
    try:
        m = map_of(a)
    except SyntaxModelError:
        raise p.error("expected valid affine map representation for loop bounds") from None
    dims, syms = parse_dims_and_symbols(p)
    if len(dims) != m.dims:
        raise p.error("dim operand count and affine map dim count must match")
    if len(syms) != m.syms:
        raise p.error("symbol operand count and affine map symbol count must match")
    if len(m.results) > 1 and not keyword:
        raise p.error(f"lower loop bound affine map with multiple results requires '{prefix}' prefix"
                      if prefix == "max" else
                      f"upper loop bound affine map with multiple results requires '{prefix}' prefix")
    state.attributes[name] = a
    return [*dims, *syms]


class ForOp(AffinePort):
    keywords_list = ("to", "step", "iter_args", "max", "min")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        g = view.operand_groups()
        lower, upper, inits = g["lowerBoundOperands"], g["upperBoundOperands"], g["inits"]
        lb, ub, step = view.attr("lowerBoundMap"), view.attr("upperBoundMap"), view.attr("step")
        if lb is None or ub is None or not isinstance(step, IntegerAttr) or step.type is not IndexType.get():
            raise SyntaxModelError("affine.for needs its bounds and an index step")
        if len(op.regions) != 1 or not op.regions[0].blocks:
            raise SyntaxModelError("affine.for needs a body")
        body = op.regions[0].blocks[0]
        if len(body.arguments) != len(inits) + 1 or not isinstance(body.arguments[0].type, IndexType) or \
                [a.type for a in body.arguments[1:]] != [v.type for v in inits] or \
                [r.type for r in op.results] != [v.type for v in inits]:
            raise SyntaxModelError("affine.for's body arguments do not match its initial values")
        p.write(" ")
        p.region_argument(body.arguments[0], None, omit_type=True)
        p.write(" = ")
        _print_bound(p, lb, lower, "max")
        p.write(" to ")
        _print_bound(p, ub, upper, "min")
        if _signed(step) != 1:
            p.write(f" step {_signed(step)}")
        if inits:
            print_iter_args(p, body.arguments[1:], inits, [r.type for r in op.results])
        p.write(" ")
        p.region(op.regions[0], False, bool(inits))
        p.optional_attr_dict(self.discardable(op))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        from ..declarative_parse import i32_array

        index = IndexType.get()
        iv = p.parse_argument(allow_type=False)
        iv.type = index
        p.parse_punct("=")
        lower = _parse_bound(p, state, "lowerBoundMap", "max")
        p.parse_keyword("to")
        upper = _parse_bound(p, state, "upperBoundMap", "min")
        if p.parse_optional_keyword("step"):
            step = p.parse_attribute(index)
            if not isinstance(step, IntegerAttr) or _signed(step) < 0:
                raise p.error("expected step to be representable as a positive signed integer")
            state.attributes["step"] = step
        else:
            state.attributes["step"] = _index(1)
        args, values = parse_iter_args(p, state, iv)
        if len(args) != len(state.result_types) + 1:
            raise p.error("mismatch between the number of loop-carried values and results")
        for arg, t in zip(args[1:], state.result_types, strict=True):
            arg.type = t
        p.resolve_operands([*lower, *upper], [index] * (len(lower) + len(upper)), state)
        p.resolve_operands(values, state.result_types, state)
        state.attributes["operandSegmentSizes"] = i32_array([len(lower), len(upper), len(values)])
        body = p.parse_region(args)
        p.ensure_terminator(body, "affine.yield")
        state.regions.append(body)
        parse_attr_dict(p, state)


# -- affine.if ------------------------------------------------------------------------------------------
def _set_counts(a: Attribute | None) -> tuple[int, int]:
    text = plain_attribute_text(a) if a is not None else ""
    if not text.startswith("affine_set<"):
        raise SyntaxModelError("the condition is not an integer set")
    try:
        dims, syms, _ = parse_integer_set(text)
    except AffineSyntaxError as exc:
        raise SyntaxModelError(f"the condition: {exc}") from None
    return dims, syms


class IfOp(AffinePort):
    keywords_list = ("else",)

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        cond = view.attr("condition")
        dims, syms = _set_counts(cond)
        assert cond is not None
        if len(op.operands) != dims + syms or not _all_index(list(op.operands)):
            raise SyntaxModelError("the condition's operands do not match its set")
        if len(op.regions) != 2:
            raise SyntaxModelError("affine.if has two regions")
        p.write(" ")
        p.attribute(cond)
        print_dims_and_symbols(p, list(op.operands), dims)
        if op.results:
            print_arrow_types(p, [r.type for r in op.results])
        print_then_else(p, op, bool(op.results))
        p.optional_attr_dict(self.discardable(op))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        cond = p.parse_attribute()
        state.attributes["condition"] = cond
        try:
            dims, syms = _set_counts(cond)
        except SyntaxModelError:
            raise p.error("expected an integer set") from None
        d, s = parse_dims_and_symbols(p)
        if len(d) != dims:
            raise p.error("dim operand count and integer set dim count must match")
        if len(d) + len(s) != dims + syms:
            raise p.error("symbol operand count and integer set symbol count must match")
        p.resolve_operands([*d, *s], [IndexType.get()] * (len(d) + len(s)), state)
        parse_results_then_else(p, state, "affine.yield")
        parse_attr_dict(p, state)


# -- affine.parallel ------------------------------------------------------------------------------------
REDUCTIONS = ("addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu", "minimumf",
              "minnumf", "mins", "minu", "mulf", "muli", "ori", "xori")
"""arith::AtomicRMWKind by value."""

_DENSE = re.compile(r"dense<(.*)> : tensor<(\d+)xi32>")


def _groups(a: Attribute | None) -> list[int]:
    """The group sizes a `dense<...> : tensor<Nxi32>` holds."""
    m = _DENSE.fullmatch(plain_attribute_text(a)) if a is not None else None
    if m is None:
        raise SyntaxModelError("a bound's groups are not an i32 tensor")
    body, n = m.group(1), int(m.group(2))
    if not body:
        values: list[int] = []
    elif body.startswith("["):
        values = [int(x) for x in body.strip("[]").split(",")]
    else:
        values = [int(body)] * n
    if len(values) != n or any(v < 1 for v in values):
        raise SyntaxModelError("a bound's groups are not positive sizes")
    return values


def _groups_attr(sizes: Sequence[int]) -> Attribute:
    body = f"[{', '.join(str(s) for s in sizes)}]" if sizes else ""
    return parse_attribute_text(f"dense<{body}> : tensor<{len(sizes)}xi32>")


def _i64_ints(a: Attribute | None, what: str) -> list[int]:
    out: list[int] = []
    for x in a.elements if isinstance(a, ArrayAttr) else (None,):
        if not isinstance(x, IntegerAttr) or x.type is not IntegerType.get(64):
            raise SyntaxModelError(f"'{what}' is not an array of i64")
        out.append(_signed(x))
    return out


def _print_min_max(p: AsmPrinter, m: MapText, groups: list[int], operands: Sequence[Value], keyword: str
                   ) -> None:
    """printMinMaxBound: each group one expression, or `max(...)`/`min(...)` of several."""
    dims, syms = operands[:m.dims], operands[m.dims:]
    start = 0
    for i, size in enumerate(groups):
        if i:
            p.write(", ")
        if size == 1:
            print_ssa_expr(p, m.results[start], dims, syms)
        else:
            p.write(keyword + "(")
            for j, result in enumerate(m.results[start:start + size]):
                if j:
                    p.write(", ")
                print_ssa_expr(p, result, dims, syms)
            p.write(")")
        start += size


def _parse_min_max(p: AsmParser, state: OpState, keyword: str, map_name: str, groups_name: str
                   ) -> list[OperandRef]:
    """parseAffineMapWithMinMax (the `(` read): the bounds' map, groups and operands."""
    names = SsaNames()
    results: list[str] = []
    sizes: list[int] = []
    if not p.parse_optional_punct(")"):
        while True:
            if p.parse_optional_keyword(keyword):
                p.parse_punct("(")
                group = parse_ssa_list(p, names, ")")
                results.extend(group)
                sizes.append(len(group))
            else:
                results.append(parse_ssa_expr(p, names))
                sizes.append(1)
            if not p.parse_optional_punct(","):
                break
        p.parse_punct(")")
    state.attributes[map_name] = names.attr(p, results)
    state.attributes[groups_name] = _groups_attr(sizes)
    return names.operands()


class ParallelOp(AffinePort):
    keywords_list = ("to", "step", "reduce", "max", "min")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        lower_map, upper_map = view.attr("lowerBoundsMap"), view.attr("upperBoundsMap")
        lower, upper = map_of(lower_map, "lowerBoundsMap"), map_of(upper_map, "upperBoundsMap")
        lower_groups = _groups(view.attr("lowerBoundsGroups"))
        upper_groups = _groups(view.attr("upperBoundsGroups"))
        steps = _i64_ints(view.attr("steps"), "steps")
        reductions = _i64_ints(view.attr("reductions"), "reductions")
        if len(op.regions) != 1 or not op.regions[0].blocks:
            raise SyntaxModelError("affine.parallel needs a body")
        ivs = op.regions[0].blocks[0].arguments
        n = len(ivs)
        if len(lower_groups) != n or len(upper_groups) != n or len(steps) != n or \
                sum(lower_groups) != len(lower.results) or sum(upper_groups) != len(upper.results):
            raise SyntaxModelError("affine.parallel's bounds do not match its induction variables")
        if not all(isinstance(a.type, IndexType) for a in ivs):
            raise SyntaxModelError("an induction variable is not an index")
        if len(reductions) != len(op.results) or any(not 0 <= r < len(REDUCTIONS) for r in reductions):
            raise SyntaxModelError("affine.parallel's reductions do not match its results")
        split = lower.dims + lower.syms
        operands = list(op.operands)
        if len(operands) != split + upper.dims + upper.syms or not _all_index(operands):
            raise SyntaxModelError("affine.parallel's operands do not match its bounds")
        check_readable(lower, operands[:split])
        check_readable(upper, operands[split:])
        p.write(" (")
        for i, iv in enumerate(ivs):
            if i:
                p.write(", ")
            p.operand(iv)
        p.write(") = (")
        _print_min_max(p, lower, lower_groups, operands[:split], "max")
        p.write(") to (")
        _print_min_max(p, upper, upper_groups, operands[split:], "min")
        p.write(")")
        if any(s != 1 for s in steps):
            p.write(" step (" + ", ".join(str(s) for s in steps) + ")")
        if op.results:
            p.write(" reduce (" + ", ".join(f'"{REDUCTIONS[r]}"' for r in reductions) + ") -> (")
            print_types(p, [r.type for r in op.results])
            p.write(")")
        p.write(" ")
        p.region(op.regions[0], False, bool(op.results))
        p.optional_attr_dict(self.discardable(op))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        index = IndexType.get()
        ivs = parse_induction_vars(p)
        p.parse_punct("=")
        p.parse_punct("(")
        lower = _parse_min_max(p, state, "max", "lowerBoundsMap", "lowerBoundsGroups")
        p.parse_keyword("to")
        p.parse_punct("(")
        upper = _parse_min_max(p, state, "min", "upperBoundsMap", "upperBoundsGroups")
        i64 = IntegerType.get(64)
        steps = [1] * len(ivs)
        if p.parse_optional_keyword("step"):
            p.parse_punct("(")
            names = SsaNames()
            texts = parse_ssa_list(p, names, ")")
            m = map_of(names.attr(p, texts))
            if names.operands() or any(not re.fullmatch(r"-?\d+", r) for r in m.results):
                raise p.error("steps must be constant integers")
            steps = [int(r) for r in m.results]
        state.attributes["steps"] = ArrayAttr.get(tuple(IntegerAttr.get(i64, s % _INT64) for s in steps))
        reductions: list[Attribute] = []
        if p.parse_optional_keyword("reduce"):
            p.parse_punct("(")
            while True:
                kind = p.parse_attribute()
                text = kind.text if isinstance(kind, StringAttr) else ""
                if text not in REDUCTIONS:
                    raise p.error(f"invalid reduction value: {plain_attribute_text(kind)}")
                reductions.append(IntegerAttr.get(i64, REDUCTIONS.index(text)))
                if not p.parse_optional_punct(","):
                    break
            p.parse_punct(")")
        state.attributes["reductions"] = ArrayAttr.get(tuple(reductions))
        if p.parse_optional_punct("->"):
            state.result_types.extend(parse_arrow_types(p))
        p.resolve_operands([*lower, *upper], [index] * (len(lower) + len(upper)), state)
        for iv in ivs:
            iv.type = index
        body = p.parse_region(ivs)
        parse_attr_dict(p, state)
        p.ensure_terminator(body, "affine.yield")
        state.regions.append(body)


MODELS: list[OpSyntax] = [ForOp("affine.for"), IfOp("affine.if"), ParallelOp("affine.parallel")]
