"""VHLO attributes (codes 1-25): bytecode, text (StableHLO's VHLO syntax) and the few deviations.

Facts: `shared/docs/vhlo-format.md` section 2.  Text as StableHLO prints it: `#vhlo.integer_v1<0 : i32>`,
`#vhlo<precision_v1 DEFAULT>`, `#vhlo.tensor_v1<dense<...> : tensor<2xf32>>`, struct-like attributes as
`<name = value, ...>`.  Deviations, where StableHLO's text would not give back the stored bytes:

* `float_v1` values are read in the semantics of their type (StableHLO's parser reads a double, which
  garbles any non-f64 value when written back); the spelling is StableHLO's.
* `tensor_v1` data whose stored form the dense literal cannot say (a full buffer of equal elements, an
  old writer's unpacked or oddly packed booleans) is printed as its exact bytes, `dense<"0x...">`, which
  this parser takes verbatim.
"""

from __future__ import annotations

from ...binary.apint import read_apint, write_apint
from ...ir.attributes import Attribute, DenseElementsAttr, IntegerAttr, StringAttr, TypeAttr
from ...ir.digest import Bytes, frozen
from ...ir.structured import DensePayload, FieldValue, StructuredAttr, StructuredType
from ...ir.types import FloatType, IndexType, IntegerType, RankedTensorType, Type, num_elements
from ...syntax.attr_parser import Parser
from ...syntax.attr_printer import (
    dense_body,
    element_storage_bytes,
    print_attribute,
    print_type,
    quote_bytes,
)
from ...syntax.elision import structured_scope
from ...syntax.floats import SEMANTICS, print_float_bits
from ...syntax.lexer import BARE, STRING, string_value
from ..api import EntryReader, EntryWriter, ModelError
from ..kinds import field_attr, field_attrs, field_bytes, field_int, field_ints, field_tuple, field_type
from .versions import Version, parse_version
from .vhlo_types import (
    VHLO,
    count,
    dims_text,
    from_builtin,
    parse_dims,
    parse_f64,
    parse_signed,
    read_f64,
    to_builtin,
    vhlo_kind,
    write_f64,
)


class VhloAttrKind:
    """Base of the VHLO attribute kinds."""

    dialect = VHLO
    is_type = False

    def __init__(self, name: str, code: int, since: str) -> None:
        self.name = name
        self.codes: tuple[int, ...] = (code,)
        self.since: Version = parse_version(since)

    def get(self, fields: tuple[FieldValue, ...]) -> StructuredAttr:
        return StructuredAttr.get(self, fields)

    def head(self) -> str:
        return f"#vhlo.{self.name}"

    # every kind overrides these four (they make the class a `KindModel`)
    def decode(self, code: int, r: EntryReader) -> Attribute | Type:
        raise NotImplementedError

    def encode(self, value: StructuredAttr | StructuredType, w: EntryWriter) -> None:
        raise NotImplementedError

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        raise NotImplementedError

    def parse(self, p: Parser) -> Attribute | Type:
        raise NotImplementedError

    def open(self, p: Parser) -> None:
        p.expect("<", f"expected '<' after {self.name}")

    def close(self, p: Parser) -> None:
        p.expect(">", f"expected '>' to end {self.name}")

    def __repr__(self) -> str:
        return f"<vhlo attribute kind {self.name}>"


# -- enums ----------------------------------------------------------------------------------------------

class EnumKind(VhloAttrKind):
    """An enum attribute: `V value`, printed `#vhlo<precision_v1 DEFAULT>`."""

    def __init__(self, name: str, code: int, since: str, cases: dict[int, str]) -> None:
        super().__init__(name, code, since)
        self.cases = cases
        self.by_name = {v: k for k, v in cases.items()}

    def decode(self, code: int, r: EntryReader) -> Attribute | Type:
        v = r.varint()
        if v not in self.cases:
            raise ModelError(f"unknown {self.name} value {v}")
        return self.get((v,))

    def _value(self, value: StructuredAttr | StructuredType) -> int:
        v = field_int(value.fields[0], self.name)
        if v not in self.cases:
            raise ModelError(f"unknown {self.name} value {v!r}")
        return v

    def encode(self, value: StructuredAttr | StructuredType, w: EntryWriter) -> None:
        v = self._value(value)
        w.varint(self.codes[0])
        w.varint(v)

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        return f"#vhlo<{self.name} {self.cases[self._value(value)]}>"

    def parse(self, p: Parser) -> Attribute | Type:
        tok = p.expect(BARE, f"expected a {self.name} value")
        if tok.text not in self.by_name:
            raise p.error(f"unknown {self.name} value '{tok.text}' (one of "
                          f"{', '.join(self.cases.values())})", tok)
        return self.get((self.by_name[tok.text],))


