"""`scf.if`, `scf.for`, `scf.while` (ports of SCF.cpp's print/parse), and the pieces the affine and other
scf loops share with them: arrow types, `iter_args`, induction variables, then/else regions."""

from __future__ import annotations

from collections.abc import Sequence

from ....ir.attributes import UnitAttr
from ....ir.operation import Operation, Region, Value
from ....ir.types import FunctionType, IndexType, IntegerType, Type
from ..api import Argument, AsmParser, AsmPrinter, OperandRef, OpState, OpSyntax, SyntaxModelError
from .base import Port, attr_entries, parse_loop_head, print_types


def print_arrow_types(p: AsmPrinter, types: list[Type]) -> None:
    """printArrowTypeList: ` -> T` or ` -> (T1, T2)`."""
    p.write(" -> ")
    wrapped = len(types) != 1 or isinstance(types[0], FunctionType)
    if wrapped:
        p.write("(")
    print_types(p, types)
    if wrapped:
        p.write(")")


def parse_arrow_types(p: AsmParser) -> list[Type]:
    """parseArrowTypeList after the arrow: `T` or `(T1, ...)`."""
    if p.parse_optional_punct("("):
        if p.parse_optional_punct(")"):
            return []
        out = [p.parse_type()]
        while p.parse_optional_punct(","):
            out.append(p.parse_type())
        p.parse_punct(")")
        return out
    return [p.parse_type()]


def parse_assignment_list(p: AsmParser) -> tuple[list[Argument], list[OperandRef]]:
    """`(%arg = %value, ...)` (the parenthesis already read)."""
    args: list[Argument] = []
    values: list[OperandRef] = []
    if p.parse_optional_punct(")"):
        return args, values
    while True:
        args.append(p.parse_argument(allow_type=False))
        p.parse_punct("=")
        values.append(p.parse_operand())
        if not p.parse_optional_punct(","):
            break
    p.parse_punct(")")
    return args, values


def print_iter_args(p: AsmPrinter, args: Sequence[Value], inits: Sequence[Value], types: list[Type]) -> None:
    """` iter_args(%a = %init, ...) -> (types)`, the loop's region arguments after the induction variable."""
    p.write(" iter_args(")
    for i, (arg, v) in enumerate(zip(args, inits, strict=True)):
        if i:
            p.write(", ")
        p.operand(arg)
        p.write(" = ")
        p.operand(v)
    p.write(") -> (")
    print_types(p, types)
    p.write(")")


def parse_iter_args(p: AsmParser, state: OpState, iv: Argument) -> tuple[list[Argument], list[OperandRef]]:
    """An optional `iter_args(%a = %init, ...) -> types` (the result types into `state`): the loop's
    block arguments, the induction variable first, and the initial values."""
    args = [iv]
    values: list[OperandRef] = []
    if p.parse_optional_keyword("iter_args"):
        p.parse_punct("(")
        more, values = parse_assignment_list(p)
        args.extend(more)
        p.parse_punct("->")
        state.result_types.extend(parse_arrow_types(p))
    return args, values


def parse_induction_vars(p: AsmParser) -> list[Argument]:
    """`(%i, %j)` (the `(` not yet read), untyped; may be empty."""
    p.parse_punct("(")
    ivs: list[Argument] = []
    if not p.parse_optional_punct(")"):
        while True:
            ivs.append(p.parse_argument(allow_type=False))
            if not p.parse_optional_punct(","):
                break
        p.parse_punct(")")
    return ivs


def print_then_else(p: AsmPrinter, op: Operation, terminators: bool) -> None:
    """` {then}`, and ` else {other}` when the else region has blocks (scf.if, affine.if)."""
    p.write(" ")
    p.region(op.regions[0], False, terminators)
    if op.regions[1].blocks:
        p.write(" else ")
        p.region(op.regions[1], False, terminators)


def parse_results_then_else(p: AsmParser, state: OpState, terminator: str) -> None:
    """An optional `-> types`, the then region and an optional `else` region (an empty one when absent)."""
    if p.parse_optional_punct("->"):
        state.result_types.extend(parse_arrow_types(p))
    then = p.parse_region()
    p.ensure_terminator(then, terminator)
    state.regions.append(then)
    if p.parse_optional_keyword("else"):
        other = p.parse_region()
        p.ensure_terminator(other, terminator)
        state.regions.append(other)
    else:
        state.regions.append(Region(None))


