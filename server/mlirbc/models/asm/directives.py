"""The `custom<Name>(...)` directives of declarative formats: one print/parse pair per name, ported from the
C++ functions upstream (and IREE) write for them (`printDynamicIndexList`, ...).

A directive gets the format's arguments (elements: operands, attributes, `type(...)`, `ref(...)`, ...)
and the op's view; it prints through the op printer.  A directive without a port makes the op print generic.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .adaptor import OpView
from .api import AsmPrinter, SyntaxModelError

if TYPE_CHECKING:
    from .declarative import DeclarativeSyntax

Element = list[Any]
PrintFn = Callable[["DeclarativeSyntax", OpView, AsmPrinter, list[Element]], None]

PRINTERS: dict[str, PrintFn] = {}


def directive(name: str) -> Callable[[PrintFn], PrintFn]:
    def deco(fn: PrintFn) -> PrintFn:
        PRINTERS[name] = fn
        return fn
    return deco


def print_directive(name: str, args: list[Element], model: DeclarativeSyntax, view: OpView,
                    p: AsmPrinter) -> None:
    fn = PRINTERS.get(name)
    if fn is None:
        raise SyntaxModelError(f"custom<{name}> has no port")
    fn(model, view, p, args)
