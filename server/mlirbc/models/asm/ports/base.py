"""What hand-written syntax models share: their op's syntax data (operand groups, attribute facts) read
lazily, and the function-like signature upstream's `function_interface_impl` prints and parses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ....ir.attributes import ArrayAttr, Attribute, DictionaryAttr, StringAttr, TypeAttr
from ....ir.operation import Operation
from ....ir.types import FunctionType, Type
from ..adaptor import OpView
from ..api import Argument, AsmParser, AsmPrinter, OperandRef, OpState, SyntaxBase, SyntaxModelError
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

    keywords_list: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    @property
    def kind(self) -> str:
        return f"hand-written ({type(self).__module__.rsplit('.', 1)[-1]}.{type(self).__name__})"

    def keywords(self) -> list[str]:
        return list(self.keywords_list)

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


def print_types(p: AsmPrinter, types: list[Type]) -> None:
    for i, t in enumerate(types):
        if i:
            p.write(", ")
        p.type(t)


def attr_entries(view: OpView, elided: set[str]) -> list[tuple[str, Attribute]]:
    return [(k, v) for k, v in view.all_attrs() if k not in elided]


def function_attr_entries(p: AsmPrinter, view: OpView, elided: set[str]) -> list[tuple[str, Attribute]]:
    """`printFunctionAttributes`' list: MLIR 22 prints the op's attributes sorted by name; MLIR 24 the
    discardable dictionary first, then the inherent ones in their ODS declaration order."""
    if not getattr(p, "keyvalue_props", False):
        return attr_entries(view, elided)
    out = [(k, v) for k, v in view.discardable() if k not in elided]
    inherent = dict(view.inherent())
    order = [k for k in view.data.get("arg_order", []) if k in inherent]
    order += [k for k in inherent if k not in order]
    return out + [(k, inherent[k]) for k in order if k not in elided]


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
                             results: list[Type], variadic: bool, arg_attrs: str, res_attrs: str,
                             extra_args: int = 0) -> None:
    """`(%arg0: i32 {attrs} loc(...), ...) -> (T {attrs})`: function_interface_impl's signature;
    `extra_args`: entry block arguments after the inputs that the op prints itself (attributions)."""
    body = op.regions[0] if op.regions else None
    external = body is None or not body.blocks
    arg_dicts = _dicts(view.attr(arg_attrs), len(inputs))
    p.write("(")
    if not external:
        assert body is not None
        entry = body.blocks[0]
        if len(entry.arguments) != len(inputs) + extra_args or \
                any(a.type is not t for a, t in zip(entry.arguments, inputs, strict=False)):
            raise SyntaxModelError("the body's arguments do not match the function type")
        for i, arg in enumerate(entry.arguments[:len(inputs)]):
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
    p.optional_attr_dict(function_attr_entries(p, view, elided), (), with_keyword=True)
    if op.regions and op.regions[0].blocks:
        p.write(" ")
        p.region(op.regions[0], False, True)


# -- parsing ------------------------------------------------------------------------------------------
def parse_loop_head(p: AsmParser) -> tuple[Argument, OperandRef, OperandRef, OperandRef]:
    """`%iv = %lb to %ub step %step` (scf.for, emitc.for): the induction variable, its type still to
    come, and the three bounds."""
    iv = p.parse_argument(allow_type=False)
    p.parse_punct("=")
    lb = p.parse_operand()
    p.parse_keyword("to")
    ub = p.parse_operand()
    p.parse_keyword("step")
    return iv, lb, ub, p.parse_operand()


def parse_optional_visibility(p: AsmParser, state: OpState) -> None:
    for word in ("private", "public", "nested"):
        if p.parse_optional_keyword(word):
            state.attributes["sym_visibility"] = StringAttr.get(word)
            return


def _nonempty(dicts: list[DictionaryAttr]) -> bool:
    return any(d.entries for d in dicts)


Signature = tuple[list[Argument], list[DictionaryAttr], list[Type], list[DictionaryAttr], bool]


def parse_function_signature(p: AsmParser, allow_variadic: bool = False) -> Signature:
    """parseFunctionSignatureWithArguments: (arguments, their attributes, result types, result attributes,
    variadic).  Arguments are named (`%arg0: i32`) or, for a declaration, types only."""
    args: list[Argument] = []
    arg_attrs: list[DictionaryAttr] = []
    variadic = False
    named: bool | None = None
    empty = DictionaryAttr.get(())
    p.parse_punct("(")
    if not p.parse_optional_punct(")"):
        while True:
            if allow_variadic and p.parse_optional_punct("..."):
                variadic = True
                break
            arg = p.parse_optional_argument(True, True)
            if arg is not None:
                if named is False:
                    raise p.error("expected type instead of SSA identifier")
                named = True
            else:
                if named is True:
                    raise p.error("expected SSA identifier")
                named = False
                t = p.parse_type()
                attrs = p.parse_optional_attr_dict()
                loc = p.parse_optional_location()
                arg = Argument(_NoName(), t, attrs, loc)
            args.append(arg)
            arg_attrs.append(arg.attrs if arg.attrs is not None else empty)
            if not p.parse_optional_punct(","):
                break
        p.parse_punct(")")
    results: list[Type] = []
    res_attrs: list[DictionaryAttr] = []
    if p.parse_optional_punct("->"):
        if not p.parse_optional_punct("("):
            results.append(p.parse_type())
            res_attrs.append(empty)
        elif not p.parse_optional_punct(")"):
            while True:
                results.append(p.parse_type())
                d = p.parse_optional_attr_dict()
                res_attrs.append(d if d is not None else empty)
                if not p.parse_optional_punct(","):
                    break
            p.parse_punct(")")
    return args, arg_attrs, results, res_attrs, variadic


class _NoName:
    """The name of an argument a declaration lists by type only."""

    name = ""


def parse_function_op(p: AsmParser, state: OpState, allow_variadic: bool = False,
                      type_attr: str = "function_type", arg_attrs_name: str = "arg_attrs",
                      res_attrs_name: str = "res_attrs") -> tuple[list[Argument], bool]:
    """function_interface_impl::parseFunctionOp; returns the arguments and whether it was variadic."""
    parse_optional_visibility(p, state)
    state.attributes["sym_name"] = StringAttr.get(p.parse_symbol_name())
    args, arg_attrs, results, res_attrs, variadic = parse_function_signature(p, allow_variadic)
    state.attributes[type_attr] = TypeAttr.get(FunctionType.get(
        tuple(a.type for a in args if a.type is not None), tuple(results)))
    parse_function_tail(p, state, args, arg_attrs, res_attrs, arg_attrs_name, res_attrs_name,
                        ("sym_visibility", "sym_name", type_attr))
    return args, variadic


def parse_function_tail(p: AsmParser, state: OpState, args: list[Argument],
                        arg_attrs: list[DictionaryAttr], res_attrs: list[DictionaryAttr],
                        arg_attrs_name: str = "arg_attrs", res_attrs_name: str = "res_attrs",
                        inferred: tuple[str, ...] = ()) -> None:
    """What a function op's form has after its signature: `attributes {...}` (none of `inferred` in it),
    the argument and result attributes the signature gave, and the optional body (its arguments named)."""
    d = p.parse_optional_attr_dict_with_keyword()
    if d is not None:
        for k, v in d.entries:
            if k.text in inferred:
                raise p.error(f"'{k.text}' is an inferred attribute and should not be specified in the "
                              "explicit attribute dictionary")
            state.attributes[k.text] = v
    if _nonempty(arg_attrs):
        state.attributes[arg_attrs_name] = ArrayAttr.get(tuple(arg_attrs))
    if _nonempty(res_attrs):
        state.attributes[res_attrs_name] = ArrayAttr.get(tuple(res_attrs))
    named = [a for a in args if a.ref.name]
    body = p.parse_optional_region(named)
    if body is None:
        from ....ir.operation import Region

        body = Region(None)
    elif len(named) != len(args):
        raise p.error("expected named arguments for a function with a body")
    state.regions.append(body)
