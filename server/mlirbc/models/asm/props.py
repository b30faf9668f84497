"""Properties a declarative format prints through their own C++ `printer`/`parser` (a bare `$prop` element),
ported per C++ storage type: the bit enums of the LLVM and ptr dialects (`inbounds|nuw`, `overflow<nsw>`),
I32 enums (`monotonic`), `UnitProp` (a keyword of its own in a group or oilist clause), `BoolProp`
(`true`/`false`) and `OptionalProp` of an integer (`alignment = 8`).

A property is kept as MLIR's bytecode gives it (an `IntegerAttr` for an enum); a port says how its value
prints, how the text reads back, and which value is the default that an optional group leaves out.  A
property without a port makes its op print generic (`declarative.unreadable`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ...ir.attributes import ArrayAttr, Attribute, IntegerAttr, UnitAttr
from ...ir.types import IntegerType
from .api import AsmParser, AsmPrinter, SyntaxModelError


class PropPort(Protocol):
    """How one kind of property prints, reads back, and which value an optional group leaves out."""

    def print(self, p: AsmPrinter, value: Attribute) -> None: ...

    def parse(self, p: AsmParser) -> Attribute: ...

    def parse_optional(self, p: AsmParser) -> Attribute | None: ...

    def default(self) -> Attribute: ...

    def is_default(self, value: Attribute) -> bool: ...


@dataclass(frozen=True)
class BitEnumProp:
    """An `I32BitEnum` property printed with `<<` (its generated `stringify`) and read by its `FieldParser`:
    the groups that are fully set first, then the single bits, joined by `separator`; 0 is the none case."""

    groups: Sequence[tuple[str, int]]
    bits: Sequence[tuple[str, int]]
    separator: str
    prefix: str = ""
    suffix: str = ""
    width: int = 32

    def text(self, value: Attribute) -> str:
        if not isinstance(value, IntegerAttr):
            raise SyntaxModelError("an enum property that is not an integer")
        rest = value.bits
        words = []
        for name, mask in [*self.groups, *self.bits]:
            if rest & mask == mask:
                words.append(name)
                rest &= ~mask
        if rest or not words:
            raise SyntaxModelError(f"enum value {value.bits} has no spelling")
        return self.prefix + self.separator.join(words) + self.suffix

    def print(self, p: AsmPrinter, value: Attribute) -> None:
        p.write(self.text(value))

    def parse(self, p: AsmParser) -> Attribute:
        for word in self.prefix.replace("<", " <").split():
            if word == "<":
                p.parse_punct("<")
            else:
                p.parse_keyword(word)
        known = dict([*self.groups, *self.bits])
        value = 0
        sep = self.separator.strip()
        while True:
            case = p.parse_optional_any_keyword()
            if case is None or case not in known:
                raise p.error(f"expected one of: {', '.join(known)}")
            value |= known[case]
            if not sep or not p.parse_optional_punct(sep):
                break
        if self.suffix:
            p.parse_punct(self.suffix)
        return IntegerAttr.get(IntegerType.get(self.width), value)

    def starts_here(self, p: AsmParser) -> bool:
        """Whether the text at `p` is this property (an optional group anchored on it is there)."""
        first = self.prefix.replace("<", " ").split()
        text = p.peek_text()
        return text == first[0] if first else text in dict([*self.groups, *self.bits])

    def parse_optional(self, p: AsmParser) -> Attribute | None:
        return self.parse(p) if self.starts_here(p) else None

    def default(self) -> Attribute:
        return IntegerAttr.get(IntegerType.get(self.width), 0)

    def is_default(self, value: Attribute) -> bool:
        return isinstance(value, IntegerAttr) and value.bits == 0


class IntEnumProp(BitEnumProp):
    """An `I32Enum` property: one keyword per value (`BitEnumProp` with every case a group of its own, matched
    whole)."""

    def text(self, value: Attribute) -> str:
        if not isinstance(value, IntegerAttr):
            raise SyntaxModelError("an enum property that is not an integer")
        for name, v in self.groups:
            if v == value.bits and v:
                return self.prefix + name + self.suffix
        raise SyntaxModelError(f"enum value {value.bits} has no spelling")


class UnitPropPort:
    """`UnitProp`: a bool kept as a unit attribute when set and as `false` (an i1 zero) when not; as the
    anchor of an optional group or an oilist clause it prints as the group's keyword alone (the declarative
    model's unit handling), on its own as `unit` / `unit_absent`."""

    def print(self, p: AsmPrinter, value: Attribute) -> None:
        p.write("unit" if isinstance(value, UnitAttr) else "unit_absent")

    def parse(self, p: AsmParser) -> Attribute:
        if p.parse_optional_keyword("unit"):
            return UnitAttr.get()
        if p.parse_optional_keyword("unit_absent"):
            return self.default()
        raise p.error("expected 'unit' or 'unit_absent'")

    def parse_optional(self, p: AsmParser) -> Attribute | None:
        return self.parse(p) if p.peek_text() in ("unit", "unit_absent") else None

    def default(self) -> Attribute:
        return IntegerAttr.get(IntegerType.get(1), 0)

    def is_default(self, value: Attribute) -> bool:
        return not isinstance(value, UnitAttr)


