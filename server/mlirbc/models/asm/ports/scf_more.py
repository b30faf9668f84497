"""`scf.parallel`, `scf.execute_region` and `scf.forall` (ports of SCF.cpp's print/parse)."""

from __future__ import annotations

from ....ir.attributes import UnitAttr
from ....ir.operation import Operation, OpResult, Value
from ....ir.types import IndexType, Type
from ..api import Argument, AsmParser, AsmPrinter, OperandRef, OpState, OpSyntax, SyntaxModelError
from .base import Port, attr_entries
from .scf import parse_arrow_types, parse_induction_vars, print_arrow_types


def _print_values(p: AsmPrinter, values: list[object]) -> None:
    for i, v in enumerate(values):
        if i:
            p.write(", ")
        p.operand(v)  # type: ignore[arg-type]


def _parse_operand_list(p: AsmParser) -> list[OperandRef]:
    """`(%a, %b)` (possibly empty)."""
    p.parse_punct("(")
    out: list[OperandRef] = []
    if p.parse_optional_punct(")"):
        return out
    out.append(p.parse_operand())
    while p.parse_optional_punct(","):
        out.append(p.parse_operand())
    p.parse_punct(")")
    return out


class ParallelOp(Port):
    keywords_list = ("to", "step", "init")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        groups = view.operand_groups()
        lbs, ubs, steps, inits = (groups["lowerBound"], groups["upperBound"], groups["step"],
                                  groups["initVals"])
        if len(op.regions) != 1 or not op.regions[0].blocks:
            raise SyntaxModelError("scf.parallel has a body")
        ivs = op.regions[0].blocks[0].arguments
        if not len(ivs) == len(lbs) == len(ubs) == len(steps) or \
                any(not isinstance(a.type, IndexType) for a in ivs):
            raise SyntaxModelError("scf.parallel's induction variables do not match its bounds")
        p.write(" (")
        _print_values(p, list(ivs))
        p.write(") = (")
        _print_values(p, list(lbs))
        p.write(") to (")
        _print_values(p, list(ubs))
        p.write(") step (")
        _print_values(p, list(steps))
        p.write(")")
        if inits:
            p.write(" init (")
            _print_values(p, list(inits))
            p.write(")")
        if op.results:
            print_arrow_types(p, [r.type for r in op.results])
        p.write(" ")
        p.region(op.regions[0], False)
        p.optional_attr_dict(attr_entries(view, {"operandSegmentSizes"}))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        from ..declarative_parse import i32_array

        ivs = parse_induction_vars(p)
        p.parse_punct("=")
        lbs = _parse_operand_list(p)
        p.parse_keyword("to")
        ubs = _parse_operand_list(p)
        p.parse_keyword("step")
        steps = _parse_operand_list(p)
        if not len(ivs) == len(lbs) == len(ubs) == len(steps):
            raise p.error("expected as many bounds and steps as induction variables")
        inits: list[OperandRef] = []
        if p.parse_optional_keyword("init"):
            inits = _parse_operand_list(p)
        if p.parse_optional_punct("->"):
            state.result_types.extend(parse_arrow_types(p))
        index = IndexType.get()
        for iv in ivs:
            iv.type = index
        body = p.parse_region(ivs)
        p.ensure_terminator(body, "scf.reduce")
        state.regions.append(body)
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        n = len(ivs)
        p.resolve_operands([*lbs, *ubs, *steps], [index] * (3 * n), state)
        if len(inits) != len(state.result_types):
            raise p.error("expects as many initial values as results")
        p.resolve_operands(inits, list(state.result_types), state)
        state.attributes["operandSegmentSizes"] = i32_array([n, n, n, len(inits)])


class ExecuteRegionOp(Port):
    keywords_list = ("no_inline",)

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if len(op.regions) != 1:
            raise SyntaxModelError("scf.execute_region has one region")
        view = self.view(op)
        if op.results:
            print_arrow_types(p, [r.type for r in op.results])
        p.write(" ")
        if view.attr("no_inline") is not None:
            p.write("no_inline ")
        p.region(op.regions[0], False, True)
        p.optional_attr_dict(attr_entries(view, {"no_inline"}))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        types: list[Type] = []
        if p.parse_optional_punct("->"):
            types = parse_arrow_types(p)
        state.result_types.extend(types)
        if p.parse_optional_keyword("no_inline"):
            state.attributes["no_inline"] = UnitAttr.get()
        state.regions.append(p.parse_region())
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)


_CONSTANTS = ("arith.constant", "index.constant")


def _print_index_list(p: AsmPrinter, static: list[int], dynamic: list[Value]) -> None:
    from ..directives_upstream import print_index_list

    print_index_list(p, static, dynamic, ("(", ")"), exact=True)


def _parse_index_list(p: AsmParser) -> tuple[list[int], list[OperandRef]]:
    from ..directives_upstream import parse_index_list

    p.parse_punct("(")
    static, dynamic, _, _ = parse_index_list(p, ("(", ")"))
    return static, dynamic


