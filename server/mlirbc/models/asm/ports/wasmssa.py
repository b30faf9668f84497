"""WasmSSA ops whose form WasmSSAOps.cpp writes:

    wasmssa.func exported? @name(%arg0: !wasmssa<local ref to i32>) -> i32 attributes {...}? {body}
    wasmssa.import_global "name" from "module" as @sym mutable? : i32

A function's body arguments are references to locals of its parameter types (the function type lists the
parameter types themselves); `exported` is a unit attribute printed as a keyword.  An import prints its
names raw between quotes and no attribute dictionary: an import with other attributes, or with names the
raw print would garble, prints generic.
"""

from __future__ import annotations

import re

from ....ir.attributes import StringAttr, TypeAttr, UnitAttr
from ....ir.operation import Operation
from ....ir.types import FunctionType, Type
from ..api import AsmParser, AsmPrinter, OpState, OpSyntax, SyntaxModelError
from ..typefns import wasm_local_element
from .base import (
    Port,
    function_attr_entries,
    function_type_of,
    parse_function_signature,
    parse_function_tail,
    parse_optional_visibility,
    print_function_signature,
)

_RAW_STRING = re.compile(rb"[ !#-\[\]-~]*")
"""What a raw `"..."` print keeps readable: printable ASCII without `"` and `\\`."""


class FuncOp(Port):
    keywords_list = ("exported", "attributes")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        name = view.attr("sym_name")
        if not isinstance(name, StringAttr):
            raise SyntaxModelError("wasmssa.func has no sym_name")
        inputs, results = function_type_of(view, "functionType")
        body = op.regions[0] if op.regions else None
        params = inputs
        if body is not None and body.blocks:
            args = [a.type for a in body.blocks[0].arguments]
            try:
                locals_of = [wasm_local_element(t) for t in args]
            except ValueError as exc:
                raise SyntaxModelError(f"wasmssa.func: {exc}") from None
            if locals_of != inputs:
                raise SyntaxModelError("the body's arguments are not locals of the parameter types")
            params = args
        if view.attr("exported") is not None:
            p.write(" exported")
        p.write(" ")
        visibility = view.attr("sym_visibility")
        if isinstance(visibility, StringAttr):
            p.write(visibility.text + " ")
        p.symbol_name(name.value)
        print_function_signature(p, op, view, params, results, False, "arg_attrs", "res_attrs")
        elided = {"sym_name", "sym_visibility", "functionType", "arg_attrs", "res_attrs", "exported"}
        p.optional_attr_dict(function_attr_entries(p, view, elided), (), with_keyword=True)
        if body is not None and body.blocks:
            p.write(" ")
            p.region(body, False, True)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        if p.parse_optional_keyword("exported"):
            state.attributes["exported"] = UnitAttr.get()
        parse_optional_visibility(p, state)
        state.attributes["sym_name"] = StringAttr.get(p.parse_symbol_name())
        args, arg_attrs, results, res_attrs, _ = parse_function_signature(p)
        params: list[Type] = []
        for a in args:
            assert a.type is not None
            try:
                params.append(wasm_local_element(a.type))
            except ValueError:
                raise p.error("invalid type for wasm.func argument. Expecting !wasm<local T>") from None
        state.attributes["functionType"] = TypeAttr.get(FunctionType.get(tuple(params), tuple(results)))
        parse_function_tail(p, state, args, arg_attrs, res_attrs)


class ImportGlobalOp(Port):
    keywords_list = ("from", "as", "mutable")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        names = [view.attr(k) for k in ("importName", "moduleName", "sym_name")]
        t = view.attr("type")
        if not all(isinstance(n, StringAttr) and _RAW_STRING.fullmatch(n.value) for n in names) or \
                not isinstance(t, TypeAttr):
            raise SyntaxModelError("wasmssa.import_global: names that print raw, and a type")
        if {k for k, _ in view.all_attrs()} - {"importName", "moduleName", "sym_name", "type", "isMutable"}:
            raise SyntaxModelError("wasmssa.import_global prints no other attributes")
        imp, mod, sym = (n.value.decode() for n in names if isinstance(n, StringAttr))
        p.write(f' "{imp}" from "{mod}" as ')
        p.symbol_name(sym.encode())
        if view.attr("isMutable") is not None:
            p.write(" mutable")
        p.write(" : ")
        p.type(t.type)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        for attr, word in (("importName", "from"), ("moduleName", "as")):
            text = p.parse_optional_string()
            if text is None:
                raise p.error("expected a string")
            state.attributes[attr] = StringAttr.get(text)
            if p.parse_keyword_or_string() != word.encode():
                raise p.error(f"expected '{word}'")
        state.attributes["sym_name"] = StringAttr.get(p.parse_symbol_name())
        if p.parse_optional_keyword("mutable"):
            state.attributes["isMutable"] = UnitAttr.get()
        p.parse_punct(":")
        state.attributes["type"] = TypeAttr.get(p.parse_type())


MODELS: list[OpSyntax] = [FuncOp("wasmssa.func"), ImportGlobalOp("wasmssa.import_global")]
