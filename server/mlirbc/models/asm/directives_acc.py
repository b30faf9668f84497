"""Ports of the OpenACC dialect's `custom<...>` directives (OpenACC.cpp): data clause operands
(`varPtr(%x : memref<f32>) varType(...)`, `accPtr(...)`), device-type operand lists (`async(%a : i64
[#acc.device_type<nvidia>])`, `wait({devnum: %d : i32, %w : i32})`, `num_gangs({...})`), keyword-only
operands; MLIR 21's `custom<SymOperandList>` (private and reduction recipes).

`PointerLikeType` is known for memrefs (their element type is the variable's type); a variable of a
dialect type makes the op print generic, as its pointer-likeness is not known here."""

from __future__ import annotations

from ...ir.attributes import (
    ArrayAttr,
    Attribute,
    FlatSymbolRefAttr,
    IntegerAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
)
from ...ir.operation import Value
from ...ir.types import DialectType, IntegerType, MemRefType, Type
from ...syntax.attr_parser import parse_attribute_text
from ...syntax.attr_printer import plain_attribute_text
from .api import AsmParser, AsmPrinter, OperandRef, SyntaxModelError
from .declarative_parse import i32_array
from .directives import (
    ParseArgs,
    PrintArgs,
    parse_values_with_types,
    parser,
    print_values_with_types,
    printer,
)

_NONE = "#acc.device_type<none>"


def _pointer_like(t: Type) -> bool:
    if isinstance(t, MemRefType):
        return True
    if isinstance(t, DialectType):
        raise SyntaxModelError("whether a dialect type is pointer-like is not known here")
    return False


def _device_none() -> Attribute:
    return parse_attribute_text(_NONE)


def _array(a: Attribute | None) -> list[Attribute]:
    if a is None:
        return []
    if not isinstance(a, ArrayAttr):
        raise SyntaxModelError("expected an array of device types")
    return list(a.elements)


def _only_none(a: Attribute | None) -> bool:
    """hasOnlyDeviceTypeNone."""
    items = _array(a)
    return len(items) == 1 and plain_attribute_text(items[0]) == _NONE


def _print_device_types(p: AsmPrinter, items: list[Attribute]) -> None:
    if not items:
        return
    p.write("[")
    for i, a in enumerate(items):
        if i:
            p.write(", ")
        p.attribute(a)
    p.write("]")


def _print_single_device_type(p: AsmPrinter, a: Attribute) -> None:
    if plain_attribute_text(a) != _NONE:
        p.write(" [")
        p.attribute(a)
        p.write("]")


def _print_value_type(p: AsmPrinter, v: Value) -> None:
    p.operand(v)
    p.write(" : ")
    p.type(v.type)


def _parse_optional_device_type(p: AsmParser) -> Attribute:
    if p.parse_optional_punct("["):
        a = p.parse_attribute()
        p.parse_punct("]")
        return a
    return _device_none()


def _parse_value_type(p: AsmParser, refs: list[OperandRef], types: list[Type]) -> None:
    refs.append(p.parse_operand())
    p.parse_punct(":")
    types.append(p.parse_type())


def _parse_keyword_only_types(p: AsmParser) -> list[Attribute]:
    """`[#acc.device_type<...>, ...]` before the operands (the `[` already read)."""
    items = [p.parse_attribute()]
    while p.parse_optional_punct(","):
        items.append(p.parse_attribute())
    p.parse_punct("]")
    return items


def _segments(a: Attribute | None) -> list[int]:
    from .adaptor import segment_sizes

    sizes = segment_sizes(a)
    if sizes is None:
        raise SyntaxModelError("expected an array<i32> of segment sizes")
    return sizes


# -- custom<Var>($var) ---------------------------------------------------------------------------------
@printer("Var")
def print_var(p: AsmPrinter, a: PrintArgs) -> None:
    v = a.value(0)
    if v is None:
        raise SyntaxModelError("no variable")
    p.write("varPtr(" if _pointer_like(v.type) else "var(")
    p.operand(v)


