"""Ports of the PDL dialects' `custom<...>` directives (PDL.cpp, PDLInterp.cpp)."""

from __future__ import annotations

from ...ir.attributes import ArrayAttr, StringAttr
from .api import AsmParser, AsmPrinter, OperandRef, SyntaxModelError
from .directives import ParseArgs, PrintArgs, parser, printer


# -- custom<OperationOpAttributes>($attributeValues, $attributeValueNames) (pdl.operation) ----------------
@printer("OperationOpAttributes")
def print_operation_op_attributes(p: AsmPrinter, a: PrintArgs) -> None:
    values = a.values(0)
    names = a.attr(1)
    if not isinstance(names, ArrayAttr) or len(names.elements) != len(values):
        raise SyntaxModelError("attribute names do not match the attribute values")
    if not values:
        return
    p.write(" {")
    for i, (name, value) in enumerate(zip(names.elements, values, strict=True)):
        if i:
            p.write(", ")
        p.attribute(name)
        p.write(" = ")
        p.operand(value)
    p.write("}")


@parser("OperationOpAttributes")
def parse_operation_op_attributes(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    refs: list[OperandRef] = []
    names: list[StringAttr] = []
    if p.parse_optional_punct("{"):
        while True:
            name = p.parse_attribute()
            if not isinstance(name, StringAttr):
                raise p.error("expected a string attribute name")
            p.parse_punct("=")
            names.append(name)
            refs.append(p.parse_operand())
            if not p.parse_optional_punct(","):
                break
        p.parse_punct("}")
    a.set_values(0, refs)
    a.set_attr(1, ArrayAttr.get(tuple(names)))
    return True
