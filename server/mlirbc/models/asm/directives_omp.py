"""Ports of the OpenMP dialect's `custom<...>` directives (OpenMPDialect.cpp) that the clause-free forms
and the simple clauses need: `allocate(%a : t -> %b : t)`, a clause enum keyword (`proc_bind(close)`),
`order(reproducible:concurrent)`, `schedule(static = %c : i32, monotonic, simd)`,
and the entry-block-argument clauses of `omp.parallel`/`omp.wsloop` (`PrivateReductionRegion`) when they
hold no variables (the region alone).

Each printer prints only what its parser reads back to the same attributes; anything else (an enum this
module does not know, private or reduction variables, a modifier without its kind,
a `linear` clause) raises `SyntaxModelError` and the op prints generic."""

from __future__ import annotations

import re

from ...ir.attributes import Attribute, UnitAttr
from ...syntax.attr_parser import parse_attribute_text
from ...syntax.attr_printer import plain_attribute_text
from .api import AsmParser, AsmPrinter, OperandRef, SyntaxModelError
from .directives import ParseArgs, PrintArgs, parser, printer

ENUMS: dict[str, tuple[str, ...]] = {
    "procbindkind": ("primary", "master", "close", "spread"),
    "schedulekind": ("static", "dynamic", "guided", "auto", "runtime", "distribute"),
    "sched_mod": ("none", "monotonic", "nonmonotonic", "simd"),
    "orderkind": ("concurrent",),
    "order_mod": ("reproducible", "unconstrained"),
}
"""The OpenMP enums whose keywords these ports print and read (OpenMPEnums.td), by attribute mnemonic."""

_CHUNKED = ("static", "dynamic", "guided")
"""Schedule kinds whose clause may carry a chunk size (`= %c : t`)."""

_ENUM_ATTR = re.compile(r"#omp<([a-z_]+) ([a-z_]+)>$")


def _keyword(value: Attribute | None, mnemonic: str) -> str | None:
    """The keyword of an `#omp<mnemonic keyword>` value (None when absent)."""
    if value is None:
        return None
    m = _ENUM_ATTR.match(plain_attribute_text(value))
    if m is None or m.group(1) != mnemonic or m.group(2) not in ENUMS.get(mnemonic, ()):
        raise SyntaxModelError(f"not a known #omp.{mnemonic} value")
    return m.group(2)


def _enum_value(mnemonic: str, word: str) -> Attribute:
    return parse_attribute_text(f"#omp<{mnemonic} {word}>")


def _mnemonic(a: PrintArgs | ParseArgs, i: int) -> str:
    """The enum mnemonic of directive argument `i` (its ODS storage `#omp.<mnemonic>`)."""
    info = a.model.data.get("attrs", {}).get(str(a.args[i][1]), {})
    strip = str(info.get("strip", ""))
    if not strip.startswith("#omp."):
        raise SyntaxModelError("not an OpenMP enum attribute")
    return strip[len("#omp."):]


# -- allocate ------------------------------------------------------------------------------------------
@printer("omp.AllocateAndAllocator")
def print_allocate(p: AsmPrinter, a: PrintArgs) -> None:
    allocate, allocator = a.values(0), a.values(2)
    if len(allocate) != len(allocator):
        raise SyntaxModelError("allocate and allocator lists differ in length")
    for i, (var, alloc) in enumerate(zip(allocate, allocator, strict=True)):
        if i:
            p.write(", ")
        p.operand(alloc)
        p.write(" : ")
        p.type(alloc.type)
        p.write(" -> ")
        p.operand(var)
        p.write(" : ")
        p.type(var.type)