def _parse_var_keyword(p: AsmParser, pointer: str, plain: str, optional: bool) -> bool:
    """`pointer(` or `plain(`; False when optional and neither is there."""
    if not p.parse_optional_keyword(pointer):
        if optional and not p.parse_optional_keyword(plain):
            return False
        if not optional:
            p.parse_keyword(plain)
    p.parse_punct("(")
    return True


def _parse_value_type_operand(p: AsmParser, a: ParseArgs) -> None:
    """`%v : type)` into the directive's value (0) and type (1) arguments."""
    refs: list[OperandRef] = []
    types: list[Type] = []
    _parse_value_type(p, refs, types)
    p.parse_punct(")")
    _set_operands(a, refs, types)


def _set_operands(a: ParseArgs, refs: list[OperandRef], types: list[Type],
                  devices: list[Attribute] | None = None) -> None:
    a.set_values(0, refs)
    a.set_types(1, types)
    if devices is not None:
        a.set_attr(2, ArrayAttr.get(tuple(devices)))


def _open_keyword_only(p: AsmPrinter, values: list[Value], keyword_only: Attribute | None,
                       device_types: list[Attribute]) -> bool:
    """`(` and the keyword-only device types with their separator; False when the clause prints nothing."""
    if not values and _only_none(keyword_only):
        return False
    p.write("(")
    _print_device_types(p, _array(keyword_only))
    if _array(keyword_only) and device_types:
        p.write(", ")
    return True


