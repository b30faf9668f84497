"""Ports of StableHLO's `custom<...>` directives (its AssemblyFormat.cpp and StablehloOps.cpp), for the
declarative formats of the StableHLO view's ops.

Types: `SameOperandsAndResultType` (one type when every operand's equals the result's, else the op's
functional type), its variadic twin, `ComplexOpType`, `SelectOpType`, `PairwiseOpType`, `TupleOpType`.
Operands and attributes: `VariadicOperandWithAttribute` (`%a, %b,`), `SliceRanges` (`[0:4:2, 1:3]`),
`ExponentMantissa` (`e5m10`), `CustomCallTarget` (`@name`), `DotDimensionNumbers`
(`batching_dims = [0] x [0], contracting_dims = [2] x [1]`), `PrecisionConfig` / `...AndAlgorithm`
(`, precision = [DEFAULT, HIGH], algorithm = <...>`), `ConvolutionDimensions` (`[b, 0, 1, f]x[...]->[...]`)
and `WindowAttributes` (`stride = [2, 2], pad = [[1, 1], [1, 1]], ...`).

Shardy's (its printers.cc): `StrippedTensorShardingPerValueAttr` (`[<@mesh, [{"x"}, {}]>]`) and
`SingleBlockRegionNoBlockId` (`(%arg1: T) { ... }`), for `sdy.manual_computation` and `sdy.named_computation`.

Each reads back exactly what it prints (the parsers follow StableHLO's, which accept a little more).
"""

from __future__ import annotations

import functools
import re
import struct

from ...ir.attributes import ArrayAttr, Attribute, DenseArrayAttr, DenseElementsAttr, IntegerAttr, StringAttr
from ...ir.structured import StructuredAttr
from ...ir.types import ComplexType, FunctionType, IntegerType, RankedTensorType, Type, UnrankedTensorType
from ...syntax.attr_printer import print_attribute
from ..asm.api import Argument, AsmParser, AsmPrinter, SyntaxModelError
from ..asm.declarative import print_functional_type
from ..asm.directives import ParseArgs, PrintArgs, parser, printer
from ..kinds import field_int, field_ints
from .shlo_syntax import KINDS_BY_NAME

_I64 = IntegerType.get(64)
_I32 = IntegerType.get(32)
_I1 = IntegerType.get(1)


def _i64s(a: Attribute | None) -> list[int]:
    if not isinstance(a, DenseArrayAttr) or a.element_type is not _I64:
        raise SyntaxModelError("expected an array<i64: ...>")
    return list(struct.unpack(f"<{a.count}q", bytes(a.data)))


def _i64_array(values: list[int]) -> DenseArrayAttr:
    return DenseArrayAttr.get(_I64, len(values), struct.pack(f"<{len(values)}q", *values))


def _int_list(p: AsmParser) -> list[int]:
    """`[1, 2, 3]` (StableHLO's comma-separated list of integers in square brackets)."""
    p.parse_punct("[")
    out: list[int] = []
    if p.parse_optional_punct("]"):
        return out
    while True:
        out.append(p.parse_integer())
        if p.parse_optional_punct("]"):
            return out
        p.parse_punct(",")


def _write_ints(p: AsmPrinter, values: list[int] | tuple[int, ...]) -> None:
    p.write("[" + ", ".join(str(v) for v in values) + "]")


# -- types ----------------------------------------------------------------------------------------------

def _whole_op_type(p: AsmPrinter, a: PrintArgs) -> None:
    print_functional_type(p, [v.type for v in a.op.operands], [r.type for r in a.op.results])


def _same_type(p: AsmPrinter, a: PrintArgs, operands: list[Type], result: Type | None) -> None:
    if result is None:
        raise SyntaxModelError("no result type")
    if not operands or all(t is result for t in operands):
        p.type(result)
    else:
        _whole_op_type(p, a)


@printer("SameOperandsAndResultType")
def print_same_type(p: AsmPrinter, a: PrintArgs) -> None:
    operands = [t for i in range(len(a) - 1) for t in a.types(i)]
    _same_type(p, a, operands, a.type(len(a) - 1))


