"""Ports of the `async` dialect's `custom<...>` directives (Async.cpp)."""

from __future__ import annotations

from ...ir.types import Type
from .api import AsmParser, AsmPrinter, SyntaxModelError
from .directives import ParseArgs, PrintArgs, parser, printer


def async_value_type(t: Type) -> Type | None:
    """T of `!async.value<T>` (None: not an async value type)."""
    from .typefns import async_value_type as unwrap

    try:
        return unwrap(t)
    except ValueError:
        return None


# -- custom<AwaitResultType>(type($operand), type($result)) (async.await) ------------------------------
@printer("AwaitResultType")
def print_await_result_type(p: AsmPrinter, a: PrintArgs) -> None:
    t = a.type(0)
    if t is None:
        raise SyntaxModelError("no operand type")
    value = async_value_type(t)
    if a.types(1) != ([] if value is None else [value]):
        raise SyntaxModelError("the result type is not the awaited value's")
    p.type(t)


@parser("AwaitResultType")
def parse_await_result_type(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    t = p.parse_type()
    a.set_types(0, [t])
    value = async_value_type(t)
    a.set_types(1, [] if value is None else [value])
    return True
