"""Ports of IREE's `custom<...>` directives (`util`, `stream`, `flow`, `hal`, `iree_codegen` dialects)."""

from __future__ import annotations

import re
from typing import NamedTuple

from ...errors import TextError
from ...ir.attributes import (
    ArrayAttr,
    Attribute,
    DialectAttr,
    DictionaryAttr,
    FlatSymbolRefAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
)
from ...ir.operation import Value
from ...ir.types import DYNAMIC as DYN_DIM
from ...ir.types import FunctionType, IndexType, RankedTensorType, Type
from ...syntax.aliases import skip_body
from ...syntax.attr_parser import parse_type_text
from ...syntax.attr_printer import plain_type_text, print_type
from .api import AsmParser, AsmPrinter, OperandRef, SyntaxModelError
from .directives import ParseArgs, PrintArgs, parser, printer

_HEAD = re.compile(r"[#!][A-Za-z_][A-Za-z0-9_$.]*")


def literal_type(value: Attribute) -> Type | None:
    """A typed attribute's type (TypedAttr::getType), also of a dialect attribute known by its text
    (`#hal.device.target<...> : !hal.device`)."""
    t = getattr(value, "type", None)
    if isinstance(t, Type):
        return t
    if not isinstance(value, DialectAttr):
        return None
    text = value.text
    m = _HEAD.match(text)
    if m is None:
        return None
    i = m.end()
    if text.startswith("<", i):
        i = skip_body(text, i)
        if i < 0:
            return None
    if not text.startswith(" : ", i):
        return None
    try:
        return parse_type_text(text[i + 3:])
    except TextError:
        return None


# -- custom<SymbolVisibility>($sym_visibility) -------------------------------------------------------------
@printer("SymbolVisibility")
def print_symbol_visibility(p: AsmPrinter, a: PrintArgs) -> None:
    v = a.attr(0)
    if v is None:
        p.write("public")
    elif isinstance(v, StringAttr):
        p.write(v.text)
    else:
        raise SyntaxModelError("sym_visibility is not a string")


