"""Function-like ops whose C++ `print`/`parse` is `function_interface_impl::printFunctionOp` /
`parseFunctionOp` with nothing of their own (`pdl_interp.func`, `ml_program.func`, `ml_program.subgraph`)."""

from __future__ import annotations

from ....ir.operation import Operation
from ..api import AsmParser, AsmPrinter, OpState, OpSyntax
from .base import Port, parse_function_op, print_function_op


class FunctionOp(Port):
    keywords_list = ("attributes",)

    def __init__(self, name: str, default_dialect: str = "") -> None:
        super().__init__(name)
        self.dialect_default = default_dialect

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        print_function_op(p, op, self.view(op))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        parse_function_op(p, state)


MODELS: list[OpSyntax] = [
    FunctionOp("pdl_interp.func"),
    FunctionOp("ml_program.func"),
    FunctionOp("ml_program.subgraph"),
]
