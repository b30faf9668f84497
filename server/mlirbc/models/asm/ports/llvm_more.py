"""`llvm.alloca` (AllocaOp::print/parse: `%n x i8 {alignment = 8 : i64} : (i32) -> !llvm.ptr`; a zero
alignment is left out) and `pdl_interp.foreach` (`%op : !pdl.operation in %range {...} -> ^bb1`)."""

from __future__ import annotations

from ....ir.attributes import IntegerAttr, TypeAttr, UnitAttr
from ....ir.operation import Operation
from ....ir.types import FunctionType
from ..api import AsmParser, AsmPrinter, OpState, OpSyntax, SyntaxModelError
from ..typefns import pdl_range
from .base import Port, attr_entries


class AllocaOp(Port):
    keywords_list = ("inalloca", "x")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        elem = view.attr("elem_type")
        if len(op.operands) != 1 or len(op.results) != 1 or not isinstance(elem, TypeAttr):
            raise SyntaxModelError("llvm.alloca has an array size, an element type and one result")
        if view.attr("inalloca") is not None:
            p.write(" inalloca")
        p.write(" ")
        p.operand(op.operands[0])
        p.write(" x ")
        p.type(elem.type)
        elided = {"elem_type", "inalloca"}
        alignment = view.attr("alignment")
        if not (isinstance(alignment, IntegerAttr) and alignment.bits):
            elided.add("alignment")
        p.optional_attr_dict(attr_entries(view, elided))
        p.write(" : ")
        p.type(FunctionType.get((op.operands[0].type,), (op.results[0].type,)))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        if p.parse_optional_keyword("inalloca"):
            state.attributes["inalloca"] = UnitAttr.get()
        size = p.parse_operand()
        p.parse_keyword("x")
        elem = p.parse_type()
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        alignment = state.attributes.get("alignment")
        if alignment is not None:
            if not isinstance(alignment, IntegerAttr):
                raise p.error("expected integer alignment")
            if not alignment.bits:
                del state.attributes["alignment"]
        p.parse_punct(":")
        fn = p.parse_type()
        if not isinstance(fn, FunctionType) or len(fn.inputs) != 1 or len(fn.results) != 1:
            raise p.error("expected trailing function type with one argument and one result")
        p.resolve_operands([size], [fn.inputs[0]], state)
        from ....syntax.attr_printer import plain_type_text

        if plain_type_text(fn.results[0]).startswith("!llvm.ptr"):
            state.attributes["elem_type"] = TypeAttr.get(elem)
        state.result_types.append(fn.results[0])


class ForEachOp(Port):
    keywords_list = ("in",)

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if len(op.operands) != 1 or len(op.successors) != 1 or len(op.regions) != 1 or \
                not op.regions[0].blocks or len(op.regions[0].blocks[0].arguments) != 1:
            raise SyntaxModelError("pdl_interp.foreach has a range, a loop variable, a body and a successor")
        arg = op.regions[0].blocks[0].arguments[0]
        try:
            if pdl_range(arg.type) is not op.operands[0].type:
                raise SyntaxModelError("the range is not of the loop variable's type")
        except ValueError as exc:
            raise SyntaxModelError(str(exc)) from exc
        p.write(" ")
        p.operand(arg)
        p.write(" : ")
        p.type(arg.type)
        p.write(" in ")
        p.operand(op.operands[0])
        p.write(" ")
        p.region(op.regions[0], False)
        p.optional_attr_dict(attr_entries(self.view(op), set()))
        p.write(" -> ")
        p.successor(op.successors[0])

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        arg = p.parse_argument(allow_type=True)
        p.parse_keyword("in")
        values = p.parse_operand()
        assert arg.type is not None
        try:
            range_type = pdl_range(arg.type)
        except ValueError as exc:
            raise p.error(str(exc)) from exc
        p.resolve_operands([values], [range_type], state)
        body = p.parse_region([arg])
        p.ensure_terminator(body, "pdl_interp.continue")
        state.regions.append(body)
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        p.parse_punct("->")
        p.resolve_successors([p.parse_successor()], state)


MODELS: list[OpSyntax] = [AllocaOp("llvm.alloca"), ForEachOp("pdl_interp.foreach")]
