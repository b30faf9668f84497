"""IREE's `custom<...>` directives that print a list of operands with their types, sizes or encodings:
`ShapedOperandList` (flow.tensor.trace), `EncodedResourceOperands` (stream.tensor.trace),
`EncodedShapedFunctionType` (stream.tensor.dispatch), `ConstantValueList` (stream.resource.constants),
`BranchTableCases` (vm.br_table), `ValueTypeList` (util.list.construct), `DispatchBindings`
(hal_loader.executable.dispatch) and `CollectiveParam` (stream.async.collective), as IREE 3.13 prints
and reads them (checked against iree-opt)."""

from __future__ import annotations

import re

from ...ir.attributes import ArrayAttr, Attribute, DialectAttr, TypeAttr
from ...ir.operation import Value
from ...ir.types import Type
from ...syntax.attr_parser import parse_type_text
from ...syntax.attr_printer import plain_type_text
from .api import AsmParser, AsmPrinter, BlockRef, OperandRef, SyntaxModelError
from .directives import ParseArgs, PrintArgs, parser, printer
from .directives_cf import parse_successor_and_uses, print_successor_and_uses
from .directives_iree import (
    _dynamic_dims,
    _print_dims,
    _tied_indices,
    parse_bindings,
    parse_dims,
    print_bindings,
    tied_operands_attr,
)

_UNUSED = "!util.unused"
"""The encoding of an operand or result that has none (`IREE::Util::UnusedType`)."""


def _type_attrs(value: Attribute | None, count: int, what: str) -> list[Type]:
    if not isinstance(value, ArrayAttr) or len(value.elements) != count or \
            not all(isinstance(e, TypeAttr) for e in value.elements):
        raise SyntaxModelError(f"{what} is not an array of {count} types")
    return [e.type for e in value.elements]  # type: ignore[attr-defined]


def _is_unused(t: Type) -> bool:
    return plain_type_text(t) == _UNUSED


def _unused() -> Type:
    return parse_type_text(_UNUSED)


def _sized(t: Type) -> bool:
    """A size-aware type (`!stream.resource<*>{%size}`): one size value, not dimensions."""
    return _dynamic_dims(t) == -1


def _operand_dims(p: AsmPrinter, t: Type, dims: list[Value], at: int) -> int:
    """`t` and its dimensions or size (printShapedType): the position in `dims` after them."""
    p.type(t)
    return _print_dims(p, t, dims, at)


# -- custom<ShapedOperandList>($values, type($values), $value_dims): `%v : t{%d}, ...` ----------------------
@printer("ShapedOperandList")
def print_shaped_operand_list(p: AsmPrinter, a: PrintArgs) -> None:
    values, types, dims = a.values(0), a.types(1), a.values(2)
    if len(values) != len(types):
        raise SyntaxModelError("values and types do not pair up")
    at = 0
    for i, (v, t) in enumerate(zip(values, types, strict=True)):
        if i:
            p.write(", ")
        p.operand(v)
        p.write(" : ")
        at = _operand_dims(p, t, dims, at)
    if at != len(dims):
        raise SyntaxModelError("more dimension values than dynamic dimensions")


