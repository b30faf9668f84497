"""Ports of the switch cases' `custom<...>` directives: cf's (ControlFlowOps.cpp) and llvm's
(LLVMDialect.cpp), which share the name `SwitchOpCases` but not the form; SCF's and EmitC's
`SwitchCases` (scf.index_switch, emitc.switch)."""

from __future__ import annotations

import struct

from ...ir.attributes import Attribute, DenseArrayAttr, DenseElementsAttr
from ...ir.operation import Block, Region, Value
from ...ir.types import IntegerType, Type
from ...syntax.attr_parser import parse_attribute_text
from ...syntax.attr_printer import plain_attribute_text, plain_type_text
from .api import AsmParser, AsmPrinter, BlockRef, OperandRef, SyntaxModelError
from .directives import ParseArgs, PrintArgs, parser, print_types, print_values, printer
from .directives_upstream import i64s


def print_successor_and_uses(p: AsmPrinter, block: Block, values: list[Value]) -> None:
    """printSuccessorAndUseList: `^bb1` or `^bb1(%a, %b : i32, i32)`."""
    p.successor(block)
    if values:
        p.write("(")
        print_values(p, values)
        p.write(" : ")
        print_types(p, [v.type for v in values])
        p.write(")")


def parse_successor_and_uses(p: AsmParser) -> tuple[BlockRef, list[OperandRef], list[Type]]:
    block = p.parse_successor()
    refs: list[OperandRef] = []
    types: list[Type] = []
    if p.parse_optional_punct("("):
        refs.append(p.parse_operand())
        while p.parse_optional_punct(","):
            refs.append(p.parse_operand())
        p.parse_punct(":")
        types.append(p.parse_type())
        while p.parse_optional_punct(","):
            types.append(p.parse_type())
        p.parse_punct(")")
    return block, refs, types


_BOOLS = {"true": 1, "false": 0}
"""How an i1 DenseElementsAttr prints its elements."""


def _signed(values: list[int], width: int) -> list[int]:
    return [v - (1 << width) if width and (v >> (width - 1)) & 1 else v for v in values]


def _case_values_attr(values: list[int], flag: IntegerType) -> Attribute:
    """The DenseIntElementsAttr the parsers build: `vector<N x flag>` of the values (read as signed)."""
    mask = (1 << flag.width) - 1
    if flag.width == 1:
        items = ["true" if v & 1 else "false" for v in values]
    else:
        items = [str(v) for v in _signed([v & mask for v in values], flag.width)]
    shape = f"vector<{len(values)}x{plain_type_text(flag)}>"
    return parse_attribute_text(f"dense<[{', '.join(items)}]> : {shape}")


def _case_values(a: Attribute | None, flag: Type | None, count: int) -> list[int]:
    """The case values as `getLimitedValue` prints them (unsigned); a splat holds `count` of them."""
    if a is None:
        return []
    if not isinstance(a, DenseElementsAttr) or not isinstance(flag, IntegerType):
        raise SyntaxModelError("case values are not dense integers")
    text = plain_attribute_text(a)
    body, _, _ = text.removeprefix("dense<").rpartition("> : ")
    items = body.strip("[]").split(",") if body.startswith("[") else [body] * count
    mask = (1 << flag.width) - 1
    try:
        return [_BOOLS[x.strip()] if x.strip() in _BOOLS else int(x) & mask for x in items if x.strip()]
    except ValueError as exc:
        raise SyntaxModelError("case values are not integers") from exc


# -- custom<SwitchOpCases>(ref(type($flag)), $defaultDestination, $defaultOperands, type($defaultOperands),
#                         $case_values, $caseDestinations, $caseOperands, type($caseOperands)) -----------
@printer("SwitchOpCases")
def print_switch_op_cases(p: AsmPrinter, a: PrintArgs) -> None:
    default = a.successors(1)
    cases = a.successors(5)
    groups = a.value_groups(6)
    values = _case_values(a.attr(4), a.type(0), len(cases))
    if len(default) != 1 or len(values) != len(cases) or len(groups) != len(cases):
        raise SyntaxModelError("case values, destinations and operands do not match")
    p.write("  default: ")
    print_successor_and_uses(p, default[0], a.values(2))
    for value, block, operands in zip(values, cases, groups, strict=True):
        p.write(",")
        p.newline()
        p.write(f"  {value}: ")
        print_successor_and_uses(p, block, operands)
    p.newline()


