"""VHLO types (codes 0-42): their bytecode, their text (StableHLO's own VHLO syntax) and their builtin twins.

Facts: `shared/docs/vhlo-format.md` section 3.  Every type entry is `varint code` then the fields; decoded
types are `StructuredType`s whose kind is one of the classes here.  The text follows what StableHLO prints
(`!vhlo.tensor_v1<8x?x!vhlo.f32_v1>`, `!vhlo.func_v1<(a, b) -> c>`); the one spelling StableHLO's parser
rejects, the empty tuple `!vhlo.tuple_v1<>` (and `future_v1<>`), is printed the same and accepted here.

`to_builtin` / `from_builtin` map VHLO types to the builtin types StableHLO prints inside
`#vhlo.integer_v1<...>` / `#vhlo.tensor_v1<...>` (and shows in StableHLO text); quantized types become
`!quant.uniform<...>` text.
"""

from __future__ import annotations

from ...ir.attributes import Attribute
from ...ir.structured import FieldValue, StructuredAttr, StructuredType
from ...ir.types import (
    DYNAMIC,
    ComplexType,
    DialectType,
    FloatType,
    FunctionType,
    IndexType,
    IntegerType,
    NoneType,
    RankedTensorType,
    TupleType,
    Type,
    UnrankedTensorType,
)
from ...syntax.attr_parser import Parser
from ...syntax.attr_printer import print_attribute, print_type
from ...syntax.floats import print_float_bits
from ...syntax.lexer import INT
from ..api import EntryReader, EntryWriter, ModelError
from ..kinds import field_attr, field_int, field_ints, field_tuple, field_type, field_types
from .versions import Version, parse_version

VHLO = "vhlo"
_MASK64 = (1 << 64) - 1


def as_int64(bits: int) -> int:
    bits &= _MASK64
    return bits - (1 << 64) if bits >> 63 else bits


def read_f64(r: EntryReader) -> int:
    """An f64 bit pattern stored as a 64-bit APInt (`SV`)."""
    return r.signed_varint() & _MASK64


def read_flags(r: EntryReader) -> int:
    """A quantized type's flags (`unsigned` in StableHLO: a wider value would not read back)."""
    flags = r.varint()
    if flags > UINT32_MAX:
        raise ModelError(f"quantized type flags {flags:#x} do not fit StableHLO's 32-bit unsigned")
    return flags


def write_f64(w: EntryWriter, bits: int) -> None:
    w.signed_varint(as_int64(bits))


def count(r: EntryReader) -> int:
    """A list length that cannot claim more elements than bytes are left (no hostile allocation)."""
    n = r.varint()
    remaining = getattr(r, "remaining", None)
    if isinstance(remaining, int) and n > remaining:
        raise ModelError(f"a list of {n} elements is longer than the {remaining} bytes left")
    return n


def dims_text(dims: tuple[int, ...]) -> str:
    return "[" + ", ".join("?" if d == DYNAMIC else str(d) for d in dims) + "]"


INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
INT32_MAX = (1 << 31) - 1
UINT32_MAX = (1 << 32) - 1


def parse_signed(p: Parser, what: str = "a 64-bit integer") -> int:
    """A (possibly negative) integer that must fit an int64 (every `SV` field of VHLO)."""
    return p.parse_bounded_int(INT64_MIN, INT64_MAX, what)


def parse_flags(p: Parser, what: str) -> int:
    """A quantized type's flags: an `unsigned` in StableHLO."""
    return p.parse_bounded_int(0, UINT32_MAX, what, signed=False)


def parse_dims(p: Parser) -> tuple[int, ...]:
    """`[8, ?, -1]` (StableHLO's printDimSizes)."""
    p.expect("[", "expected '['")
    out: list[int] = []
    if p.consume_if("]"):
        return ()
    while True:
        if p.consume_if("?"):
            out.append(DYNAMIC)
        else:
            out.append(parse_signed(p, "a dimension size"))
        if p.consume_if("]"):
            return tuple(out)
        p.expect(",", "expected ',' or ']'")


