"""What hand-written syntax models share: their op's syntax data (operand groups, attribute facts) read
lazily, and the function-like signature upstream's `function_interface_impl` prints and parses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ....ir.attributes import ArrayAttr, Attribute, DictionaryAttr, StringAttr, TypeAttr
from ....ir.operation import Operation
from ....ir.types import FunctionType, Type
from ..adaptor import OpView
from ..api import AsmParser, AsmPrinter, OpState, SyntaxBase, SyntaxModelError
from ..data import DATA_DIR, op_data


class Port(SyntaxBase):
    """A hand-written syntax model of one op; `data` is the op's generated syntax data."""

    data_dir: Path = DATA_DIR
    dialect_default = ""

    def __init__(self, name: str, data_dir: Path | None = None) -> None:
        self.name = name
        if data_dir is not None:
            self.data_dir = data_dir
        self._data: dict[str, Any] | None = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    @property
    def data(self) -> dict[str, Any]:
        if self._data is None:
            self._data = op_data(self.name, self.data_dir)
        return self._data

    def view(self, op: Operation) -> OpView:
        return OpView(op, self.data)

    def default_dialect(self, op: Operation) -> str:
        return self.dialect_default

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        raise SyntaxModelError(f"{self.name}: no printer")

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        raise p.error(f"reading '{self.name}' in its custom form is not supported yet")


def attr_entries(view: OpView, elided: set[str]) -> list[tuple[str, Attribute]]:
    return [(k, v) for k, v in view.all_attrs() if k not in elided]


def _dicts(attr: Attribute | None, n: int) -> list[DictionaryAttr | None]:
    if attr is None:
        return [None] * n
    if not isinstance(attr, ArrayAttr) or len(attr.elements) != n:
        raise SyntaxModelError("argument or result attributes do not match the signature")
    out: list[DictionaryAttr | None] = []
    for d in attr.elements:
        if not isinstance(d, DictionaryAttr):
            raise SyntaxModelError("an argument attribute is not a dictionary")
        out.append(d)
    return out


def function_type_of(view: OpView, type_attr: str) -> tuple[list[Type], list[Type]]:
    ft = view.attr(type_attr)
    if not isinstance(ft, TypeAttr) or not isinstance(ft.type, FunctionType):
        raise SyntaxModelError(f"'{type_attr}' is not a function type")
    return list(ft.type.inputs), list(ft.type.results)


def print_function_signature(p: AsmPrinter, op: Operation, view: OpView, inputs: list[Type],
                             results: list[Type], variadic: bool, arg_attrs: str, res_attrs: str) -> None:
    """`(%arg0: i32 {attrs} loc(...), ...) -> (T {attrs})`: function_interface_impl's signature."""
    body = op.regions[0] if op.regions else None
    external = body is None or not body.blocks
    arg_dicts = _dicts(view.attr(arg_attrs), len(inputs))
    p.write("(")
    if not external:
        assert body is not None
        entry = body.blocks[0]
        if len(entry.arguments) != len(inputs):
            raise SyntaxModelError("the body's arguments do not match the function type")
        for i, arg in enumerate(entry.arguments):
            if i:
                p.write(", ")
            p.region_argument(arg, arg_dicts[i])
    else:
        for i, t in enumerate(inputs):
            if i:
                p.write(", ")
            p.type(t)
            d = arg_dicts[i]
            if d is not None:
                p.optional_attr_dict([(k.text, v) for k, v in d.entries])
    if variadic:
        if inputs:
            p.write(", ")
        p.write("...")
    p.write(")")
    if results:
        p.write(" -> ")
        print_result_list(p, results, view.attr(res_attrs))


def print_result_list(p: AsmPrinter, results: list[Type], res_attrs: Attribute | None) -> None:
    dicts = _dicts(res_attrs, len(results))
    parens = len(results) > 1 or isinstance(results[0], FunctionType) or \
        (dicts[0] is not None and bool(dicts[0].entries))
    if parens:
        p.write("(")
    for i, t in enumerate(results):
        if i:
            p.write(", ")
        p.type(t)
        d = dicts[i]
        if d is not None:
            p.optional_attr_dict([(k.text, v) for k, v in d.entries])
    if parens:
        p.write(")")


def print_function_op(p: AsmPrinter, op: Operation, view: OpView, variadic: bool = False,
                      type_attr: str = "function_type", arg_attrs: str = "arg_attrs",
                      res_attrs: str = "res_attrs") -> None:
    """function_interface_impl::printFunctionOp: ` private @name(signature) attributes {...} {body}`."""
    name = view.attr("sym_name")
    if not isinstance(name, StringAttr):
        raise SyntaxModelError("the function has no sym_name")
    p.write(" ")
    visibility = view.attr("sym_visibility")
    if isinstance(visibility, StringAttr):
        p.write(visibility.text + " ")
    p.symbol_name(name.value)
    inputs, results = function_type_of(view, type_attr)
    print_function_signature(p, op, view, inputs, results, variadic, arg_attrs, res_attrs)
    elided = {"sym_name", "sym_visibility", type_attr, arg_attrs, res_attrs}
    p.optional_attr_dict(attr_entries(view, elided), (), with_keyword=True)
    if op.regions and op.regions[0].blocks:
        p.write(" ")
        p.region(op.regions[0], False, True)