class _Cases:
    """What the cases of a switch parse into: their successors and the operand groups they pass."""

    def __init__(self) -> None:
        self.blocks: list[BlockRef] = []
        self.refs: list[OperandRef] = []
        self.types: list[Type] = []
        self.sizes: list[int] = []

    def parse_one(self, p: AsmParser) -> None:
        """`: ^bb(uses)` after a case value."""
        p.parse_punct(":")
        block, refs, types = parse_successor_and_uses(p)
        self.blocks.append(block)
        self.refs.extend(refs)
        self.types.extend(types)
        self.sizes.append(len(refs))

    def store(self, a: ParseArgs, first: int) -> None:
        a.set_successors(first, self.blocks)
        a.set_values(first + 1, self.refs, self.sizes)
        a.set_types(first + 2, self.types)


@parser("SwitchOpCases")
def parse_switch_op_cases(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    flags = a.types(0)
    if not flags or not isinstance(flags[0], IntegerType):
        raise p.error("the switch flag's type is not an integer type")
    flag = flags[0]
    p.parse_keyword("default")
    p.parse_punct(":")
    block, refs, types = parse_successor_and_uses(p)
    a.set_successors(1, [block])
    a.set_values(2, refs)
    a.set_types(3, types)
    values: list[int] = []
    cases = _Cases()
    while p.parse_optional_punct(","):
        values.append(p.parse_integer())
        cases.parse_one(p)
    if values:
        a.set_attr(4, _case_values_attr(values, flag))
    cases.store(a, 5)
    return True


# -- llvm's custom<SwitchOpCases>(ref(type($value)), $case_values, $caseDestinations, $caseOperands,
#                                type($caseOperands)): `[`, one `  value: ^bb(uses)` a line (values signed,
#                                as an APInt prints), `]`; no case values: `[` and `]` on the next line ----
@printer("llvm.SwitchOpCases")
def print_llvm_switch_op_cases(p: AsmPrinter, a: PrintArgs) -> None:
    flag = a.type(0)
    attr = a.attr(1)
    cases = a.successors(2)
    groups = a.value_groups(3)
    p.write("[")
    p.newline()
    if attr is None:
        if cases:
            raise SyntaxModelError("case destinations without case values")
        p.write("]")
        return
    values = _case_values(attr, flag, len(cases))
    if not values or len(values) != len(cases) or len(groups) != len(cases):
        raise SyntaxModelError("case values, destinations and operands do not match")
    assert isinstance(flag, IntegerType)
    for i, (value, block, operands) in enumerate(zip(_signed(values, flag.width), cases, groups,
                                                     strict=True)):
        if i:
            p.write(",")
            p.newline()
        p.write(f"  {value}: ")
        print_successor_and_uses(p, block, operands)
    p.newline()
    p.write("]")


@parser("llvm.SwitchOpCases")
def parse_llvm_switch_op_cases(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    flags = a.types(0)
    if not flags or not isinstance(flags[0], IntegerType):
        raise p.error("the switch flag's type is not an integer type")
    p.parse_punct("[")
    values: list[int] = []
    cases = _Cases()
    while True:
        value = p.parse_optional_integer() if not values else p.parse_integer()
        if value is None:
            break
        values.append(value)
        cases.parse_one(p)
        if not p.parse_optional_punct(","):
            break
    p.parse_punct("]")
    if values:
        a.set_attr(1, _case_values_attr(values, flags[0]))
    cases.store(a, 2)
    return True


# -- custom<SwitchCases>($cases, $caseRegions) (scf.index_switch, emitc.switch): one `case N {region}` per
#    case, each on a new line, the regions with their terminators --------------------------------------
@printer("SwitchCases")
def print_switch_cases(p: AsmPrinter, a: PrintArgs) -> None:
    cases = a.attr(0)
    if not isinstance(cases, DenseArrayAttr) or cases.element_type is not IntegerType.get(64):
        raise SyntaxModelError("the case values are not a dense i64 array")
    values = i64s(cases)
    regions = a.regions(1)
    if len(values) != len(regions):
        raise SyntaxModelError("the case values do not match the case regions")
    for value, region in zip(values, regions, strict=True):
        p.newline()
        p.write(f"case {value} ")
        p.region(region, False)


@parser("SwitchCases")
def parse_switch_cases(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    values: list[int] = []
    regions: list[Region] = []
    while p.parse_optional_keyword("case"):
        values.append(p.parse_integer())
        regions.append(p.parse_region())
    a.set_attr(0, DenseArrayAttr.get(IntegerType.get(64), len(values),
                                     struct.pack(f"<{len(values)}q", *values)))
    a.set_regions(1, regions)
    return True