class VhloTypeKind:
    """Base of the VHLO type kinds: a fieldless type (`!vhlo.f32_v1`); subclasses add fields."""

    dialect = VHLO
    is_type = True

    def __init__(self, name: str, codes: tuple[int, ...], since: str, builtin: Type | None = None) -> None:
        self.name = name
        self.codes = codes
        self.since: Version = parse_version(since)
        self.builtin = builtin
        """The builtin type StableHLO prints for this one (None: no direct twin)."""

    def get(self, fields: tuple[FieldValue, ...] = ()) -> StructuredType:
        return StructuredType.get(self, fields)

    # -- KindModel ------------------------------------------------------------------------------
    def decode(self, code: int, r: EntryReader) -> Attribute | Type:
        return self.get()

    def encode(self, value: StructuredAttr | StructuredType, w: EntryWriter) -> None:
        w.varint(self.codes[0])

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        return f"!vhlo.{self.name}"

    def parse(self, p: Parser) -> Attribute | Type:
        return self.get()

    def builtin_twin(self, value: StructuredType) -> Type | None:
        """The type StableHLO has for this one once deserialized (None when there is none): what the
        verifier judges StableHLO's constraints on."""
        try:
            return to_builtin(value, stablehlo=True)
        except ModelError:
            return None

    def __repr__(self) -> str:
        return f"<vhlo type kind {self.name}>"


def _types(r: EntryReader) -> tuple[Type, ...]:
    return tuple(r.type() for _ in range(count(r)))


def _write_types(w: EntryWriter, value: FieldValue) -> None:
    types = field_types(value, "a type list")
    w.varint(len(types))
    for t in types:
        w.type(t)


def _type_list_text(types: tuple[Type, ...]) -> str:
    return ", ".join(print_type(t) for t in types)


def _parse_type_list(p: Parser, close: str) -> tuple[Type, ...]:
    """Types separated by commas up to (not including) `close`; empty if `close` comes first."""
    if p.peek().kind == close:
        return ()
    out = [p.parse_type()]
    while p.consume_if(","):
        out.append(p.parse_type())
    return tuple(out)


class ElementKind(VhloTypeKind):
    """`complex_v1<T>`, `unranked_tensor_v1<T>`: one type field."""

    def decode(self, code: int, r: EntryReader) -> Attribute | Type:
        return self.get((r.type(),))

    def encode(self, value: StructuredAttr | StructuredType, w: EntryWriter) -> None:
        element = field_type(value.fields[0], f"the {self.name} element")
        w.varint(self.codes[0])
        w.type(element)

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        return f"!vhlo.{self.name}<{print_type(field_type(value.fields[0], 'an element'))}>"

    def parse(self, p: Parser) -> Attribute | Type:
        p.expect("<", f"expected '<' after {self.name}")
        element = p.parse_type()
        p.expect(">", f"expected '>' after the {self.name} element type")
        return self.get((element,))


class TypeListKind(VhloTypeKind):
    """`tuple_v1<A, B>`, `future_v1<A>`: a list of types (possibly empty: printed `<>`)."""

    def decode(self, code: int, r: EntryReader) -> Attribute | Type:
        return self.get((_types(r),))

    def encode(self, value: StructuredAttr | StructuredType, w: EntryWriter) -> None:
        w.varint(self.codes[0])
        _write_types(w, value.fields[0])

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        return f"!vhlo.{self.name}<{_type_list_text(field_types(value.fields[0], 'types'))}>"

    def parse(self, p: Parser) -> Attribute | Type:
        p.expect("<", f"expected '<' after {self.name}")
        types = _parse_type_list(p, ">")
        p.expect(">", f"expected '>' after the {self.name} types")
        return self.get((types,))


class FunctionKind(VhloTypeKind):
    """`func_v1<(inputs) -> outputs>`: StableHLO prints an empty list as `()`, several outputs bare."""

    def decode(self, code: int, r: EntryReader) -> Attribute | Type:
        inputs = _types(r)
        return self.get((inputs, _types(r)))

    def encode(self, value: StructuredAttr | StructuredType, w: EntryWriter) -> None:
        w.varint(self.codes[0])
        _write_types(w, value.fields[0])
        _write_types(w, value.fields[1])

    @staticmethod
    def _array(types: tuple[Type, ...]) -> str:
        return "()" if not types else _type_list_text(types)

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        inputs = field_types(value.fields[0], "inputs")
        outputs = field_types(value.fields[1], "outputs")
        return f"!vhlo.func_v1<({self._array(inputs)}) -> {self._array(outputs)}>"

    @staticmethod
    def _parse_array(p: Parser, close: str) -> tuple[Type, ...]:
        if p.peek().kind == "(" and p.peek_ahead().kind == ")":
            p.advance()
            p.advance()
            return ()
        return _parse_type_list(p, close)

    def parse(self, p: Parser) -> Attribute | Type:
        p.expect("<", "expected '<' after func_v1")
        p.expect("(", "expected '(' in func_v1")
        inputs = self._parse_array(p, ")")
        p.expect(")", "expected ')' in func_v1")
        p.expect("->", "expected '->' in func_v1")
        outputs = self._parse_array(p, ">")
        p.expect(">", "expected '>' after func_v1")
        return self.get((inputs, outputs))