# -- simple wrappers ------------------------------------------------------------------------------------

class BoolKind(VhloAttrKind):
    def decode(self, code: int, r: EntryReader) -> Attribute | Type:
        v = r.varint()
        if v > 1:
            raise ModelError(f"bool_v1 value must be 0 or 1, got {v}")
        return self.get((bool(v),))

    def encode(self, value: StructuredAttr | StructuredType, w: EntryWriter) -> None:
        w.varint(self.codes[0])
        w.varint(1 if value.fields[0] else 0)

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        return f"#vhlo.bool_v1<{'true' if value.fields[0] else 'false'}>"

    def parse(self, p: Parser) -> Attribute | Type:
        self.open(p)
        tok = p.expect(BARE, "expected true or false")
        if tok.text not in ("true", "false"):
            raise p.error("expected true or false", tok)
        self.close(p)
        return self.get((tok.text == "true",))


class StringKind(VhloAttrKind):
    def decode(self, code: int, r: EntryReader) -> Attribute | Type:
        return self.get((bytes(r.string()),))

    def encode(self, value: StructuredAttr | StructuredType, w: EntryWriter) -> None:
        s = field_bytes(value.fields[0], "string_v1")
        w.varint(self.codes[0])
        w.string(s)

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        return f"#vhlo.string_v1<{quote_bytes(field_bytes(value.fields[0], 'string_v1'))}>"

    def builtin_twin(self, value: StructuredAttr) -> Attribute | None:
        """The string StableHLO has once deserialized (a symbol's name, for the verifier)."""
        try:
            return StringAttr.get(field_bytes(value.fields[0], "string_v1"))
        except ModelError:
            return None

    def parse(self, p: Parser) -> Attribute | Type:
        self.open(p)
        s = string_value(p.expect(STRING, "expected a string"))
        self.close(p)
        return self.get((s,))


class TypeAttrKind(VhloAttrKind):
    def decode(self, code: int, r: EntryReader) -> Attribute | Type:
        return self.get((r.type(),))

    def encode(self, value: StructuredAttr | StructuredType, w: EntryWriter) -> None:
        t = field_type(value.fields[0], "type_v1")
        w.varint(self.codes[0])
        w.type(t)

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        return f"#vhlo.type_v1<{print_type(field_type(value.fields[0], 'type_v1'))}>"

    def builtin_twin(self, value: StructuredAttr) -> Attribute | None:
        """The type attribute StableHLO has once deserialized (a function's type, for the verifier)."""
        try:
            return TypeAttr.get(to_builtin(field_type(value.fields[0], "type_v1"), stablehlo=True))
        except ModelError:
            return None

    def parse(self, p: Parser) -> Attribute | Type:
        self.open(p)
        t = p.parse_type()
        self.close(p)
        return self.get((t,))


class ArrayKind(VhloAttrKind):
    def decode(self, code: int, r: EntryReader) -> Attribute | Type:
        return self.get((tuple(r.attr() for _ in range(count(r))),))

    def encode(self, value: StructuredAttr | StructuredType, w: EntryWriter) -> None:
        items = field_attrs(value.fields[0], "array_v1")
        w.varint(self.codes[0])
        w.varint(len(items))
        for a in items:
            w.attr(a)

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        items = field_attrs(value.fields[0], "array_v1")
        return "#vhlo.array_v1<[" + ", ".join(print_attribute(a) for a in items) + "]>"

    def parse(self, p: Parser) -> Attribute | Type:
        self.open(p)
        p.expect("[", "expected '[' in array_v1")
        items: list[Attribute] = []
        if not p.consume_if("]"):
            while True:
                items.append(p.parse_attribute())
                if p.consume_if("]"):
                    break
                p.expect(",", "expected ',' or ']' in array_v1")
        self.close(p)
        return self.get((tuple(items),))


