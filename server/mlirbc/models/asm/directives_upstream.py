"""Ports of upstream MLIR's `custom<...>` directives (ViewLikeInterface, GPU, LLVM, the core's
`custom<DimensionList>`)."""

from __future__ import annotations

import struct

from ...ir.attributes import ArrayAttr, Attribute, DenseArrayAttr, StringAttr
from ...ir.operation import Value
from ...ir.types import DialectType, IntegerType, Type, VectorType
from ...syntax.attr_parser import parse_type_text
from .api import AsmParser, AsmPrinter, OperandRef, SyntaxModelError
from .directives import ParseArgs, PrintArgs, parser, print_values, printer

DYNAMIC = -(1 << 63)
"""ShapedType::kDynamic: a static index list's mark for "the next value operand"."""

_DELIMS = {"Paren": ("(", ")"), "LessGreater": ("<", ">"), "Square": ("[", "]"), "Braces": ("{", "}")}


def i64s(a: Attribute | None) -> list[int]:
    if not isinstance(a, DenseArrayAttr):
        raise SyntaxModelError("expected a dense i64 array")
    return list(struct.unpack(f"<{a.count}q", bytes(a.data)))


def bools(a: Attribute | None) -> list[bool]:
    if a is None:
        return []
    if not isinstance(a, DenseArrayAttr):
        raise SyntaxModelError("expected a dense i1 array")
    return [bool(b) for b in bytes(a.data)]


def i64_array(values: list[int]) -> DenseArrayAttr:
    return DenseArrayAttr.get(IntegerType.get(64), len(values), struct.pack(f"<{len(values)}q", *values))


def bool_array(values: list[bool]) -> DenseArrayAttr:
    return DenseArrayAttr.get(IntegerType.get(1), len(values), bytes(int(v) for v in values))


def _index_list_shape(args_len: int, kinds: list[str]) -> tuple[int | None, int | None, str | None]:
    """(scalables argument, types argument, delimiter) of a DynamicIndexList's arguments."""
    scalables = types = None
    delim = None
    for i in range(2, args_len):
        if kinds[i] == "attr":
            scalables = i
        elif kinds[i] == "type":
            types = i
    return scalables, types, delim


def print_index_list(p: AsmPrinter, integers: list[int], values: list[Value],
                     delims: tuple[str, str] = ("[", "]"), scalables: list[bool] | None = None,
                     value_types: list[Type] | None = None, exact: bool = False) -> None:
    """printDynamicIndexList: each static integer, or the next value where it holds kDynamic (with its
    type, and in brackets where scalable, when those are given), between `delims`; `exact`: values left
    over are an error too."""
    text = [delims[0]]  # static text between values, written in one piece (most lists are all static)
    at = 0
    for i, n in enumerate(integers):
        if i:
            text.append(", ")
        scalable = scalables is not None and i < len(scalables) and scalables[i]
        if scalable:
            text.append("[")
        if n == DYNAMIC:
            if at >= len(values):
                raise SyntaxModelError("fewer values than dynamic entries")
            p.write("".join(text))
            text = []
            p.operand(values[at])
            if value_types:
                p.write(" : ")
                p.type(value_types[at])
            at += 1
        else:
            text.append(str(n))
        if scalable:
            text.append("]")
    text.append(delims[1])
    p.write("".join(text))
    if exact and at != len(values):
        raise SyntaxModelError("more values than dynamic entries")


def parse_index_list(p: AsmParser, delims: tuple[str, str] = ("[", "]"), scalable: bool = False,
                     typed: bool = False) -> tuple[list[int], list[OperandRef], list[bool], list[Type]]:
    """What `print_index_list` prints (its opening delimiter not yet read): (integers, values, scalable
    marks, value types)."""
    refs: list[OperandRef] = []
    types: list[Type] = []
    integers: list[int] = []
    scalables: list[bool] = []
    if not p.parse_optional_punct(delims[1]):
        while True:
            marked = scalable and p.parse_optional_punct("[")
            ref = p.parse_optional_operand()
            if ref is not None:
                refs.append(ref)
                integers.append(DYNAMIC)
                if typed:
                    p.parse_punct(":")
                    types.append(p.parse_type())
            else:
                integers.append(p.parse_integer())
            if marked:
                p.parse_punct("]")
            scalables.append(bool(marked))
            if not p.parse_optional_punct(","):
                break
        p.parse_punct(delims[1])
    return integers, refs, scalables, types