def _shape(r: EntryReader) -> tuple[int, ...]:
    """A ranked shape: sizes >= 0 or the dynamic size (INT64_MIN).  StableHLO prints any other negative
    size as digits its parser (`parseDimensionList`) rejects, and no builtin tensor holds one (StableHLO
    converts VHLO tensors to them): the model refuses it, so the entry stays a fallback kept verbatim."""
    shape = tuple(r.signed_varint() for _ in range(count(r)))
    for d in shape:
        if d < 0 and d != DYNAMIC:
            raise ModelError(f"dimension size {d} in a shape (sizes are >= 0, or INT64_MIN for a "
                             "dynamic size)")
    return shape


def _write_shape(w: EntryWriter, value: FieldValue) -> None:
    shape = field_ints(value, "a shape")
    w.varint(len(shape))
    for d in shape:
        w.signed_varint(d)


def _shape_text(shape: tuple[int, ...]) -> str:
    return "".join(("?" if d == DYNAMIC else str(d)) + "x" for d in shape)


class RankedKind(VhloTypeKind):
    """`tensor_v1<8x?x!vhlo.f32_v1[, #encoding]>` (codes 20 / 21 with encoding) and `buffer_v1<...>`
    (code 41, no encoding).  Fields: shape, element, encoding (None when absent)."""

    def __init__(self, name: str, codes: tuple[int, ...], since: str, encoded: bool) -> None:
        super().__init__(name, codes, since)
        self.encoded = encoded

    def decode(self, code: int, r: EntryReader) -> Attribute | Type:
        encoding = r.attr() if self.encoded and code == self.codes[1] else None
        shape = _shape(r)
        element = r.type()
        return self.get((shape, element, encoding) if self.encoded else (shape, element))

    def encode(self, value: StructuredAttr | StructuredType, w: EntryWriter) -> None:
        element = field_type(value.fields[1], f"the {self.name} element")
        encoding = value.fields[2] if self.encoded else None
        if encoding is not None:
            w.varint(self.codes[1])
            w.attr(field_attr(encoding, f"the {self.name} encoding"))
        else:
            w.varint(self.codes[0])
        _write_shape(w, value.fields[0])
        w.type(element)

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        shape = field_ints(value.fields[0], "a shape")
        element = field_type(value.fields[1], "an element")
        encoding = value.fields[2] if self.encoded else None
        enc = "" if encoding is None else ", " + print_attribute(field_attr(encoding, "an encoding"))
        return f"!vhlo.{self.name}<{_shape_text(shape)}{print_type(element)}{enc}>"

    def parse(self, p: Parser) -> Attribute | Type:
        p.expect("<", f"expected '<' after {self.name}")
        shape = p.parse_dimension_list()
        element = p.parse_type()
        encoding: Attribute | None = None
        if self.encoded and p.consume_if(","):
            encoding = p.parse_attribute()
        p.expect(">", f"expected '>' after {self.name}")
        return self.get((shape, element, encoding) if self.encoded else (shape, element))