class DictKind(VhloAttrKind):
    """`list<(A key, A value)>`, printed `#vhlo.dict_v1<{key = value, ...}>` (stored order kept)."""

    def decode(self, code: int, r: EntryReader) -> Attribute | Type:
        pairs = []
        for _ in range(count(r)):
            key = r.attr()
            pairs.append((key, r.attr()))
        return self.get((tuple(pairs),))

    @staticmethod
    def pairs(value: StructuredAttr | StructuredType) -> list[tuple[Attribute, Attribute]]:
        out = []
        for pair in field_tuple(value.fields[0], "dict_v1"):
            key, val = field_attrs(pair, "a dict_v1 entry")
            out.append((key, val))
        return out

    def encode(self, value: StructuredAttr | StructuredType, w: EntryWriter) -> None:
        pairs = self.pairs(value)
        w.varint(self.codes[0])
        w.varint(len(pairs))
        for key, val in pairs:
            w.attr(key)
            w.attr(val)

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        body = ", ".join(f"{print_attribute(k)} = {print_attribute(v)}" for k, v in self.pairs(value))
        return "#vhlo.dict_v1<{" + body + "}>"

    def parse(self, p: Parser) -> Attribute | Type:
        self.open(p)
        p.expect("{", "expected '{' in dict_v1")
        pairs: list[tuple[Attribute, Attribute]] = []
        if not p.consume_if("}"):
            while True:
                key = p.parse_attribute()
                p.expect("=", "expected '=' in dict_v1")
                pairs.append((key, p.parse_attribute()))
                if p.consume_if("}"):
                    break
                p.expect(",", "expected ',' or '}' in dict_v1")
        self.close(p)
        return self.get((tuple(pairs),))


# -- numbers ------------------------------------------------------------------------------------------

def _int_width(t: FieldValue, what: str) -> tuple[int, Type]:
    kind = vhlo_kind(t)
    builtin = kind.builtin if kind is not None else None
    if isinstance(builtin, IndexType):
        return 64, builtin
    if isinstance(builtin, IntegerType) and builtin.width > 1:
        return builtin.width, builtin
    raise ModelError(f"{what} needs a VHLO integer type (i2..i64, ui2..ui64, index)")


def _float_width(t: FieldValue, what: str) -> tuple[int, str]:
    kind = vhlo_kind(t)
    builtin = kind.builtin if kind is not None else None
    if isinstance(builtin, FloatType) and builtin.name in SEMANTICS:
        return SEMANTICS[builtin.name].width, builtin.name
    raise ModelError(f"{what} needs a VHLO float type")


class IntegerKind(VhloAttrKind):
    """`T` then the value as an APInt of the type's width; printed with the builtin type."""

    def decode(self, code: int, r: EntryReader) -> Attribute | Type:
        t = r.type()
        width, _ = _int_width(t, "integer_v1")
        return self.get((t, read_apint(r, width)))

    def encode(self, value: StructuredAttr | StructuredType, w: EntryWriter) -> None:
        t = field_type(value.fields[0], "integer_v1")
        bits = field_int(value.fields[1], "integer_v1")
        width, _ = _int_width(t, "integer_v1")
        if bits < 0 or bits >> width:
            raise ModelError(f"integer_v1 value does not fit {width} bits")
        w.varint(self.codes[0])
        w.type(t)
        write_apint(w, width, bits)

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        _, builtin = _int_width(value.fields[0], "integer_v1")
        bits = field_int(value.fields[1], "integer_v1")
        return f"#vhlo.integer_v1<{print_attribute(IntegerAttr.get(builtin, bits))}>"

    def parse(self, p: Parser) -> Attribute | Type:
        self.open(p)
        a = p.parse_attribute()
        self.close(p)
        if not isinstance(a, IntegerAttr):
            raise ModelError("integer_v1 holds an integer attribute such as `0 : i32`")
        t = from_builtin(a.type)
        _int_width(t, "integer_v1")
        return self.get((t, a.bits))


