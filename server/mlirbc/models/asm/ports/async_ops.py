"""`async.execute` (Async.cpp's print/parse: `[%deps] (%value as %unwrapped: !async.value<T>) -> types`)."""

from __future__ import annotations

from ....ir.operation import Operation
from ....ir.types import Type
from ....syntax.attr_parser import parse_type_text
from ..api import Argument, AsmParser, AsmPrinter, OperandRef, OpState, OpSyntax, SyntaxModelError
from ..directives_async import async_value_type
from .base import Port, attr_entries
from .scf import parse_arrow_types, print_arrow_types

TOKEN = "!async.token"




class ExecuteOp(Port):
    keywords_list = ("as", "attributes")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        g = view.operand_groups()
        deps, values = g["dependencies"], g["bodyOperands"]
        if len(op.regions) != 1 or not op.regions[0].blocks or not op.results:
            raise SyntaxModelError("async.execute has a token and a body")
        entry = op.regions[0].blocks[0]
        if len(entry.arguments) != len(values):
            raise SyntaxModelError("async.execute's body arguments do not match its operands")
        if deps:
            p.write(" [")
            for i, v in enumerate(deps):
                if i:
                    p.write(", ")
                p.operand(v)
            p.write("]")
        if values:
            p.write(" (")
            for i, (v, arg) in enumerate(zip(values, entry.arguments, strict=True)):
                if i:
                    p.write(", ")
                if async_value_type(v.type) is not arg.type:
                    raise SyntaxModelError("an unwrapped argument's type is not its value's")
                p.operand(v)
                p.write(" as ")
                p.operand(arg)
                p.write(": ")
                p.type(v.type)
            p.write(")")
        if len(op.results) > 1:
            print_arrow_types(p, [r.type for r in op.results[1:]])
        p.optional_attr_dict(attr_entries(view, {"operandSegmentSizes"}), (), with_keyword=True)
        p.write(" ")
        p.region(op.regions[0], False)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        from ..declarative_parse import i32_array

        token = parse_type_text(TOKEN)
        deps: list[OperandRef] = []
        if p.parse_optional_punct("["):
            if not p.parse_optional_punct("]"):
                deps.append(p.parse_operand())
                while p.parse_optional_punct(","):
                    deps.append(p.parse_operand())
                p.parse_punct("]")
        p.resolve_operands(deps, [token] * len(deps), state)
        refs: list[OperandRef] = []
        types: list[Type] = []
        args: list[Argument] = []
        if p.parse_optional_punct("("):
            while True:
                refs.append(p.parse_operand())
                p.parse_keyword("as")
                arg = p.parse_argument(allow_type=False)
                p.parse_punct(":")
                t = p.parse_type()
                arg.type = async_value_type(t)
                if arg.type is None:
                    raise p.error("expected an !async.value type")
                types.append(t)
                args.append(arg)
                if not p.parse_optional_punct(","):
                    break
            p.parse_punct(")")
        p.resolve_operands(refs, types, state)
        state.attributes["operandSegmentSizes"] = i32_array([len(deps), len(refs)])
        state.result_types.append(token)
        if p.parse_optional_punct("->"):
            state.result_types.extend(parse_arrow_types(p))
        d = p.parse_optional_attr_dict_with_keyword()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        body = p.parse_region(args)
        p.ensure_terminator(body, "async.yield")
        state.regions.append(body)

    def result_names(self, op: Operation) -> list[tuple[int, str]]:
        # mlir-tblgen's getAsmResultNames: the ODS names of the token and of the first body result
        out = [(0, "token")] if op.results else []
        if len(op.results) > 1:
            out.append((1, "bodyResults"))
        return out


MODELS: list[OpSyntax] = [ExecuteOp("async.execute")]
