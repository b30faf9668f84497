"""Stripped forms (`printStrippedAttrOrType`) of dialect types whose body is several tokens, which the
view's generic stripped reading (one token or one bracketed group) cannot delimit: ported per type class
with their own grammar.

    !wasmssa<local ref to i32>  ->  ` ref to i32` (LocalRefType's `ref to $elementType`)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...ir.attributes import Attribute
from ...ir.types import Type
from ...syntax.attr_parser import parse_type_text
from ...syntax.attr_printer import plain_type_text
from .api import AsmParser, AsmPrinter


@dataclass(frozen=True)
class StrippedForm:
    print: Callable[[AsmPrinter, Type], bool]
    """Writes the stripped body; False when the value is not of the class (it then prints in full)."""
    parse: Callable[[AsmParser], Type]


def _print_wasm_local(p: AsmPrinter, t: Type) -> bool:
    text = plain_type_text(t)
    prefix = "!wasmssa<local ref to "
    if not text.startswith(prefix) or not text.endswith(">"):
        return False
    p.write(" ref to " + text[len(prefix):-1])
    return True


def _parse_wasm_local(p: AsmParser) -> Type:
    p.parse_keyword("ref")
    p.parse_keyword("to")
    return parse_type_text(f"!wasmssa<local ref to {plain_type_text(p.parse_type())}>")


STRIPPED_FORMS: dict[str, StrippedForm] = {
    "!wasmssa.local": StrippedForm(_print_wasm_local, _parse_wasm_local),
}


def print_stripped_form(p: AsmPrinter, value: Attribute | Type, prefix: str) -> bool:
    """Whether a ported grammar printed `value` stripped."""
    form = STRIPPED_FORMS.get(prefix)
    return form is not None and isinstance(value, Type) and form.print(p, value)


def parse_stripped_form(p: AsmParser, prefix: str) -> Attribute | Type | None:
    """The value of a ported stripped form (or its full spelling), None when `prefix` has no port."""
    form = STRIPPED_FORMS.get(prefix)
    if form is None:
        return None
    if p.peek_text().startswith("!"):
        return p.parse_type()
    return form.parse(p)