class FloatKind(VhloAttrKind):
    """`T` then the value as an APFloat of the type's semantics; printed `<value : !vhlo.f32_v1>`.  The
    value is read in the type's semantics (see module docstring)."""

    def decode(self, code: int, r: EntryReader) -> Attribute | Type:
        t = r.type()
        width, _ = _float_width(t, "float_v1")
        return self.get((t, read_apint(r, width)))

    def encode(self, value: StructuredAttr | StructuredType, w: EntryWriter) -> None:
        t = field_type(value.fields[0], "float_v1")
        bits = field_int(value.fields[1], "float_v1")
        width, _ = _float_width(t, "float_v1")
        if bits < 0 or bits >> width:
            raise ModelError(f"float_v1 value does not fit {width} bits")
        w.varint(self.codes[0])
        w.type(t)
        write_apint(w, width, bits)

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        t = field_type(value.fields[0], "float_v1")
        _, name = _float_width(t, "float_v1")
        return f"#vhlo.float_v1<{print_float_bits(field_int(value.fields[1], 'float_v1'), name)} : " \
               f"{print_type(t)}>"

    def parse(self, p: Parser) -> Attribute | Type:
        self.open(p)
        negative = p.consume_if("-") is not None
        num = p.advance()
        if num.kind not in ("float", "int"):
            raise p.error("expected a floating point value", num)
        p.expect(":", "expected ':' in float_v1")
        t = p.parse_type()
        self.close(p)
        _, name = _float_width(t, "float_v1")
        return self.get((t, p.float_literal_bits(num, negative, FloatType.get(name))))


# -- struct-like attributes ---------------------------------------------------------------------------

# Wire forms of struct parameters: `A` attribute, `SV` signed varint, `dims` list<SV>, `f64` an f64 bit
# pattern as a 64-bit APInt, `flagA` `V 0|1` then `A` if 1, `optA` optional attribute (`V 0` or
# `V (attr# << 1) | 1`).
Param = tuple[str, str]


class StructKind(VhloAttrKind):
    """An attribute printed `<name = value, ...>` (StableHLO's `struct(params)`), optional parameters
    left out when absent."""

    def __init__(self, name: str, code: int, since: str, params: list[Param]) -> None:
        super().__init__(name, code, since)
        self.params = params

    def decode(self, code: int, r: EntryReader) -> Attribute | Type:
        out: list[FieldValue] = []
        for _, wire in self.params:
            if wire == "A":
                out.append(r.attr())
            elif wire == "SV":
                out.append(r.signed_varint())
            elif wire == "dims":
                out.append(tuple(r.signed_varint() for _ in range(count(r))))
            elif wire == "f64":
                out.append(read_f64(r))
            elif wire == "flagA":
                flag = r.varint()
                if flag > 1:
                    raise ModelError(f"{self.name} presence flag must be 0 or 1, got {flag}")
                out.append(r.attr() if flag else None)
            elif wire == "optA":
                out.append(r.optional_attr())
        return self.get(tuple(out))

    def encode(self, value: StructuredAttr | StructuredType, w: EntryWriter) -> None:
        if len(value.fields) != len(self.params):
            raise ModelError(f"{self.name} has {len(self.params)} fields")
        w.varint(self.codes[0])
        for (pname, wire), v in zip(self.params, value.fields, strict=True):
            what = f"{self.name}.{pname}"
            if wire == "A":
                w.attr(field_attr(v, what))
            elif wire == "SV":
                w.signed_varint(field_int(v, what))
            elif wire == "dims":
                dims = field_ints(v, what)
                w.varint(len(dims))
                for d in dims:
                    w.signed_varint(d)
            elif wire == "f64":
                write_f64(w, field_int(v, what))
            elif wire == "flagA":
                if v is None:
                    w.varint(0)
                else:
                    w.varint(1)
                    w.attr(field_attr(v, what))
            elif wire == "optA":
                w.optional_attr(None if v is None else field_attr(v, what))

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        parts = []
        for (pname, wire), v in zip(self.params, value.fields, strict=True):
            if v is None:
                continue
            what = f"{self.name}.{pname}"
            if wire in ("A", "flagA", "optA"):
                text = print_attribute(field_attr(v, what))
            elif wire == "dims":
                text = dims_text(field_ints(v, what))
            elif wire == "f64":
                text = print_float_bits(field_int(v, what), "f64")
            else:
                text = str(field_int(v, what))
            parts.append(f"{pname} = {text}")
        return f"#vhlo.{self.name}<{', '.join(parts)}>"

    def parse(self, p: Parser) -> Attribute | Type:
        self.open(p)
        values: dict[str, FieldValue] = {}
        names = {n: w for n, w in self.params}
        while p.peek().kind != ">":
            if values:
                p.expect(",", f"expected ',' or '>' in {self.name}")
            tok = p.expect(BARE, f"expected a {self.name} parameter name")
            wire = names.get(tok.text)
            if wire is None:
                raise p.error(f"{self.name} has no parameter '{tok.text}'", tok)
            if tok.text in values:
                raise p.error(f"duplicate {self.name} parameter '{tok.text}'", tok)
            p.expect("=", f"expected '=' after {tok.text}")
            if wire in ("A", "flagA", "optA"):
                values[tok.text] = p.parse_attribute()
            elif wire == "dims":
                values[tok.text] = parse_dims(p)
            elif wire == "f64":
                values[tok.text] = parse_f64(p)
            else:
                values[tok.text] = parse_signed(p, f"{self.name}.{tok.text}")
        self.close(p)
        out: list[FieldValue] = []
        for pname, wire in self.params:
            if pname not in values and wire not in ("flagA", "optA"):
                raise ModelError(f"{self.name} needs parameter '{pname}'")
            out.append(values.get(pname))
        return self.get(tuple(out))