@dataclass(frozen=True)
class OptionalIntProp:
    """`OptionalProp<I64Prop>` (and other widths): kept as an array of none or one integer; prints the
    integer (`none` when absent), and an optional group or oilist clause leaves out the absent one."""

    width: int = 64

    def print(self, p: AsmPrinter, value: Attribute) -> None:
        if not isinstance(value, ArrayAttr) or len(value.elements) > 1:
            raise SyntaxModelError("an optional integer property that is not an array of at most one")
        if not value.elements:
            p.write("none")
            return
        n = value.elements[0]
        if not isinstance(n, IntegerAttr):
            raise SyntaxModelError("an optional integer property that holds no integer")
        top = 1 << (self.width - 1)
        p.write(str(n.bits - (top << 1) if n.bits >= top else n.bits))  # printInteger: signed

    def parse(self, p: AsmParser) -> Attribute:
        if p.parse_optional_keyword("none"):
            return self.default()
        n = p.parse_integer()
        return ArrayAttr.get((IntegerAttr.get(IntegerType.get(self.width), n & ((1 << self.width) - 1)),))

    def parse_optional(self, p: AsmParser) -> Attribute | None:
        text = p.peek_text()
        return self.parse(p) if text == "none" or text.lstrip("-").isdigit() or text == "-" else None

    def default(self) -> Attribute:
        return ArrayAttr.get(())

    def is_default(self, value: Attribute) -> bool:
        return isinstance(value, ArrayAttr) and not value.elements


class BoolPropPort:
    """`BoolProp` (`DefaultValuedProp<BoolProp, "false">`): kept as an i1, printed `true` / `false` as its
    generated printer writes it and read by `FieldParser<bool>`; an optional group anchored on it leaves
    out `false` (`pcf.generic sync true scope(...)`)."""

    def print(self, p: AsmPrinter, value: Attribute) -> None:
        if not isinstance(value, IntegerAttr) or value.bits not in (0, 1):
            raise SyntaxModelError("a bool property that is not an i1")
        p.write("true" if value.bits else "false")

    def parse(self, p: AsmParser) -> Attribute:
        found = self.parse_optional(p)
        if found is None:
            raise p.error("expected 'true' or 'false'")
        return found

    def parse_optional(self, p: AsmParser) -> Attribute | None:
        for word, bit in (("true", 1), ("false", 0)):
            if p.parse_optional_keyword(word):
                return IntegerAttr.get(IntegerType.get(1), bit)
        return None

    def default(self) -> Attribute:
        return IntegerAttr.get(IntegerType.get(1), 0)

    def is_default(self, value: Attribute) -> bool:
        return isinstance(value, IntegerAttr) and value.bits == 0


_ATOMIC_ORDERINGS = (("not_atomic", 0), ("unordered", 1), ("monotonic", 2), ("acquire", 3), ("release", 4),
                     ("acq_rel", 5), ("seq_cst", 6))

PROP_PORTS: dict[str, PropPort] = {
    # LLVMEnums.td: inbounds is the group of inbounds_flag (which is never printed alone) and nusw
    "::mlir::LLVM::GEPNoWrapFlags": BitEnumProp((("inbounds", 3),), (("nusw", 2), ("nuw", 4)), "|"),
    "::mlir::LLVM::IntegerOverflowFlags": BitEnumProp((), (("nsw", 1), ("nuw", 2)), ", ", "overflow<", ">"),
    "::mlir::ptr::PtrAddFlags": IntEnumProp((("nusw", 1), ("nuw", 2), ("inbounds", 3)), (), ""),
    # PtrEnums.td; not_atomic is the default a group leaves out
    "::mlir::ptr::AtomicOrdering": IntEnumProp(_ATOMIC_ORDERINGS, (), ""),
    "std::optional<int64_t>": OptionalIntProp(64),
    "bool": BoolPropPort(),
}
"""Ports by the property's C++ interface type (the ODS record's `interfaceType`)."""


UNIT_PROP = UnitPropPort()


def prop_port(info: dict[str, object] | None) -> PropPort | None:
    if not info:
        return None
    if "unit_absent" in str(info.get("printer", "")):  # UnitProp's generated printer
        return UNIT_PROP
    return PROP_PORTS.get(str(info.get("interface") or info.get("storage") or "").strip())
