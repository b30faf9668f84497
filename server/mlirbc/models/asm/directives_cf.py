"""Ports of the `cf` dialect's `custom<...>` directives (ControlFlowOps.cpp)."""

from __future__ import annotations

from ...ir.attributes import Attribute, DenseElementsAttr
from ...ir.operation import Block, Value
from ...ir.types import IntegerType, Type
from ...syntax.attr_parser import parse_attribute_text
from ...syntax.attr_printer import plain_attribute_text, plain_type_text
from .api import AsmParser, AsmPrinter, BlockRef, OperandRef, SyntaxModelError
from .directives import ParseArgs, PrintArgs, parser, print_types, print_values, printer


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
        return [int(x) & mask for x in items if x.strip()]
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
    blocks: list[BlockRef] = []
    case_refs: list[OperandRef] = []
    case_types: list[Type] = []
    sizes: list[int] = []
    while p.parse_optional_punct(","):
        values.append(p.parse_integer())
        p.parse_punct(":")
        block, refs, types = parse_successor_and_uses(p)
        blocks.append(block)
        case_refs.extend(refs)
        case_types.extend(types)
        sizes.append(len(refs))
    if values:
        w = flag.width
        signed = [(v & ((1 << w) - 1)) - ((1 << w) if w and (v >> (w - 1)) & 1 else 0) for v in values]
        a.set_attr(4, parse_attribute_text(
            f"dense<[{', '.join(map(str, signed))}]> : vector<{len(values)}x{plain_type_text(flag)}>"))
    a.set_successors(5, blocks)
    a.set_values(6, case_refs, sizes)
    a.set_types(7, case_types)
    return True