# -- tensors ----------------------------------------------------------------------------------------------

def _is_bool(t: object) -> bool:
    kind = vhlo_kind(t)
    return kind is not None and kind.name == "bool_v1"


def bool_raw(blob: Bytes, n: int) -> Bytes:
    """What StableHLO's reader makes of a boolean blob: one byte (a splat) or one byte per element."""
    if len(blob) == 1 and blob[0] == 0xFF:
        return b"\x01"
    packed = (n + 7) // 8
    if len(blob) == packed and len(blob) != n:
        return bytes((blob[i // 8] >> (i % 8)) & 1 for i in range(n))
    return blob


def bool_wire(raw: Bytes, n: int) -> bytes:
    """What StableHLO's writer makes of raw boolean data (a splat of many is 0xFF/0x00, else packed)."""
    if len(raw) == 1 and n > 1:
        return b"\xff" if raw[0] else b"\x00"
    out = bytearray((n + 7) // 8)
    for i in range(min(n, len(raw))):
        if raw[i]:
            out[i // 8] |= 1 << (i % 8)
    return bytes(out)


def _canonical_raw(raw: Bytes, size: int) -> Bytes:
    """Raw data as a parsed literal gives it: one element when all are equal."""
    if len(raw) > size and all(raw[i:i + size] == raw[:size] for i in range(size, len(raw), size)):
        return raw[:size]
    return raw


class TensorKind(VhloAttrKind):
    """`T` (a `tensor_v1` type) then the raw data as a blob (booleans bit-packed on the wire).
    Fields: the VHLO tensor type, the stored blob (exactly as on the wire)."""

    def element_size(self, t: StructuredType) -> tuple[int, int | None]:
        """(element count, bytes per element; None for booleans) of a tensor type."""
        kind = vhlo_kind(t)
        if kind is None or kind.name != "tensor_v1":
            raise ModelError("tensor_v1 data needs a !vhlo.tensor_v1 type")
        shape, element = t.fields[0], t.fields[1]
        try:
            n = num_elements(shape)  # type: ignore[arg-type]
        except ValueError:
            raise ModelError("tensor_v1 data needs a static shape") from None
        if _is_bool(element):
            return n, None
        ekind = vhlo_kind(element)
        if ekind is not None and ekind.name in ("quant_v1", "quant_per_axis_v1"):
            element = element.fields[1]  # type: ignore[union-attr]  # stored as the storage type
        try:
            size = element_storage_bytes(to_builtin(element))  # type: ignore[arg-type]
        except ModelError:
            size = None
        if size is None:
            raise ModelError(f"tensor_v1 data of element type {print_type(element)} is not supported")  # type: ignore[arg-type]
        return n, size

    def check(self, t: Type, blob: Bytes) -> None:
        if not isinstance(t, StructuredType):
            raise ModelError("tensor_v1 data needs a !vhlo.tensor_v1 type")
        n, size = self.element_size(t)
        if size is None:
            if len(blob) not in (1, n, (n + 7) // 8) or (n == 0 and blob):
                raise ModelError(f"boolean tensor data of {len(blob)} bytes for {n} elements")
        elif not (len(blob) == size * n or (n > 0 and len(blob) == size)):
            raise ModelError(f"tensor data of {len(blob)} bytes does not fit {n} elements of "
                             f"{size} bytes")

    def decode(self, code: int, r: EntryReader) -> Attribute | Type:
        t = r.type()
        blob = frozen(r.blob())  # a large tensor stays a view of the mapped file
        self.check(t, blob)
        return self.get((t, blob))

    def encode(self, value: StructuredAttr | StructuredType, w: EntryWriter) -> None:
        t, blob = value.fields
        if not isinstance(t, Type) or not isinstance(blob, bytes | memoryview):
            raise ModelError("tensor_v1 holds a type and data")
        self.check(t, blob)
        w.varint(self.codes[0])
        w.type(t)
        w.blob(blob)

    def builtin_type(self, t: StructuredType) -> RankedTensorType:
        bt = to_builtin(t)
        assert isinstance(bt, RankedTensorType)
        return bt

    def payload(self, value: StructuredAttr) -> DensePayload | None:
        t = value.fields[0]
        if not isinstance(t, StructuredType):
            return None
        bool_data = _is_bool(t.fields[1])
        return DensePayload(self.builtin_type(t), value.fields[1],  # type: ignore[arg-type]
                            1, "vhlo-bool" if bool_data else "raw")

    def print_elided(self, value: StructuredAttr, elements: str) -> str:
        """The elided form (`ir.structured.ElidableKind`): `#vhlo.tensor_v1<dense_resource<mlirbc.elided
        .SIZE.FP> : T>`, T the builtin twin of the tensor type, as in the full form."""
        return f"#vhlo.tensor_v1<{elements}>"

    def body(self, t: StructuredType, blob: Bytes) -> tuple[str, RankedTensorType]:
        """The dense literal of the data, or its exact bytes when the literal would not give them back."""
        bt = self.builtin_type(t)
        n, size = self.element_size(t)
        exact = f'"0x{blob.hex().upper()}"'
        if size is None:
            raw = bool_raw(blob, n)
            if len(raw) not in (1, n) or any(b > 1 for b in raw):
                return exact, bt
            canonical = raw[:1] if raw and all(b == raw[0] for b in raw) else raw
            if bool_wire(canonical, n) != blob:
                return exact, bt  # an old writer's form the literal cannot say
            if len(canonical) == 1 and n > 0:
                return ("true" if canonical[0] else "false"), bt
            if n > 100:
                return exact, bt  # large constants print in hex (as StableHLO's do); ours is the wire form
            return _nest(bt.shape, ["true" if b else "false" for b in raw]), bt
        if len(blob) == size * n and n > 1 and n <= 100 and _canonical_raw(blob, size) != blob:
            return exact, bt
        ekind = vhlo_kind(t.fields[1])
        if ekind is not None and ekind.name in ("quant_v1", "quant_per_axis_v1"):
            return exact, bt
        return dense_body(blob, bt), bt

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        t, blob = value.fields
        assert isinstance(t, StructuredType) and isinstance(blob, bytes | memoryview)
        try:
            text, bt = self.body(t, blob)
        except ModelError:
            return f'#vhlo.tensor_v1<"0x{blob.hex().upper()}" : {print_type(t)}>'
        return f"#vhlo.tensor_v1<dense<{text}> : {print_type(bt)}>"

    def parse(self, p: Parser) -> Attribute | Type:
        self.open(p)
        tok = p.peek()
        if tok.kind == STRING:  # the form for data of element types without a builtin twin
            data: Bytes = _hex_bytes(p, p.advance())
            p.expect(":", "expected ':' in tensor_v1")
            t = p.parse_type()
            self.close(p)
            if not isinstance(t, StructuredType):
                raise ModelError("tensor_v1 needs a !vhlo.tensor_v1 type")
            self.check(t, data)
            return self.get((t, data))
        if tok.kind == BARE and tok.text == "dense" and p.peek_ahead().kind == "<" and \
                p.peek_ahead(2).kind == STRING:
            p.advance()
            p.advance()
            data = _hex_bytes(p, p.advance())
            p.expect(">", "expected '>' after the dense data")
            p.expect(":", "expected ':' after the dense data")
            vt = from_builtin(p.parse_type())
            self.close(p)
            assert isinstance(vt, StructuredType)
            self.check(vt, data)
            return self.get((vt, data))
        with structured_scope(p, self):  # an elided placeholder resolves to the value it stands for
            a = p.parse_attribute()
        self.close(p)
        if isinstance(a, StructuredAttr) and a.kind is self:
            return a
        if not isinstance(a, DenseElementsAttr):
            raise ModelError("tensor_v1 holds a dense elements attribute")
        vt = from_builtin(a.type)
        assert isinstance(vt, StructuredType)
        n, size = self.element_size(vt)
        data = frozen(a.data)
        if size is None:
            # The builtin literal's storage is bit-packed (a splat is one byte): back to raw, then
            # StableHLO's writer rule.
            if len(data) == 1 and data[0] in (0, 0xFF):  # the builtin literal's splat form
                raw = b"\x01" if data[0] else b"\x00"
            else:
                raw = bytes((data[i // 8] >> (i % 8)) & 1 for i in range(n))
                if raw and all(b == raw[0] for b in raw):
                    raw = raw[:1]
            data = bool_wire(raw, n)
        self.check(vt, data)
        return self.get((vt, data))


def _hex_bytes(p: Parser, tok: object) -> bytes:
    from ...syntax.lexer import Token

    assert isinstance(tok, Token)
    text = string_value(tok).decode("latin-1")
    if not text.startswith("0x") or len(text) % 2:
        raise p.error("expected a hex string starting with 0x", tok)
    try:
        return bytes.fromhex(text[2:])
    except ValueError:
        raise p.error("expected a hex string starting with 0x", tok) from None


def _nest(shape: tuple[int, ...], items: list[str]) -> str:
    if not items:
        return ""
    level = items
    for d in reversed(shape[1:]):
        level = ["[" + ", ".join(level[i:i + d]) + "]" for i in range(0, len(level), d)]
    return "[" + ", ".join(level) + "]"


# -- the table ----------------------------------------------------------------------------------------

def _enum(name: str, code: int, since: str, *cases: str, first: int = 0) -> EnumKind:
    return EnumKind(name, code, since, {i + first: c for i, c in enumerate(cases)})


ATTR_KINDS: list[VhloAttrKind] = [
    ArrayKind("array_v1", 1, "0.9.0"),
    BoolKind("bool_v1", 2, "0.9.0"),
    _enum("comparison_direction_v1", 3, "0.9.0", "EQ", "NE", "GE", "GT", "LE", "LT"),
    _enum("comparison_type_v1", 4, "0.9.0", "NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"),
    _enum("api_version_v1", 5, "0.9.0", "API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL",
          "API_VERSION_STATUS_RETURNING", "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI"),
    DictKind("dict_v1", 6, "0.9.0"),
    _enum("fft_type_v1", 7, "0.9.0", "FFT", "IFFT", "RFFT", "IRFFT"),
    FloatKind("float_v1", 8, "0.9.0"),
    IntegerKind("integer_v1", 9, "0.9.0"),
    StructKind("output_operand_alias_v1", 10, "0.9.0",
               [("outputTupleIndices", "dims"), ("operandIndex", "SV"), ("operandTupleIndices", "dims")]),
    _enum("precision_v1", 11, "0.9.0", "DEFAULT", "HIGH", "HIGHEST"),
    _enum("rng_algorithm_v1", 12, "0.9.0", "DEFAULT", "THREE_FRY", "PHILOX"),
    _enum("rng_distribution_v1", 13, "0.9.0", "UNIFORM", "NORMAL", first=1),
    StringKind("string_v1", 14, "0.9.0"),
    TensorKind("tensor_v1", 15, "0.9.0"),
    _enum("transpose_v1", 16, "0.9.0", "TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"),
    TypeAttrKind("type_v1", 17, "0.9.0"),
    StructKind("type_extensions_v1", 18, "0.9.0", [("bounds", "dims")]),
    _enum("result_accuracy_mode_v1", 19, "1.9.0", "DEFAULT", "HIGHEST", "TOLERANCE"),
    StructKind("result_accuracy_v1", 20, "1.9.0",
               [("atol", "f64"), ("rtol", "f64"), ("ulps", "SV"), ("mode", "A")]),
    StructKind("sub_axis_info_v1", 21, "1.16.0", [("pre_size", "SV"), ("size", "SV")]),
    StructKind("axis_ref_v1", 22, "1.16.0", [("name", "A"), ("sub_axis_info", "flagA")]),
    StructKind("replica_group_mesh_axes_v1", 23, "1.16.0", [("mesh", "A"), ("axes", "A")]),
    StructKind("mesh_axis_v1", 24, "1.16.0", [("name", "A"), ("size", "SV")]),
    StructKind("mesh_v1", 25, "1.16.0", [("axes", "A"), ("device_ids", "optA")]),
]
ATTR_BY_NAME: dict[str, VhloAttrKind] = {k.name: k for k in ATTR_KINDS}