@parser("SymbolVisibility")
def parse_symbol_visibility(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    for word in ("public", "private", "nested"):
        if p.parse_optional_keyword(word):
            a.set_attr(0, StringAttr.get(word))
            return True
    return not optional


# -- custom<DispatchEntryPoints>($entry_points) (flow, stream) ----------------------------------------------
@printer("DispatchEntryPoints")
def print_dispatch_entry_points(p: AsmPrinter, a: PrintArgs) -> None:
    points = a.attr(0)
    if not isinstance(points, ArrayAttr):
        raise SyntaxModelError("entry points are not an array")
    if len(points.elements) == 1:
        p.attribute(points.elements[0])
        return
    p.write("{")
    for i, e in enumerate(points.elements):
        if i:
            p.write(", ")
        p.attribute(e)
    p.write("}")


@parser("DispatchEntryPoints")
def parse_dispatch_entry_points(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    refs = []
    if p.parse_optional_punct("{"):
        while True:
            refs.append(_symbol_ref(p))
            if not p.parse_optional_punct(","):
                break
        p.parse_punct("}")
    else:
        refs.append(_symbol_ref(p))
    a.set_attr(0, ArrayAttr.get(tuple(refs)))
    return True


def _symbol_ref(p: AsmParser) -> SymbolRefAttr | FlatSymbolRefAttr:
    value = p.parse_attribute()
    if not isinstance(value, SymbolRefAttr | FlatSymbolRefAttr):
        raise p.error("expected a symbol reference")
    return value


# -- custom<TypeAlias>($encoding_type, type($storage)) (hal.tensor.import/export) ----------------------------
@printer("TypeAlias")
def print_type_alias(p: AsmPrinter, a: PrintArgs) -> None:
    enc = a.attr(0)
    storage = a.type(1)
    if not isinstance(enc, TypeAttr) or storage is None:
        raise SyntaxModelError("encoding type or storage type missing")
    if enc.type is not storage:
        p.type(enc.type)
        p.write(" as ")
    p.type(storage)


@parser("TypeAlias")
def parse_type_alias(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    encoding = p.parse_type()
    storage = encoding
    if p.parse_optional_keyword("as"):
        storage = p.parse_type()
    a.set_attr(0, TypeAttr.get(encoding))
    a.set_types(1, [storage])
    return True


# -- custom<ShapedTypeList>(type($values)[, type($results)], $dims) ----------------------------------------
def _dynamic_dims(t: Type) -> int | None:
    """Dynamic dimensions a shaped type's `{...}` lists, or None when it is not shaped and not
    size-aware (size-aware IREE types list one size)."""
    shape = getattr(t, "shape", None)
    if isinstance(shape, tuple):
        return sum(1 for d in shape if d == DYN_DIM)
    text = print_type(t)
    if text.startswith(("!stream.resource", "!hal.buffer", "!util.buffer", "!stream.file",
                        "!stream.staging")):
        return -1
    return None


def print_shaped_type_list(p: AsmPrinter, types: list[Type], dims: list[object]) -> None:
    at = 0
    for i, t in enumerate(types):
        if i:
            p.write(", ")
        p.type(t)
        n = _dynamic_dims(t)
        if n is None or n == 0:
            continue
        count = 1 if n == -1 else n
        p.write("{")
        for j in range(count):
            if j:
                p.write(", ")
            if at >= len(dims):
                raise SyntaxModelError("fewer dimension values than dynamic dimensions")
            p.operand(dims[at])  # type: ignore[arg-type]
            at += 1
        p.write("}")


def parse_shaped_type_list(p: AsmParser) -> tuple[list[Type], list[OperandRef]]:
    types: list[Type] = []
    dims: list[OperandRef] = []
    while True:
        t = p.parse_type()
        parse_dims(p, t, dims)
        types.append(t)
        if not p.parse_optional_punct(","):
            break
    return types, dims


@printer("ShapedTypeList")
def print_shaped_type_list_directive(p: AsmPrinter, a: PrintArgs) -> None:
    print_shaped_type_list(p, a.types(0), list(a.values(len(a) - 1)))


@parser("ShapedTypeList")
def parse_shaped_type_list_directive(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    types, dims = parse_shaped_type_list(p)
    a.set_types(0, types)
    if len(a) == 3:
        a.set_types(1, list(types))
    a.set_values(len(a) - 1, dims)
    return True


__all__ = ["RankedTensorType"]


# -- custom<TypeOrAttr>($type, $initial_value) (util.global) -------------------------------------------------
@printer("TypeOrAttr")
def print_type_or_attr(p: AsmPrinter, a: PrintArgs) -> None:
    t = a.attr(0)
    value = a.attr(1)
    if not isinstance(t, TypeAttr):
        raise SyntaxModelError("the global's type is not a type attribute")
    typed = literal_type(value) if value is not None else None
    needs_space = False
    if not isinstance(typed, Type) or typed is not t.type:
        p.write(": ")
        p.attribute(t)
        needs_space = True
    if value is not None:
        if needs_space:
            p.write(" ")
        p.write("= ")
        p.attribute(value)


@parser("TypeOrAttr")
def parse_type_or_attr(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    if p.parse_optional_punct("="):
        value = p.parse_attribute()
        typed = literal_type(value)
        if isinstance(typed, Type):
            a.set_attr(0, TypeAttr.get(typed))
        a.set_attr(1, value)
        return True
    p.parse_punct(":")
    a.set_attr(0, TypeAttr.get(p.parse_type()))
    if p.parse_optional_punct("="):
        a.set_attr(1, p.parse_attribute())
    return True


# -- custom<SymbolAlias>($sym_name, $function_ref) (stream/flow executable exports) --------------------------
@printer("SymbolAlias")
def print_symbol_alias(p: AsmPrinter, a: PrintArgs) -> None:
    name = a.attr(0)
    alias = a.attr(1)
    if not isinstance(name, StringAttr) or not isinstance(alias, FlatSymbolRefAttr):
        raise SyntaxModelError("a symbol alias needs a name and a flat symbol reference")
    p.attribute_without_type(alias)
    if name.value != alias.root.value:
        from ...syntax.attr_printer import escape_bytes

        p.write(f' as("{escape_bytes(name.value)}")')


@parser("SymbolAlias")
def parse_symbol_alias(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    alias = p.parse_attribute()
    if not isinstance(alias, FlatSymbolRefAttr):
        raise p.error("expected a symbol reference")
    name = alias.root
    if p.parse_optional_keyword("as"):
        p.parse_punct("(")
        value = p.parse_attribute()
        if not isinstance(value, StringAttr):
            raise p.error("expected a string")
        name = value
        p.parse_punct(")")
    a.set_attr(0, name)
    a.set_attr(1, alias)
    return True


# -- custom<ShapedFunctionType>(ref($args), type($args), $arg_dims, type($results), $result_dims,
#    $tied_operands) (flow.dispatch, flow.call, hal/stream calls): `(t, t{%d}) -> (t{%d}, %arg as t)`
def _tied_indices(tied: Attribute | None, count: int) -> list[int]:
    """Each result's tied operand (an index into the directive's operand list), -1 when untied."""
    if tied is None:
        return [-1] * count
    if not isinstance(tied, ArrayAttr) or not all(isinstance(e, IntegerAttr) for e in tied.elements):
        raise SyntaxModelError("tied_operands is not an array of integers")
    out = []
    for i in range(count):
        if i >= len(tied.elements):
            out.append(-1)
            continue
        e = tied.elements[i]
        assert isinstance(e, IntegerAttr)
        bits = e.bits
        out.append(bits - (1 << 64) if bits >= 1 << 63 else bits)
    return out


@printer("ShapedFunctionType")
def print_shaped_function_type(p: AsmPrinter, a: PrintArgs) -> None:
    operands = a.values(0)
    p.write("(")
    print_shaped_type_list(p, a.types(1), list(a.values(2)))
    p.write(") -> ")
    results = a.types(3)
    print_tied_results(p, operands, results, _tied_indices(a.attr(5), len(results)), list(a.values(4)))


def print_tied_results(p: AsmPrinter, operands: list[Value], results: list[Type], tied: list[int],
                       dims: list[Value] | None) -> int:
    """printShapedResultList / printTiedResultList, parenthesized unless there is one result: a result tied
    to an operand of its type is the operand alone, of another type `%x as t`; `dims`: the results' dynamic
    dimensions and sizes (None: the list prints none).  Returns how many of `dims` it printed."""
    if len(results) != 1:
        p.write("(")
    at = 0
    for i, t in enumerate(results):
        if i:
            p.write(", ")
        if tied[i] >= 0:
            if tied[i] >= len(operands):
                raise SyntaxModelError("a tied operand index out of range")
            p.operand(operands[tied[i]])
            if operands[tied[i]].type is not t:
                p.write(" as ")
                p.type(t)
        else:
            p.type(t)
        if dims is not None:
            at = _print_dims(p, t, dims, at)
    if len(results) != 1:
        p.write(")")
    return at


def _print_dims(p: AsmPrinter, t: Type, dims: list[Value], at: int) -> int:
    n = _dynamic_dims(t)
    if n is None or n == 0:
        return at
    count = 1 if n == -1 else n
    if at + count > len(dims):
        raise SyntaxModelError("fewer dimension values than dynamic dimensions")
    p.write("{")
    for j in range(count):
        if j:
            p.write(", ")
        p.operand(dims[at + j])
    p.write("}")
    return at + count


@parser("ShapedFunctionType")
def parse_shaped_function_type(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    operands = a.values(0)
    p.parse_punct("(")
    operand_types: list[Type] = []
    operand_dims: list[OperandRef] = []
    if not p.parse_optional_punct(")"):
        operand_types, operand_dims = parse_shaped_type_list(p)
        p.parse_punct(")")
    p.parse_punct("->")
    result_dims: list[OperandRef] = []
    result_types, tied = parse_tied_results(p, operands, operand_types, result_dims)
    a.set_types(1, operand_types)
    a.set_values(2, operand_dims)
    a.set_types(3, result_types)
    a.set_values(4, result_dims)
    if tied:
        a.set_attr(5, tied_operands_attr(tied))
    return True


def tied_operands_attr(tied: list[int]) -> ArrayAttr:
    """`tied_operands`: an index array, -1 for an untied result."""
    index_type = IndexType.get()
    return ArrayAttr.get(tuple(IntegerAttr.get(index_type, i & ((1 << 64) - 1)) for i in tied))


def parse_dims(p: AsmParser, t: Type, dims: list[OperandRef]) -> None:
    """`{%d0, %d1}` after a type with dynamic dimensions (`{%size}` after a size-aware one), into `dims`."""
    n = _dynamic_dims(t)
    if n is None or n == 0:
        return
    p.parse_punct("{")
    for j in range(1 if n == -1 else n):
        if j:
            p.parse_punct(",")
        dims.append(p.parse_operand())
    p.parse_punct("}")


def parse_tied_results(p: AsmParser, operands: list[OperandRef], operand_types: list[Type],
                       dims: list[OperandRef] | None) -> tuple[list[Type], list[int]]:
    """What `print_tied_results` prints: the result types and each one's tied operand (-1: none); `dims`
    collects the dynamic dimensions (None: the list has none)."""
    types: list[Type] = []
    tied: list[int] = []
    parenthesized = p.parse_optional_punct("(")
    if parenthesized and p.parse_optional_punct(")"):
        return types, tied
    while True:
        ref = p.parse_optional_operand()
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
        else:
            t = p.parse_type()
        if dims is not None:
            parse_dims(p, t, dims)
        types.append(t)
        tied.append(index)
        if not p.parse_optional_punct(","):
            break
    if parenthesized:
        p.parse_punct(")")
    return types, tied


# -- custom<ResultTypeList>($result_types) (vm.call.variadic.yieldable): `(t, u)` from a type array --------
@printer("ResultTypeList")
def print_result_type_list(p: AsmPrinter, a: PrintArgs) -> None:
    types = a.attr(0)
    if not isinstance(types, ArrayAttr) or not all(isinstance(t, TypeAttr) for t in types.elements):
        raise SyntaxModelError("result types are not an array of types")
    p.write("(")
    for i, t in enumerate(types.elements):
        if i:
            p.write(", ")
        assert isinstance(t, TypeAttr)
        p.type(t.type)
    p.write(")")


@parser("ResultTypeList")
def parse_result_type_list(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    p.parse_punct("(")
    types: list[Attribute] = []
    if not p.parse_optional_punct(")"):
        while True:
            types.append(TypeAttr.get(p.parse_type()))
            if not p.parse_optional_punct(","):
                break
        p.parse_punct(")")
    a.set_attr(0, ArrayAttr.get(tuple(types)))
    return True


# -- custom<Bindings>($buffers, type($buffers), $offsets, $lengths) (hal.command_buffer.dispatch) -----------
@printer("Bindings")
def print_bindings(p: AsmPrinter, a: PrintArgs) -> None:
    buffers, types, offsets, lengths = a.values(0), a.types(1), a.values(2), a.values(3)
    if not buffers or not len(buffers) == len(types) == len(offsets) == len(lengths):
        raise SyntaxModelError("bindings need as many buffers, offsets and lengths (at least one)")
    for i in range(len(buffers)):
        if i:
            p.write(", ")
        p.newline()
        p.write("  (")
        p.operand(buffers[i])
        p.write(" : ")
        p.type(types[i])
        p.write(")[")
        p.operand(offsets[i])
        p.write(", ")
        p.operand(lengths[i])
        p.write("]")
    p.newline()


@parser("Bindings")
def parse_bindings(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    buffers: list[OperandRef] = []
    types: list[Type] = []
    offsets: list[OperandRef] = []
    lengths: list[OperandRef] = []
    while True:
        p.parse_punct("(")
        buffers.append(p.parse_operand())
        p.parse_punct(":")
        types.append(p.parse_type())
        p.parse_punct(")")
        p.parse_punct("[")
        offsets.append(p.parse_operand())
        p.parse_punct(",")
        lengths.append(p.parse_operand())
        p.parse_punct("]")
        if not p.parse_optional_punct(","):
            break
    a.set_values(0, buffers)
    a.set_types(1, types)
    a.set_values(2, offsets)
    a.set_values(3, lengths)
    return True


# custom<BindingTable>($buffers, type($buffers), $offsets, $lengths) (hal.device.queue.execute.indirect,
# inside `bindings([...])`): the same table as `Bindings`, one `(%buffer : type)[%offset, %length]` a line
printer("BindingTable")(print_bindings)
parser("BindingTable")(parse_bindings)


# -- custom<ParameterReference>($scope, $key) (flow/stream parameter ops) ----------------------------------
@printer("ParameterReference")
def print_parameter_reference(p: AsmPrinter, a: PrintArgs) -> None:
    """`%scope::%key`, or `%key` without a scope."""
    scope, key = a.value(0), a.value(1)
    if key is None:
        raise SyntaxModelError("a parameter reference without a key")
    if scope is not None:
        p.operand(scope)
        p.write("::")
    p.operand(key)


@parser("ParameterReference")
def parse_parameter_reference(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    first = p.parse_optional_operand() if optional else p.parse_operand()
    if first is None:
        return False
    if p.parse_optional_punct("::"):
        a.set_values(0, [first])
        a.set_values(1, [p.parse_operand()])
    else:
        a.set_values(0, [])
        a.set_values(1, [first])
    return True


# -- custom<DispatchOperands>($operands, $offsets, $ends, $lengths) (stream.async.dispatch/call) ----------
def _is_resource(t: Type) -> bool:
    return plain_type_text(t).startswith("!stream.resource<")


@printer("DispatchOperands")
def print_dispatch_operands(p: AsmPrinter, a: PrintArgs) -> None:
    """`(%a, %r[%offset to %end for %length], ...)`: a range after each operand of a resource type."""
    operands, offsets, ends, lengths = (a.values(i) for i in range(4))
    resources = [v for v in operands if _is_resource(v.type)]
    if not len(resources) == len(offsets) == len(ends) == len(lengths):
        raise SyntaxModelError("the resource ranges do not match the resource operands")
    p.write("(")
    k = 0
    for i, v in enumerate(operands):
        if i:
            p.write(", ")
        p.operand(v)
        if _is_resource(v.type):
            p.write("[")
            p.operand(offsets[k])
            p.write(" to ")
            p.operand(ends[k])
            p.write(" for ")
            p.operand(lengths[k])
            p.write("]")
            k += 1
    p.write(")")


@parser("DispatchOperands")
def parse_dispatch_operands(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    if not p.parse_optional_punct("("):
        if optional:
            return False
        raise p.error("expected '('")
    groups: list[list[OperandRef]] = [[], [], [], []]
    if not p.parse_optional_punct(")"):
        while True:
            groups[0].append(p.parse_operand())
            if p.parse_optional_punct("["):
                groups[1].append(p.parse_operand())
                p.parse_keyword("to")
                groups[2].append(p.parse_operand())
                p.parse_keyword("for")
                groups[3].append(p.parse_operand())
                p.parse_punct("]")
            if not p.parse_optional_punct(","):
                break
        p.parse_punct(")")
    for i, refs in enumerate(groups):
        a.set_values(i, refs)
    return True


# -- custom<ShapedFunctionSignature>($function_type, $tied_operands, $arg_attrs, $res_attrs) --------------
#    (flow.func, stream.async.func, stream.cmd.func): `(%arg0: t {a}, %arg1: t) -> (t, %arg1 as t)`
def _dicts(value: Attribute | None, count: int, what: str) -> list[DictionaryAttr | None]:
    if value is None:
        return [None] * count
    if not isinstance(value, ArrayAttr) or len(value.elements) != count or \
            not all(isinstance(e, DictionaryAttr) for e in value.elements):
        raise SyntaxModelError(f"{what} is not one dictionary per value")
    return list(value.elements)  # type: ignore[arg-type]


@printer("ShapedFunctionSignature")
def print_shaped_function_signature(p: AsmPrinter, a: PrintArgs) -> None:
    ft = a.attr(0)
    if not isinstance(ft, TypeAttr) or not isinstance(ft.type, FunctionType):
        raise SyntaxModelError("function_type is not a function type")
    inputs, results = list(ft.type.inputs), list(ft.type.results)
    tied = _tied_indices(a.attr(1), len(results))
    arg_attrs = _dicts(a.attr(2), len(inputs), "arg_attrs")
    res_attrs = _dicts(a.attr(3), len(results), "res_attrs")
    if any(t != -1 and not 0 <= t < len(inputs) for t in tied):
        raise SyntaxModelError("a tied result names no argument")
    p.write("(")
    for i, t in enumerate(inputs):
        if i:
            p.write(", ")
        p.write(f"%arg{i}: ")
        p.type(t)
        d = arg_attrs[i]
        if d is not None and d.entries:
            p.optional_attr_dict([(k.text, v) for k, v in d.entries])
    p.write(")")
    if not results:
        return
    p.write(" -> ")
    parens = len(results) != 1 or any(d is not None and d.entries for d in res_attrs)
    if parens:
        p.write("(")
    for i, t in enumerate(results):
        if i:
            p.write(", ")
        if tied[i] != -1:
            p.write(f"%arg{tied[i]}")
            if inputs[tied[i]] is not t:
                p.write(" as ")
                p.type(t)
        else:
            p.type(t)
        d = res_attrs[i]
        if d is not None and d.entries:
            p.optional_attr_dict([(k.text, v) for k, v in d.entries])
    if parens:
        p.write(")")


@parser("ShapedFunctionSignature")
def parse_shaped_function_signature(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    if not p.parse_optional_punct("("):
        if optional:
            return False
        raise p.error("expected '('")
    names: list[str] = []
    inputs: list[Type] = []
    arg_attrs: list[Attribute] = []
    if not p.parse_optional_punct(")"):
        while True:
            names.append(p.parse_operand().name)
            p.parse_punct(":")
            inputs.append(p.parse_type())
            arg_attrs.append(p.parse_optional_attr_dict() or DictionaryAttr.get(()))
            if not p.parse_optional_punct(","):
                break
        p.parse_punct(")")
    results: list[Type] = []
    res_attrs: list[Attribute] = []
    tied: list[int] = []
    if p.parse_optional_punct("->"):
        parens = p.parse_optional_punct("(")
        while True:
            ref = p.parse_optional_operand()
            if ref is not None:
                if ref.name not in names:
                    raise p.error(f"tied operand not found for result reference %{ref.name}")
                index = names.index(ref.name)
                results.append(p.parse_type() if p.parse_optional_keyword("as") else inputs[index])
                tied.append(index)
            else:
                results.append(p.parse_type())
                tied.append(-1)
            attrs = p.parse_optional_attr_dict() if parens else None
            res_attrs.append(attrs or DictionaryAttr.get(()))
            if not p.parse_optional_punct(","):
                break
        if parens:
            p.parse_punct(")")
    a.set_attr(0, TypeAttr.get(FunctionType.get(tuple(inputs), tuple(results))))
    a.set_attr(1, tied_operands_attr(tied) if tied else None)
    a.set_attr(2, ArrayAttr.get(tuple(arg_attrs)) if arg_attrs else None)
    a.set_attr(3, ArrayAttr.get(tuple(res_attrs)) if res_attrs else None)
    return True


# -- custom<NestedDynamicIndexList>($values, $static_values) (iree_linalg_ext.im2col) ----------------------
@printer("NestedDynamicIndexList")
def print_nested_dynamic_index_list(p: AsmPrinter, a: PrintArgs) -> None:
    """`[[2], [%oh, %ow], [3, 3, 640]]`: each static list, a dynamic value where it holds kDynamic."""
    from .directives_upstream import i64s, print_index_list

    dynamic = a.values(0)
    lists = a.attr(1)
    if not isinstance(lists, ArrayAttr):
        raise SyntaxModelError("the static lists are not an array")
    k = 0
    p.write("[")
    for i, inner in enumerate(lists.elements):
        values = i64s(inner)
        if not values:
            raise SyntaxModelError("an empty inner list (it would not read back)")
        if i:
            p.write(", ")
        n = sum(1 for v in values if v == DYN_DIM)
        if k + n > len(dynamic):
            raise SyntaxModelError("fewer dynamic values than the lists name")
        print_index_list(p, values, dynamic[k:k + n], exact=True)
        k += n
    p.write("]")
    if k != len(dynamic):
        raise SyntaxModelError("more dynamic values than the lists name")


@parser("NestedDynamicIndexList")
def parse_nested_dynamic_index_list(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    from .directives_upstream import i64_array, parse_index_list

    if not p.parse_optional_punct("["):
        if optional:
            return False
        raise p.error("expected '['")
    refs: list[OperandRef] = []
    lists: list[Attribute] = []
    while True:
        p.parse_punct("[")
        values, dynamic, _, _ = parse_index_list(p)
        if not values:
            raise p.error("expected an integer or a value")
        refs.extend(dynamic)
        lists.append(i64_array(values))
        if not p.parse_optional_punct(","):
            break
    p.parse_punct("]")
    a.set_values(0, refs)
    a.set_attr(1, ArrayAttr.get(tuple(lists)))
    return True


# -- custom<AsyncDMASourceIndexTypes>(ref($source_indices), type($source_indices)) (iree_gpu.async_dma) ------
@printer("AsyncDMASourceIndexTypes")
def print_async_dma_source_index_types(p: AsmPrinter, a: PrintArgs) -> None:
    """` [i32, index]` after the source type, nothing when every index is an `index`."""
    types = [v.type for v in a.values(0)]
    if all(isinstance(t, IndexType) for t in types):
        return
    p.write(" [")
    for i, t in enumerate(types):
        if i:
            p.write(", ")
        p.type(t)
    p.write("]")


@parser("AsyncDMASourceIndexTypes")
def parse_async_dma_source_index_types(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    count = len(a.values(0))
    if not p.parse_optional_punct("["):
        a.set_types(1, [IndexType.get()] * count)
        return True
    types = [p.parse_type()]
    while p.parse_optional_punct(","):
        types.append(p.parse_type())
    p.parse_punct("]")
    if len(types) != count:
        raise p.error(f"expected {count} source index types, got {len(types)}")
    a.set_types(1, types)
    return True


# -- util: custom<ListTypeGet>/<ListTypeSet>(type($list), type($element)), custom<RangeList>, -------------
#    custom<TypedValueList>(ref(type($default)), $values, type($values))
def _list_element(t: Type) -> Type:
    """The element type of `!util.list<T>` (`?`: `!util.variant`)."""
    text = plain_type_text(t)
    if not text.startswith("!util.list<") or not text.endswith(">"):
        raise SyntaxModelError("not a !util.list type")
    inner = text[len("!util.list<"):-1].strip()
    return parse_type_text("!util.variant" if inner == "?" else inner)


@printer("ListTypeGet")
def print_list_type_get(p: AsmPrinter, a: PrintArgs) -> None:
    """`!util.list<T>`, then ` -> E` when the element read is not the list's element type."""
    (list_type,), (element,) = a.types(0), a.types(1)
    p.type(list_type)
    if _list_element(list_type) is not element:
        p.write(" -> ")
        p.type(element)


@parser("ListTypeGet")
def parse_list_type_get(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    list_type = p.parse_type()
    try:
        element = _list_element(list_type)
    except SyntaxModelError as exc:
        raise p.error("expected !util.list<T> type") from exc
    if p.parse_optional_punct("->"):
        element = p.parse_type()
    a.set_types(0, [list_type])
    a.set_types(1, [element])
    return True


@printer("ListTypeSet")
def print_list_type_set(p: AsmPrinter, a: PrintArgs) -> None:
    """`!util.list<T>`, or `E -> !util.list<T>` when the element written is not the list's type."""
    (list_type,), (element,) = a.types(0), a.types(1)
    if _list_element(list_type) is not element:
        p.type(element)
        p.write(" -> ")
    p.type(list_type)


@parser("ListTypeSet")
def parse_list_type_set(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    leading = p.parse_type()
    if p.parse_optional_punct("->"):
        element, list_type = leading, p.parse_type()
        try:
            _list_element(list_type)
        except SyntaxModelError as exc:
            raise p.error("expected an !util.list<T> type") from exc
    else:
        list_type = leading
        try:
            element = _list_element(list_type)
        except SyntaxModelError as exc:
            raise p.error("expected an !util.list<T> type") from exc
    a.set_types(0, [list_type])
    a.set_types(1, [element])
    return True


@printer("RangeList")
def print_range_list(p: AsmPrinter, a: PrintArgs) -> None:
    """`[%offset for %length], ...`."""
    offsets, lengths = a.values(0), a.values(1)
    if len(offsets) != len(lengths):
        raise SyntaxModelError("offsets and lengths do not pair up")
    for i, (offset, length) in enumerate(zip(offsets, lengths, strict=True)):
        if i:
            p.write(", ")
        p.write("[")
        p.operand(offset)
        p.write(" for ")
        p.operand(length)
        p.write("]")


@parser("RangeList")
def parse_range_list(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    offsets: list[OperandRef] = []
    lengths: list[OperandRef] = []
    while True:
        p.parse_punct("[")
        offsets.append(p.parse_operand())
        p.parse_keyword("for")
        lengths.append(p.parse_operand())
        p.parse_punct("]")
        if not p.parse_optional_punct(","):
            break
    a.set_values(0, offsets)
    a.set_values(1, lengths)
    return True


@printer("TypedValueList")
def print_typed_value_list(p: AsmPrinter, a: PrintArgs) -> None:
    """`[%a, %b]`, each value of the referenced type."""
    types = a.types(0)
    values = a.values(1)
    if len(types) != 1 or any(v.type is not types[0] for v in values):
        raise SyntaxModelError("a value of another type than the list's")
    p.write("[")
    for i, v in enumerate(values):
        if i:
            p.write(", ")
        p.operand(v)
    p.write("]")


@parser("TypedValueList")
def parse_typed_value_list(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    types = a.types(0)
    if not types:
        raise p.error("internal: the list's type is not read yet")
    p.parse_punct("[")
    refs: list[OperandRef] = []
    if not p.parse_optional_punct("]"):
        refs.append(p.parse_operand())
        while p.parse_optional_punct(","):
            refs.append(p.parse_operand())
        p.parse_punct("]")
    a.set_values(1, refs)
    a.set_types(2, [types[0]] * len(refs))
    return True


# -- custom<PackSliceRanges>($lifetime_intervals, $dynamic_slice_sizes, type($packed_offsets)) -------------
#    (stream.resource.pack): one `[start, end] = %size` line per slice
@printer("PackSliceRanges")
def print_pack_slice_ranges(p: AsmPrinter, a: PrintArgs) -> None:
    intervals = a.attr(0)
    sizes = a.values(1)
    n = len(a.types(2))
    if n == 0:
        return
    if not isinstance(intervals, ArrayAttr) or len(intervals.elements) != 2 * n or len(sizes) != n or \
            not all(isinstance(e, IntegerAttr) and isinstance(e.type, IndexType) for e in intervals.elements):
        raise SyntaxModelError("the lifetime intervals do not pair with the slices")
    for i in range(n):
        p.newline()
        p.write("  [")
        p.attribute_without_type(intervals.elements[2 * i])
        p.write(", ")
        p.attribute_without_type(intervals.elements[2 * i + 1])
        p.write("] = ")
        p.operand(sizes[i])
        if i < n - 1:
            p.write(",")
    p.newline()


@parser("PackSliceRanges")
def parse_pack_slice_ranges(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    index = IndexType.get()
    intervals: list[Attribute] = []
    sizes: list[OperandRef] = []
    while p.parse_optional_punct("["):
        intervals.append(p.parse_attribute(index))
        p.parse_punct(",")
        intervals.append(p.parse_attribute(index))
        p.parse_punct("]")
        p.parse_punct("=")
        sizes.append(p.parse_operand())
        if not p.parse_optional_punct(","):
            break
    a.set_attr(0, ArrayAttr.get(tuple(intervals)))
    a.set_values(1, sizes)
    a.set_types(2, [index] * len(sizes))
    return True


# -- custom<DeviceQueueAffinityList>($devices, type($devices), $queue_affinities) (hal.allocator.select) ---
@printer("DeviceQueueAffinityList")
def print_device_queue_affinity_list(p: AsmPrinter, a: PrintArgs) -> None:
    """`[` then one `(%device, %affinity : !hal.device, i64)` per line, one level deeper, then `]`."""
    devices, affinities = a.values(0), a.values(2)
    if len(devices) != len(affinities) or not devices:
        raise SyntaxModelError("devices and queue affinities do not pair up")
    p.write("[")
    p.indent()
    p.newline()
    for i, (device, affinity) in enumerate(zip(devices, affinities, strict=True)):
        if i:
            p.write(",")
            p.newline()
        p.write("(")
        p.operand(device)
        p.write(", ")
        p.operand(affinity)
        p.write(" : ")
        p.type(device.type)
        p.write(", ")
        p.type(affinity.type)
        p.write(")")
    p.dedent()
    p.newline()
    p.write("]")


@parser("DeviceQueueAffinityList")
def parse_device_queue_affinity_list(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    p.parse_punct("[")
    devices: list[OperandRef] = []
    types: list[Type] = []
    affinities: list[OperandRef] = []
    while True:
        p.parse_punct("(")
        devices.append(p.parse_operand())
        p.parse_punct(",")
        affinities.append(p.parse_operand())
        p.parse_punct(":")
        types.append(p.parse_type())
        p.parse_punct(",")
        p.parse_type()  # the affinity's type: upstream reads it and keeps the declared i64
        p.parse_punct(")")
        if not p.parse_optional_punct(","):
            break
    p.parse_punct("]")
    a.set_values(0, devices)
    a.set_types(1, types)
    a.set_values(2, affinities)
    return True


# -- custom<ParameterLoadOperations>($source_scope, $source_keys, $source_offsets, type($results),
#                                   $result_sizes) (stream.cmd.parameter.load, io_parameters.load) --------
@printer("ParameterLoadOperations")
def print_parameter_load_operations(p: AsmPrinter, a: PrintArgs) -> None:
    """One `%scope::%key[%offset] : type{%size}` per line, one level deeper."""
    scope = a.value(0)
    keys, offsets, sizes = a.values(1), a.values(2), a.values(4)
    types = a.types(3)
    if not keys or not len(keys) == len(offsets) == len(types) == len(sizes):
        raise SyntaxModelError("the parameter rows do not line up")
    p.indent()
    p.newline()
    for i, (key, offset, t, size) in enumerate(zip(keys, offsets, types, sizes, strict=True)):
        if i:
            p.write(",")
            p.newline()
        if scope is not None:
            p.operand(scope)
            p.write("::")
        p.operand(key)
        p.write("[")
        p.operand(offset)
        p.write("] : ")
        p.type(t)
        p.write("{")
        p.operand(size)
        p.write("}")
    p.dedent()
    p.newline()


@parser("ParameterLoadOperations")
def parse_parameter_load_operations(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    scope: OperandRef | None = None
    keys: list[OperandRef] = []
    offsets: list[OperandRef] = []
    types: list[Type] = []
    sizes: list[OperandRef] = []
    while True:
        first = p.parse_operand()
        row_scope = None
        if p.parse_optional_punct("::"):
            row_scope, key = first, p.parse_operand()
        else:
            key = first
        if not keys:
            scope = row_scope
        elif (row_scope is None) != (scope is None) or \
                (row_scope is not None and scope is not None and row_scope.name != scope.name):
            raise p.error("each operation must use the same scope")
        p.parse_punct("[")
        offsets.append(p.parse_operand())
        p.parse_punct("]")
        p.parse_punct(":")
        types.append(p.parse_type())
        p.parse_punct("{")
        sizes.append(p.parse_operand())
        p.parse_punct("}")
        keys.append(key)
        if not p.parse_optional_punct(","):
            break
    a.set_values(0, [scope] if scope is not None else [])
    a.set_values(1, keys)
    a.set_values(2, offsets)
    a.set_types(3, types)
    a.set_values(4, sizes)
    return True


# -- the parameter gather/scatter rows (stream.async/cmd.parameter.gather/scatter): one row per line ------
class _El(NamedTuple):
    """One element of a row: `ref` (`%scope::%key`: scope argument `a`, key list `b`), `each` (the row's
    operand of list `a`), `shared` (the one operand `a`, repeated in every row), `type` (the type of argument
    `a`), `lit` (`text` printed as is, read as `tokens`)."""

    kind: str
    a: int = 0
    b: int = 0
    text: str = ""
    tokens: tuple[str, ...] = ()


def _lit(text: str, *tokens: str) -> _El:
    return _El("lit", text=text, tokens=tokens)


_LB, _RB_ARROW, _TO, _FOR = _lit("[", "["), _lit("] -> ", "]", "->"), _lit(" to ", "to"), _lit(" for ", "for")
_RB_COLON, _LBRACE, _RBRACE = _lit("] : ", "]", ":"), _lit("{", "{"), _lit("}", "}")
_RBRACE_ARROW, _RB = _lit("} -> ", "}", "->"), _lit("]", "]")
_GATHER_ASYNC = [_El("ref", 0, 1), _LB, _El("each", 2), _RB_ARROW, _El("shared", 3), _LB, _El("each", 6), _TO,
                 _El("each", 7), _FOR, _El("each", 8), _RB_COLON, _El("type", 4), _LBRACE, _El("shared", 5),
                 _RBRACE]
_GATHER_CMD = [_El("ref", 0, 1), _LB, _El("each", 2), _RB_ARROW, _El("shared", 3), _LB, _El("each", 6), _FOR,
               _El("each", 7), _RB_COLON, _El("type", 4), _LBRACE, _El("shared", 5), _RBRACE]
_SCATTER_ASYNC = [_El("shared", 0), _LB, _El("each", 3), _TO, _El("each", 4), _FOR, _El("each", 5), _RB_COLON,
                  _El("type", 1), _LBRACE, _El("shared", 2), _RBRACE_ARROW, _El("ref", 6, 7), _LB,
                  _El("each", 8), _RB]
_SCATTER_CMD = [_El("shared", 0), _LB, _El("each", 3), _FOR, _El("each", 4), _RB_COLON, _El("type", 1),
                _LBRACE, _El("shared", 2), _RBRACE_ARROW, _El("ref", 5, 6), _LB, _El("each", 7), _RB]


def _print_rows(p: AsmPrinter, a: PrintArgs, row: list[_El]) -> None:
    lists = {el.b if el.kind == "ref" else el.a: a.values(el.b if el.kind == "ref" else el.a)
             for el in row if el.kind in ("each", "ref")}
    counts = {len(v) for v in lists.values()}
    if len(counts) != 1 or not next(iter(counts)):
        raise SyntaxModelError("the parameter rows do not line up")
    n = next(iter(counts))
    p.indent()
    p.newline()
    for r in range(n):
        if r:
            p.write(",")
            p.newline()
        for el in row:
            if el.kind == "each":
                p.operand(lists[el.a][r])
            elif el.kind == "ref":
                scope = a.value(el.a)
                if scope is not None:
                    p.operand(scope)
                    p.write("::")
                p.operand(lists[el.b][r])
            elif el.kind == "shared":
                value = a.value(el.a)
                if value is None:
                    raise SyntaxModelError("a missing operand")
                p.operand(value)
            elif el.kind == "type":
                t = a.type(el.a)
                if t is None:
                    raise SyntaxModelError("a missing type")
                p.type(t)
            else:
                p.write(el.text)
    p.dedent()
    p.newline()


def _parse_rows(p: AsmParser, a: ParseArgs, row: list[_El]) -> bool:
    each: dict[int, list[OperandRef]] = {}
    shared: dict[int, OperandRef] = {}
    scopes: dict[int, OperandRef | None] = {}
    types: dict[int, Type] = {}
    first = True
    while True:
        for el in row:
            if el.kind == "each":
                each.setdefault(el.a, []).append(p.parse_operand())
            elif el.kind == "ref":
                ref = p.parse_operand()
                scope = None
                if p.parse_optional_punct("::"):
                    scope, ref = ref, p.parse_operand()
                if first:
                    scopes[el.a] = scope
                else:
                    before = scopes[el.a]
                    if (scope is None) != (before is None) or \
                            (scope is not None and before is not None and scope.name != before.name):
                        raise p.error("each operation must use the same scope")
                each.setdefault(el.b, []).append(ref)
            elif el.kind == "shared":
                ref = p.parse_operand()
                if first:
                    shared[el.a] = ref
                elif ref.name != shared[el.a].name:
                    raise p.error("every row must name the same resource")
            elif el.kind == "type":
                t = p.parse_type()
                if first:
                    types[el.a] = t
                elif t is not types[el.a]:
                    raise p.error("every row must have the same type")
            else:
                for tok in el.tokens:
                    if tok in ("to", "for"):
                        p.parse_keyword(tok)
                    else:
                        p.parse_punct(tok)
        first = False
        if not p.parse_optional_punct(","):
            break
    for i, refs in each.items():
        a.set_values(i, refs)
    for i, found in scopes.items():
        a.set_values(i, [found] if found is not None else [])
    for i, one in shared.items():
        a.set_values(i, [one])
    for i, t in types.items():
        a.set_types(i, [t])
    return True


def _row_directive(name: str, row: list[_El]) -> None:
    def print_fn(p: AsmPrinter, a: PrintArgs) -> None:
        _print_rows(p, a, row)

    def parse_fn(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
        return _parse_rows(p, a, row)

    printer(name)(print_fn)
    parser(name)(parse_fn)


_row_directive("AsyncParameterGatherOperations", _GATHER_ASYNC)
_row_directive("CmdParameterGatherOperations", _GATHER_CMD)
_row_directive("AsyncParameterScatterOperations", _SCATTER_ASYNC)
_row_directive("CmdParameterScatterOperations", _SCATTER_CMD)


# -- custom<KnobsDictionary>($knobs) (iree_codegen.smt.constraints): ` knobs = {...}` on a line of its own ---
@printer("KnobsDictionary")
def print_knobs_dictionary(p: AsmPrinter, a: PrintArgs) -> None:
    knobs = a.attr(0)
    if not isinstance(knobs, DictionaryAttr):
        raise SyntaxModelError("knobs is not a dictionary")
    p.newline()
    p.write(" knobs = ")
    p.attribute_without_type(knobs)
    p.newline()


@parser("KnobsDictionary")
def parse_knobs_dictionary(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    p.parse_keyword("knobs")
    p.parse_punct("=")
    knobs = p.parse_attribute()
    if not isinstance(knobs, DictionaryAttr):
        raise p.error("expected the knobs dictionary")
    a.set_attr(0, knobs)
    return True
