"""The `custom<Name>(...)` directives of declarative formats: one print/parse pair per name, ported from the
C++ functions upstream (and IREE) write for them (`printDynamicIndexList`, ...).

A directive gets the format's arguments (elements: operands, attributes, `type(...)`, `ref(...)`, ...)
and the op's view; it prints through the op printer.  A directive without a port makes the op print generic.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .adaptor import OpView
from .api import AsmParser, AsmPrinter, OpState, SyntaxModelError

if TYPE_CHECKING:
    from .declarative import DeclarativeSyntax
    from .declarative_parse import Parsed

Element = list[Any]
PrintFn = Callable[["DeclarativeSyntax", OpView, AsmPrinter, list[Element]], None]
ParseFn = Callable[["DeclarativeSyntax", AsmParser, "Parsed", OpState, list[Element], bool], bool]
"""(model, parser, parsed, state, arguments, optional) -> whether the directive was there (always True
when not `optional`; an optional read consumes nothing when it returns False)."""

PRINTERS: dict[str, PrintFn] = {}
PARSERS: dict[str, ParseFn] = {}


def printer(name: str) -> Callable[[PrintFn], PrintFn]:
    def deco(fn: PrintFn) -> PrintFn:
        PRINTERS[name] = fn
        return fn
    return deco


def parser(name: str) -> Callable[[ParseFn], ParseFn]:
    def deco(fn: ParseFn) -> ParseFn:
        PARSERS[name] = fn
        return fn
    return deco


def can_parse(name: str) -> bool:
    return name in PARSERS and name in PRINTERS


def print_directive(name: str, args: list[Element], model: DeclarativeSyntax, view: OpView,
                    p: AsmPrinter) -> None:
    fn = PRINTERS.get(name)
    if fn is None:
        raise SyntaxModelError(f"custom<{name}> has no port")
    fn(model, view, p, args)


def parse_directive(name: str, args: list[Element], model: DeclarativeSyntax, p: AsmParser,
                    parsed: Parsed, state: OpState) -> None:
    fn = PARSERS.get(name)
    if fn is None:
        raise p.error(f"custom<{name}> cannot be read")
    fn(model, p, parsed, state, args, False)


def parse_directive_optional(name: str, args: list[Element], model: DeclarativeSyntax, p: AsmParser,
                             parsed: Parsed, state: OpState) -> bool:
    fn = PARSERS.get(name)
    if fn is None:
        raise p.error(f"custom<{name}> cannot be read")
    return fn(model, p, parsed, state, args, True)
