"""Ports of small upstream dialects' `custom<...>` directives:

* ml_program (MLProgramOps.cpp): `custom<TypedInitialValue>($type, $value)` — `(value)` when there is an
  initial value, then ` : type`; `custom<TokenOrdering>($consumeTokens, type($produceToken))` —
  ` ordering(%a, %b -> !ml_program.token)`, `()` for no consumed token;
* irdl (IRDL.cpp): `custom<SingleBlockRegion>($body)` — the region without entry block arguments and
  terminators, an empty one read as one empty block; `custom<NamedValueList>($args, $names)` and
  `custom<NamedValueListWithVariadicity>($args, $names, $variadicity)` — `(name: %v, name: optional %w)`;
* xegpu: `custom<OptionalDynamicIndexList>($offsets, $const_offsets)` — `[0, %i]`, nothing without offsets;
* wasmssa (WasmSSAOps.cpp): `custom<ElseRegion>($else)` — `"else "{...}` (printKeywordOrString of
  `else ` writes a string; read back as `else` too), nothing for an empty else region;
* emitc (EmitC.cpp): `custom<EmitCGlobalOpTypeAndInitialValue>($type, $initial_value)` and the field op's
  `custom<EmitCFieldOpTypeAndInitialValue>` — `!T` or `!T = value` (the value without its type, read
  back with the type the global's type gives it: an array's shape and element type as a tensor);
* memref (MemRefOps.cpp): `custom<GlobalMemrefOpTypeAndInitialValue>($type, $initial_value)` — `memref<..>`,
  `memref<..> = uninitialized` (a unit value) or `memref<..> = dense<..>` (the value without its type,
  read back as a tensor of the memref's shape and element type);
* transform (TransformOps.cpp): `custom<SequenceOpOperands>($root, type($root), $extra_bindings,
  type($extra_bindings))` — `%root : !t` or `%root, %a, %b : (!t, !u, !v)`, nothing without a root.
"""

from __future__ import annotations

import re

from ...ir.attributes import ArrayAttr, Attribute, DenseArrayAttr, StringAttr, TypeAttr, UnitAttr
from ...ir.types import DYNAMIC, MemRefType, RankedTensorType, Type
from ...syntax.attr_parser import parse_attribute_text, parse_type_text
from ...syntax.attr_printer import plain_attribute_text, plain_type_text
from .adaptor import attr_type
from .api import AsmParser, AsmPrinter, OperandRef, SyntaxModelError
from .directives import ParseArgs, PrintArgs, parser, printer


# -- ml_program ------------------------------------------------------------------------------------------
@printer("TypedInitialValue")
def print_typed_initial_value(p: AsmPrinter, a: PrintArgs) -> None:
    t = a.attr(0)
    if not isinstance(t, TypeAttr):
        raise SyntaxModelError("ml_program.global without a type")
    value = a.attr(1)
    if value is not None:
        p.write("(")
        p.attribute(value, a.attr_name(1))
        p.write(")")
    p.write(" : ")
    p.type(t.type)


