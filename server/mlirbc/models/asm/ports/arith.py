"""`arith.select` (SelectOp::print/parse: a shaped condition's type is printed, an `i1` one is not)."""

from __future__ import annotations

from ....ir.operation import Operation
from ....ir.types import IntegerType, ShapedType
from ..api import AsmParser, AsmPrinter, OpState, OpSyntax, SyntaxModelError
from .base import Port


class SelectOp(Port):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if len(op.operands) != 3 or len(op.results) != 1:
            raise SyntaxModelError("arith.select has three operands and one result")
        p.write(" ")
        for i, v in enumerate(op.operands):
            if i:
                p.write(", ")
            p.operand(v)
        p.optional_attr_dict(self.view(op).all_attrs())
        p.write(" : ")
        cond = op.operands[0].type
        if isinstance(cond, ShapedType):
            p.type(cond)
            p.write(", ")
        elif cond is not IntegerType.get(1):
            raise SyntaxModelError("a condition that is neither i1 nor shaped")
        p.type(op.results[0].type)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        refs = [p.parse_operand()]
        for _ in range(2):
            p.parse_punct(",")
            refs.append(p.parse_operand())
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        p.parse_punct(":")
        result = p.parse_type()
        cond = IntegerType.get(1)
        if p.parse_optional_punct(","):
            cond, result = result, p.parse_type()  # type: ignore[assignment]
        state.result_types.append(result)
        p.resolve_operands(refs, [cond, result, result], state)


MODELS: list[OpSyntax] = [SelectOp("arith.select")]
