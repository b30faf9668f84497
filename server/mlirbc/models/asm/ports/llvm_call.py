"""`llvm.call` (CallOp print and parse):

    llvm.call cconv? tailcallkind? (@callee | %fnptr)(%args) (vararg(!llvm.func<...>))?
              ([bundles])? {attrs}? : (!llvm.ptr, )? (argument types {attrs}?) -> results

The calling convention and tail call kind print as keywords unless they are `ccc` and `none`; the
signature is call_interface_impl's (argument and result attributes beside their types, `-> ()` without
results); the attribute dictionary holds every other attribute, the fast-math flags only when they are not
`none`.
"""

from __future__ import annotations

from ....ir.attributes import ArrayAttr, DictionaryAttr, FlatSymbolRefAttr, StringAttr, TypeAttr
from ....ir.operation import Operation
from ....ir.types import Type
from ....syntax.attr_parser import parse_attribute_text
from ....syntax.attr_printer import plain_attribute_text
from ..api import AsmParser, AsmPrinter, OperandRef, OpState, OpSyntax, SyntaxModelError
from ..declarative_parse import i32_array
from ..directives_upstream import read_op_bundles, write_op_bundles
from .base import Port, _dicts, _nonempty, attr_entries, print_result_list
from .llvm import _keyword

TAIL_CALL_KINDS = ("none", "tail", "musttail", "notail")
_ELIDED = {"callee", "TailCallKind", "var_callee_type", "CConv", "operandSegmentSizes", "op_bundle_sizes",
           "op_bundle_tags", "arg_attrs", "res_attrs"}