# -- custom<DynamicIndexList>($values, $static[, $scalables | type($values)][, "{}", "Delimiter"]) ------
@printer("DynamicIndexList")
def print_dynamic_index_list(p: AsmPrinter, a: PrintArgs) -> None:
    kinds = [a.kind(i) for i in range(len(a))]
    sc_at, ty_at, _ = _index_list_shape(len(a), kinds)
    print_index_list(p, i64s(a.attr(1)), a.values(0),
                     _delimiter(a.string(len(a) - 1) if kinds[-1] == "string" else ""),
                     bools(a.attr(sc_at)) if sc_at is not None else None,
                     a.types(ty_at) if ty_at is not None else None)


def _delimiter(spec: str) -> tuple[str, str]:
    name = spec.rsplit("::", 1)[-1] if spec else "Square"
    return _DELIMS.get(name, ("[", "]"))


@parser("DynamicIndexList")
def parse_dynamic_index_list(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    kinds = [a.kind(i) for i in range(len(a))]
    sc_at, ty_at, _ = _index_list_shape(len(a), kinds)
    delims = _delimiter(a.string(len(a) - 1) if kinds[-1] == "string" else "")
    if optional:
        if not p.parse_optional_punct(delims[0]):
            return False
    else:
        p.parse_punct(delims[0])
    integers, refs, scalables, types = parse_index_list(p, delims, sc_at is not None, ty_at is not None)
    a.set_values(0, refs)
    a.set_attr(1, i64_array(integers))
    if sc_at is not None:
        a.set_attr(sc_at, bool_array(scalables))
    if ty_at is not None:
        a.set_types(ty_at, types)
    return True


# -- custom<DimensionList>($dims) (OpImplementation.h; shard.grid) -------------------------------------------
@printer("DimensionList")
def print_dimension_list(p: AsmPrinter, a: PrintArgs) -> None:
    """`2x?x4` (a dynamic size as `?`), `[]` for none."""
    dims = i64s(a.attr(0))
    p.write("x".join("?" if d == DYNAMIC else str(d) for d in dims) if dims else "[]")


@parser("DimensionList")
def parse_dimension_list(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    if p.parse_optional_punct("["):
        p.parse_punct("]")
        a.set_attr(0, i64_array([]))
        return True
    a.set_attr(0, i64_array(p.parse_dimension_list()))
    return True


# -- custom<AsyncDependencies>(type($asyncToken), $asyncDependencies) (gpu) -------------------------------
@printer("AsyncDependencies")
def print_async_dependencies(p: AsmPrinter, a: PrintArgs) -> None:
    token = a.type(0)
    deps = a.values(1)
    if token is not None:
        p.write("async")
    if not deps:
        return
    if token is not None:
        p.write(" ")
    p.write("[")
    print_values(p, deps)
    p.write("]")


@parser("AsyncDependencies")
def parse_async_dependencies(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    found = False
    if p.parse_optional_keyword("async"):
        a.set_types(0, [parse_type_text("!gpu.async.token")])
        found = True
    else:
        a.set_types(0, [])
    refs: list[OperandRef] = []
    if p.parse_optional_punct("["):
        found = True
        if not p.parse_optional_punct("]"):
            refs.append(p.parse_operand())
            while p.parse_optional_punct(","):
                refs.append(p.parse_operand())
            p.parse_punct("]")
    a.set_values(1, refs)
    return found or not optional


# -- custom<InsertExtractValueElementType>(type($value), ref(type($container)), ref($position)) (llvm) ----
@printer("InsertExtractValueElementType")
def print_insert_extract_value_element_type(p: AsmPrinter, a: PrintArgs) -> None:
    return  # the element type is inferred from the container type and position


@parser("InsertExtractValueElementType")
def parse_insert_extract_value_element_type(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    container = a.types(1)
    position = a.attr(2)
    if not container:
        raise p.error("the container type is not known")
    t = container[0]
    for index in i64s(position):
        t = llvm_element_type(t, index, p)
    a.set_types(0, [t])
    return True


def llvm_element_type(t: Type, index: int, p: AsmParser) -> Type:
    """The type at `index` inside an `!llvm.struct<...>` or `!llvm.array<N x T>` (getInsertExtractValue-
    ElementType)."""
    from ...syntax.attr_printer import print_type

    text = print_type(t)
    if not isinstance(t, DialectType) and not text.startswith("!llvm."):
        raise p.error(f"expected an LLVM struct or array type, found {text}")
    body = text
    if body.startswith("!llvm.array<"):
        inner = body[len("!llvm.array<"):-1]
        _, _, elem = inner.partition(" x ")
        return parse_type_text(_qualify(elem.strip()))
    if body.startswith("!llvm.struct<"):
        fields = llvm_struct_fields(t)
        if fields is None:
            raise p.error("an opaque or recursive struct has no element types here")
        if not 0 <= index < len(fields):
            raise p.error(f"position {index} is out of bounds")
        return fields[index]
    raise p.error(f"expected an LLVM struct or array type, found {text}")


def llvm_struct_fields(t: Type) -> list[Type] | None:
    """The element types of an `!llvm.struct<...>` (literal, packed or identified with its body); None
    for another type and for an opaque or recursive struct."""
    from ...syntax.attr_printer import plain_type_text

    text = plain_type_text(t)
    if not text.startswith("!llvm.struct<"):
        return None
    inner = text[len("!llvm.struct<"):-1]
    if inner.startswith("packed "):
        inner = inner[len("packed "):]
    if inner.startswith('"'):
        end = inner.index('"', 1)
        inner = inner[end + 1:].lstrip(", ")
    if not inner.startswith("("):
        return None
    return [parse_type_text(_qualify(f.strip())) for f in _split_top(inner[1:-1])]


def _qualify(text: str) -> str:
    """An LLVM type as written inside another LLVM type (`ptr`, `struct<...>`) as a full type text."""
    if not text or text[0] in "!(" or text[0].isdigit():
        return text
    head = text.split("<", 1)[0]
    if head in ("ptr", "struct", "array", "func", "void", "token", "label", "metadata", "x86_amx",
                "target"):
        return "!llvm." + text
    return text


def _split_top(text: str) -> list[str]:
    out: list[str] = []
    depth = 0
    start = 0
    in_str = False
    for i, c in enumerate(text):
        if in_str:
            if c == '"' and text[i - 1] != "\\":
                in_str = False
            continue
        if c == '"':
            in_str = True
        elif c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    if text.strip():
        out.append(text[start:])
    return out


# -- custom<OpBundles>($op_bundle_operands, type($op_bundle_operands), $op_bundle_tags) (llvm calls and
#    intrinsics): `["tag"(%a, %b : t, u), "other"()]`, nothing without bundles ------------------------------
@printer("OpBundles")
def print_op_bundles(p: AsmPrinter, a: PrintArgs) -> None:
    write_op_bundles(p, a.value_groups(0), a.attr(2))


def write_op_bundles(p: AsmPrinter, groups: list[list[Value]], tags: Attribute | None) -> None:
    """printOpBundles: `["tag"(%a, %b : t, u), "other"()]`, nothing without bundles."""
    from ...syntax.attr_printer import quote_bytes

    if not groups:
        return
    if not isinstance(tags, ArrayAttr) or len(tags.elements) != len(groups) or \
            not all(isinstance(t, StringAttr) for t in tags.elements):
        raise SyntaxModelError("operand bundles need one string tag each")
    p.write("[")
    for i, (values, tag) in enumerate(zip(groups, tags.elements, strict=True)):
        if i:
            p.write(", ")
        assert isinstance(tag, StringAttr)
        p.write(quote_bytes(tag.value) + "(")
        if values:
            print_values(p, values)
            p.write(" : ")
            for j, v in enumerate(values):
                if j:
                    p.write(", ")
                p.type(v.type)
        p.write(")")
    p.write("]")


@parser("OpBundles")
def parse_op_bundles(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    bundles = read_op_bundles(p)
    if bundles is None:
        return False
    refs, types, sizes, tags = bundles
    if tags is not None:
        a.set_attr(2, tags)
    a.set_values(0, refs, sizes)
    a.set_types(1, types)
    return True


OpBundles = tuple[list[OperandRef], list[Type], list[int], ArrayAttr | None]
"""(operands, their types, operands per bundle, the tags: None for `[]`)."""


def read_op_bundles(p: AsmParser) -> OpBundles | None:
    """parseOpBundles: None when no `[` follows."""
    if not p.parse_optional_punct("["):
        return None
    refs: list[OperandRef] = []
    types: list[Type] = []
    sizes: list[int] = []
    tags: list[Attribute] = []
    if p.parse_optional_punct("]"):
        return refs, types, sizes, None
    while True:
        tag = p.parse_optional_string()
        if tag is None:
            raise p.error("expect operand bundle tag")
        p.parse_punct("(")
        group: list[OperandRef] = []
        if not p.parse_optional_punct(")"):
            group = [p.parse_operand()]
            while p.parse_optional_punct(","):
                group.append(p.parse_operand())
            p.parse_punct(":")
            types.append(p.parse_type())
            while p.parse_optional_punct(","):
                types.append(p.parse_type())
            p.parse_punct(")")
        refs.extend(group)
        sizes.append(len(group))
        tags.append(StringAttr.get(tag))
        if not p.parse_optional_punct(","):
            break
    p.parse_punct("]")
    return refs, types, sizes, ArrayAttr.get(tuple(tags))


# -- custom<GEPIndices>($dynamicIndices, $rawConstantIndices) (llvm.getelementptr): `%i, 0, %j` --------
_GEP_DYNAMIC = -(1 << 31)
"""GEPOp::kDynamicIndex: the next dynamic index operand stands here."""


def _i32_array(value: Attribute | None) -> list[int]:
    if not isinstance(value, DenseArrayAttr) or value.element_type != IntegerType.get(32):
        raise SyntaxModelError("expected a dense i32 array")
    return list(struct.unpack(f"<{value.count}i", bytes(value.data)))


@printer("GEPIndices")
def print_gep_indices(p: AsmPrinter, a: PrintArgs) -> None:
    dynamic = a.values(0)
    raw = _i32_array(a.attr(1))
    if sum(1 for v in raw if v == _GEP_DYNAMIC) != len(dynamic):
        raise SyntaxModelError("rawConstantIndices does not match the dynamic indices")
    at = 0
    for i, v in enumerate(raw):
        if i:
            p.write(", ")
        if v == _GEP_DYNAMIC:
            p.operand(dynamic[at])
            at += 1
        else:
            p.write(str(v))


@parser("GEPIndices")
def parse_gep_indices(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    refs: list[OperandRef] = []
    raw: list[int] = []
    while True:
        v = p.parse_optional_integer()
        if v is not None:
            if not -(1 << 31) <= v < 1 << 31:
                raise p.error("integer value too large")
            raw.append(v)
        else:
            refs.append(p.parse_operand())
            raw.append(_GEP_DYNAMIC)
        if not p.parse_optional_punct(","):
            break
    a.set_values(0, refs)
    a.set_attr(1, DenseArrayAttr.get(IntegerType.get(32), len(raw), struct.pack(f"<{len(raw)}i", *raw)))
    return True


# -- custom<ShuffleType>(ref(type($v1)), type($res), ref($mask)) (llvm.shufflevector): prints nothing; the
#    result is a vector of v1's element type, as long as the mask, scalable when v1 is ----------------------
def _shuffle_result(v1: Type | None, mask: Attribute | None) -> Type | None:
    if not isinstance(v1, VectorType) or not isinstance(mask, DenseArrayAttr) or len(v1.shape) != 1:
        return None
    scalable = (True,) if v1.scalable is not None and any(v1.scalable) else None
    return VectorType.get((mask.count,), v1.element, scalable)


@printer("ShuffleType")
def print_shuffle_type(p: AsmPrinter, a: PrintArgs) -> None:
    if _shuffle_result(a.type(0), a.attr(2)) is not a.type(1):
        raise SyntaxModelError("the result type is not the one the mask infers")


@parser("ShuffleType")
def parse_shuffle_type(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    v1 = a.types(0)
    result = _shuffle_result(v1[0] if v1 else None, a.attr(2))
    if result is None:
        raise p.error("expected an LLVM compatible vector type")
    a.set_types(1, [result])
    return True