class ForallOp(Port):
    """`scf.forall (%i, %j) in (%n, 8) shared_outs(%o = %t) -> (tensor<..>) {...} {mapping = [...]}`, or
    `= (lbs) to (ubs) step (steps)` unless every lower bound is 0 and every step 1.  MLIR counts a bound
    a constant op defines as that constant there (and then leaves its operand out of the text): such an op
    prints generic, its text would read back as another op."""

    keywords_list = ("in", "to", "step", "shared_outs")
    _STATICS = ("staticLowerBound", "staticUpperBound", "staticStep")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        from ..directives_upstream import i64s

        view = self.view(op)
        groups = view.operand_groups()
        lbs, ubs, steps, outs = (list(groups["dynamicLowerBound"]), list(groups["dynamicUpperBound"]),
                                 list(groups["dynamicStep"]), list(groups["outputs"]))
        static_lb, static_ub, static_step = (i64s(view.attr(n)) for n in self._STATICS)
        if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
            raise SyntaxModelError("scf.forall has a body of one block")
        args = op.regions[0].blocks[0].arguments
        n = len(static_ub)
        if not len(static_lb) == n == len(static_step) or len(args) != n + len(outs) or \
                len(op.results) != len(outs):
            raise SyntaxModelError("scf.forall's bounds, arguments and results do not match")
        if any(isinstance(v, OpResult) and v.owner.name in _CONSTANTS for v in [*lbs, *steps]):
            raise SyntaxModelError("a constant lower bound or step operand (MLIR's text leaves it out)")
        p.write(" (")
        _print_values(p, list(args[:n]))
        if not lbs and not steps and all(v == 0 for v in static_lb) and all(v == 1 for v in static_step):
            p.write(") in ")
            _print_index_list(p, static_ub, ubs)
        else:
            p.write(") = ")
            _print_index_list(p, static_lb, lbs)
            p.write(" to ")
            _print_index_list(p, static_ub, ubs)
            p.write(" step ")
            _print_index_list(p, static_step, steps)
        if outs:
            p.write(" shared_outs(")
            for i, (arg, value) in enumerate(zip(args[n:], outs, strict=True)):
                if i:
                    p.write(", ")
                p.operand(arg)
                p.write(" = ")
                p.operand(value)
            p.write(")")
        p.write(" ")
        if outs:
            p.write("-> (")
            for i, r in enumerate(op.results):
                if i:
                    p.write(", ")
                p.type(r.type)
            p.write(") ")
        p.region(op.regions[0], False, bool(op.results))
        p.optional_attr_dict(attr_entries(view, {"operandSegmentSizes", *self._STATICS}))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        from ..declarative_parse import i32_array
        from ..directives_upstream import i64_array
        from .scf import parse_assignment_list

        ivs = parse_induction_vars(p)
        n = len(ivs)
        lbs: list[OperandRef] = []
        steps: list[OperandRef] = []
        if p.parse_optional_keyword("in"):
            static_ub, ubs = _parse_index_list(p)
            static_lb, static_step = [0] * len(static_ub), [1] * len(static_ub)
        else:
            p.parse_punct("=")
            static_lb, lbs = _parse_index_list(p)
            p.parse_keyword("to")
            static_ub, ubs = _parse_index_list(p)
            p.parse_keyword("step")
            static_step, steps = _parse_index_list(p)
        if not len(static_lb) == len(static_ub) == len(static_step) == n:
            raise p.error("expected as many bounds and steps as induction variables")
        outs_args: list[Argument] = []
        outs: list[OperandRef] = []
        if p.parse_optional_keyword("shared_outs"):
            p.parse_punct("(")
            outs_args, outs = parse_assignment_list(p)
        if p.parse_optional_punct("->"):
            p.parse_punct("(")
            if not p.parse_optional_punct(")"):
                state.result_types.append(p.parse_type())
                while p.parse_optional_punct(","):
                    state.result_types.append(p.parse_type())
                p.parse_punct(")")
        if len(outs) != len(state.result_types):
            raise p.error("expected as many shared outputs as result types")
        index = IndexType.get()
        for iv in ivs:
            iv.type = index
        for arg, t in zip(outs_args, state.result_types, strict=True):
            arg.type = t
        body = p.parse_region([*ivs, *outs_args])
        p.ensure_terminator(body, "scf.forall.in_parallel", regions=1)
        state.regions.append(body)
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        p.resolve_operands([*lbs, *ubs, *steps], [index] * (len(lbs) + len(ubs) + len(steps)), state)
        p.resolve_operands(outs, list(state.result_types), state)
        state.attributes["staticLowerBound"] = i64_array(static_lb)
        state.attributes["staticUpperBound"] = i64_array(static_ub)
        state.attributes["staticStep"] = i64_array(static_step)
        state.attributes["operandSegmentSizes"] = i32_array([len(lbs), len(ubs), len(steps), len(outs)])


class InParallelOp(Port):
    """`scf.forall.in_parallel {...}` (its block, no terminator, then its attributes)."""

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if len(op.regions) != 1 or op.operands or op.results:
            raise SyntaxModelError("scf.forall.in_parallel has one region and no values")
        p.write(" ")
        p.region(op.regions[0], False, False)
        p.optional_attr_dict(attr_entries(self.view(op), set()))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        body = p.parse_region()
        if not body.blocks:
            from ....ir.operation import Block

            body.blocks.append(Block(body))
        state.regions.append(body)
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)


MODELS: list[OpSyntax] = [ParallelOp("scf.parallel"), ExecuteRegionOp("scf.execute_region"),
                          ForallOp("scf.forall"), InParallelOp("scf.forall.in_parallel")]
