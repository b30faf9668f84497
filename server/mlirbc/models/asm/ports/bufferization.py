"""`bufferization.alloc_tensor` (AllocTensorOp::print/parse: `(%dyn) copy(%t) size_hint=%n : type`)."""

from __future__ import annotations

from ....ir.operation import Operation
from ....ir.types import IndexType
from ..api import AsmParser, AsmPrinter, OperandRef, OpState, OpSyntax, SyntaxModelError
from .base import Port, attr_entries


class AllocTensorOp(Port):
    keywords_list = ("copy", "size_hint")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        g = view.operand_groups()
        if len(op.results) != 1:
            raise SyntaxModelError("bufferization.alloc_tensor has one result")
        p.write("(")
        for i, v in enumerate(g["dynamic_sizes"]):
            if i:
                p.write(", ")
            p.operand(v)
        p.write(")")
        if g["copy"]:
            if g["copy"][0].type is not op.results[0].type:
                raise SyntaxModelError("the copied tensor's type is not the result's")
            p.write(" copy(")
            p.operand(g["copy"][0])
            p.write(")")
        if g["size_hint"]:
            p.write(" size_hint=")
            p.operand(g["size_hint"][0])
        p.optional_attr_dict(attr_entries(view, {"operandSegmentSizes"}))
        p.write(" : ")
        p.type(op.results[0].type)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        from ..declarative_parse import i32_array

        p.parse_punct("(")
        sizes: list[OperandRef] = []
        if not p.parse_optional_punct(")"):
            sizes.append(p.parse_operand())
            while p.parse_optional_punct(","):
                sizes.append(p.parse_operand())
            p.parse_punct(")")
        copy = None
        if p.parse_optional_keyword("copy"):
            p.parse_punct("(")
            copy = p.parse_operand()
            p.parse_punct(")")
        hint = None
        if p.parse_optional_keyword("size_hint"):
            p.parse_punct("=")
            hint = p.parse_operand()
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        p.parse_punct(":")
        t = p.parse_type()
        index = IndexType.get()
        p.resolve_operands(sizes, [index] * len(sizes), state)
        if copy is not None:
            p.resolve_operands([copy], [t], state)
        if hint is not None:
            p.resolve_operands([hint], [index], state)
        state.attributes["operandSegmentSizes"] = i32_array([len(sizes), int(copy is not None),
                                                             int(hint is not None)])
        state.result_types.append(t)


MODELS: list[OpSyntax] = [AllocTensorOp("bufferization.alloc_tensor")]
