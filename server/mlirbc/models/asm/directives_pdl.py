"""Ports of the PDL dialects' `custom<...>` directives (PDL.cpp, PDLInterp.cpp)."""

from __future__ import annotations

from ...ir.attributes import ArrayAttr, StringAttr, UnitAttr
from .api import AsmParser, AsmPrinter, OperandRef, SyntaxModelError
from .directives import (
    ParseArgs,
    PrintArgs,
    parse_values_with_types,
    parser,
    print_values_with_types,
    printer,
)


# -- custom<OperationOpAttributes>($attributeValues, $attributeValueNames) (pdl.operation), and the same
# -- for custom<CreateOperationOpAttributes>($inputAttributes, $inputAttributeNames) (pdl_interp) ---------
@printer("OperationOpAttributes")
@printer("CreateOperationOpAttributes")
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
@parser("CreateOperationOpAttributes")
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


# -- custom<CreateOperationOpResults>($inputResultTypes, type($inputResultTypes), $inferredResultTypes) -----
@printer("CreateOperationOpResults")
def print_create_operation_op_results(p: AsmPrinter, a: PrintArgs) -> None:
    values = a.values(0)
    if a.attr(2) is not None:
        p.write(" -> <inferred>")
    elif values:
        p.write(" -> (")
        print_values_with_types(p, values)
        p.write(")")


@parser("CreateOperationOpResults")
def parse_create_operation_op_results(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    if not p.parse_optional_punct("->"):
        return True
    if p.parse_optional_punct("<"):
        p.parse_keyword("inferred")
        p.parse_punct(">")
        a.set_attr(2, UnitAttr.get())
        return True
    p.parse_punct("(")
    refs, types = parse_values_with_types(p)
    p.parse_punct(")")
    a.set_values(0, refs)
    a.set_types(1, types)
    return True
