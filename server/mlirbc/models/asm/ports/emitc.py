"""The emitc dialect's C++ forms (EmitC.cpp's print/parse); every one of these ops names `emitc` the default
dialect of its regions (OpAsmOpInterface), so `emitc.` is left out of the op names inside them:

* `emitc.func`: function_interface_impl's form, as `func.func`;
* `emitc.if %cond {then} else {other} {attrs}`: terminators never printed (an else region only when it
  has blocks);
* `emitc.for %iv = %lb to %ub step %step  : T {body} {attrs}` (` : T` only when T is not index; the
  printer writes a space before it and after the step, hence two);
* `emitc.do {body} while {condition} attributes {attrs}`;
* `emitc.expression %a, %b : (A, B) -> R {body}`: the body's arguments take the operands' names
  (`shadowRegionArgs`), so the operands must be distinct; no attribute is printed (`do_not_inline`
  included), so an op with any prints generic;
* `emitc.include <"stdio.h">` / `emitc.include "header.h"`: the file name is written raw between quotes
  and no attribute besides these two is printed, so a name that would need escaping, or another
  attribute, prints generic.
"""

from __future__ import annotations

from ....ir.attributes import StringAttr, UnitAttr
from ....ir.operation import Operation
from ....ir.types import FunctionType, IndexType, IntegerType, Type
from ..api import AsmParser, AsmPrinter, OpState, OpSyntax, SyntaxModelError, comma_list
from .base import Port, attr_entries, parse_function_op, parse_loop_head, print_function_op


class EmitcPort(Port):
    dialect_default = "emitc"


class FuncOp(EmitcPort):
    keywords_list = ("attributes",)

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        print_function_op(p, op, self.view(op))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        parse_function_op(p, state)


def _attrs(p: AsmParser, state: OpState, with_keyword: bool = False) -> None:
    d = p.parse_optional_attr_dict_with_keyword() if with_keyword else p.parse_optional_attr_dict()
    if d is not None:
        state.attributes.update((k.text, v) for k, v in d.entries)


class IfOp(EmitcPort):
    keywords_list = ("else",)

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if len(op.operands) != 1 or len(op.regions) != 2 or op.results:
            raise SyntaxModelError("emitc.if needs one condition, two regions and no results")
        p.write(" ")
        p.operand(op.operands[0])
        p.write(" ")
        p.region(op.regions[0], False, False)
        if op.regions[1].blocks:
            p.write(" else ")
            p.region(op.regions[1], False, False)
        p.optional_attr_dict(attr_entries(self.view(op), set()))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        from ....ir.operation import Region

        cond = p.parse_operand()
        p.resolve_operands([cond], [IntegerType.get(1)], state)
        then = p.parse_region()
        p.ensure_terminator(then, "emitc.yield")
        state.regions.append(then)
        if p.parse_optional_keyword("else"):
            other = p.parse_region()
            p.ensure_terminator(other, "emitc.yield")
            state.regions.append(other)
        else:
            state.regions.append(Region(None))
        _attrs(p, state)


class ForOp(EmitcPort):
    keywords_list = ("to", "step")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if len(op.operands) != 3 or len(op.regions) != 1 or not op.regions[0].blocks or \
                len(op.regions[0].blocks[0].arguments) != 1:
            raise SyntaxModelError("emitc.for needs bounds, a step and a body of one argument")
        iv = op.regions[0].blocks[0].arguments[0]
        if any(v.type is not iv.type for v in op.operands):
            raise SyntaxModelError("emitc.for's bounds and step are not of its induction variable's type")
        p.write(" ")
        p.operand(iv)
        for word, v in zip((" = ", " to ", " step "), op.operands, strict=True):
            p.write(word)
            p.operand(v)
        p.write(" ")
        if not isinstance(iv.type, IndexType):
            p.write(" : ")
            p.type(iv.type)
            p.write(" ")
        p.region(op.regions[0], False, False)
        p.optional_attr_dict(attr_entries(self.view(op), set()))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        iv, lb, ub, step = parse_loop_head(p)
        t: Type = IndexType.get()
        if p.parse_optional_punct(":"):
            t = p.parse_type()
        iv.type = t
        p.resolve_operands([lb, ub, step], [t, t, t], state)
        body = p.parse_region([iv])
        p.ensure_terminator(body, "emitc.yield")
        state.regions.append(body)
        _attrs(p, state)


