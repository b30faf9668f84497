"""`scf.parallel` and `scf.execute_region` (ports of SCF.cpp's print/parse)."""

from __future__ import annotations

from ....ir.attributes import UnitAttr
from ....ir.operation import Operation
from ....ir.types import IndexType, Type
from ..api import AsmParser, AsmPrinter, OperandRef, OpState, OpSyntax, SyntaxModelError
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


MODELS: list[OpSyntax] = [ParallelOp("scf.parallel"), ExecuteRegionOp("scf.execute_region")]