@parser("Var")
def parse_var(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    if not _parse_var_keyword(p, "varPtr", "var", optional):
        return False
    a.set_values(0, [p.parse_operand()])
    return True


# -- custom<AccVar>($accVar, type($accVar)) -----------------------------------------------------------
@printer("AccVar")
def print_acc_var(p: AsmPrinter, a: PrintArgs) -> None:
    v = a.value(0)
    if v is None:
        raise SyntaxModelError("no accelerator variable")
    p.write("accPtr(" if _pointer_like(v.type) else "accVar(")
    _print_value_type(p, v)
    p.write(")")


@parser("AccVar")
def parse_acc_var(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    if not _parse_var_keyword(p, "accPtr", "accVar", optional):
        return False
    _parse_value_type_operand(p, a)
    return True


# -- custom<VarPtrType>(type($var), $varType) ---------------------------------------------------------
@printer("VarPtrType")
def print_var_ptr_type(p: AsmPrinter, a: PrintArgs) -> None:
    t = a.type(0)
    var_type = a.attr(1)
    if t is None or not isinstance(var_type, TypeAttr):
        raise SyntaxModelError("no variable type")
    p.type(t)
    p.write(")")
    against = t.element if _pointer_like(t) and isinstance(t, MemRefType) else t
    if var_type.type is not against:
        p.write(" varType(")
        p.type(var_type.type)
        p.write(")")


@parser("VarPtrType")
def parse_var_ptr_type(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    t = p.parse_type()
    p.parse_punct(")")
    if p.parse_optional_keyword("varType"):
        p.parse_punct("(")
        var_type = p.parse_type()
        p.parse_punct(")")
    else:
        var_type = t.element if isinstance(t, MemRefType) else t
        if isinstance(t, DialectType):
            raise p.error("the variable type of a dialect type must be written (varType(...))")
    a.set_types(0, [t])
    a.set_attr(1, TypeAttr.get(var_type))
    return True


# -- custom<RecipeSym>($recipe): the recipe's symbol reference (`recipe(@name)`) -------------------------
@printer("RecipeSym")
def print_recipe_sym(p: AsmPrinter, a: PrintArgs) -> None:
    recipe = a.attr(0)
    if not isinstance(recipe, SymbolRefAttr | FlatSymbolRefAttr):
        raise SyntaxModelError("the recipe is not a symbol reference")
    p.attribute(recipe)


@parser("RecipeSym")
def parse_recipe_sym(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    recipe = p.parse_attribute()
    if not isinstance(recipe, SymbolRefAttr | FlatSymbolRefAttr):
        raise p.error("expected a symbol reference")
    a.set_attr(0, recipe)
    return True


# -- custom<DeviceTypeOperands>($operands, type($operands), $deviceTypes) ------------------------------
def _print_device_type_operands(p: AsmPrinter, values: list[Value], device_types: list[Attribute]) -> None:
    if not device_types:
        return
    if len(device_types) != len(values):
        raise SyntaxModelError("device types do not match the operands")
    for i, (v, d) in enumerate(zip(values, device_types, strict=True)):
        if i:
            p.write(", ")
        _print_value_type(p, v)
        _print_single_device_type(p, d)


def _parse_device_type_operands(p: AsmParser) -> tuple[list[OperandRef], list[Type], list[Attribute]]:
    refs: list[OperandRef] = []
    types: list[Type] = []
    devices: list[Attribute] = []
    while True:
        _parse_value_type(p, refs, types)
        devices.append(_parse_optional_device_type(p))
        if not p.parse_optional_punct(","):
            return refs, types, devices


@printer("DeviceTypeOperands")
def print_device_type_operands(p: AsmPrinter, a: PrintArgs) -> None:
    _print_device_type_operands(p, a.values(0), _array(a.attr(2)))


@parser("DeviceTypeOperands")
def parse_device_type_operands(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    _set_operands(a, *_parse_device_type_operands(p))
    return True


# -- custom<DeviceTypeOperandsWithKeywordOnly>($operands, type($operands), $deviceTypes, $keywordOnly) --
@printer("DeviceTypeOperandsWithKeywordOnly")
def print_device_type_operands_with_keyword_only(p: AsmPrinter, a: PrintArgs) -> None:
    values = a.values(0)
    device_types = _array(a.attr(2))
    if not _open_keyword_only(p, values, a.attr(3), device_types):
        return
    _print_device_type_operands(p, values, device_types)
    p.write(")")


@parser("DeviceTypeOperandsWithKeywordOnly")
def parse_device_type_operands_with_keyword_only(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    if not p.parse_optional_punct("("):
        a.set_attr(3, ArrayAttr.get((_device_none(),)))
        return True
    if p.parse_optional_punct("["):
        a.set_attr(3, ArrayAttr.get(tuple(_parse_keyword_only_types(p))))
        p.parse_punct(",")
    refs, types, devices = _parse_device_type_operands(p)
    p.parse_punct(")")
    _set_operands(a, refs, types, devices)
    return True


# -- custom<OperandWithKeywordOnly>($operand, type($operand), $unit) ----------------------------------
@printer("OperandWithKeywordOnly")
def print_operand_with_keyword_only(p: AsmPrinter, a: PrintArgs) -> None:
    if a.attr(2) is not None:
        return
    v = a.value(0)
    if v is None:
        raise SyntaxModelError("neither the operand nor the keyword-only flag")
    p.write("(")
    _print_value_type(p, v)
    p.write(")")


@parser("OperandWithKeywordOnly")
def parse_operand_with_keyword_only(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    if not p.parse_optional_punct("("):
        a.set_attr(2, UnitAttr.get())
        return True
    _parse_value_type_operand(p, a)
    return True


# -- custom<OperandsWithKeywordOnly>($operands, type($operands), $unit) --------------------------------
@printer("OperandsWithKeywordOnly")
def print_operands_with_keyword_only(p: AsmPrinter, a: PrintArgs) -> None:
    if a.attr(2) is not None:
        return
    values = a.values(0)
    p.write("(")
    print_values_with_types(p, values)
    p.write(")")


@parser("OperandsWithKeywordOnly")
def parse_operands_with_keyword_only(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    if not p.parse_optional_punct("("):
        a.set_attr(2, UnitAttr.get())
        return True
    refs, types = parse_values_with_types(p)
    p.parse_punct(")")
    _set_operands(a, refs, types)
    return True


# -- segmented lists: custom<NumGangs>, custom<DeviceTypeOperandsWithSegment>, custom<WaitClause> --------
def _print_segments(p: AsmPrinter, values: list[Value], device_types: list[Attribute], sizes: list[int],
                    devnum: list[Attribute] | None = None) -> None:
    if len(sizes) != len(device_types) or sum(sizes) != len(values) or any(s < 0 for s in sizes):
        raise SyntaxModelError("segments do not match the operands")
    at = 0
    for i, (d, n) in enumerate(zip(device_types, sizes, strict=True)):
        if i:
            p.write(", ")
        p.write("{")
        if devnum is not None:
            flag = devnum[i] if i < len(devnum) else None
            if isinstance(flag, IntegerAttr) and flag.bits:
                p.write("devnum: ")
        for j in range(n):
            if j:
                p.write(", ")
            _print_value_type(p, values[at])
            at += 1
        p.write("}")
        _print_single_device_type(p, d)


def _parse_segments(p: AsmParser, devnum: list[Attribute] | None = None
                    ) -> tuple[list[OperandRef], list[Type], list[Attribute], list[int]]:
    refs: list[OperandRef] = []
    types: list[Type] = []
    devices: list[Attribute] = []
    sizes: list[int] = []
    while True:
        p.parse_punct("{")
        before = len(refs)
        if devnum is not None:
            has = p.parse_optional_keyword("devnum")
            if has:
                p.parse_punct(":")
            devnum.append(IntegerAttr.get(IntegerType.get(1), int(has)))
        _parse_value_type(p, refs, types)
        while p.parse_optional_punct(","):
            _parse_value_type(p, refs, types)
        sizes.append(len(refs) - before)
        p.parse_punct("}")
        devices.append(_parse_optional_device_type(p))
        if not p.parse_optional_punct(","):
            return refs, types, devices, sizes


@printer("NumGangs")
@printer("DeviceTypeOperandsWithSegment")
def print_num_gangs(p: AsmPrinter, a: PrintArgs) -> None:
    _print_segments(p, a.values(0), _array(a.attr(2)), _segments(a.attr(3)))


@parser("NumGangs")
@parser("DeviceTypeOperandsWithSegment")
def parse_num_gangs(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    refs, types, devices, sizes = _parse_segments(p)
    _set_operands(a, refs, types, devices)
    a.set_attr(3, i32_array(sizes))
    return True


@printer("WaitClause")
def print_wait_clause(p: AsmPrinter, a: PrintArgs) -> None:
    values = a.values(0)
    device_types = _array(a.attr(2))
    if not _open_keyword_only(p, values, a.attr(5), device_types):
        return
    if device_types:
        _print_segments(p, values, device_types, _segments(a.attr(3)), _array(a.attr(4)))
    p.write(")")


@parser("WaitClause")
def parse_wait_clause(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    if not p.parse_optional_punct("("):
        a.set_attr(5, ArrayAttr.get((_device_none(),)))
        return True
    keyword_only: list[Attribute] = []
    if p.parse_optional_punct("["):
        keyword_only = _parse_keyword_only_types(p)
        p.parse_punct(",")
    devnum: list[Attribute] = []
    refs, types, devices, sizes = _parse_segments(p, devnum)
    p.parse_punct(")")
    _set_operands(a, refs, types, devices)
    a.set_attr(3, i32_array(sizes))
    a.set_attr(4, ArrayAttr.get(tuple(devnum)))
    a.set_attr(5, ArrayAttr.get(tuple(keyword_only)))
    return True


# -- custom<CombinedConstructsLoop>($combined) -------------------------------------------------------------
_COMBINED = {"kernels": "#acc.combined_constructs<kernels_loop>",
             "parallel": "#acc.combined_constructs<parallel_loop>",
             "serial": "#acc.combined_constructs<serial_loop>"}


@printer("CombinedConstructsLoop")
def print_combined_constructs_loop(p: AsmPrinter, a: PrintArgs) -> None:
    value = a.attr(0)
    if value is None:
        return
    text = plain_attribute_text(value)
    for word, spelled in _COMBINED.items():
        if text == spelled:
            p.write(word)
            return
    raise SyntaxModelError(f"unknown combined construct {text}")


@parser("CombinedConstructsLoop")
def parse_combined_constructs_loop(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    word = p.parse_optional_any_keyword()
    if word not in _COMBINED:
        raise p.error("expected compute construct name")
    a.set_attr(0, parse_attribute_text(_COMBINED[word]))
    return True


# -- custom<GangClause>($operands, type($operands), $argTypes, $deviceTypes, $segments, $gangOnly) -------
_GANG_ARGS = {"#acc.gang_arg_type<Num>": "num", "#acc.gang_arg_type<Dim>": "dim",
              "#acc.gang_arg_type<Static>": "static"}


@printer("GangClause")
def print_gang_clause(p: AsmPrinter, a: PrintArgs) -> None:
    values = a.values(0)
    arg_types = _array(a.attr(2))
    device_types = _array(a.attr(3))
    if not _open_keyword_only(p, values, a.attr(5), device_types):
        return
    if device_types:
        sizes = _segments(a.attr(4))
        if len(sizes) != len(device_types) or sum(sizes) != len(values) or len(arg_types) != len(values):
            raise SyntaxModelError("gang segments do not match the operands")
        at = 0
        for i, (d, n) in enumerate(zip(device_types, sizes, strict=True)):
            if i:
                p.write(", ")
            p.write("{")
            for j in range(n):
                if j:
                    p.write(", ")
                word = _GANG_ARGS.get(plain_attribute_text(arg_types[at]))
                if word is None:
                    raise SyntaxModelError("an unknown gang argument type")
                p.write(f"{word}=")
                _print_value_type(p, values[at])
                at += 1
            p.write("}")
            _print_single_device_type(p, d)
    p.write(")")


@parser("GangClause")
def parse_gang_clause(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    if not p.parse_optional_punct("("):
        a.set_attr(5, ArrayAttr.get((_device_none(),)))
        return True
    gang_only: list[Attribute] = []
    if p.parse_optional_punct("["):
        gang_only = _parse_keyword_only_types(p)
        if not p.parse_optional_punct(","):
            p.parse_punct(")")
            a.set_attr(2, ArrayAttr.get(()))
            a.set_attr(3, ArrayAttr.get(()))
            a.set_attr(4, i32_array([]))
            a.set_attr(5, ArrayAttr.get(tuple(gang_only)))
            return True
    words = {v: k for k, v in _GANG_ARGS.items()}
    refs: list[OperandRef] = []
    types: list[Type] = []
    arg_types: list[Attribute] = []
    devices: list[Attribute] = []
    sizes: list[int] = []
    while True:
        p.parse_punct("{")
        before = len(refs)
        while True:
            word = p.parse_optional_any_keyword()
            if word not in words:
                raise p.error("expect at least one of num, dim or static values")
            p.parse_punct("=")
            _parse_value_type(p, refs, types)
            arg_types.append(parse_attribute_text(words[word]))
            if not p.parse_optional_punct(","):
                break
        p.parse_punct("}")
        devices.append(_parse_optional_device_type(p))
        sizes.append(len(refs) - before)
        if not p.parse_optional_punct(","):
            break
    p.parse_punct(")")
    a.set_values(0, refs)
    a.set_types(1, types)
    a.set_attr(2, ArrayAttr.get(tuple(arg_types)))
    a.set_attr(3, ArrayAttr.get(tuple(devices)))
    a.set_attr(4, i32_array(sizes))
    a.set_attr(5, ArrayAttr.get(tuple(gang_only)))
    return True


# -- custom<LoopControl>($region, $lowerbound, type(...), $upperbound, type(...), $step, type(...)) ---------
@printer("LoopControl")
def print_loop_control(p: AsmPrinter, a: PrintArgs) -> None:
    region = a.region(0)
    if not region.blocks:
        raise SyntaxModelError("acc.loop has a body")
    args = list(region.blocks[0].arguments)
    if args:
        lbs, ubs, steps = a.values(1), a.values(3), a.values(5)
        if not len(lbs) == len(ubs) == len(steps) == len(args):
            raise SyntaxModelError("loop bounds do not match the induction variables")
        p.write("control(")
        for i, arg in enumerate(args):
            if i:
                p.write(", ")
            _print_value_type(p, arg)
        p.write(") = (")
        for k, group in enumerate((lbs, ubs, steps)):
            if k == 1:
                p.write(" to (")
            elif k == 2:
                p.write("  step (")
            print_values_with_types(p, group)
            p.write(")")
        p.write(" ")
    p.region(region, False)


@parser("LoopControl")
def parse_loop_control(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    from .api import Argument

    ivs: list[Argument] = []
    if p.parse_optional_keyword("control"):
        p.parse_punct("(")
        ivs.append(p.parse_argument(allow_type=True))
        while p.parse_optional_punct(","):
            ivs.append(p.parse_argument(allow_type=True))
        p.parse_punct(")")
        p.parse_punct("=")
        for k, keyword in enumerate(("", "to", "step")):
            if keyword:
                p.parse_keyword(keyword)
            p.parse_punct("(")
            refs, types = parse_values_with_types(p)
            if len(refs) != len(ivs):
                raise p.error(f"expected {len(ivs)} operands")
            p.parse_punct(")")
            a.set_values(1 + 2 * k, refs)
            a.set_types(2 + 2 * k, types)
    else:
        for k in range(3):
            a.set_values(1 + 2 * k, [])
            a.set_types(2 + 2 * k, [])
    a.set_region(0, p.parse_region(ivs))
    return True


# -- custom<SymOperandList>($operands, type($operands), $recipes) (MLIR 21's acc.loop / acc.parallel private
#    and reduction clauses; MLIR 22 folded the recipes into the operands): `@recipe -> %x : type, ...` ------
@printer("SymOperandList")
def print_sym_operand_list(p: AsmPrinter, a: PrintArgs) -> None:
    operands, recipes = a.values(0), a.attr(2)
    if not isinstance(recipes, ArrayAttr) or len(recipes.elements) != len(operands) or \
            not all(isinstance(r, SymbolRefAttr | FlatSymbolRefAttr) for r in recipes.elements):
        raise SyntaxModelError("one recipe symbol per operand is needed")
    for i, (recipe, v) in enumerate(zip(recipes.elements, operands, strict=True)):
        if i:
            p.write(", ")
        p.attribute(recipe)
        p.write(" -> ")
        p.operand(v)
        p.write(" : ")
        p.type(v.type)


@parser("SymOperandList")
def parse_sym_operand_list(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    recipes: list[Attribute] = []
    refs: list[OperandRef] = []
    types: list[Type] = []
    while True:
        recipe = p.parse_attribute()
        if not isinstance(recipe, SymbolRefAttr | FlatSymbolRefAttr):
            raise p.error("expected a recipe symbol")
        recipes.append(recipe)
        p.parse_punct("->")
        refs.append(p.parse_operand())
        p.parse_punct(":")
        types.append(p.parse_type())
        if not p.parse_optional_punct(","):
            break
    a.set_values(0, refs)
    a.set_types(1, types)
    a.set_attr(2, ArrayAttr.get(tuple(recipes)))
    return True
