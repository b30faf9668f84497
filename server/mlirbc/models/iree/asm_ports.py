"""Hand-written syntax models of IREE ops whose form IREE writes in C++ (`util.func`, `util.initializer`),
ports of UtilOps.cpp's print/parse."""

from __future__ import annotations

from pathlib import Path

from ...ir.attributes import ArrayAttr, Attribute, DictionaryAttr, IntegerAttr, StringAttr, TypeAttr
from ...ir.operation import Operation, Region
from ...ir.types import FunctionType, IndexType, Type
from ..asm.api import AsmParser, AsmPrinter, OpState, OpSyntax, SyntaxModelError
from ..asm.ports.base import Port, _dicts, attr_entries, parse_function_signature

ASM_DATA_DIR = Path(__file__).with_name("asm_data")
UNTIED = -1


class _IreePort(Port):
    data_dir = ASM_DATA_DIR


def _tied(view_attr: Attribute | None, n: int) -> list[int]:
    if view_attr is None:
        return [UNTIED] * n
    if not isinstance(view_attr, ArrayAttr) or len(view_attr.elements) != n:
        raise SyntaxModelError("tied_operands does not match the results")
    out = []
    for e in view_attr.elements:
        if not isinstance(e, IntegerAttr):
            raise SyntaxModelError("tied_operands holds a non-integer")
        bits = e.bits
        out.append(bits - (1 << 64) if bits >> 63 else bits)
    return out


class UtilFuncOp(_IreePort):
    keywords_list = ("attributes",)

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        ft = view.attr("function_type")
        name = view.attr("sym_name")
        if not isinstance(ft, TypeAttr) or not isinstance(ft.type, FunctionType) or \
                not isinstance(name, StringAttr):
            raise SyntaxModelError("util.func needs a function type and a name")
        inputs, results = list(ft.type.inputs), list(ft.type.results)
        body = op.regions[0] if op.regions else None
        if body is not None and body.blocks:
            args = body.blocks[0].arguments
            if len(args) != len(inputs) or any(a.type is not t for a, t in zip(args, inputs, strict=True)):
                raise SyntaxModelError("the body's arguments do not match the function type")
            if any(p.value_name(a) != f"%arg{i}" for i, a in enumerate(args)):
                raise SyntaxModelError("the signature names arguments %argN, the body does not")
        vis = view.attr("sym_visibility")
        p.write(" " + (vis.text if isinstance(vis, StringAttr) else "public") + " ")
        p.symbol_name(name.value)
        arg_attrs = _dicts(view.attr("arg_attrs"), len(inputs))
        p.write("(")
        for i, t in enumerate(inputs):
            if i:
                p.write(", ")
            p.write(f"%arg{i}: ")
            p.type(t)
            d = arg_attrs[i]
            if d is not None and d.entries:
                p.optional_attr_dict([(k.text, v) for k, v in d.entries])
        p.write(")")
        if results:
            p.write(" -> ")
            res_attrs = _dicts(view.attr("res_attrs"), len(results))
            any_attrs = any(d is not None and d.entries for d in res_attrs)
            parens = len(results) != 1 or any_attrs
            if parens:
                p.write("(")
            tied = _tied(view.attr("tied_operands"), len(results))
            for i, t in enumerate(results):
                if i:
                    p.write(", ")
                printed_type = True
                if tied[i] != UNTIED:
                    p.write(f"%arg{tied[i]}")
                    if not 0 <= tied[i] < len(inputs):
                        raise SyntaxModelError("a result is tied to no argument")
                    if inputs[tied[i]] is not t:
                        p.write(" as ")
                    else:
                        printed_type = False
                if printed_type:
                    p.type(t)
                d = res_attrs[i]
                if d is not None and d.entries:
                    p.optional_attr_dict([(k.text, v) for k, v in d.entries])
            if parens:
                p.write(")")
        elided = {"sym_name", "function_type", "tied_operands", "sym_visibility", "arg_attrs", "res_attrs"}
        p.optional_attr_dict(attr_entries(view, elided), (), with_keyword=True)
        if body is not None and body.blocks:
            p.write(" ")
            p.region(body, False)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        for word in ("public", "private", "nested"):
            if p.parse_optional_keyword(word):
                state.attributes["sym_visibility"] = StringAttr.get(word)
                break
        state.attributes["sym_name"] = StringAttr.get(p.parse_symbol_name())
        # (the argument list reads as upstream's; the results may be tied to arguments)
        args, arg_attrs, _, _, _ = _arguments(p)
        results: list[Type] = []
        res_attrs: list[DictionaryAttr] = []
        tied: list[int] = []
        if p.parse_optional_punct("->"):
            parens = p.parse_optional_punct("(")
            if not (parens and p.parse_optional_punct(")")):
                while True:
                    ref = p.parse_optional_operand()
                    index = UNTIED
                    if ref is not None:
                        names = [a.ref.name for a in args]
                        if ref.name not in names:
                            raise p.error(f"tied operand not found for result reference {ref.name}")
                        index = names.index(ref.name)
                        t = p.parse_type() if p.parse_optional_keyword("as") else args[index].type
                        assert t is not None
                    else:
                        t = p.parse_type()
                    results.append(t)
                    tied.append(index)
                    d = p.parse_optional_attr_dict() if parens else None
                    res_attrs.append(d if d is not None else DictionaryAttr.get(()))
                    if not p.parse_optional_punct(","):
                        break
                if parens:
                    p.parse_punct(")")
        if tied:
            state.attributes["tied_operands"] = ArrayAttr.get(tuple(
                IntegerAttr.get(IndexType.get(), i & ((1 << 64) - 1)) for i in tied))
        state.attributes["function_type"] = TypeAttr.get(FunctionType.get(
            tuple(a.type for a in args if a.type is not None), tuple(results)))
        d = p.parse_optional_attr_dict_with_keyword()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        if any(x.entries for x in arg_attrs):
            state.attributes["arg_attrs"] = ArrayAttr.get(tuple(arg_attrs))
        if any(x.entries for x in res_attrs):
            state.attributes["res_attrs"] = ArrayAttr.get(tuple(res_attrs))
        body = p.parse_optional_region([a for a in args if a.ref.name])
        state.regions.append(body if body is not None else Region(None))


def _arguments(p: AsmParser) -> tuple:  # type: ignore[type-arg]
    """The `(%arg0: T {attrs}, ...)` argument list (parseFunctionArgumentList), results not read."""
    from ..asm.api import Argument

    args: list[Argument] = []
    attrs: list[DictionaryAttr] = []
    p.parse_punct("(")
    if not p.parse_optional_punct(")"):
        while True:
            a = p.parse_argument(True, True)
            args.append(a)
            attrs.append(a.attrs if a.attrs is not None else DictionaryAttr.get(()))
            if not p.parse_optional_punct(","):
                break
        p.parse_punct(")")
    return args, attrs, None, None, None


class UtilInitializerOp(_IreePort):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        p.optional_attr_dict(attr_entries(view, {"function_type"}), (), with_keyword=True)
        p.write(" ")
        p.region(op.regions[0])

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        state.attributes["function_type"] = TypeAttr.get(FunctionType.get((), ()))
        d = p.parse_optional_attr_dict_with_keyword()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        state.regions.append(p.parse_region())


MODELS: list[OpSyntax] = [UtilFuncOp("util.func"), UtilInitializerOp("util.initializer")]
del parse_function_signature
