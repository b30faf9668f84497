"""IREE's `custom<...>` directives that print one op's operand or result types: `OperandTypeList`
(util.call's operand types) and `ShapedTiedResult` (a result that may be tied to an operand, with its
dynamic dimensions or size: flow.tensor.update, flow.collective.*, stream.async.*, stream.tensor.*)."""

from __future__ import annotations

from ...ir.types import Type
from ...syntax.attr_printer import plain_type_text
from .api import AsmParser, AsmPrinter, OperandRef, SyntaxModelError
from .directives import ParseArgs, PrintArgs, parser, printer
from .directives_iree import (
    _dynamic_dims,
    _print_dims,
    _tied_indices,
    parse_dims,
    parse_tied_results,
    print_tied_results,
    tied_operands_attr,
)


# -- custom<OperandTypeList>(type($operands)): `(t, u)` ----------------------------------------------------
@printer("OperandTypeList")
def print_operand_type_list(p: AsmPrinter, a: PrintArgs) -> None:
    # IREE writes these types to the printer's raw stream: never aliased, and not visited by the alias pass
    p.write("(" + ", ".join(plain_type_text(t) for t in a.types(0)) + ")")


@parser("OperandTypeList")
def parse_operand_type_list(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    p.parse_punct("(")
    types: list[Type] = []
    while not p.parse_optional_punct(")"):
        if types:
            # IREE's own parser reads no comma between types (it reads one type at most back); the text
            # both tools print has them
            p.parse_punct(",")
        types.append(p.parse_type())
    a.set_types(0, types)
    return True


# -- custom<ShapedTiedResult>(type($result), $dims[, $tied_operands]): `%target as t{%d}` ------------------
_TIED_TO = "target"
"""The operand the result of an op without `tied_operands` is tied to: the ops that use the directive that
way (flow.tensor.update, stream.async.update/copy/fill/store/collective, stream.tensor.fill/store/update)
tie their result to `$target` in their TiedOpInterface."""


def _tied_operand(a: PrintArgs) -> int | None:
    """The op operand the result is tied to (TiedOpInterface::getTiedResultOperandIndex(0))."""
    if len(a) >= 3:
        index = _tied_indices(a.attr(2), 1)[0]
        if index < 0:
            return None
        if index >= len(a.op.operands):
            raise SyntaxModelError("a tied operand index out of range")
        return index
    groups = a.view.operand_groups()
    target = groups.get(_TIED_TO)
    if not target:
        raise SyntaxModelError(f"{a.model.name}: no '{_TIED_TO}' operand to tie the result to")
    return next(i for i, v in enumerate(a.op.operands) if v is target[0])


@printer("ShapedTiedResult")
def print_shaped_tied_result(p: AsmPrinter, a: PrintArgs) -> None:
    t = a.type(0)
    if t is None:
        raise SyntaxModelError("no result type")
    tied = _tied_operand(a)
    if tied is not None:
        p.operand(a.op.operands[tied])
        p.write(" as ")
    p.type(t)
    dims = list(a.values(1))
    n = _dynamic_dims(t)
    if n is not None and n != 0 and not dims:
        raise SyntaxModelError("a dynamic result without its dimensions")  # C++ prints {<<INVALID>>}
    _print_dims(p, t, dims, 0)


@parser("ShapedTiedResult")
def parse_shaped_tied_result(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    tied = -1
    if p.parse_optional_operand() is not None:
        tied = 0  # as IREE's parser: the op's first operand
        p.parse_keyword("as")
    t = p.parse_type()
    dims: list[OperandRef] = []
    parse_dims(p, t, dims)
    a.set_types(0, [t])
    a.set_values(1, dims)
    if len(a) >= 3:
        a.set_attr(2, tied_operands_attr([tied]))
    return True


# -- custom<TiedFunctionResultList>(ref($operands), ref(type($operands)), type($results), $tied_operands) --
#    (util.call): `t`, `(t, %arg1, %arg2 as u)`, `()`
@printer("TiedFunctionResultList")
def print_tied_function_result_list(p: AsmPrinter, a: PrintArgs) -> None:
    results = a.types(2)
    print_tied_results(p, a.values(0), results, _tied_indices(a.attr(3), len(results)), None)


@parser("TiedFunctionResultList")
def parse_tied_function_result_list(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    types, tied = parse_tied_results(p, a.values(0), a.types(1) or [], None)
    a.set_types(2, types)
    if tied:
        a.set_attr(3, tied_operands_attr(tied))
    return True