class DoOp(EmitcPort):
    keywords_list = ("while", "attributes")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if op.operands or op.results or len(op.regions) != 2:
            raise SyntaxModelError("emitc.do has two regions and no operands or results")
        p.write(" ")
        p.region(op.regions[0], False)
        p.write(" while ")
        p.region(op.regions[1])
        p.optional_attr_dict(attr_entries(self.view(op), set()), with_keyword=True)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        state.regions.append(p.parse_region())
        p.parse_keyword("while")
        state.regions.append(p.parse_region())
        _attrs(p, state, with_keyword=True)


class ExpressionOp(EmitcPort):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if len(op.results) != 1 or len(op.regions) != 1 or not op.regions[0].blocks:
            raise SyntaxModelError("emitc.expression has one result and a body")
        if attr_entries(self.view(op), set()):
            raise SyntaxModelError("emitc.expression's form prints no attribute")
        operands = list(op.operands)
        entry = op.regions[0].blocks[0]
        if len({id(v) for v in operands}) != len(operands) or len(entry.arguments) != len(operands) or \
                any(a.type is not v.type for a, v in zip(entry.arguments, operands, strict=True)):
            raise SyntaxModelError("emitc.expression's body arguments are not its distinct operands")
        from ..declarative import print_functional_type

        p.write(" ")
        for i, v in enumerate(operands):
            if i:
                p.write(", ")
            p.operand(v)
        p.write(" : ")
        print_functional_type(p, [v.type for v in operands], [op.results[0].type])
        p.shadow_region_args(op.regions[0], operands)
        p.write(" ")
        p.region(op.regions[0], False)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        from ..api import Argument

        refs = comma_list(p, p.parse_optional_operand(), p.parse_operand)
        if p.parse_optional_keyword("noinline"):
            state.attributes["do_not_inline"] = UnitAttr.get()
        p.parse_punct(":")
        ft = p.parse_type()
        if not isinstance(ft, FunctionType):
            raise p.error("expected function type")
        if len(ft.inputs) != len(refs):
            raise p.error(f"expected {len(refs)} operand types but got {len(ft.inputs)}")
        p.resolve_operands(refs, list(ft.inputs), state)
        if len(ft.results) != 1:
            raise p.error("expected single return type")
        state.result_types.extend(ft.results)
        if len({r.name for r in refs}) != len(refs):
            raise p.error("emitc.expression's operands must be distinct to name its body's arguments")
        args = [Argument(r, t) for r, t in zip(refs, ft.inputs, strict=True)]
        state.regions.append(p.parse_region(args, enable_name_shadowing=True))


def _raw_string(text: bytes) -> bool:
    """Whether `"text"` written raw reads back as a string of the same bytes."""
    return all(0x20 <= b < 0x7F and b not in b'"\\' for b in text)


class IncludeOp(EmitcPort):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        include = view.attr("include")
        if not isinstance(include, StringAttr) or not _raw_string(include.value):
            raise SyntaxModelError("emitc.include's file name would not read back written raw")
        if attr_entries(view, {"include", "is_standard_include"}):
            raise SyntaxModelError("emitc.include's form prints no other attribute")
        standard = view.attr("is_standard_include") is not None
        text = '"' + include.value.decode("ascii") + '"'
        p.write(f" <{text}>" if standard else f" {text}")

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        standard = p.parse_optional_punct("<")
        include = p.parse_attribute()
        if not isinstance(include, StringAttr):
            raise p.error("expected string attribute")
        state.attributes["include"] = include
        if standard:
            p.parse_punct(">")
            state.attributes["is_standard_include"] = UnitAttr.get()


MODELS: list[OpSyntax] = [
    FuncOp("emitc.func"),
    IfOp("emitc.if"),
    ForOp("emitc.for"),
    DoOp("emitc.do"),
    ExpressionOp("emitc.expression"),
    IncludeOp("emitc.include"),
]