class QuantKind(VhloTypeKind):
    """`quant_v1<st:et, scale:zp, min:max, flags>` (code 24).
    Fields: flags, storage, expressed, scale (f64 bits), zero point, storage min, storage max."""

    def decode(self, code: int, r: EntryReader) -> Attribute | Type:
        flags = read_flags(r)
        storage, expressed = r.type(), r.type()
        scale = read_f64(r)
        zp, lo, hi = r.signed_varint(), r.signed_varint(), r.signed_varint()
        return self.get((flags, storage, expressed, scale, zp, lo, hi))

    @staticmethod
    def _fields(value: StructuredAttr | StructuredType) -> tuple[int, Type, Type, int, int, int, int]:
        f = value.fields
        if len(f) != 7:
            raise ModelError("quant_v1 has 7 fields")
        return (field_int(f[0], "flags"), field_type(f[1], "the storage type"),
                field_type(f[2], "the expressed type"), field_int(f[3], "the scale"),
                field_int(f[4], "the zero point"), field_int(f[5], "the storage min"),
                field_int(f[6], "the storage max"))

    def encode(self, value: StructuredAttr | StructuredType, w: EntryWriter) -> None:
        flags, storage, expressed, scale, zp, lo, hi = self._fields(value)
        w.varint(self.codes[0])
        w.varint(flags)
        w.type(storage)
        w.type(expressed)
        write_f64(w, scale)
        for v in (zp, lo, hi):
            w.signed_varint(v)

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        flags, storage, expressed, scale, zp, lo, hi = self._fields(value)
        return (f"!vhlo.quant_v1<{print_type(storage)}:{print_type(expressed)}, "
                f"{print_float_bits(scale, 'f64')}:{zp}, {lo}:{hi}, {flags}>")

    def parse(self, p: Parser) -> Attribute | Type:
        p.expect("<", "expected '<' after quant_v1")
        storage = p.parse_type()
        p.expect(":", "expected ':' in quant_v1")
        expressed = p.parse_type()
        p.expect(",", "expected ',' in quant_v1")
        scale = parse_f64(p)
        p.expect(":", "expected ':' in quant_v1")
        zp = parse_signed(p, "the zero point")
        p.expect(",", "expected ',' in quant_v1")
        lo = parse_signed(p, "the storage minimum")
        p.expect(":", "expected ':' in quant_v1")
        hi = parse_signed(p, "the storage maximum")
        p.expect(",", "expected ',' in quant_v1")
        flags = parse_flags(p, "the quant_v1 flags")
        p.expect(">", "expected '>' after quant_v1")
        return self.get((flags, storage, expressed, scale, zp, lo, hi))


def parse_f64(p: Parser) -> int:
    """A double literal (as StableHLO's printFloat writes it) as f64 bits."""
    negative = p.consume_if("-") is not None
    tok = p.advance()
    if tok.kind not in ("float", INT):
        raise p.error("expected a floating point value", tok)
    return p.float_literal_bits(tok, negative, FloatType.get("f64"))


class QuantPerAxisKind(VhloTypeKind):
    """`quant_per_axis_v1<st:et, dim, [scales], [zps], min:max, flags>` (code 30).
    Fields: flags, storage, expressed, quantized dimension, storage min, storage max, scales (f64 bits),
    zero points (the wire order)."""

    def decode(self, code: int, r: EntryReader) -> Attribute | Type:
        flags = read_flags(r)
        storage, expressed = r.type(), r.type()
        dim = r.varint()
        if dim > INT32_MAX:
            raise ModelError(f"quantized dimension {dim} does not fit StableHLO's int32")
        lo, hi = r.signed_varint(), r.signed_varint()
        scales = tuple(read_f64(r) for _ in range(count(r)))
        zps = tuple(r.signed_varint() for _ in range(count(r)))
        return self.get((flags, storage, expressed, dim, lo, hi, scales, zps))

    @staticmethod
    def _fields(value: StructuredAttr | StructuredType
                ) -> tuple[int, Type, Type, int, int, int, tuple[int, ...], tuple[int, ...]]:
        f = value.fields
        if len(f) != 8:
            raise ModelError("quant_per_axis_v1 has 8 fields")
        return (field_int(f[0], "flags"), field_type(f[1], "the storage type"),
                field_type(f[2], "the expressed type"), field_int(f[3], "the quantized dimension"),
                field_int(f[4], "the storage min"), field_int(f[5], "the storage max"),
                field_ints(f[6], "the scales"), field_ints(f[7], "the zero points"))

    def encode(self, value: StructuredAttr | StructuredType, w: EntryWriter) -> None:
        flags, storage, expressed, dim, lo, hi, scales, zps = self._fields(value)
        w.varint(self.codes[0])
        w.varint(flags)
        w.type(storage)
        w.type(expressed)
        w.varint(dim)
        w.signed_varint(lo)
        w.signed_varint(hi)
        w.varint(len(scales))
        for s in scales:
            write_f64(w, s)
        w.varint(len(zps))
        for z in zps:
            w.signed_varint(z)

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        flags, storage, expressed, dim, lo, hi, scales, zps = self._fields(value)
        s = ", ".join(print_float_bits(x, "f64") for x in scales)
        z = ", ".join(str(x) for x in zps)
        return (f"!vhlo.quant_per_axis_v1<{print_type(storage)}:{print_type(expressed)}, "
                f"{dim}, [{s}], [{z}], {lo}:{hi}, {flags}>")

    def parse(self, p: Parser) -> Attribute | Type:
        p.expect("<", "expected '<' after quant_per_axis_v1")
        storage = p.parse_type()
        p.expect(":", "expected ':' in quant_per_axis_v1")
        expressed = p.parse_type()
        p.expect(",", "expected ',' in quant_per_axis_v1")
        dim = p.parse_bounded_int(0, INT32_MAX, "the quantized dimension", signed=False)
        p.expect(",", "expected ',' in quant_per_axis_v1")
        scales = _bracketed(p, lambda: parse_f64(p))
        p.expect(",", "expected ',' in quant_per_axis_v1")
        zps = _bracketed(p, lambda: parse_signed(p, "a zero point"))
        p.expect(",", "expected ',' in quant_per_axis_v1")
        lo = parse_signed(p, "the storage minimum")
        p.expect(":", "expected ':' in quant_per_axis_v1")
        hi = parse_signed(p, "the storage maximum")
        p.expect(",", "expected ',' in quant_per_axis_v1")
        flags = parse_flags(p, "the quant_per_axis_v1 flags")
        p.expect(">", "expected '>' after quant_per_axis_v1")
        return self.get((flags, storage, expressed, dim, lo, hi, scales, zps))


