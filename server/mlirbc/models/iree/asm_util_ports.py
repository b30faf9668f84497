"""Hand-written syntax models of IREE `util` ops whose form UtilOps.cpp writes in C++ (beside the
function-like ones in `asm_ports`):

    util.assume.int %v<umin = 0, umax = 7> : index
    util.assume.int %v[<umin = 0, umax = 0>, <udiv = 16>] : index
    util.assume.int
        %a<umin = 0>,
        %b[]
      : index, index {attrs}

Each operand carries its list of `#util.int.assumption`s (stripped; one assumption prints without the
brackets), the results have the operands' types, and with more than one operand each sits on a line of
its own, two indents in.
"""

from __future__ import annotations

from ...ir.attributes import ArrayAttr, Attribute, FlatSymbolRefAttr, SymbolRefAttr
from ...ir.operation import Operation
from ...ir.types import Type
from ..asm.api import AsmParser, AsmPrinter, OperandRef, OpState, OpSyntax, SyntaxModelError
from ..asm.declarative import print_stripped
from ..asm.directives_iree import literal_type
from ..asm.ports.base import attr_entries
from .asm_ports import _IreePort

_ASSUMPTION = "#util.int.assumption"


class AssumeIntOp(_IreePort):
    def _lists(self, op: Operation) -> list[ArrayAttr]:
        attr = self.view(op).attr("assumptions")
        if not isinstance(attr, ArrayAttr) or len(attr.elements) != len(op.operands):
            raise SyntaxModelError("util.assume.int: one list of assumptions per operand")
        out = []
        for lst in attr.elements:
            if not isinstance(lst, ArrayAttr):
                raise SyntaxModelError("util.assume.int: an operand's assumptions are not a list")
            out.append(lst)
        return out

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        lists = self._lists(op)
        if [r.type for r in op.results] != [v.type for v in op.operands]:
            raise SyntaxModelError("util.assume.int: the results do not have the operands' types")
        p.write(" ")
        multiline = len(op.operands) > 1
        if multiline:
            p.indent()
            p.indent()
            p.newline()
        for i, (value, lst) in enumerate(zip(op.operands, lists, strict=True)):
            if i:
                p.write(", ")
                if multiline:
                    p.newline()
            p.operand(value)
            if len(lst.elements) == 1:
                print_stripped(p, lst.elements[0], _ASSUMPTION)
            else:
                p.write("[")
                for j, a in enumerate(lst.elements):
                    if j:
                        p.write(", ")
                    print_stripped(p, a, _ASSUMPTION)
                p.write("]")
        if multiline:
            p.dedent()
            p.newline()
        else:
            p.write(" ")
        p.write(": ")
        for i, value in enumerate(op.operands):
            if i:
                p.write(", ")
            p.type(value.type)
        p.optional_attr_dict(attr_entries(self.view(op), {"assumptions"}))
        if multiline:
            p.dedent()

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        refs: list[OperandRef] = []
        lists: list[Attribute] = []

        def assumption() -> Attribute:
            a = p.parse_stripped(_ASSUMPTION)
            if not isinstance(a, Attribute):
                raise p.error("expected an integer assumption")
            return a

        while True:
            refs.append(p.parse_operand())
            items: list[Attribute] = []
            if not p.parse_optional_punct("["):
                items.append(assumption())
            elif not p.parse_optional_punct("]"):
                while True:
                    items.append(assumption())
                    if not p.parse_optional_punct(","):
                        break
                p.parse_punct("]")
            lists.append(ArrayAttr.get(tuple(items)))
            if not p.parse_optional_punct(","):
                break
        p.parse_punct(":")
        types: list[Type] = [p.parse_type()]
        while p.parse_optional_punct(","):
            types.append(p.parse_type())
        if len(types) != len(refs):
            raise p.error(f"{len(refs)} operands present, but expected {len(types)}")
        state.result_types.extend(types)
        p.resolve_operands(refs, types, state)
        state.attributes["assumptions"] = ArrayAttr.get(tuple(lists))
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)


class UnfoldableConstantOp(_IreePort):
    """`util.unfoldable_constant 42 : i32` (UnfoldableConstantOp::print: a space, the attribute dictionary,
    another space when there is one, the value with its type; a symbol reference then `: type`)."""

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        value = view.attr("value")
        if value is None or len(op.results) != 1 or op.operands:
            raise SyntaxModelError("util.unfoldable_constant has a value and one result")
        symbol = isinstance(value, FlatSymbolRefAttr | SymbolRefAttr)
        if not symbol and literal_type(value) is not op.results[0].type:
            raise SyntaxModelError("the result type is not the value's type")
        entries = attr_entries(view, {"value"})
        p.write(" ")
        p.optional_attr_dict(entries)
        if entries:
            p.write(" ")
        p.attribute(value)
        if symbol:
            p.write(" : ")
            p.type(op.results[0].type)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        value = p.parse_attribute()
        state.attributes["value"] = value
        if isinstance(value, FlatSymbolRefAttr | SymbolRefAttr):
            p.parse_punct(":")
            state.result_types.append(p.parse_type())
            return
        t = literal_type(value)
        if t is None:
            raise p.error("expected a typed attribute or a symbol reference")
        state.result_types.append(t)


MODELS: list[OpSyntax] = [AssumeIntOp("util.assume.int"), UnfoldableConstantOp("util.unfoldable_constant")]