@parser("omp.AllocateAndAllocator")
def parse_allocate(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    allocate: list[OperandRef] = []
    allocator: list[OperandRef] = []
    allocate_types = []
    allocator_types = []
    while True:
        allocator.append(p.parse_operand())
        p.parse_punct(":")
        allocator_types.append(p.parse_type())
        p.parse_punct("->")
        allocate.append(p.parse_operand())
        p.parse_punct(":")
        allocate_types.append(p.parse_type())
        if not p.parse_optional_punct(","):
            break
    a.set_values(0, allocate)
    a.set_types(1, allocate_types)
    a.set_values(2, allocator)
    a.set_types(3, allocator_types)
    return True


# -- one enum keyword ----------------------------------------------------------------------------------
@printer("omp.ClauseAttr")
def print_clause_attr(p: AsmPrinter, a: PrintArgs) -> None:
    word = _keyword(a.attr(0), _mnemonic(a, 0))
    if word is None:
        raise SyntaxModelError("a clause without its value")
    p.write(word)


@parser("omp.ClauseAttr")
def parse_clause_attr(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    mnemonic = _mnemonic(a, 0)
    word = p.parse_optional_any_keyword()
    if word is None or word not in ENUMS.get(mnemonic, ()):
        raise p.error(f"invalid clause value: '{word or ''}'")
    a.set_attr(0, _enum_value(mnemonic, word))
    return True


# -- linear ---------------------------------------------------------------------------------------------
# mlir-opt 22.1.8 aborts reading its own `linear(%x = %s : t)` text (the verifier asserts on the linear
# variable types its parser leaves unset), so no text of it is known to read back: a linear clause
# makes the op print generic; an op without one prints in its custom form.
@printer("omp.LinearClause")
def print_linear(p: AsmPrinter, a: PrintArgs) -> None:
    raise SyntaxModelError("the linear clause is not ported")


@parser("omp.LinearClause")
def parse_linear(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    raise p.error("the `linear` clause cannot be read")


# -- order ---------------------------------------------------------------------------------------------
@printer("omp.OrderClause")
def print_order(p: AsmPrinter, a: PrintArgs) -> None:
    order = _keyword(a.attr(0), "orderkind")
    modifier = _keyword(a.attr(1), "order_mod")
    if order is None:
        raise SyntaxModelError("an order modifier without its kind")
    if modifier is not None:
        p.write(f"{modifier}:")
    p.write(order)


@parser("omp.OrderClause")
def parse_order(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    word = p.parse_optional_any_keyword() or ""
    if word in ENUMS["order_mod"]:
        a.set_attr(1, _enum_value("order_mod", word))
        p.parse_punct(":")
        word = p.parse_optional_any_keyword() or ""
    if word not in ENUMS["orderkind"]:
        raise p.error(f"invalid clause value: '{word}'")
    a.set_attr(0, _enum_value("orderkind", word))
    return True


# -- schedule ------------------------------------------------------------------------------------------
@printer("omp.ScheduleClause")
def print_schedule(p: AsmPrinter, a: PrintArgs) -> None:
    kind = _keyword(a.attr(0), "schedulekind")
    modifier = _keyword(a.attr(1), "sched_mod")
    simd = a.attr(2) is not None
    chunk = a.value(3)
    if kind is None:
        raise SyntaxModelError("a schedule modifier or chunk without its kind")
    # what the parser cannot give back: a chunk of a kind without one, `simd` without its first
    # modifier (read back as `none, simd`), `simd` as the first modifier (read back as `none, simd`)
    if chunk is not None and kind not in _CHUNKED:
        raise SyntaxModelError(f"schedule({kind}) with a chunk size")
    if simd and modifier is None or modifier == "simd":
        raise SyntaxModelError("a schedule simd modifier the parser reads otherwise")
    p.write(kind)
    if chunk is not None:
        p.write(" = ")
        p.operand(chunk)
        p.write(" : ")
        p.type(chunk.type)
    if modifier is not None:
        p.write(f", {modifier}")
    if simd:
        p.write(", simd")


@parser("omp.ScheduleClause")
def parse_schedule(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    kind = p.parse_optional_any_keyword() or ""
    if kind not in ENUMS["schedulekind"]:
        raise p.error("expected schedule kind")
    a.set_attr(0, _enum_value("schedulekind", kind))
    if kind in _CHUNKED and p.parse_optional_punct("="):
        chunk = p.parse_operand()
        p.parse_punct(":")
        a.set_values(3, [chunk])
        a.set_types(4, [p.parse_type()])
    else:
        a.set_values(3, [])
        a.set_types(4, [])
    modifiers: list[str] = []
    while p.parse_optional_punct(","):
        word = p.parse_optional_any_keyword()
        if word is None:
            raise p.error("expected a schedule modifier")
        modifiers.append(word)
    if len(modifiers) > 2:
        raise p.error("unexpected modifier(s)")
    for word in modifiers:
        if word not in ENUMS["sched_mod"]:
            raise p.error(f"unknown modifier type: {word}")
    if modifiers == ["simd"]:
        modifiers = ["none", "simd"]
    if len(modifiers) == 2 and (modifiers[0] == "simd" or modifiers[1] != "simd"):
        raise p.error("incorrect modifier order")
    if modifiers:
        a.set_attr(1, _enum_value("sched_mod", modifiers[0]))
    if len(modifiers) > 1:
        a.set_attr(2, UnitAttr.get())
    return True


# -- entry-block-argument clauses ----------------------------------------------------------------------
@printer("omp.PrivateReductionRegion")
def print_private_reduction_region(p: AsmPrinter, a: PrintArgs) -> None:
    region = a.region(0)
    for i in range(1, len(a)):
        kind = a.kind(i)
        present = bool(a.values(i)) if kind == "operand" else (
            bool(a.types(i)) if kind == "type" else a.attr(i) is not None)
        if present:
            raise SyntaxModelError("private and reduction clauses are not ported")
    if region.blocks and region.blocks[0].arguments:
        raise SyntaxModelError("entry block arguments without private or reduction variables")
    p.region(region, False)


@parser("omp.PrivateReductionRegion")
def parse_private_reduction_region(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    for word in ("private", "reduction"):
        if p.parse_optional_keyword(word):
            raise p.error(f"the `{word}` clause cannot be read yet")
    a.set_region(0, p.parse_region())
    for i in range(1, len(a)):
        if a.kind(i) == "operand":
            a.set_values(i, [])
        elif a.kind(i) == "type":
            a.set_types(i, [])
    return True