@parser("ShapedOperandList")
def parse_shaped_operand_list(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    refs: list[OperandRef] = []
    types: list[Type] = []
    dims: list[OperandRef] = []
    while True:
        refs.append(p.parse_operand())
        p.parse_punct(":")
        t = p.parse_type()
        parse_dims(p, t, dims)
        types.append(t)
        if not p.parse_optional_punct(","):
            break
    a.set_values(0, refs)
    a.set_types(1, types)
    a.set_values(2, dims)
    return True


# -- custom<EncodedResourceOperands>($resources, type($resources), $resource_sizes, $resource_encodings,
#    $resource_encoding_dims): one `%r : encoding{%d} in type{%size}` per line, one level deeper ------------
@printer("EncodedResourceOperands")
def print_encoded_resource_operands(p: AsmPrinter, a: PrintArgs) -> None:
    resources, types, sizes = a.values(0), a.types(1), a.values(2)
    encodings = _type_attrs(a.attr(3), len(resources), "resource_encodings")
    dims = a.values(4)
    if not (len(resources) == len(types) == len(sizes)):
        raise SyntaxModelError("resources, types and sizes do not pair up")
    p.indent()
    p.newline()
    at = 0
    for i, (r, t, size, encoding) in enumerate(zip(resources, types, sizes, encodings, strict=True)):
        if i:
            p.write(",")
            p.newline()
        p.operand(r)
        p.write(" : ")
        at = _operand_dims(p, encoding, dims, at)
        p.write(" in ")
        p.type(t)
        p.write("{")
        p.operand(size)
        p.write("}")
    if at != len(dims):
        raise SyntaxModelError("more dimension values than dynamic dimensions")
    p.dedent()
    p.newline()


@parser("EncodedResourceOperands")
def parse_encoded_resource_operands(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    refs: list[OperandRef] = []
    types: list[Type] = []
    sizes: list[OperandRef] = []
    encodings: list[Attribute] = []
    dims: list[OperandRef] = []
    while True:
        refs.append(p.parse_operand())
        p.parse_punct(":")
        encoding = p.parse_type()
        parse_dims(p, encoding, dims)
        encodings.append(TypeAttr.get(encoding))
        p.parse_keyword("in")
        types.append(p.parse_type())
        p.parse_punct("{")
        sizes.append(p.parse_operand())
        p.parse_punct("}")
        if not p.parse_optional_punct(","):
            break
    a.set_values(0, refs)
    a.set_types(1, types)
    a.set_values(2, sizes)
    a.set_attr(3, ArrayAttr.get(tuple(encodings)))
    a.set_values(4, dims)
    return True


# -- custom<EncodedShapedFunctionType>(ref($operands), type($operands), $operand_sizes, $operand_encodings,
#    $operand_encoding_dims, type($results), $result_sizes, $result_encodings, $result_encoding_dims,
#    $tied_operands): `(enc{%d} in t{%s}, index) -> enc{%d} in %arg0{%s}` ---------------------------------
@printer("EncodedShapedFunctionType")
def print_encoded_shaped_function_type(p: AsmPrinter, a: PrintArgs) -> None:
    operands, operand_types, operand_sizes = a.values(0), a.types(1), a.values(2)
    operand_encodings = _type_attrs(a.attr(3), len(operand_types), "operand_encodings")
    operand_dims = a.values(4)
    results, result_sizes = a.types(5), a.values(6)
    result_encodings = _type_attrs(a.attr(7), len(results), "result_encodings")
    result_dims = a.values(8)
    tied = _tied_indices(a.attr(9), len(results))
    p.write("(")
    at_size = at_dim = 0
    for i, (t, encoding) in enumerate(zip(operand_types, operand_encodings, strict=True)):
        if i:
            p.write(", ")
        if not _is_unused(encoding):
            at_dim = _operand_dims(p, encoding, operand_dims, at_dim)
            p.write(" in ")
        at_size = _operand_dims(p, t, operand_sizes, at_size)
    p.write(") -> ")
    if len(results) != 1:
        p.write("(")
    at_size = at_dim = 0
    for i, (t, encoding) in enumerate(zip(results, result_encodings, strict=True)):
        if i:
            p.write(", ")
        if not _is_unused(encoding):
            at_dim = _operand_dims(p, encoding, result_dims, at_dim)
            p.write(" in ")
        if tied[i] >= 0:
            if tied[i] >= len(operands):
                raise SyntaxModelError("a tied operand index out of range")
            p.operand(operands[tied[i]])
            if operands[tied[i]].type is not t:
                p.write(" as ")
                p.type(t)
        else:
            p.type(t)
        if _sized(t):
            at_size = _print_dims(p, t, result_sizes, at_size)
    if len(results) != 1:
        p.write(")")
    if at_dim != len(result_dims) or at_size != len(result_sizes):
        raise SyntaxModelError("result sizes or dimensions do not match the result types")


def _encoded_type(p: AsmParser, sizes: list[OperandRef], encodings: list[Type],
                  dims: list[OperandRef]) -> Type:
    """`t{%s}` or `enc{%d} in t{%s}` (parseEncodedShapedTypeList's element)."""
    first = p.parse_type()
    first_dims: list[OperandRef] = []
    parse_dims(p, first, first_dims)
    if p.parse_optional_keyword("in"):
        t = p.parse_type()
        parse_dims(p, t, sizes)
        encodings.append(first)
        dims.extend(first_dims)
        return t
    sizes.extend(first_dims)
    encodings.append(_unused())
    return first


@parser("EncodedShapedFunctionType")
def parse_encoded_shaped_function_type(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    operands = a.values(0)
    operand_types: list[Type] = []
    operand_sizes: list[OperandRef] = []
    operand_encodings: list[Type] = []
    operand_dims: list[OperandRef] = []
    p.parse_punct("(")
    if not p.parse_optional_punct(")"):
        while True:
            operand_types.append(_encoded_type(p, operand_sizes, operand_encodings, operand_dims))
            if not p.parse_optional_punct(","):
                break
        p.parse_punct(")")
    p.parse_punct("->")
    results: list[Type] = []
    result_sizes: list[OperandRef] = []
    result_encodings: list[Type] = []
    result_dims: list[OperandRef] = []
    tied: list[int] = []
    parenthesized = p.parse_optional_punct("(")
    if not (parenthesized and p.parse_optional_punct(")")):
        while True:
            encoding = _unused()
            enc_dims: list[OperandRef] = []
            t: Type | None = None
            ref = p.parse_optional_operand()
            if ref is None:
                first = p.parse_type()
                first_dims: list[OperandRef] = []
                parse_dims(p, first, first_dims)
                if p.parse_optional_keyword("in"):
                    encoding, enc_dims = first, first_dims
                    ref = p.parse_optional_operand()
                    if ref is None:
                        t = p.parse_type()
                else:
                    t = first
                    result_sizes.extend(first_dims)
            index = -1
            if ref is not None:
                index = next((i for i, r in enumerate(operands) if r.name == ref.name), -1)
                if index < 0:
                    raise p.error(f"tied operand not found for result reference {ref.name}")
                if p.parse_optional_keyword("as"):
                    t = p.parse_type()
                elif index < len(operand_types):
                    t = operand_types[index]
                else:
                    raise p.error("the tied operand has no type")
            assert t is not None
            if not _is_unused(encoding) or ref is not None:
                if _sized(t):
                    parse_dims(p, t, result_sizes)
            results.append(t)
            result_encodings.append(encoding)
            result_dims.extend(enc_dims)
            tied.append(index)
            if not p.parse_optional_punct(","):
                break
    if parenthesized:
        p.parse_punct(")")
    a.set_types(1, operand_types)
    a.set_values(2, operand_sizes)
    a.set_attr(3, ArrayAttr.get(tuple(TypeAttr.get(t) for t in operand_encodings)))
    a.set_values(4, operand_dims)
    a.set_types(5, results)
    a.set_values(6, result_sizes)
    a.set_attr(7, ArrayAttr.get(tuple(TypeAttr.get(t) for t in result_encodings)))
    a.set_values(8, result_dims)
    if tied:
        a.set_attr(9, tied_operands_attr(tied))
    return True


# -- custom<ConstantValueList>(type($results), $result_sizes, $values): one `t{%size} = value` per line ----
@printer("ConstantValueList")
def print_constant_value_list(p: AsmPrinter, a: PrintArgs) -> None:
    types, sizes, values = a.types(0), a.values(1), a.attr(2)
    if not isinstance(values, ArrayAttr) or not (len(types) == len(sizes) == len(values.elements)):
        raise SyntaxModelError("results, sizes and values do not pair up")
    for i, (t, size, value) in enumerate(zip(types, sizes, values.elements, strict=True)):
        p.newline()
        p.write("  ")
        p.type(t)
        p.write("{")
        p.operand(size)
        p.write("} = ")
        p.attribute(value)
        if i < len(types) - 1:
            p.write(",")


@parser("ConstantValueList")
def parse_constant_value_list(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    types: list[Type] = []
    sizes: list[OperandRef] = []
    values: list[Attribute] = []
    while True:
        types.append(p.parse_type())
        p.parse_punct("{")
        sizes.append(p.parse_operand())
        p.parse_punct("}")
        p.parse_punct("=")
        values.append(p.parse_attribute())
        if not p.parse_optional_punct(","):
            break
    a.set_types(0, types)
    a.set_values(1, sizes)
    a.set_attr(2, ArrayAttr.get(tuple(values)))
    return True


# -- custom<BranchTableCases>($defaultDestination, $defaultOperands, type($defaultOperands),
#    $caseDestinations, $caseOperands, type($caseOperands)) (vm.br_table): `default: ^bb(...)`, `N: ^bb` ----
@printer("BranchTableCases")
def print_branch_table_cases(p: AsmPrinter, a: PrintArgs) -> None:
    default = a.successors(0)
    cases = a.successors(3)
    groups = a.value_groups(4)
    if len(default) != 1 or len(groups) != len(cases):
        raise SyntaxModelError("case destinations and operands do not match")
    p.indent()
    p.write("  default: ")
    print_successor_and_uses(p, default[0], a.values(1))
    for index, (block, operands) in enumerate(zip(cases, groups, strict=True)):
        p.write(",")
        p.newline()
        p.write(f"{index}: ")
        print_successor_and_uses(p, block, operands)
    p.dedent()
    p.newline()


@parser("BranchTableCases")
def parse_branch_table_cases(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    p.parse_keyword("default")
    p.parse_punct(":")
    default, refs, types = parse_successor_and_uses(p)
    blocks: list[BlockRef] = []
    case_refs: list[OperandRef] = []
    case_types: list[Type] = []
    sizes: list[int] = []
    while p.parse_optional_punct(","):
        index = p.parse_integer()
        if index != len(blocks):
            raise p.error(f"expected case {len(blocks)}, found {index}")
        p.parse_punct(":")
        block, operands, operand_types = parse_successor_and_uses(p)
        blocks.append(block)
        case_refs.extend(operands)
        case_types.extend(operand_types)
        sizes.append(len(operands))
    a.set_successors(0, [default])
    a.set_values(1, refs)
    a.set_types(2, types)
    a.set_successors(3, blocks)
    a.set_values(4, case_refs, sizes)
    a.set_types(5, case_types)
    return True


# -- custom<ValueTypeList>($values, type($values)) (util.list.construct): `[%a : t, %b : u]` -----------------
@printer("ValueTypeList")
def print_value_type_list(p: AsmPrinter, a: PrintArgs) -> None:
    values, types = a.values(0), a.types(1)
    p.write("[")
    for i, (v, t) in enumerate(zip(values, types, strict=True)):
        if i:
            p.write(", ")
        p.operand(v)
        p.write(" : ")
        p.type(t)
    p.write("]")


@parser("ValueTypeList")
def parse_value_type_list(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    p.parse_punct("[")
    refs: list[OperandRef] = []
    types: list[Type] = []
    if not p.parse_optional_punct("]"):
        while True:
            refs.append(p.parse_operand())
            p.parse_punct(":")
            types.append(p.parse_type())
            if not p.parse_optional_punct(","):
                break
        p.parse_punct("]")
    a.set_values(0, refs)
    a.set_types(1, types)
    return True


# -- custom<DispatchBindings>($binding_buffers, type($binding_buffers), $binding_offsets, $binding_lengths)
#    (hal_loader.executable.dispatch): the same form as HAL's custom<Bindings>
printer("DispatchBindings")(print_bindings)
parser("DispatchBindings")(parse_bindings)


# -- custom<CollectiveParam>(ref($op), $param) (stream.async.collective): `source(%p) ` by the op's kind ----
_COLLECTIVE_KIND_RE = re.compile(r"#stream\.collective<([a-z_]+)")
_PARAM_KEYWORDS = {"broadcast": "source", "reduce": "target", "send": "target", "recv": "source",
                   "send_recv": "source_target_pair"}
"""The keyword of a collective kind's parameter (getCollectiveParamKeyword); the other kinds have none."""


def _param_keyword(op: Attribute | None) -> str | None:
    m = _COLLECTIVE_KIND_RE.match(op.text) if isinstance(op, DialectAttr) else None
    if m is None:
        raise SyntaxModelError("the collective op is not a #stream.collective")
    return _PARAM_KEYWORDS.get(m.group(1))


@printer("CollectiveParam")
def print_collective_param(p: AsmPrinter, a: PrintArgs) -> None:
    keyword = _param_keyword(a.attr(0))
    param = a.value(1)
    if param is None:
        return
    if keyword is None:
        raise SyntaxModelError("a parameter on a collective kind that takes none")
    p.write(f"{keyword}(")
    p.operand(param)
    p.write(") ")


@parser("CollectiveParam")
def parse_collective_param(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    try:
        keyword = _param_keyword(a.attr(0))
    except SyntaxModelError as exc:
        raise p.error(str(exc)) from None
    if keyword is None:
        return True
    p.parse_keyword(keyword)
    p.parse_punct("(")
    a.set_values(1, [p.parse_operand()])
    p.parse_punct(")")
    return True
