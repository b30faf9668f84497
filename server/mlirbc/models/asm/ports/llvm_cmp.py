"""`llvm.icmp` and `llvm.fcmp` (ICmpOp / FCmpOp print and parse):

    llvm.icmp "slt" %a, %b {attrs}? : i64
    llvm.fcmp "ult" %a, %b {attrs}? : vector<4xf32>                       (MLIR 22)
    llvm.fcmp "ult" %a, %b fastmath<fast>? {attrs}? : vector<4xf32>       (MLIR 24)

The predicate is an i64 enum property printed as its case's string; both operands have the printed type,
and the result is `i1`, or a vector of `i1` of the operands' shape (scalable dimensions kept) when they
are vectors.  MLIR 22 prints a non-default `fastmathFlags` in the attribute dictionary; MLIR 24 prints it
as `fastmath<flags>` before the dictionary of discardable attributes.
"""

from __future__ import annotations

from typing import Any

from ....ir.attributes import Attribute, IntegerAttr, StringAttr
from ....ir.operation import Operation
from ....ir.types import FloatType, IntegerType, Type, VectorType
from ....syntax.attr_parser import parse_attribute_text
from ....syntax.attr_printer import plain_attribute_text, plain_type_text
from ..api import AsmParser, AsmPrinter, OpState, OpSyntax, SyntaxModelError
from ..declarative import print_stripped
from .base import Port, attr_entries

_FASTMATH = "#llvm.fastmath"
_NO_FLAGS = "#llvm.fastmath<none>"


def cmp_result_type(operand: Type) -> Type | None:
    """The result type the parser gives a comparison of `operand`s (None: not a type it compares)."""
    i1 = IntegerType.get(1)
    if isinstance(operand, VectorType):
        return VectorType.get(operand.shape, i1, operand.scalable)
    if isinstance(operand, (IntegerType, FloatType)) or plain_type_text(operand).startswith("!llvm.ptr"):
        return i1
    return None


class CmpOp(Port):
    """Both comparisons: `fastmath` says whether the op has fast-math flags (fcmp)."""

    def __init__(self, name: str, fastmath: bool) -> None:
        super().__init__(name)
        self.fastmath = fastmath

    @property
    def cases(self) -> list[list[Any]]:
        cases: list[list[Any]] = self.data["attrs"]["predicate"]["enum"]["cases"]
        return cases

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        pred = view.attr("predicate")
        if not isinstance(pred, IntegerAttr):
            raise SyntaxModelError(f"{self.name}: the predicate is not an integer")
        word = next((c[0] for c in self.cases if c[1] == pred.bits), None)
        if word is None:
            raise SyntaxModelError(f"{self.name}: the predicate {pred.bits} is not one of its cases")
        if len(op.operands) != 2 or len(op.results) != 1:
            raise SyntaxModelError(f"{self.name} has two operands and one result")
        lhs, rhs = op.operands
        if lhs.type is not rhs.type or cmp_result_type(lhs.type) is not op.results[0].type:
            raise SyntaxModelError(f"{self.name}: the types are not the ones the form implies")
        p.write(f' "{word}" ')
        p.operand(lhs)
        p.write(", ")
        p.operand(rhs)
        elided = {"predicate"}
        flags = view.attr("fastmathFlags") if self.fastmath else None
        if flags is None or plain_attribute_text(flags) == _NO_FLAGS:
            elided.add("fastmathFlags")
        if getattr(p, "keyvalue_props", False):
            if "fastmathFlags" not in elided:
                assert flags is not None
                p.write(" fastmath")
                print_stripped(p, flags, _FASTMATH)
            p.optional_attr_dict([(k, v) for k, v in view.discardable() if k not in elided])
        else:
            p.optional_attr_dict(attr_entries(view, elided))
        p.write(" : ")
        p.type(lhs.type)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        pred = p.parse_attribute()
        if not isinstance(pred, StringAttr):
            raise p.error("expected string comparison predicate")
        word = pred.value.decode("utf-8", "surrogateescape")
        value = next((c[1] for c in self.cases if c[0] == word), None)
        if value is None:
            raise p.error(f"'{word}' is an incorrect value of the 'predicate' attribute")
        lhs = p.parse_operand()
        p.parse_punct(",")
        rhs = p.parse_operand()
        flags: Attribute | None = None
        if self.fastmath and getattr(p, "keyvalue_props", False) and p.parse_optional_keyword("fastmath"):
            parsed = p.parse_stripped(_FASTMATH)
            if not isinstance(parsed, Attribute):
                raise p.error("expected fast-math flags")
            flags = parsed
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        if flags is not None:
            state.attributes["fastmathFlags"] = flags
        elif self.fastmath:
            state.attributes.setdefault("fastmathFlags", parse_attribute_text(_NO_FLAGS))
        state.attributes["predicate"] = IntegerAttr.get(IntegerType.get(64), value)
        p.parse_punct(":")
        t = p.parse_type()
        result = cmp_result_type(t)
        if result is None:
            raise p.error("expected LLVM dialect-compatible type")
        p.resolve_operands([lhs, rhs], [t, t], state)
        state.result_types.append(result)


MODELS: list[OpSyntax] = [CmpOp("llvm.icmp", False), CmpOp("llvm.fcmp", True)]
