"""`spirv.Constant` (ConstantOp::print/parse: the value with its type, an array's type after it; results
named `%cst3_i32`, `%cst_f32`, `%cst_vec_3xf32`, `%true` as getAsmResultNames names them)."""

from __future__ import annotations

from ....ir.attributes import IntegerAttr
from ....ir.operation import Operation
from ....ir.types import FloatType, IntegerType, Type, VectorType
from ..api import AsmParser, AsmPrinter, OpState, OpSyntax, SyntaxModelError
from ..names import type_suffix
from .base import Port


def _is_array(t: Type) -> bool:
    return type_suffix(t).startswith("!spirv.array<")


class ConstantOp(Port):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        value = self.view(op).attr("value")
        if value is None or len(op.results) != 1:
            raise SyntaxModelError("spirv.Constant has a value and one result")
        p.write(" ")
        p.attribute(value, "value")
        t = op.results[0].type
        if _is_array(t):
            p.write(" : ")
            p.type(t)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        value = p.parse_attribute()
        state.attributes["value"] = value
        if p.parse_optional_punct(":"):
            state.result_types.append(p.parse_type())
            return
        t = getattr(value, "type", None)
        if not isinstance(t, Type):
            raise p.error("expected ':' and the constant's type")
        state.result_types.append(t)

    def result_names(self, op: Operation) -> list[tuple[int, str]]:
        if len(op.results) != 1:
            return []
        t = op.results[0].type
        value = self.view(op).attr("value")
        name = "cst"
        if isinstance(value, IntegerAttr) and isinstance(t, IntegerType):
            bits = value.bits & ((1 << max(t.width, 1)) - 1)
            if t.width == 1:
                return [(0, "true" if bits else "false")]
            if t.signedness == 2:  # unsigned
                name += str(bits)
            else:
                name += str(bits - (1 << t.width) if bits >> (t.width - 1) else bits)
        if isinstance(t, IntegerType | FloatType):
            name += "_" + type_suffix(t)
        if isinstance(t, VectorType):
            name += f"_vec_{t.shape[0]}"
            if isinstance(t.element, IntegerType | FloatType):
                name += "x" + type_suffix(t.element)
        return [(0, name)]


MODELS: list[OpSyntax] = [ConstantOp("spirv.Constant")]