class IfOp(Port):
    keywords_list = ("else",)

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if len(op.operands) != 1 or len(op.regions) != 2:
            raise SyntaxModelError("scf.if needs one condition and two regions")
        p.write(" ")
        p.operand(op.operands[0])
        terminators = False
        if op.results:
            p.write(" -> (")
            print_types(p, [r.type for r in op.results])
            p.write(")")
            terminators = True
        print_then_else(p, op, terminators)
        p.optional_attr_dict(attr_entries(self.view(op), set()))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        cond = p.parse_operand()
        p.resolve_operands([cond], [IntegerType.get(1)], state)
        parse_results_then_else(p, state, "scf.yield")
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)


class ForOp(Port):
    keywords_list = ("to", "step", "iter_args")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        if len(op.operands) < 3 or len(op.regions) != 1 or not op.regions[0].blocks:
            raise SyntaxModelError("scf.for needs bounds, a step and a body")
        body = op.regions[0].blocks[0]
        inits = op.operands[3:]
        if len(body.arguments) != len(inits) + 1:
            raise SyntaxModelError("scf.for's body arguments do not match its initial values")
        if view.attr("unsignedCmp") is not None:
            p.write(" unsigned")
        iv = body.arguments[0]
        p.write(" ")
        p.operand(iv)
        p.write(" = ")
        p.operand(op.operands[0])
        p.write(" to ")
        p.operand(op.operands[1])
        p.write(" step ")
        p.operand(op.operands[2])
        if inits:
            print_iter_args(p, body.arguments[1:], inits, [v.type for v in inits])
        p.write(" ")
        if not isinstance(iv.type, IndexType):
            p.write(" : ")
            p.type(iv.type)
            p.write(" ")
        p.region(op.regions[0], False, bool(inits))
        p.optional_attr_dict(attr_entries(view, {"unsignedCmp"}))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        if p.parse_optional_keyword("unsigned"):
            state.attributes["unsignedCmp"] = UnitAttr.get()
        iv, lb, ub, step = parse_loop_head(p)
        args, values = parse_iter_args(p, state, iv)
        if len(args) != len(state.result_types) + 1:
            raise p.error("mismatch in number of loop-carried values and defined values")
        t: Type = IndexType.get()
        if p.parse_optional_punct(":"):
            t = p.parse_type()
        iv.type = t
        for arg, rt in zip(args[1:], state.result_types, strict=True):
            arg.type = rt
        body = p.parse_region(args)
        p.ensure_terminator(body, "scf.yield")
        state.regions.append(body)
        p.resolve_operands([lb, ub, step], [t, t, t], state)
        p.resolve_operands(values, state.result_types, state)
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)


class WhileOp(Port):
    keywords_list = ("do",)

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if len(op.regions) != 2 or not op.regions[0].blocks:
            raise SyntaxModelError("scf.while needs two regions")
        before = op.regions[0].blocks[0]
        if len(before.arguments) != len(op.operands):
            raise SyntaxModelError("scf.while's arguments do not match its initial values")
        if op.operands:
            p.write(" (")
            for i, (arg, v) in enumerate(zip(before.arguments, op.operands, strict=True)):
                if i:
                    p.write(", ")
                p.operand(arg)
                p.write(" = ")
                p.operand(v)
            p.write(")")
        p.write(" : ")
        from ..declarative import print_functional_type

        print_functional_type(p, [v.type for v in op.operands], [r.type for r in op.results])
        p.write(" ")
        p.region(op.regions[0], False)
        p.write(" do ")
        p.region(op.regions[1])
        p.optional_attr_dict(attr_entries(self.view(op), set()), (), with_keyword=True)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        args: list[Argument] = []
        values: list[OperandRef] = []
        if p.parse_optional_punct("("):
            args, values = parse_assignment_list(p)
        p.parse_punct(":")
        ft = p.parse_type()
        if not isinstance(ft, FunctionType):
            raise p.error("expected a function type")
        state.result_types.extend(ft.results)
        if len(ft.inputs) != len(values):
            raise p.error(f"expected as many input types as operands (expected {len(values)} got "
                          f"{len(ft.inputs)})")
        for arg, t in zip(args, ft.inputs, strict=True):
            arg.type = t
        p.resolve_operands(values, list(ft.inputs), state)
        state.regions.append(p.parse_region(args))
        p.parse_keyword("do")
        state.regions.append(p.parse_region())
        d = p.parse_optional_attr_dict_with_keyword()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)


MODELS: list[OpSyntax] = [IfOp("scf.if"), ForOp("scf.for"), WhileOp("scf.while")]