def _bracketed(p: Parser, item: object) -> tuple[int, ...]:
    assert callable(item)
    p.expect("[", "expected '['")
    out: list[int] = []
    if p.consume_if("]"):
        return ()
    while True:
        out.append(item())
        if p.consume_if("]"):
            return tuple(out)
        p.expect(",", "expected ',' or ']'")


# -- the table ------------------------------------------------------------------------------------------

_I = IntegerType.get
_F = FloatType.get


def _simple(name: str, code: int, since: str, builtin: Type | None) -> VhloTypeKind:
    return VhloTypeKind(name, (code,), since, builtin)


TYPE_KINDS: list[VhloTypeKind] = [
    _simple("bool_v1", 0, "0.9.0", _I(1)),
    ElementKind("complex_v1", (1,), "0.9.0"),
    _simple("bf16_v1", 2, "0.9.0", _F("bf16")),
    _simple("f16_v1", 3, "0.9.0", _F("f16")),
    _simple("f32_v1", 4, "0.9.0", _F("f32")),
    _simple("f64_v1", 5, "0.9.0", _F("f64")),
    _simple("f8E4M3FN_v1", 6, "0.9.0", _F("f8E4M3FN")),
    _simple("f8E5M2_v1", 7, "0.9.0", _F("f8E5M2")),
    FunctionKind("func_v1", (8,), "0.9.0"),
    _simple("index_v1", 9, "0.9.0", IndexType.get()),
    _simple("i4_v1", 10, "0.9.0", _I(4)),
    _simple("i8_v1", 11, "0.9.0", _I(8)),
    _simple("i16_v1", 12, "0.9.0", _I(16)),
    _simple("i32_v1", 13, "0.9.0", _I(32)),
    _simple("i64_v1", 14, "0.9.0", _I(64)),
    _simple("ui4_v1", 15, "0.9.0", _I(4, 2)),
    _simple("ui8_v1", 16, "0.9.0", _I(8, 2)),
    _simple("ui16_v1", 17, "0.9.0", _I(16, 2)),
    _simple("ui32_v1", 18, "0.9.0", _I(32, 2)),
    _simple("ui64_v1", 19, "0.9.0", _I(64, 2)),
    RankedKind("tensor_v1", (20, 21), "0.9.0", encoded=True),
    _simple("token_v1", 22, "0.9.0", None),
    TypeListKind("tuple_v1", (23,), "0.9.0"),
    QuantKind("quant_v1", (24,), "0.9.0"),
    ElementKind("unranked_tensor_v1", (25,), "0.9.0"),
    _simple("witness_v1", 26, "0.9.0", None),
    _simple("f8E4M3FNUZ_v1", 27, "0.10.0", _F("f8E4M3FNUZ")),
    _simple("f8E5M2FNUZ_v1", 28, "0.10.0", _F("f8E5M2FNUZ")),
    _simple("f8E4M3B11FNUZ_v1", 29, "0.11.0", _F("f8E4M3B11FNUZ")),
    QuantPerAxisKind("quant_per_axis_v1", (30,), "0.18.0"),
    _simple("i2_v1", 31, "1.2.0", _I(2)),
    _simple("ui2_v1", 32, "1.2.0", _I(2, 2)),
    _simple("none_v1", 33, "1.6.0", NoneType.get()),
    _simple("tf31_v1", 34, "1.6.0", _F("tf32")),
    _simple("f8E4M3_v1", 35, "1.7.0", _F("f8E4M3")),
    _simple("f8E3M4_v1", 36, "1.7.0", _F("f8E3M4")),
    _simple("f4E2M1FN_v1", 37, "1.8.0", _F("f4E2M1FN")),
    _simple("f6E2M3FN_v1", 38, "1.8.0", _F("f6E2M3FN")),
    _simple("f6E3M2FN_v1", 39, "1.8.0", _F("f6E3M2FN")),
    _simple("f8E8M0FNU_v1", 40, "1.8.0", _F("f8E8M0FNU")),
    RankedKind("buffer_v1", (41,), "1.13.0", encoded=False),
    TypeListKind("future_v1", (42,), "1.15.0"),
]
TYPE_BY_NAME: dict[str, VhloTypeKind] = {k.name: k for k in TYPE_KINDS}
_SIMPLE_BY_BUILTIN: dict[Type, VhloTypeKind] = {
    k.builtin: k for k in TYPE_KINDS if k.builtin is not None and type(k) is VhloTypeKind}


