"""`func.func` (FuncOp::print/parse: function_interface_impl's signature, default dialect `func`)."""

from __future__ import annotations

from ....ir.operation import Operation
from ..api import AsmPrinter, OpSyntax
from .base import Port, print_function_op


class FuncOp(Port):
    dialect_default = "func"

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        print_function_op(p, op, self.view(op))


MODELS: list[OpSyntax] = [FuncOp("func.func")]