class CallOp(Port):
    keywords_list = ("vararg", *TAIL_CALL_KINDS[1:])

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        callee = view.attr("callee")
        if callee is not None and not isinstance(callee, FlatSymbolRefAttr):
            raise SyntaxModelError("llvm.call: the callee is not a flat symbol reference")
        if len(op.results) > 1:
            raise SyntaxModelError("llvm.call has at most one result")
        operands = view.operands("callee_operands")
        if callee is None and not operands:
            raise SyntaxModelError("llvm.call: an indirect call without its function pointer")
        args = operands if callee is not None else operands[1:]
        p.write(" ")
        cconv = _keyword(view.attr("CConv"), "calling convention") if view.attr("CConv") else "ccc"
        if cconv != "ccc":
            p.write(cconv + " ")
        tail = _keyword(view.attr("TailCallKind"), "tail call kind") if view.attr("TailCallKind") else "none"
        if tail != "none":
            p.write(tail + " ")
        if callee is not None:
            p.symbol_name(callee.root.value)
        else:
            p.operand(operands[0])
        p.write("(")
        for i, v in enumerate(args):
            if i:
                p.write(", ")
            p.operand(v)
        p.write(")")
        var_type = view.attr("var_callee_type")
        if var_type is not None:
            if not isinstance(var_type, TypeAttr):
                raise SyntaxModelError("llvm.call: var_callee_type is not a type")
            p.write(" vararg(")
            p.type(var_type.type)
            p.write(")")
        bundles = view.vov_groups("op_bundle_operands")
        if any(bundles):
            p.write(" ")
            write_op_bundles(p, bundles, view.attr("op_bundle_tags"))
        elided = set(_ELIDED)
        flags = view.attr("fastmathFlags")
        if flags is None or plain_attribute_text(flags) == "#llvm.fastmath<none>":
            elided.add("fastmathFlags")
        p.optional_attr_dict(attr_entries(view, elided))
        p.write(" : ")
        if callee is None:
            p.type(operands[0].type)
            p.write(", ")
        arg_dicts = _dicts(view.attr("arg_attrs"), len(args))
        p.write("(")
        for i, (v, d) in enumerate(zip(args, arg_dicts, strict=True)):
            if i:
                p.write(", ")
            p.type(v.type)
            if d is not None:
                p.optional_attr_dict([(k.text, a) for k, a in d.entries])
        p.write(") -> ")
        results = [r.type for r in op.results]
        if results:
            print_result_list(p, results, view.attr("res_attrs"))
        else:
            p.write("()")

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        word = p.parse_optional_any_keyword()
        cconv, tail = "ccc", "none"
        if word is not None and word not in TAIL_CALL_KINDS:
            cconv = word
            word = p.parse_optional_any_keyword()
        if word is not None:
            if word not in TAIL_CALL_KINDS:
                raise p.error(f"expected a tail call kind, got '{word}'")
            tail = word
        state.attributes["CConv"] = parse_attribute_text(f"#llvm.cconv<{cconv}>")
        state.attributes["TailCallKind"] = parse_attribute_text(f"#llvm.tailcallkind<{tail}>")
        refs: list[OperandRef] = []
        fnptr = p.parse_optional_operand()
        if fnptr is not None:
            refs.append(fnptr)
        else:
            state.attributes["callee"] = FlatSymbolRefAttr.get(StringAttr.get(p.parse_symbol_name()))
        p.parse_punct("(")
        if not p.parse_optional_punct(")"):
            refs.append(p.parse_operand())
            while p.parse_optional_punct(","):
                refs.append(p.parse_operand())
            p.parse_punct(")")
        if p.parse_optional_keyword("vararg"):
            p.parse_punct("(")
            state.attributes["var_callee_type"] = TypeAttr.get(p.parse_type())
            p.parse_punct(")")
        bundles = read_op_bundles(p)
        if bundles is not None and bundles[3] is not None:
            state.attributes["op_bundle_tags"] = bundles[3]
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        p.parse_punct(":")
        types: list[Type] = []
        if fnptr is not None:
            types.append(p.parse_type())
            p.parse_punct(",")
        arg_types, arg_attrs = _types_with_attrs(p)
        types.extend(arg_types)
        p.parse_punct("->")
        results, res_attrs = _results(p)
        if len(results) > 1:
            raise p.error("expected function with 0 or 1 result")
        if len(types) != len(refs):
            raise p.error(f"{len(refs)} operands present, but expected {len(types)}")
        p.resolve_operands(refs, types, state)
        if _nonempty(arg_attrs):
            state.attributes["arg_attrs"] = ArrayAttr.get(tuple(arg_attrs))
        if _nonempty(res_attrs):
            state.attributes["res_attrs"] = ArrayAttr.get(tuple(res_attrs))
        refs_b, types_b, sizes = (bundles[0], bundles[1], bundles[2]) if bundles is not None else ([], [], [])
        if len(refs_b) != len(types_b):
            raise p.error("the operand bundles' operands and types do not match")
        p.resolve_operands(refs_b, types_b, state)
        state.attributes["op_bundle_sizes"] = i32_array(sizes)
        state.attributes["operandSegmentSizes"] = i32_array([len(refs), len(refs_b)])
        state.result_types.extend(results)


def _types_with_attrs(p: AsmParser) -> tuple[list[Type], list[DictionaryAttr]]:
    """`(type {attrs}?, ...)`"""
    empty = DictionaryAttr.get(())
    types: list[Type] = []
    attrs: list[DictionaryAttr] = []
    p.parse_punct("(")
    if p.parse_optional_punct(")"):
        return types, attrs
    while True:
        types.append(p.parse_type())
        d = p.parse_optional_attr_dict()
        attrs.append(d if d is not None else empty)
        if not p.parse_optional_punct(","):
            break
    p.parse_punct(")")
    return types, attrs


def _results(p: AsmParser) -> tuple[list[Type], list[DictionaryAttr]]:
    """A single type, or `(types {attrs}?)`."""
    if p.peek_text() == "(":
        return _types_with_attrs(p)
    return [p.parse_type()], [DictionaryAttr.get(())]


MODELS: list[OpSyntax] = [CallOp("llvm.call")]
