"""Ports of the GPU dialect's `custom<...>` directives (GPUDialect.cpp) besides AsyncDependencies:

* `custom<AllReduceOperation>($op)` (gpu.all_reduce, gpu.subgroup_reduce): the enum's keyword as the
  attribute prints itself (` add` in MLIR 22, `add` in 23 and 24, where the attribute is
  `#gpu.all_reduce_op<add>`), nothing for an absent one;
* `custom<OffloadingHandler>($offloadingHandler)` (gpu.binary): `<#handler>` unless it is the default
  `#gpu.select_object`;
* `custom<LaunchDimType>(type($gridSizeX), ref($clusterSizeX), type($clusterSizeX), ...)`
  (gpu.launch_func): `: type` of the launch dimensions unless they are `index`; the cluster sizes have it;
* `custom<LaunchFuncOperands>($kernelOperands, type($kernelOperands))` (gpu.launch_func):
  `args(%a : t, ...)`, nothing without kernel operands.
"""

from __future__ import annotations

import re

from ...ir.types import IndexType, Type
from ...syntax.attr_parser import parse_attribute_text
from ...syntax.attr_printer import plain_attribute_text
from .api import AsmParser, AsmPrinter, OperandRef, SyntaxModelError
from .directives import ParseArgs, PrintArgs, parser, printer

ALL_REDUCE_OPERATIONS = ("add", "mul", "minui", "minsi", "minnumf", "maxui", "maxsi", "maxnumf", "and", "or",
                         "xor", "minimumf", "maximumf")
"""GPUOps.td's AllReduceOperation cases."""
_ALL_REDUCE = re.compile(r"#gpu(?:<all_reduce_op |\.all_reduce_op<)(\w+)>$")
_DEFAULT_HANDLER = "#gpu.select_object"


@printer("AllReduceOperation")
def print_all_reduce_operation(p: AsmPrinter, a: PrintArgs) -> None:
    value = a.attr(0)
    if value is None:
        return
    m = _ALL_REDUCE.match(plain_attribute_text(value))
    if m is None:
        raise SyntaxModelError("not an all-reduce operation")
    p.write((" " if getattr(p, "mlir_version", 22) < 23 else "") + m.group(1))


@parser("AllReduceOperation")
def parse_all_reduce_operation(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    word = p.parse_optional_any_keyword()
    if word is None:
        return not optional
    if word not in ALL_REDUCE_OPERATIONS:
        raise p.error("invalid op kind")
    modern = getattr(p, "mlir_version", 22) >= 24
    text = f"#gpu.all_reduce_op<{word}>" if modern else f"#gpu<all_reduce_op {word}>"
    a.set_attr(0, parse_attribute_text(text))
    return True


@printer("OffloadingHandler")
def print_offloading_handler(p: AsmPrinter, a: PrintArgs) -> None:
    value = a.attr(0)
    if value is None or plain_attribute_text(value) == _DEFAULT_HANDLER:
        return
    p.write("<")
    p.attribute(value)
    p.write(">")


@parser("OffloadingHandler")
def parse_offloading_handler(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    if p.parse_optional_punct("<"):
        a.set_attr(0, p.parse_attribute())
        p.parse_punct(">")
        return True
    a.set_attr(0, parse_attribute_text(_DEFAULT_HANDLER))
    return not optional


@printer("LaunchDimType")
def print_launch_dim_type(p: AsmPrinter, a: PrintArgs) -> None:
    t = a.type(0)
    if t is None:
        raise SyntaxModelError("gpu.launch_func without a grid size")
    cluster = a.values(1)
    if cluster and any(ct is not t for ct in (a.type(2), a.type(3), a.type(4))):
        raise SyntaxModelError("the cluster sizes are not of the launch dimensions' type")
    if not isinstance(t, IndexType):
        p.write(": ")
        p.type(t)


@parser("LaunchDimType")
def parse_launch_dim_type(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    t: Type = p.parse_type() if p.parse_optional_punct(":") else IndexType.get()
    a.set_types(0, [t])
    if a.values(1):
        for i in (2, 3, 4):
            a.set_types(i, [t])
    return True


@printer("LaunchFuncOperands")
def print_launch_func_operands(p: AsmPrinter, a: PrintArgs) -> None:
    values = a.values(0)
    if not values:
        return
    p.write("args(")
    for i, v in enumerate(values):
        if i:
            p.write(", ")
        p.operand(v)
        p.write(" : ")
        p.type(v.type)
    p.write(")")


@parser("LaunchFuncOperands")
def parse_launch_func_operands(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    refs: list[OperandRef] = []
    types: list[Type] = []
    found = p.parse_optional_keyword("args")
    if found:
        p.parse_punct("(")
        if not p.parse_optional_punct(")"):
            while True:
                refs.append(p.parse_operand())
                p.parse_punct(":")
                types.append(p.parse_type())
                if not p.parse_optional_punct(","):
                    break
            p.parse_punct(")")
    a.set_values(0, refs)
    a.set_types(1, types)
    return found or not optional