def vhlo_kind(t: object) -> VhloTypeKind | None:
    """The VHLO kind of a type (None for anything that is not a VHLO type of this model)."""
    if isinstance(t, StructuredType) and isinstance(t.kind, VhloTypeKind):
        return t.kind
    return None


def scalar_builtin(t: object) -> Type | None:
    """The builtin twin of a fieldless VHLO element type (`!vhlo.f32_v1` -> f32), else None."""
    kind = vhlo_kind(t)
    return kind.builtin if kind is not None else None


# -- builtin twins --------------------------------------------------------------------------------------

def to_builtin(t: Type, stablehlo: bool = False) -> Type:
    """The builtin type StableHLO prints for a VHLO type (tensors keep their encoding attribute as is;
    with `stablehlo`, a type_extensions encoding is shown as StableHLO's `#stablehlo.bounds<...>` text).
    Raises ModelError for a type without a builtin twin."""
    kind = vhlo_kind(t)
    if kind is None:
        if isinstance(t, StructuredType):
            raise ModelError(f"not a VHLO type: {t!r}")
        return t  # already builtin (or another dialect's): StableHLO leaves it alone
    assert isinstance(t, StructuredType)
    f = t.fields
    if kind.builtin is not None:
        return kind.builtin
    name = kind.name

    def conv(v: FieldValue) -> Type:
        return to_builtin(field_type(v, "a type"), stablehlo)

    if name == "complex_v1":
        return ComplexType.get(conv(f[0]))
    if name == "tensor_v1":
        enc = None if f[2] is None else field_attr(f[2], "an encoding")
        if stablehlo and enc is not None:
            enc = _bounds_attr(enc)
        return RankedTensorType.get(field_ints(f[0], "a shape"), conv(f[1]), enc)
    if name == "unranked_tensor_v1":
        return UnrankedTensorType.get(conv(f[0]))
    if name == "tuple_v1":
        return TupleType.get(tuple(conv(x) for x in field_tuple(f[0], "types")))
    if name == "func_v1":
        return FunctionType.get(tuple(conv(x) for x in field_tuple(f[0], "inputs")),
                                tuple(conv(x) for x in field_tuple(f[1], "outputs")))
    if name in ("quant_v1", "quant_per_axis_v1"):
        return DialectType.get("quant", quant_text(t))
    if name == "token_v1":
        return DialectType.get("stablehlo", "!stablehlo.token")
    if name == "future_v1":
        inner = ", ".join(print_type(conv(x)) for x in field_tuple(f[0], "types"))
        return DialectType.get("stablehlo", f"!stablehlo.future<{inner}>")
    if name == "buffer_v1":
        return DialectType.get("memref", f"memref<{_shape_text(field_ints(f[0], 'a shape'))}"
                               f"{print_type(conv(f[1]))}>")
    raise ModelError(f"!vhlo.{name} has no builtin twin")


