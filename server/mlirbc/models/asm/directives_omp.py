"""Ports of the OpenMP dialect's `custom<...>` directives (OpenMPDialect.cpp) that the clause-free forms
and the simple clauses need: `allocate(%a : t -> %b : t)`, a clause enum keyword (`proc_bind(close)`),
`order(reproducible:concurrent)`, `schedule(static = %c : i32, monotonic, simd)`,
and the entry-block-argument clauses of `omp.parallel`/`omp.wsloop` (`PrivateReductionRegion`:
`private(@sym %x -> %arg : t) private_barrier reduction(mod: task, byref @r %y -> %arg1 : t) {...}`).

Each printer prints only what its parser reads back to the same attributes; anything else (an enum this
module does not know, a modifier without its kind, clause symbols or by-reference flags
its parser would not store that way, a `linear` clause) raises `SyntaxModelError` and the op prints
generic."""

from __future__ import annotations

import re

from ...ir.attributes import (
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    FlatSymbolRefAttr,
    SymbolRefAttr,
    UnitAttr,
)
from ...ir.operation import BlockArgument, Value
from ...ir.types import IntegerType, Type
from ...syntax.attr_parser import parse_attribute_text
from ...syntax.attr_printer import plain_attribute_text
from .api import Argument, AsmParser, AsmPrinter, OperandRef, SyntaxModelError
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
_REDUCTION_MODS = ("defaultmod", "inscan", "task")
_REDUCTION_MOD = re.compile(r"#omp<reduction_modifier\((\w+)\)>$")


def _symbols(value: Attribute | None, count: int) -> list[Attribute]:
    """The clause's symbols: upstream's parser stores one per variable, always."""
    if not isinstance(value, ArrayAttr) or len(value.elements) != count or \
            not all(isinstance(e, (SymbolRefAttr, FlatSymbolRefAttr)) for e in value.elements):
        raise SyntaxModelError("clause symbols its parser would not give back")
    return list(value.elements)


def _print_region_clause(p: AsmPrinter, keyword: str, variables: list[Value], args: list[BlockArgument],
                         symbols: list[Attribute], byref: list[bool] | None, modifier: str | None) -> None:
    """printClauseWithRegionArgs: `keyword(mod: m, byref @sym %v -> %arg, ... : types) `."""
    p.write(f"{keyword}(")
    if modifier is not None:
        p.write(f"mod: {modifier}, ")
    for i, (var, arg, sym) in enumerate(zip(variables, args, symbols, strict=True)):
        if i:
            p.write(", ")
        if byref is not None and byref[i]:
            p.write("byref ")
        p.attribute(sym)
        p.write(" ")
        p.operand(var)
        p.write(" -> ")
        p.operand(arg)
    p.write(" : ")
    for i, var in enumerate(variables):
        if i:
            p.write(", ")
        p.type(var.type)
    p.write(") ")


def _bools(value: Attribute | None, count: int) -> list[bool]:
    """reduction_byref's flags: upstream's parser stores the array whenever the clause is there."""
    if not isinstance(value, DenseArrayAttr) or value.element_type != IntegerType.get(1) or \
            value.count != count or len(value.data) != count or any(b > 1 for b in bytes(value.data)):
        raise SyntaxModelError("reduction by-reference flags its parser would not give back")
    return [b == 1 for b in bytes(value.data)]


@printer("omp.PrivateReductionRegion")
def print_private_reduction_region(p: AsmPrinter, a: PrintArgs) -> None:
    """Arguments: region, private vars, their types, syms, needs_barrier, reduction mod, reduction vars,
    their types, byref, syms (the format's order)."""
    region = a.region(0)
    private, reduction = a.values(1), a.values(6)
    entry = list(region.blocks[0].arguments) if region.blocks else []
    if len(entry) != len(private) + len(reduction):
        raise SyntaxModelError("entry block arguments do not match the private and reduction variables")
    barrier = a.attr(4)
    if private:
        _print_region_clause(p, "private", private, entry[:len(private)], _symbols(a.attr(3), len(private)),
                             None, None)
        if barrier is not None:
            p.write("private_barrier ")
    elif a.attr(3) is not None or barrier is not None:
        raise SyntaxModelError("private clause attributes without private variables")
    mod_attr = a.attr(_index(a, "reduction_mod"))
    if reduction:
        mod = None
        if mod_attr is not None:
            m = _REDUCTION_MOD.match(plain_attribute_text(mod_attr))
            if m is None or m.group(1) not in _REDUCTION_MODS:
                raise SyntaxModelError("an unknown reduction modifier")
            mod = m.group(1)
        _print_region_clause(p, "reduction", reduction, entry[len(private):],
                             _symbols(a.attr(_index(a, "reduction_syms")), len(reduction)),
                             _bools(a.attr(_index(a, "reduction_byref")), len(reduction)), mod)
    elif any(a.attr(_index(a, n)) is not None
             for n in ("reduction_mod", "reduction_syms", "reduction_byref")):
        raise SyntaxModelError("reduction clause attributes without reduction variables")
    p.region(region, False)


