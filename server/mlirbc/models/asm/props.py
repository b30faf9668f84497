"""Properties a declarative format prints through their own C++ `printer`/`parser` (a bare `$prop` element),
ported per C++ storage type: the bit enums of the LLVM and ptr dialects (`inbounds|nuw`, `overflow<nsw>`).

A property is kept as MLIR's bytecode gives it (an `IntegerAttr` for an enum); a port says how its value
prints, how the text reads back, and which value is the default that an optional group leaves out.  A
property without a port makes its op print generic (`declarative.unreadable`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...ir.attributes import Attribute, IntegerAttr
from ...ir.types import IntegerType
from .api import AsmParser, AsmPrinter, SyntaxModelError


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


PROP_PORTS: dict[str, BitEnumProp] = {
    # LLVMEnums.td: inbounds is the group of inbounds_flag (which is never printed alone) and nusw
    "::mlir::LLVM::GEPNoWrapFlags": BitEnumProp((("inbounds", 3),), (("nusw", 2), ("nuw", 4)), "|"),
    "::mlir::LLVM::IntegerOverflowFlags": BitEnumProp((), (("nsw", 1), ("nuw", 2)), ", ", "overflow<", ">"),
    "::mlir::ptr::PtrAddFlags": IntEnumProp((("nusw", 1), ("nuw", 2), ("inbounds", 3)), (), ""),
}
"""Ports by the property's C++ interface type (the ODS record's `interfaceType`)."""


def prop_port(info: dict[str, object] | None) -> BitEnumProp | None:
    if not info:
        return None
    return PROP_PORTS.get(str(info.get("interface") or info.get("storage") or "").strip())