def _bounds_attr(enc: Attribute) -> Attribute:
    from ...ir.attributes import DialectAttr

    if isinstance(enc, StructuredAttr) and enc.kind.name == "type_extensions_v1":
        bounds = field_ints(enc.fields[0], "bounds")
        body = ", ".join("?" if b == DYNAMIC else str(b) for b in bounds)
        return DialectAttr.get("stablehlo", f"#stablehlo.bounds<{body}>")
    return enc


def quant_text(t: StructuredType) -> str:
    """`!quant.uniform<...>` text of a quant_v1 / quant_per_axis_v1 type (as StableHLO converts it)."""
    from ..quant import PER_AXIS, UNIFORM, QuantType, print_quant

    f = t.fields
    storage = to_builtin(field_type(f[1], "the storage type"))
    expressed = to_builtin(field_type(f[2], "the expressed type"))
    if not isinstance(storage, IntegerType):
        raise ModelError("quantized storage type must be an integer type")
    storage = IntegerType.get(storage.width)
    if t.kind.name == "quant_v1":
        q = QuantType(UNIFORM, flags=field_int(f[0], "flags"), storage=storage, expressed=expressed,
                      scale=field_int(f[3], "scale"), zero_point=field_int(f[4], "zero point"),
                      storage_min=field_int(f[5], "min"), storage_max=field_int(f[6], "max"))
    else:
        q = QuantType(PER_AXIS, flags=field_int(f[0], "flags"), storage=storage, expressed=expressed,
                      axis=field_int(f[3], "axis"), storage_min=field_int(f[4], "min"),
                      storage_max=field_int(f[5], "max"), scales=list(field_ints(f[6], "scales")),
                      zero_points=list(field_ints(f[7], "zero points")))
    return print_quant(q)


def from_builtin(t: Type, vhlo_storage: Type | None = None) -> Type:
    """The VHLO type whose builtin twin is `t` (the inverse of `to_builtin` for the types that appear in
    `#vhlo.integer_v1<...>` / `#vhlo.tensor_v1<...>` text).  Raises ModelError otherwise."""
    if isinstance(t, StructuredType):
        return t
    hit = _SIMPLE_BY_BUILTIN.get(t)
    if hit is not None:
        return hit.get()
    if isinstance(t, ComplexType):
        return TYPE_BY_NAME["complex_v1"].get((from_builtin(t.element),))
    if isinstance(t, RankedTensorType):
        return TYPE_BY_NAME["tensor_v1"].get((t.shape, from_builtin(t.element), t.encoding))
    if isinstance(t, UnrankedTensorType):
        return TYPE_BY_NAME["unranked_tensor_v1"].get((from_builtin(t.element),))
    if isinstance(t, DialectType) and t.dialect_name == "quant":
        return _quant_from_text(t.text)
    raise ModelError(f"no VHLO type for {print_type(t)}")


def _quant_from_text(text: str) -> Type:
    from ..quant import PER_AXIS, UNIFORM, parse_quant

    q = parse_quant(text)
    if q.storage is None or q.expressed is None:
        raise ModelError(f"incomplete quantized type {text}")
    signed = q.flags & 1
    storage = from_builtin(IntegerType.get(q.storage.width, 0 if signed else 2))
    expressed = from_builtin(q.expressed)
    if q.kind == UNIFORM:
        return TYPE_BY_NAME["quant_v1"].get((q.flags, storage, expressed, q.scale, q.zero_point,
                                            q.storage_min, q.storage_max))
    if q.kind == PER_AXIS:
        return TYPE_BY_NAME["quant_per_axis_v1"].get((q.flags, storage, expressed, q.axis, q.storage_min,
                                                     q.storage_max, tuple(q.scales),
                                                     tuple(q.zero_points)))
    raise ModelError(f"VHLO has no twin of {text}")