def _index(a: PrintArgs | ParseArgs, name: str) -> int:
    """The position of the directive argument naming attribute `name`."""
    for i, arg in enumerate(a.args):
        if arg[0] in ("attr", "prop") and arg[1] == name:
            return i
    raise SyntaxModelError(f"no argument {name}")


def _parse_region_clause(p: AsmParser, args: list[Argument], with_byref: bool, with_mod: bool
                         ) -> tuple[list[OperandRef], list[Type], list[Attribute], list[bool], str | None]:
    """parseClauseWithRegionArgs after its keyword; the block arguments go to `args`."""
    p.parse_punct("(")
    modifier = None
    if with_mod and p.parse_optional_keyword("mod"):
        p.parse_punct(":")
        modifier = p.parse_optional_any_keyword()
        if modifier not in _REDUCTION_MODS:
            raise p.error("expected a reduction modifier")
        p.parse_punct(",")
    refs: list[OperandRef] = []
    symbols: list[Attribute] = []
    byref: list[bool] = []
    clause_args: list[Argument] = []
    while True:
        if with_byref:
            byref.append(p.parse_optional_keyword("byref"))
        sym = p.parse_attribute()
        if not isinstance(sym, (SymbolRefAttr, FlatSymbolRefAttr)):
            raise p.error("expected a symbol reference")
        symbols.append(sym)
        refs.append(p.parse_operand())
        p.parse_punct("->")
        clause_args.append(p.parse_argument(allow_type=False))
        if not p.parse_optional_punct(","):
            break
    p.parse_punct(":")
    types = [p.parse_type()]
    while p.parse_optional_punct(","):
        types.append(p.parse_type())
    if len(types) != len(refs):
        raise p.error("expected as many types as variables")
    p.parse_punct(")")
    for arg, t in zip(clause_args, types, strict=True):
        arg.type = t
    args.extend(clause_args)
    return refs, types, symbols, byref, modifier


@parser("omp.PrivateReductionRegion")
def parse_private_reduction_region(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    args: list[Argument] = []
    private: tuple[list[OperandRef], list[Type]] = ([], [])
    reduction: tuple[list[OperandRef], list[Type]] = ([], [])
    if p.parse_optional_keyword("private"):
        refs, types, symbols, _, _ = _parse_region_clause(p, args, False, False)
        private = (refs, types)
        a.set_attr(3, ArrayAttr.get(tuple(symbols)))
        if p.parse_optional_keyword("private_barrier"):
            a.set_attr(4, UnitAttr.get())
    if p.parse_optional_keyword("reduction"):
        refs, types, symbols, byref, modifier = _parse_region_clause(p, args, True, True)
        reduction = (refs, types)
        a.set_attr(_index(a, "reduction_syms"), ArrayAttr.get(tuple(symbols)))
        a.set_attr(_index(a, "reduction_byref"),
                   DenseArrayAttr.get(IntegerType.get(1), len(byref), bytes(int(b) for b in byref)))
        if modifier is not None:
            a.set_attr(_index(a, "reduction_mod"),
                       parse_attribute_text(f"#omp<reduction_modifier({modifier})>"))
    a.set_region(0, p.parse_region(args))
    a.set_values(1, private[0])
    a.set_types(2, private[1])
    a.set_values(6, reduction[0])
    a.set_types(7, reduction[1])
    return True