@parser("TypedInitialValue")
def parse_typed_initial_value(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    if p.parse_optional_punct("("):
        a.set_attr(1, p.parse_attribute())
        p.parse_punct(")")
    p.parse_punct(":")
    a.set_attr(0, TypeAttr.get(p.parse_type()))
    return True


@printer("TokenOrdering")
def print_token_ordering(p: AsmPrinter, a: PrintArgs) -> None:
    tokens = a.values(0)
    produced = a.type(1)
    if not tokens and produced is None:
        return
    p.write(" ordering(")
    if not tokens:
        p.write("()")
    for i, v in enumerate(tokens):
        if i:
            p.write(", ")
        p.operand(v)
    if produced is not None:
        p.write(" -> ")
        p.type(produced)
    p.write(")")


@parser("TokenOrdering")
def parse_token_ordering(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    refs: list[OperandRef] = []
    if not p.parse_optional_keyword("ordering"):
        a.set_values(0, refs)
        return not optional
    p.parse_punct("(")
    if p.parse_optional_punct("("):
        p.parse_punct(")")
    else:
        refs.append(p.parse_operand())
        while p.parse_optional_punct(","):
            refs.append(p.parse_operand())
    p.parse_punct("->")
    a.set_types(1, [p.parse_type()])
    p.parse_punct(")")
    a.set_values(0, refs)
    return True


# -- irdl ------------------------------------------------------------------------------------------------
@printer("SingleBlockRegion")
def print_single_block_region(p: AsmPrinter, a: PrintArgs) -> None:
    p.region(a.region(0), False, False)


@parser("SingleBlockRegion")
def parse_single_block_region(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    region = p.parse_region()
    if not region.blocks:
        region.add_block()
    a.set_region(0, region)
    return True


VARIADICITIES = ("single", "optional", "variadic")
_VARIADICITY_ARRAY = re.compile(r"#irdl<variadicity_array\[(.*)\]>$")


def _names(value: Attribute | None, n: int) -> list[str]:
    if not isinstance(value, ArrayAttr) or len(value.elements) != n or \
            not all(isinstance(e, StringAttr) for e in value.elements):
        raise SyntaxModelError("irdl: one name per value")
    out = []
    for e in value.elements:
        assert isinstance(e, StringAttr)
        name = e.value.decode("utf-8", "surrogateescape")
        if not re.fullmatch(r"[A-Za-z_][\w$.]*", name):
            raise SyntaxModelError("irdl: a name that is not a bare identifier")  # printed raw
        out.append(name)
    return out


def _variadicities(value: Attribute | None, n: int) -> list[str]:
    m = _VARIADICITY_ARRAY.match(plain_attribute_text(value)) if value is not None else None
    words = re.findall(r"\w+", m.group(1)) if m else None
    if words is None or len(words) != n or any(w not in VARIADICITIES for w in words):
        raise SyntaxModelError("irdl: one variadicity per value")
    return words


def _print_named_values(p: AsmPrinter, a: PrintArgs, with_variadicity: bool) -> None:
    values = a.values(0)
    names = _names(a.attr(1), len(values))
    kinds = _variadicities(a.attr(2), len(values)) if with_variadicity else ["single"] * len(values)
    p.write("(")
    for i, (v, name, kind) in enumerate(zip(values, names, kinds, strict=True)):
        if i:
            p.write(", ")
        p.write(name + ": ")
        if kind != "single":
            p.write(kind + " ")
        p.operand(v)
    p.write(")")


def _parse_named_values(p: AsmParser, a: ParseArgs, with_variadicity: bool) -> bool:
    refs: list[OperandRef] = []
    names: list[Attribute] = []
    kinds: list[str] = []
    p.parse_punct("(")
    if not p.parse_optional_punct(")"):
        while True:
            name = p.parse_optional_any_keyword()
            if name is None:
                raise p.error("expected a name")
            p.parse_punct(":")
            kind = "single"
            if with_variadicity:
                kind = next((w for w in VARIADICITIES if p.parse_optional_keyword(w)), "single")
            refs.append(p.parse_operand())
            names.append(StringAttr.get(name.encode("utf-8", "surrogateescape")))
            kinds.append(kind)
            if not p.parse_optional_punct(","):
                break
        p.parse_punct(")")
    a.set_values(0, refs)
    a.set_attr(1, ArrayAttr.get(tuple(names)))
    if with_variadicity:  # as the attribute prints: `[ single,  optional]`
        a.set_attr(2, parse_attribute_text(
            "#irdl<variadicity_array[" + ", ".join(" " + k for k in kinds) + "]>"))
    return True


@printer("NamedValueList")
def print_named_value_list(p: AsmPrinter, a: PrintArgs) -> None:
    _print_named_values(p, a, False)


@parser("NamedValueList")
def parse_named_value_list(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    return _parse_named_values(p, a, False)


@printer("NamedValueListWithVariadicity")
def print_named_value_list_with_variadicity(p: AsmPrinter, a: PrintArgs) -> None:
    _print_named_values(p, a, True)


@parser("NamedValueListWithVariadicity")
def parse_named_value_list_with_variadicity(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    return _parse_named_values(p, a, True)


# -- xegpu (XeGPUOps.cpp) --------------------------------------------------------------------------------
@printer("OptionalDynamicIndexList")
def print_optional_dynamic_index_list(p: AsmPrinter, a: PrintArgs) -> None:
    """`[0, %i]` as custom<DynamicIndexList> prints it; nothing without the static list."""
    from .directives_upstream import print_dynamic_index_list

    integers = a.attr(1)
    if integers is None:
        return
    if isinstance(integers, DenseArrayAttr) and not integers.count:
        raise SyntaxModelError("an empty index list prints as none at all")  # it would read back absent
    print_dynamic_index_list(p, a)


@parser("OptionalDynamicIndexList")
def parse_optional_dynamic_index_list(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    from .directives_upstream import parse_dynamic_index_list

    if p.peek_text() != "[":
        a.set_values(0, [])
        return not optional
    return parse_dynamic_index_list(p, a, True)


# -- transform -------------------------------------------------------------------------------------------
@printer("SequenceOpOperands")
def print_sequence_op_operands(p: AsmPrinter, a: PrintArgs) -> None:
    root = a.value(0)
    extras = a.values(2)
    if root is None:
        if extras:
            raise SyntaxModelError("extra bindings without a root")  # they would not read back
        return
    p.operand(root)
    for v in extras:
        p.write(", ")
        p.operand(v)
    p.write(" : ")
    if extras:
        p.write("(")
    p.type(root.type)
    for v in extras:
        p.write(", ")
        p.type(v.type)
    if extras:
        p.write(")")


@parser("SequenceOpOperands")
def parse_sequence_op_operands(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    root = p.parse_optional_operand()
    if root is None:
        a.set_values(0, [])
        a.set_types(1, [])
        a.set_values(2, [])
        a.set_types(3, [])
        return not optional
    extras: list[OperandRef] = []
    if p.parse_optional_punct(","):
        extras.append(p.parse_operand())
        while p.parse_optional_punct(","):
            extras.append(p.parse_operand())
    p.parse_punct(":")
    p.parse_optional_punct("(")  # the parentheses are optional
    root_type = p.parse_type()
    types = []
    if extras:
        p.parse_punct(",")
        types.append(p.parse_type())
        while p.parse_optional_punct(","):
            types.append(p.parse_type())
    if len(types) != len(extras):
        raise p.error("expected types to be provided for all operands")
    p.parse_optional_punct(")")
    a.set_values(0, [root])
    a.set_types(1, [root_type])
    a.set_values(2, extras)
    a.set_types(3, types)
    return True


# -- wasmssa ---------------------------------------------------------------------------------------------
@printer("ElseRegion")
def print_else_region(p: AsmPrinter, a: PrintArgs) -> None:
    region = a.region(0)
    if not region.blocks:
        return
    p.keyword_or_string(b"else ")
    p.region(region)


@parser("ElseRegion")
def parse_else_region(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    # upstream's parser compares the word with `else` and so cannot read its own `"else "`; both are read
    word = p.parse_optional_string() if p.peek_text().startswith('"') else None
    if word is None and p.parse_optional_keyword("else"):
        word = b"else"
    if word is None or word.strip() != b"else":
        return not optional
    a.set_region(0, p.parse_region())
    return True


# -- emitc -------------------------------------------------------------------------------------------------
def _emitc_initializer_type(t: Type) -> Type:
    """getInitializerTypeForGlobal: `!emitc.array<2x3xf32>` -> `tensor<2x3xf32>`, else the type itself."""
    text = plain_type_text(t)
    if text.startswith("!emitc.array<") and text.endswith(">"):
        return parse_type_text(f"tensor<{text[len('!emitc.array<'):-1]}>")
    return t


@printer("EmitCGlobalOpTypeAndInitialValue")
@printer("EmitCFieldOpTypeAndInitialValue")
def print_emitc_type_and_initial_value(p: AsmPrinter, a: PrintArgs) -> None:
    t = a.attr(0)
    if not isinstance(t, TypeAttr):
        raise SyntaxModelError("the type is not a type attribute")
    value = a.attr(1)
    if value is not None:
        own = attr_type(value)
        if own is not None and own is not _emitc_initializer_type(t.type):
            raise SyntaxModelError("the initial value's type is not the one its text would be read with")
    p.type(t.type)
    if value is not None:
        p.write(" = ")
        p.attribute_without_type(value)


@parser("EmitCGlobalOpTypeAndInitialValue")
@parser("EmitCFieldOpTypeAndInitialValue")
def parse_emitc_type_and_initial_value(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    t = p.parse_type()
    a.set_attr(0, TypeAttr.get(t))
    if p.parse_optional_punct("="):
        a.set_attr(1, p.parse_attribute(_emitc_initializer_type(t)))
    return True


# -- memref ------------------------------------------------------------------------------------------
def _memref_initializer_type(t: Type) -> RankedTensorType | None:
    """getTensorTypeFromMemRefType of a static memref (the only type the parser takes), else None."""
    if not isinstance(t, MemRefType) or any(d == DYNAMIC for d in t.shape):
        return None
    return RankedTensorType.get(t.shape, t.element)


@printer("GlobalMemrefOpTypeAndInitialValue")
def print_global_memref_type_and_initial_value(p: AsmPrinter, a: PrintArgs) -> None:
    t = a.attr(0)
    if not isinstance(t, TypeAttr):
        raise SyntaxModelError("the type is not a type attribute")
    tensor = _memref_initializer_type(t.type)
    if tensor is None:
        raise SyntaxModelError("the type is not a static memref")
    value = a.attr(1)
    if value is not None and not isinstance(value, UnitAttr) and attr_type(value) is not tensor:
        raise SyntaxModelError("the initial value's type is not the one its text would be read with")
    p.type(t.type)
    if value is None:
        return
    p.write(" = ")
    if isinstance(value, UnitAttr):
        p.write("uninitialized")
    else:
        p.attribute_without_type(value)


@parser("GlobalMemrefOpTypeAndInitialValue")
def parse_global_memref_type_and_initial_value(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    t = p.parse_type()
    tensor = _memref_initializer_type(t)
    if tensor is None:
        raise p.error(f"type should be static shaped memref, but got {plain_type_text(t)}")
    a.set_attr(0, TypeAttr.get(t))
    if not p.parse_optional_punct("="):
        return True
    if p.parse_optional_keyword("uninitialized"):
        a.set_attr(1, UnitAttr.get())
        return True
    a.set_attr(1, p.parse_attribute(tensor))
    return True
