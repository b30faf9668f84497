"""`func.func` (FuncOp::print/parse: function_interface_impl's signature, default dialect `func`) and
`transform.named_sequence` (NamedSequenceOp::print/parse: the same signature, no default dialect)."""

from __future__ import annotations

from ....ir.operation import Operation
from ..api import AsmParser, AsmPrinter, OpState, OpSyntax
from .base import Port, parse_function_op, print_function_op


class FuncOp(Port):
    keywords_list = ("attributes",)

    dialect_default = "func"

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        print_function_op(p, op, self.view(op))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        parse_function_op(p, state)


class NamedSequenceOp(FuncOp):
    dialect_default = ""


MODELS: list[OpSyntax] = [FuncOp("func.func"), NamedSequenceOp("transform.named_sequence")]