def _assign_function_type(p: AsmParser, a: ParseArgs, fn: FunctionType, operand_args: list[int],
                          result_arg: int) -> None:
    if len(fn.inputs) != len(operand_args):
        raise p.error(f"{len(operand_args)} operands present, but expected {len(fn.inputs)}")
    if len(fn.results) != 1:
        raise p.error("expected single output")
    for i, t in zip(operand_args, fn.inputs, strict=True):
        a.set_types(i, [t])
    a.set_types(result_arg, [fn.results[0]])


@parser("SameOperandsAndResultType")
def parse_same_type(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    t = p.parse_type()
    operands = list(range(len(a) - 1))
    if isinstance(t, FunctionType):
        _assign_function_type(p, a, t, operands, len(a) - 1)
        return True
    for i in operands:
        a.set_types(i, [t])
    a.set_types(len(a) - 1, [t])
    return True


@printer("VariadicSameOperandsAndResultType")
def print_variadic_same_type(p: AsmPrinter, a: PrintArgs) -> None:
    _same_type(p, a, a.types(1), a.type(2))


@parser("VariadicSameOperandsAndResultType")
def parse_variadic_same_type(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    n = len(a.values(0))
    t = p.parse_type()
    if isinstance(t, FunctionType):
        if len(t.inputs) != n:
            raise p.error(f"{n} operands present, but expected {len(t.inputs)}")
        if len(t.results) != 1:
            raise p.error("expected single output")
        a.set_types(1, list(t.inputs))
        a.set_types(2, [t.results[0]])
        return True
    a.set_types(1, [t] * n)
    a.set_types(2, [t])
    return True


def _real_of(t: Type) -> Type | None:
    """createRealType: the shaped type with the complex element's real type."""
    if isinstance(t, RankedTensorType) and isinstance(t.element, ComplexType):
        return RankedTensorType.get(t.shape, t.element.element, t.encoding)
    if isinstance(t, UnrankedTensorType) and isinstance(t.element, ComplexType):
        return UnrankedTensorType.get(t.element.element)
    return None


@printer("ComplexOpType")
def print_complex_type(p: AsmPrinter, a: PrintArgs) -> None:
    lhs, rhs, result = a.type(0), a.type(1), a.type(2)
    real = _real_of(result) if result is not None else None
    if real is None or lhs is not real or rhs is not real:
        _whole_op_type(p, a)
        return
    p.type(result)  # type: ignore[arg-type]


@parser("ComplexOpType")
def parse_complex_type(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    t = p.parse_type()
    if isinstance(t, FunctionType):
        _assign_function_type(p, a, t, [0, 1], 2)
        return True
    real = _real_of(t)
    if real is None:
        raise p.error("expected tensor with complex element type")
    a.set_types(0, [real])
    a.set_types(1, [real])
    a.set_types(2, [t])
    return True


@printer("SelectOpType")
def print_select_type(p: AsmPrinter, a: PrintArgs) -> None:
    pred, on_true, on_false, result = a.type(0), a.type(1), a.type(2), a.type(3)
    if on_true is not result or on_false is not result or pred is None or result is None:
        _whole_op_type(p, a)
        return
    p.type(pred)
    p.write(", ")
    p.type(result)


@parser("SelectOpType")
def parse_select_type(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    types = [p.parse_type()]
    while p.parse_optional_punct(","):
        types.append(p.parse_type())
    if len(types) == 2:
        a.set_types(0, [types[0]])
        for i in (1, 2, 3):
            a.set_types(i, [types[1]])
        return True
    if len(types) == 1 and isinstance(types[0], FunctionType):
        _assign_function_type(p, a, types[0], [0, 1, 2], 3)
        return True
    raise p.error("expected functional type or list of two types")


@printer("PairwiseOpType")
def print_pairwise_type(p: AsmPrinter, a: PrintArgs) -> None:
    for i, t in enumerate(a.types(0)):
        if i:
            p.write(", ")
        p.type(t)


@parser("PairwiseOpType")
def parse_pairwise_type(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    types = [p.parse_type()]
    while p.parse_optional_punct(","):
        types.append(p.parse_type())
    a.set_types(0, types)
    a.set_types(1, list(types))
    return True


@printer("TupleOpType")
def print_tuple_type(p: AsmPrinter, a: PrintArgs) -> None:
    result = a.type(1)
    if result is None:
        raise SyntaxModelError("no result type")
    p.type(result)


@parser("TupleOpType")
def parse_tuple_type(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    from ...ir.types import TupleType

    t = p.parse_type()
    if not isinstance(t, TupleType):
        raise p.error("expected tuple type")
    a.set_types(0, list(t.types))
    a.set_types(1, [t])
    return True


# -- operands and attributes -------------------------------------------------------------------------------

@printer("VariadicOperandWithAttribute")
def print_variadic_operands(p: AsmPrinter, a: PrintArgs) -> None:
    for i, v in enumerate(a.values(0)):
        if i:
            p.write(", ")
        p.operand(v)
    p.write(",")


@parser("VariadicOperandWithAttribute")
def parse_variadic_operands(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    refs = []
    ref = p.parse_optional_operand()
    while ref is not None:
        refs.append(ref)
        p.parse_punct(",")
        ref = p.parse_optional_operand()
    a.set_values(0, refs)
    return True


@printer("SliceRanges")
def print_slice_ranges(p: AsmPrinter, a: PrintArgs) -> None:
    start, limit, strides = _i64s(a.attr(0)), _i64s(a.attr(1)), _i64s(a.attr(2))
    if not len(start) == len(limit) == len(strides):
        raise SyntaxModelError("slice indices of different lengths (StableHLO prints what it cannot read)")
    parts = [f"{s}:{e}" + (f":{k}" if k != 1 else "") for s, e, k in zip(start, limit, strides, strict=True)]
    p.write("[" + ", ".join(parts) + "]")


@parser("SliceRanges")
def parse_slice_ranges(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    p.parse_punct("[")
    start: list[int] = []
    limit: list[int] = []
    strides: list[int] = []
    if not p.parse_optional_punct("]"):
        while True:
            start.append(p.parse_integer())
            p.parse_punct(":")
            limit.append(p.parse_integer())
            strides.append(p.parse_integer() if p.parse_optional_punct(":") else 1)
            if p.parse_optional_punct("]"):
                break
            p.parse_punct(",")
    a.set_attr(0, _i64_array(start))
    a.set_attr(1, _i64_array(limit))
    a.set_attr(2, _i64_array(strides))
    return True


@printer("ExponentMantissa")
def print_exponent_mantissa(p: AsmPrinter, a: PrintArgs) -> None:
    e, m = a.attr(0), a.attr(1)
    if not isinstance(e, IntegerAttr) or not isinstance(m, IntegerAttr):
        raise SyntaxModelError("exponent and mantissa bits are integers")
    p.write(f"e{_signed(e)}m{_signed(m)}")


def _signed(a: IntegerAttr) -> int:
    width = a.type.width if isinstance(a.type, IntegerType) else 64
    return a.bits - (1 << width) if a.bits >> (width - 1) else a.bits


@functools.cache
def _exp_man() -> re.Pattern[str]:
    return re.compile(r"e([0-9]+)m([0-9]+)\Z")  # compiled on first use, not at the view's first open


@parser("ExponentMantissa")
def parse_exponent_mantissa(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    word = p.parse_optional_any_keyword()
    m = _exp_man().match(word or "")
    if m is None or len(m.group(1)) > 9 or len(m.group(2)) > 9:
        raise p.error(f"expected exponent mantissa in format e#m#, saw {word}")
    a.set_attr(0, IntegerAttr.get(_I32, int(m.group(1)) & 0xFFFFFFFF))
    a.set_attr(1, IntegerAttr.get(_I32, int(m.group(2)) & 0xFFFFFFFF))
    return True


@printer("CustomCallTarget")
def print_custom_call_target(p: AsmPrinter, a: PrintArgs) -> None:
    target = a.attr(0)
    if not isinstance(target, StringAttr):
        raise SyntaxModelError("call_target_name is a string")
    p.symbol_name(target.value)


@parser("CustomCallTarget")
def parse_custom_call_target(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    a.set_attr(0, StringAttr.get(p.parse_symbol_name()))
    return True


def _struct(a: Attribute | None, kind: str) -> StructuredAttr:
    if not isinstance(a, StructuredAttr) or a.kind is not KINDS_BY_NAME[kind]:
        raise SyntaxModelError(f"expected a #stablehlo.{kind}<...>")
    return a


@printer("DotDimensionNumbers")
def print_dot_dimensions(p: AsmPrinter, a: PrintArgs) -> None:
    dims = _struct(a.attr(0), "dot")
    lb, rb, lc, rc = (field_ints(f, "dims") for f in dims.fields)
    if lb or rb:
        p.write("batching_dims = ")
        _write_ints(p, lb)
        p.write(" x ")
        _write_ints(p, rb)
        p.write(", ")
    p.write("contracting_dims = ")
    _write_ints(p, lc)
    p.write(" x ")
    _write_ints(p, rc)


@parser("DotDimensionNumbers")
def parse_dot_dimensions(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    lb: list[int] = []
    rb: list[int] = []
    if p.parse_optional_keyword("batching_dims"):
        p.parse_punct("=")
        lb = _int_list(p)
        p.parse_keyword("x")
        rb = _int_list(p)
        p.parse_punct(",")
    p.parse_keyword("contracting_dims")
    p.parse_punct("=")
    lc = _int_list(p)
    p.parse_keyword("x")
    rc = _int_list(p)
    a.set_attr(0, KINDS_BY_NAME["dot"].get((tuple(lb), tuple(rb), tuple(lc), tuple(rc))))
    return True


def _precision_names(a: Attribute | None) -> list[str] | None:
    if a is None:
        return None
    if not isinstance(a, ArrayAttr):
        raise SyntaxModelError("precision_config is an array")
    kind = KINDS_BY_NAME["precision"]
    out = []
    for x in a.elements:
        if not isinstance(x, StructuredAttr) or x.kind is not kind:
            raise SyntaxModelError("precision_config holds #stablehlo<precision ...> values")
        out.append(kind.cases[field_int(x.fields[0], "precision")])  # type: ignore[attr-defined]
    return out


def _print_precision(p: AsmPrinter, a: Attribute | None) -> None:
    names = _precision_names(a)
    if names is not None:
        p.write(", precision = [" + ", ".join(names) + "]")


def _parse_precision(p: AsmParser) -> ArrayAttr:
    p.parse_keyword("precision")
    p.parse_punct("=")
    p.parse_punct("[")
    kind = KINDS_BY_NAME["precision"]
    items: list[Attribute] = []
    if not p.parse_optional_punct("]"):
        while True:
            word = p.parse_optional_any_keyword()
            if word not in kind.by_name:  # type: ignore[attr-defined]
                raise p.error(f"unknown precision '{word}' (one of DEFAULT, HIGH, HIGHEST)")
            items.append(kind.get((kind.by_name[word],)))  # type: ignore[attr-defined]
            if p.parse_optional_punct("]"):
                break
            p.parse_punct(",")
    return ArrayAttr.get(tuple(items))


@printer("PrecisionConfig")
def print_precision_config(p: AsmPrinter, a: PrintArgs) -> None:
    _print_precision(p, a.attr(0))


@parser("PrecisionConfig")
def parse_precision_config(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    if p.parse_optional_punct(","):
        a.set_attr(0, _parse_precision(p))
    return True


@printer("PrecisionConfigAndAlgorithm")
def print_precision_and_algorithm(p: AsmPrinter, a: PrintArgs) -> None:
    _print_precision(p, a.attr(0))
    algorithm = a.attr(1)
    if algorithm is not None:
        text = print_attribute(_struct(algorithm, "dot_algorithm"))
        p.write(", algorithm = " + text[len("#stablehlo.dot_algorithm"):])


@parser("PrecisionConfigAndAlgorithm")
def parse_precision_and_algorithm(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    if not p.parse_optional_punct(","):
        return True
    if not p.parse_optional_keyword("algorithm"):
        a.set_attr(0, _parse_precision(p))
        if not p.parse_optional_punct(","):
            return True
        p.parse_keyword("algorithm")
    p.parse_punct("=")
    a.set_attr(1, p.parse_stripped("#stablehlo.dot_algorithm"))  # type: ignore[arg-type]
    return True


@printer("ConvolutionDimensions")
def print_conv_dimensions(p: AsmPrinter, a: PrintArgs) -> None:
    text = print_attribute(_struct(a.attr(0), "conv"))
    body = text[len("#stablehlo.conv<"):-1]
    if body.startswith("raw "):
        raise SyntaxModelError("dimension numbers the compact form cannot hold")
    p.write(body)


@parser("ConvolutionDimensions")
def parse_conv_dimensions(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    # The compact form is the attribute's own body: read it as `#stablehlo.conv<...>`.
    kind = KINDS_BY_NAME["conv"]
    a.set_attr(0, _read_conv(p, kind))
    return True


def _read_conv(p: AsmParser, kind: object) -> Attribute:
    from .shlo_syntax import ConvKind

    assert isinstance(kind, ConvKind)
    parts: list[tuple[int, int, tuple[int, ...]]] = []
    for i, letters in enumerate((("b", "f"), ("i", "o"), ("b", "f"))):
        if i == 1:
            p.parse_keyword("x")
        elif i == 2:
            p.parse_punct("->")
        parts.append(_conv_dims(p, letters))
    (ib, if_, isp), (kif, kof, ksp), (ob, of, osp) = parts
    return kind.get((ib, if_, isp, kif, kof, ksp, ob, of, osp))


def _conv_dims(p: AsmParser, letters: tuple[str, str]) -> tuple[int, int, tuple[int, ...]]:
    p.parse_punct("[")
    named: dict[str, int] = {}
    spatial: dict[int, int] = {}
    index = 0
    while True:
        n = p.parse_optional_integer()
        if n is not None:
            if n < 0:
                raise p.error(f"Unexpected dimension {n}")
            if n in spatial:
                raise p.error(f"Duplicate entries for spatial dimension {n}")
            spatial[n] = index
        else:
            word = p.parse_optional_any_keyword()
            if word not in letters or word in named:
                raise p.error(f"Unexpected dimension {word}, expecting "
                              f"{', '.join(x for x in letters if x not in named)}")
            named[word] = index
        index += 1
        if not p.parse_optional_punct(","):
            break
    missing = [x for x in letters if x not in named]
    if missing:
        raise p.error(f"Expected dimensions {', '.join(missing)} not specified")
    p.parse_punct("]")
    count = max(spatial, default=-1) + 1
    unspecified = [d for d in range(count) if d not in spatial]
    if unspecified:
        raise p.error(f"Expected spatial dimensions {', '.join(map(str, unspecified[:10]))} not specified")
    return named[letters[0]], named[letters[1]], tuple(spatial[d] for d in range(count))


_WINDOW = ("stride", "pad", "lhs_dilate", "rhs_dilate", "reverse")


@printer("WindowAttributes")
def print_window(p: AsmPrinter, a: PrintArgs) -> None:
    parts = []
    for i, name in enumerate(_WINDOW):
        value = a.attr(i)
        if value is None:
            continue
        if name == "pad":
            pairs = _padding(value)
            parts.append("pad = [" + ", ".join(f"[{lo}, {hi}]" for lo, hi in pairs) + "]")
        elif name == "reverse":
            if not isinstance(value, DenseArrayAttr) or value.element_type is not _I1:
                raise SyntaxModelError("window_reversal is an array<i1: ...>")
            parts.append("reverse = [" + ", ".join("true" if b else "false" for b in bytes(value.data)) + "]")
        else:
            parts.append(f"{name} = [" + ", ".join(str(v) for v in _i64s(value)) + "]")
    p.write(", ".join(parts))


def _padding(value: Attribute) -> list[tuple[int, int]]:
    if not isinstance(value, DenseElementsAttr) or not isinstance(value.type, RankedTensorType) or \
            value.type.element is not _I64 or len(value.type.shape) != 2 or value.type.shape[1] != 2:
        raise SyntaxModelError("padding is a tensor<Nx2xi64>")
    n = value.type.shape[0] * 2
    data = bytes(value.data)
    if len(data) == 8 and n != 1:
        data = data * n
    values = struct.unpack(f"<{n}q", data)
    return [(values[i], values[i + 1]) for i in range(0, n, 2)]


@parser("WindowAttributes")
def parse_window(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    from ...syntax.attr_printer import dense_blob

    allowed = set(_WINDOW)
    while True:
        word = p.parse_optional_any_keyword()
        if word is None:
            break
        if word not in allowed:
            raise p.error(f"Unexpected keyword {word}")
        allowed.discard(word)
        p.parse_punct("=")
        i = _WINDOW.index(word)
        if word == "pad":
            p.parse_punct("[")
            values: list[int] = []
            while True:
                pair = _int_list(p)
                if len(pair) != 2:
                    raise p.error(f"Expected array with 2 elements, got {len(pair)} elements instead")
                values.extend(pair)
                if p.parse_optional_punct("]"):
                    break
                p.parse_punct(",")
            t = RankedTensorType.get((len(values) // 2, 2), _I64)
            data = struct.pack(f"<{len(values)}q", *values)
            a.set_attr(i, DenseElementsAttr.get(t, dense_blob(t, data)))
        elif word == "reverse":
            p.parse_punct("[")
            flags: list[bool] = []
            if not p.parse_optional_punct("]"):
                while True:
                    flags.append(_parse_flag(p))
                    if p.parse_optional_punct("]"):
                        break
                    p.parse_punct(",")
            a.set_attr(i, DenseArrayAttr.get(_I1, len(flags), bytes(int(f) for f in flags)))
        else:
            a.set_attr(i, _i64_array(_int_list(p)))
        if not p.parse_optional_punct(","):
            break
    return True


def _parse_flag(p: AsmParser) -> bool:
    n = p.parse_optional_integer()
    if n is not None:
        return n != 0
    word = p.parse_optional_any_keyword()
    if word not in ("true", "false"):
        raise p.error("expected true, false or an integer")
    return word == "true"


# -- Shardy (its printers.cc / parsers.cc) ------------------------------------------------------------------

_PER_VALUE = "#sdy.sharding_per_value<"


@printer("StrippedTensorShardingPerValueAttr")
def print_sharding_list(p: AsmPrinter, a: PrintArgs) -> None:
    """`[<@mesh, [{"x"}, {}]>, ...]`: the shardings without their `#sdy.sharding` prefix."""
    value = a.attr(0)
    text = print_attribute(value) if value is not None else ""
    if not text.startswith(_PER_VALUE + "[") or not text.endswith("]>"):
        raise SyntaxModelError("expected a #sdy.sharding_per_value<[...]>")
    p.write(text[len(_PER_VALUE):-1])


@parser("StrippedTensorShardingPerValueAttr")
def parse_sharding_list(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    p.parse_punct("[")
    shardings: list[Attribute] = []
    if not p.parse_optional_punct("]"):
        while True:
            shardings.append(p.parse_stripped("#sdy.sharding"))  # type: ignore[arg-type]
            if p.parse_optional_punct("]"):
                break
            p.parse_punct(",")
    a.set_attr(0, _per_value(p, shardings))
    return True


def _per_value(p: AsmParser, shardings: list[Attribute]) -> Attribute:
    """The `#sdy.sharding_per_value` of the shardings, of the entry Shardy writes for them (V2 when one
    of them needs it), built by the sdy model the shardings come from."""
    owners = {getattr(s.kind, "owner", None) for s in shardings if isinstance(s, StructuredAttr)}
    if len(owners) > 1 or None in owners or len(owners) != (1 if shardings else 0):
        raise p.error("expected shardings of the sdy dialect (<@mesh, [...]>)")
    from ..dsl import DslDialect

    if owners:
        dsl = owners.pop()
    else:
        from . import sdy_dialect

        dsl = sdy_dialect()
    if not isinstance(dsl, DslDialect):
        raise p.error("the sdy model cannot build a #sdy.sharding_per_value")
    v2 = any(s.kind.name != "Sdy_TensorShardingAttrV1Bc" for s in shardings if isinstance(s, StructuredAttr))
    kind = "Sdy_TensorShardingPerValueAttrV2Bc" if v2 else "Sdy_TensorShardingPerValueAttrV1Bc"
    value: Attribute = dsl.make_attr(kind, (tuple(shardings),))
    return value


@printer("SingleBlockRegionNoBlockId")
def print_region_no_block_id(p: AsmPrinter, a: PrintArgs) -> None:
    """`(%arg1: T loc(...), ...) { ... }`: the entry block's arguments in parentheses, then the body."""
    region = a.region(0)
    if len(region.blocks) != 1:
        raise SyntaxModelError("expected a region of one block")
    p.write("(")
    for i, arg in enumerate(region.blocks[0].arguments):
        if i:
            p.write(", ")
        p.region_argument(arg)
    p.write(") ")
    p.region(region, False)


@parser("SingleBlockRegionNoBlockId")
def parse_region_no_block_id(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    p.parse_punct("(")
    args: list[Argument] = []
    if not p.parse_optional_punct(")"):
        while True:
            args.append(p.parse_argument(allow_type=True, allow_attrs=True))
            if p.parse_optional_punct(")"):
                break
            p.parse_punct(",")
    a.set_region(0, p.parse_region(args))
    return True
