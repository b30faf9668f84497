"""SPIR-V's structured control flow in its C++ forms (ControlFlowOps.cpp): `spirv.mlir.selection` and
`spirv.mlir.loop` (`control(...)` unless `None`, result types, the region with its terminators) and
`spirv.BranchConditional` (condition, branch weights, both successors with their operands).

None of these forms prints an attribute dictionary: an op holding anything else prints generic, so that
nothing it holds is dropped from the view.
"""

from __future__ import annotations

from ....ir.attributes import ArrayAttr, Attribute, IntegerAttr
from ....ir.operation import Operation
from ....ir.types import IntegerType
from ..api import AsmParser, AsmPrinter, OpState, OpSyntax, SyntaxModelError
from ..declarative_parse import i32_array
from ..directives_cf import parse_successor_and_uses, print_successor_and_uses
from ..names import int_value
from .base import Port, print_types
from .spirv_forms import _enum, _enum_case

_SEGMENTS = "operandSegmentSizes"


class _Structured(Port):
    """selection and loop: `[control(Case)] [-> types] {region}`."""

    keywords_list = ("control",)

    def __init__(self, name: str, control: str) -> None:
        super().__init__(name)
        self.control = control
        """The control attribute's name (`selection_control`, `loop_control`)."""

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        if len(op.regions) != 1 or any(k != self.control for k, _ in view.all_attrs()):
            raise SyntaxModelError(f"{self.name}'s form shows one region and {self.control} alone")
        case = _enum_case(view.attr(self.control), f"#spirv.{self.control}")
        if case != "None":
            p.write(f" control({case})")
        if op.results:
            p.write(" -> ")
            print_types(p, [r.type for r in op.results])
        p.write(" ")
        p.region(op.regions[0], False, True)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        case = "None"
        if p.parse_optional_keyword("control"):
            p.parse_punct("(")
            word = p.parse_optional_any_keyword()
            if word is None:
                raise p.error(f"expected a {self.control} value")
            p.parse_punct(")")
            case = word
        state.attributes[self.control] = _enum(f"#spirv.{self.control}", case)
        if p.parse_optional_punct("->"):
            state.result_types.append(p.parse_type())
            while p.parse_optional_punct(","):
                state.result_types.append(p.parse_type())
        state.regions.append(p.parse_region())


class BranchConditionalOp(Port):
    """` %cond [w1, w2], ^t(%a : T), ^f`."""

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        if len(op.successors) != 2 or not op.operands:
            raise SyntaxModelError("spirv.BranchConditional has a condition and two successors")
        groups = view.operand_groups()  # (raises when the segment sizes do not fit the operands)
        if len(groups["condition"]) != 1:
            raise SyntaxModelError("spirv.BranchConditional's operand segments do not fit its operands")
        weights = view.attr("branch_weights")
        if any(k not in (_SEGMENTS, "branch_weights") for k, _ in view.all_attrs()):
            raise SyntaxModelError("the form shows no attribute dictionary")
        p.write(" ")
        p.operand(op.operands[0])
        if weights is not None:
            if not isinstance(weights, ArrayAttr) or \
                    not all(isinstance(w, IntegerAttr) for w in weights.elements):
                raise SyntaxModelError("branch weights that are not integers")
            p.write(" [" + ", ".join(str(int_value(w)) for w in weights.elements  # type: ignore[arg-type]
                                      ) + "]")
        p.write(", ")
        print_successor_and_uses(p, op.successors[0], list(groups["trueTargetOperands"]))
        p.write(", ")
        print_successor_and_uses(p, op.successors[1], list(groups["falseTargetOperands"]))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        cond = p.parse_operand()
        if p.parse_optional_punct("["):
            i32 = IntegerType.get(32)
            weights: list[Attribute] = []
            for i in range(2):
                if i:
                    p.parse_punct(",")
                w = p.parse_attribute(i32)
                if not isinstance(w, IntegerAttr):
                    raise p.error("expected an integer weight")
                weights.append(w)
            p.parse_punct("]")
            state.attributes["branch_weights"] = ArrayAttr.get(tuple(weights))
        p.parse_punct(",")
        true_block, true_refs, true_types = parse_successor_and_uses(p)
        p.parse_punct(",")
        false_block, false_refs, false_types = parse_successor_and_uses(p)
        p.resolve_operands([cond], [IntegerType.get(1)], state)
        p.resolve_operands(true_refs, true_types, state)
        p.resolve_operands(false_refs, false_types, state)
        p.resolve_successors([true_block, false_block], state)
        state.attributes[_SEGMENTS] = i32_array([1, len(true_refs), len(false_refs)])


MODELS: list[OpSyntax] = [
    _Structured("spirv.mlir.selection", "selection_control"),
    _Structured("spirv.mlir.loop", "loop_control"),
    BranchConditionalOp("spirv.BranchConditional"),
]
