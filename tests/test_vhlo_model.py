"""The VHLO model on crafted and damaged bytes: exact values, deviations, bad input, versions, replacement.

Encodings are built by hand from the facts (`shared/docs/vhlo-format.md`), decoded, printed, parsed back and
encoded again: the bytes must come back exactly.  Damaged entries of real files become fallbacks with a
located reason; hostile lengths fail fast without allocating.
"""

from __future__ import annotations

import struct
import tracemalloc
from collections.abc import Callable
from functools import cache

import pytest

from corpus import CORPUS
from mlirbc.binary.stream import ByteReader, ByteWriter, encode_varint
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.template import TableEntry
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.ir.attributes import Attribute, StringAttr
from mlirbc.ir.module import Module
from mlirbc.ir.structured import StructuredAttr, StructuredType
from mlirbc.ir.types import Type
from mlirbc.models.api import EntryReader, ModelError
from mlirbc.models.build import models
from mlirbc.models.registry import Registry
from mlirbc.models.stablehlo.vhlo import VhloDialect
from mlirbc.models.stablehlo.vhlo_attrs import ATTR_BY_NAME
from mlirbc.models.stablehlo.vhlo_types import TYPE_BY_NAME
from mlirbc.syntax.attr_parser import parse_attribute_text, parse_type_text
from mlirbc.syntax.attr_printer import print_attribute, print_type


@cache
def registry() -> Registry:
    return models()


DIALECT = VhloDialect()


class Reader:
    """An EntryReader over crafted bytes; references index the given lists."""

    def __init__(self, data: bytes, attrs: tuple[Attribute, ...] = (), types: tuple[Type, ...] = (),
                 strings: tuple[bytes, ...] = ()) -> None:
        self.r = ByteReader(data, 0, len(data), "test")
        self.version = 6
        self.attrs, self.types, self.strings = attrs, types, strings

    @property
    def remaining(self) -> int:
        return self.r.remaining

    def varint(self) -> int:
        return self.r.varint()

    def signed_varint(self) -> int:
        return self.r.signed_varint()

    def byte(self) -> int:
        return self.r.byte()

    def bytes(self, n: int) -> memoryview:
        return self.r.bytes(n)

    def blob(self) -> memoryview:
        return self.r.blob()

    def attr(self) -> Attribute:
        return self.attrs[self.r.varint()]

    def optional_attr(self) -> Attribute | None:
        v = self.r.varint()
        return self.attrs[v >> 1] if v & 1 else None

    def type(self) -> Type:
        return self.types[self.r.varint()]

    def string(self) -> bytes:
        return self.strings[self.r.varint()]

    def sparse_array(self) -> list[int]:
        raise NotImplementedError

    def at_end(self) -> bool:
        return self.r.at_end()


class Writer(ByteWriter):
    """An EntryWriter writing references as indices into the given lists."""

    def __init__(self, attrs: tuple[Attribute, ...] = (), types: tuple[Type, ...] = (),
                 strings: tuple[bytes, ...] = ()) -> None:
        super().__init__()
        self.version = 6
        self.attrs, self.types, self.strings = list(attrs), list(types), list(strings)

    def attr(self, a: Attribute) -> None:
        self.varint(self.attrs.index(a))

    def optional_attr(self, a: Attribute | None) -> None:
        self.varint(0 if a is None else (self.attrs.index(a) << 1) | 1)

    def type(self, t: Type) -> None:
        self.varint(self.types.index(t))

    def string(self, s: bytes) -> None:
        self.varint(self.strings.index(s))

    def sparse_array(self, values: list[int]) -> None:
        raise NotImplementedError


def v(n: int) -> bytes:
    return encode_varint(n)


def sv(n: int) -> bytes:
    return encode_varint(((n << 1) ^ (n >> 63)) & ((1 << 64) - 1))


SYNTAX = registry().syntax


def roundtrip_attr(data: bytes, attrs: tuple[Attribute, ...] = (), types: tuple[Type, ...] = (),
                   strings: tuple[bytes, ...] = ()) -> tuple[Attribute, str]:
    """Decode, print, parse, encode: the value and text come back, and so do the bytes."""
    r = Reader(data, attrs, types, strings)
    a = DIALECT.decode_attribute(r)
    assert r.at_end()
    text = print_attribute(a)
    assert parse_attribute_text(text, SYNTAX) is a, text
    w = Writer(attrs, types, strings)
    assert DIALECT.encode_attribute(a, w)
    assert bytes(w.buf) == data, text
    return a, text


def roundtrip_type(data: bytes, attrs: tuple[Attribute, ...] = (), types: tuple[Type, ...] = ()
                   ) -> tuple[Type, str]:
    r = Reader(data, attrs, types)
    t = DIALECT.decode_type(r)
    assert r.at_end()
    text = print_type(t)
    assert parse_type_text(text, SYNTAX) is t, text
    w = Writer(attrs, types)
    assert DIALECT.encode_type(t, w)
    assert bytes(w.buf) == data, text
    return t, text


F32 = TYPE_BY_NAME["f32_v1"].get()
F16 = TYPE_BY_NAME["f16_v1"].get()
BF16 = TYPE_BY_NAME["bf16_v1"].get()
F8 = TYPE_BY_NAME["f8E4M3FN_v1"].get()
I32 = TYPE_BY_NAME["i32_v1"].get()
UI8 = TYPE_BY_NAME["ui8_v1"].get()
I4 = TYPE_BY_NAME["i4_v1"].get()
BOOL = TYPE_BY_NAME["bool_v1"].get()
INDEX = TYPE_BY_NAME["index_v1"].get()


def tensor(shape: tuple[int, ...], element: Type) -> StructuredType:
    return TYPE_BY_NAME["tensor_v1"].get((shape, element, None))


# -- types ------------------------------------------------------------------------------------------------

def test_every_type_code_round_trips() -> None:
    simple = [k for k in TYPE_BY_NAME.values() if type(k).__name__ == "VhloTypeKind"]
    assert len(simple) == 33
    for k in simple:
        t, text = roundtrip_type(v(k.codes[0]))
        assert text == f"!vhlo.{k.name}"
    types = (F32, I32, BOOL)
    enc = ATTR_BY_NAME["type_extensions_v1"].get(((8, -(2**63)),))
    cases = {
        v(1) + v(0): "!vhlo.complex_v1<!vhlo.f32_v1>",
        v(8) + v(2) + v(0) + v(1) + v(1) + v(2):
            "!vhlo.func_v1<(!vhlo.f32_v1, !vhlo.i32_v1) -> !vhlo.bool_v1>",
        v(8) + v(0) + v(0): "!vhlo.func_v1<(()) -> ()>",
        v(8) + v(1) + v(0) + v(2) + v(1) + v(2):
            "!vhlo.func_v1<(!vhlo.f32_v1) -> !vhlo.i32_v1, !vhlo.bool_v1>",
        v(20) + v(2) + sv(8) + sv(-(2**63)) + v(0): "!vhlo.tensor_v1<8x?x!vhlo.f32_v1>",
        v(20) + v(0) + v(2): "!vhlo.tensor_v1<!vhlo.bool_v1>",
        v(21) + v(0) + v(2) + sv(-(2**63)) + sv(4) + v(0):
            "!vhlo.tensor_v1<?x4x!vhlo.f32_v1, #vhlo.type_extensions_v1<bounds = [8, ?]>>",
        v(23) + v(0): "!vhlo.tuple_v1<>",
        v(23) + v(2) + v(0) + v(1): "!vhlo.tuple_v1<!vhlo.f32_v1, !vhlo.i32_v1>",
        v(25) + v(0): "!vhlo.unranked_tensor_v1<!vhlo.f32_v1>",
        v(41) + v(1) + sv(3) + v(1): "!vhlo.buffer_v1<3x!vhlo.i32_v1>",
        v(42) + v(1) + v(0): "!vhlo.future_v1<!vhlo.f32_v1>",
    }
    for data, expected in cases.items():
        assert roundtrip_type(data, (enc,), types)[1] == expected


def test_quantized_types_keep_their_f64_bits() -> None:
    scale = struct.unpack("<q", struct.pack("<d", 0.125))[0]
    data = v(24) + v(1) + v(0) + v(1) + sv(scale) + sv(-3) + sv(-128) + sv(127)
    t, text = roundtrip_type(data, types=(TYPE_BY_NAME["i8_v1"].get(), F32))
    assert text == "!vhlo.quant_v1<!vhlo.i8_v1:!vhlo.f32_v1, 1.250000e-01:-3, -128:127, 1>"
    odd = struct.unpack("<q", struct.pack("<d", 0.1))[0]  # needs all 17 digits
    data = (v(30) + v(0) + v(0) + v(1) + v(1) + sv(0) + sv(255) + v(2) + sv(odd) + sv(scale) + v(2) + sv(3)
            + sv(0))
    t, text = roundtrip_type(data, types=(UI8, F32))
    assert text == ("!vhlo.quant_per_axis_v1<!vhlo.ui8_v1:!vhlo.f32_v1, 1, [1.000000e-01, 1.250000e-01], "
                    "[3, 0], 0:255, 0>")


# -- attributes -------------------------------------------------------------------------------------------

def test_enums_and_plain_attributes() -> None:
    s = (b"main", b"a\nb\"")
    cases = {
        v(2) + v(1): "#vhlo.bool_v1<true>",
        v(3) + v(5): "#vhlo<comparison_direction_v1 LT>",
        v(5) + v(4): "#vhlo<api_version_v1 API_VERSION_TYPED_FFI>",
        v(13) + v(2): "#vhlo<rng_distribution_v1 NORMAL>",
        v(19) + v(2): "#vhlo<result_accuracy_mode_v1 TOLERANCE>",
        v(14) + v(1): '#vhlo.string_v1<"a\\0Ab\\22">',
        v(17) + v(0): "#vhlo.type_v1<!vhlo.f32_v1>",
        v(18) + v(2) + sv(8) + sv(-(2**63)): "#vhlo.type_extensions_v1<bounds = [8, ?]>",
        v(10) + v(1) + sv(0) + sv(1) + v(0): ("#vhlo.output_operand_alias_v1<outputTupleIndices = [0], "
                                              "operandIndex = 1, operandTupleIndices = []>"),
        v(21) + sv(1) + sv(2): "#vhlo.sub_axis_info_v1<pre_size = 1, size = 2>",
        v(24) + v(0) + sv(4): '#vhlo.mesh_axis_v1<name = #vhlo.string_v1<"main">, size = 4>',
        v(22) + v(0) + v(0): '#vhlo.axis_ref_v1<name = #vhlo.string_v1<"main">>',
        v(25) + v(0) + v(0): '#vhlo.mesh_v1<axes = #vhlo.string_v1<"main">>',
        v(25) + v(0) + v(1):
            '#vhlo.mesh_v1<axes = #vhlo.string_v1<"main">, device_ids = #vhlo.string_v1<"main">>',
    }
    main = ATTR_BY_NAME["string_v1"].get((b"main",))
    for data, expected in cases.items():
        assert roundtrip_attr(data, (main,), (F32,), s)[1] == expected
    a, text = roundtrip_attr(v(1) + v(2) + v(0) + v(0), (main,))
    assert text == '#vhlo.array_v1<[#vhlo.string_v1<"main">, #vhlo.string_v1<"main">]>'
    b = ATTR_BY_NAME["bool_v1"].get((False,))
    assert roundtrip_attr(v(6) + v(1) + v(0) + v(1), (main, b))[1] == \
        '#vhlo.dict_v1<{#vhlo.string_v1<"main"> = #vhlo.bool_v1<false>}>'
    assert roundtrip_attr(v(6) + v(0))[1] == "#vhlo.dict_v1<{}>"


def test_integers_use_the_width_of_their_type() -> None:
    assert roundtrip_attr(v(9) + v(0) + sv(-1 & 0xFFFFFFFF), types=(I32,))[1] == "#vhlo.integer_v1<-1 : i32>"
    assert roundtrip_attr(v(9) + v(0) + bytes([0xFF]), types=(UI8,))[1] == "#vhlo.integer_v1<255 : ui8>"
    assert roundtrip_attr(v(9) + v(0) + bytes([0x0F]), types=(I4,))[1] == "#vhlo.integer_v1<-1 : i4>"
    assert roundtrip_attr(v(9) + v(0) + sv(7), types=(INDEX,))[1] == "#vhlo.integer_v1<7 : index>"
    with pytest.raises(ModelError, match="integer type"):
        DIALECT.decode_attribute(Reader(v(9) + v(0) + bytes([1]), types=(BOOL,)))


@pytest.mark.parametrize("t, bits, text", [
    (F32, 0x3A83126F, "1.000000e-03"),
    (F32, 0x80000000, "-0.000000e+00"),
    (F32, 0x7FC00001, "0x7FC00001"),  # a NaN payload
    (F32, 0x00000001, "1.401300e-45"),  # the smallest denormal
    (F16, 0x3C01, "1.000980e+00"),
    (BF16, 0x3F81, "1.007810e+00"),
    (F8, 0x7E, "4.480000e+02"),
])
def test_float_values_keep_their_exact_bits(t: Type, bits: int, text: str) -> None:
    """StableHLO reads `float_v1` text as a double (garbling non-f64 values); ours reads the type's own
    semantics, so every bit pattern comes back."""
    width = {F32: 32, F16: 16, BF16: 16, F8: 8}[t]
    payload = bytes([bits]) if width <= 8 else sv(bits)
    a, printed = roundtrip_attr(v(8) + v(0) + payload, types=(t,))
    assert printed == f"#vhlo.float_v1<{text} : {print_type(t)}>"
    assert isinstance(a, StructuredAttr) and a.fields[1] == bits


def test_result_accuracy_keeps_f64_bits() -> None:
    mode = ATTR_BY_NAME["result_accuracy_mode_v1"].get((2,))
    atol = struct.unpack("<q", struct.pack("<d", 1e-5))[0]
    _, text = roundtrip_attr(v(20) + sv(atol) + sv(0) + sv(2) + v(0), (mode,))
    assert text == ("#vhlo.result_accuracy_v1<atol = 1.000000e-05, rtol = 0.000000e+00, ulps = 2, "
                    "mode = #vhlo<result_accuracy_mode_v1 TOLERANCE>>")


# -- tensors ----------------------------------------------------------------------------------------------

def test_tensor_data_forms() -> None:
    f = (tensor((2,), F32), tensor((3,), BOOL), tensor((1,), BOOL), tensor((200,), I32), tensor((3,), I32),
         tensor((10,), BOOL))
    one, two = struct.pack("<f", 1.0), struct.pack("<f", 2.0)
    cases: list[tuple[int, bytes, str]] = [
        (0, one + two, "dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>"),
        (0, one, "dense<1.000000e+00> : tensor<2xf32>"),  # a splat
        (1, b"\x05", "dense<[true, false, true]> : tensor<3xi1>"),  # packed
        (1, b"\xff", "dense<true> : tensor<3xi1>"),  # a true splat
        (1, b"\x00", "dense<false> : tensor<3xi1>"),  # packed all-false = the false splat
        (2, b"\x01", "dense<true> : tensor<1xi1>"),
        (1, b"\x07", 'dense<"0x07"> : tensor<3xi1>'),  # all true but packed: another writer's form
        (1, b"\x01\x00\x01", 'dense<"0x010001"> : tensor<3xi1>'),  # an old unpacked writer's form
        (4, struct.pack("<3i", 7, 7, 7), 'dense<"0x070000000700000007000000"> : tensor<3xi32>'),
        (5, b"\xff\x03", 'dense<"0xFF03"> : tensor<10xi1>'),  # all true, packed: not the splat
    ]
    for i, data, text in cases:
        a, printed = roundtrip_attr(v(15) + v(i) + v(len(data)) + data, types=f)
        assert printed == f"#vhlo.tensor_v1<{text}>"
    big = struct.pack("<200i", *range(200))
    a, printed = roundtrip_attr(v(15) + v(3) + v(len(big)) + big, types=f)
    assert printed.startswith('#vhlo.tensor_v1<dense<"0x00000000010000000200') and printed.endswith(
        '"> : tensor<200xi32>>')
    assert isinstance(a, StructuredAttr)
    payload = a.payload()
    assert payload is not None and payload.data == big
    assert print_type(payload.shaped_type) == "tensor<200xi32>"
    assert a.with_field(payload.field, bytes(800)).fields[1] == bytes(800)


def test_damaged_tensor_data_is_refused() -> None:
    t = (tensor((2,), F32), tensor((-(2**63),), F32), tensor((4,), BOOL))
    for data, why in [(v(15) + v(0) + v(3) + b"abc", "does not fit 2 elements"),
                      (v(15) + v(1) + v(4) + b"abcd", "static shape"),
                      (v(15) + v(2) + v(2) + b"ab", "boolean tensor data of 2 bytes")]:
        with pytest.raises(ModelError, match=why):
            DIALECT.decode_attribute(Reader(data, types=t))


# -- bad input --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("data, why", [
    (v(99), "unknown vhlo attribute code 99"),
    (v(0), "unknown vhlo attribute code 0"),  # ArgResultAlias, removed before 0.9
    (v(2) + v(2), "bool_v1 value must be 0 or 1"),
    (v(3) + v(6), "unknown comparison_direction_v1 value 6"),
    (v(13) + v(0), "unknown rng_distribution_v1 value 0"),
    (v(22) + v(0) + v(2), "presence flag must be 0 or 1"),
])
def test_bad_entries_raise_model_errors(data: bytes, why: str) -> None:
    with pytest.raises(ModelError, match=why):
        DIALECT.decode_attribute(Reader(data, (StringAttr.get("x"),)))


@pytest.mark.parametrize("data, is_type", [
    (v(1) + v(1 << 60), False),  # array_v1 of 2^60 elements
    (v(6) + v(1 << 40), False),  # dict_v1
    (v(18) + v(1 << 50), False),  # type_extensions_v1 bounds
    (v(23) + v(1 << 60), True),  # tuple_v1
    (v(20) + v(1 << 59), True),  # tensor_v1 shape
    (v(8) + v(1 << 33), True),  # func_v1 inputs
    (v(30) + v(0) + v(0) + v(0) + v(0) + sv(0) + sv(0) + v(1 << 61), True),  # quant_per_axis_v1 scales
])
def test_hostile_lengths_never_allocate(data: bytes, is_type: bool) -> None:
    tracemalloc.start()
    try:
        with pytest.raises(ModelError, match="longer than the"):
            decode: Callable[[Reader], object] = DIALECT.decode_type if is_type else DIALECT.decode_attribute
            decode(Reader(data, (StringAttr.get("x"),), (F32,)))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20


def _entries(m: Module, kind: str) -> list[TableEntry]:
    assert m.source is not None
    return [e for e in m.source.attrs if isinstance(e.value, StructuredAttr) and e.value.kind.name == kind]


def _damage(data: bytes, at: int, new: bytes) -> bytes:
    return data[:at] + new + data[at + len(new):]


def test_damaged_entries_of_a_real_file_become_located_fallbacks() -> None:
    path = CORPUS / "vhlo" / "attention_dpa.mlirbc"
    data = path.read_bytes()
    m = decode_bytecode(data, registry())
    string = _entries(m, "string_v1")[0]
    array = next(e for e in _entries(m, "array_v1") if e.size >= 3)
    # a tensor entry is `V 15, V type#, V length, data`: one byte each for code and type here
    tensor_entry = next(e for e in _entries(m, "tensor_v1")
                        if data[e.offset + 1] & 1 and 2 < data[e.offset + 2] >> 1 < 64)
    length = data[tensor_entry.offset + 2] >> 1
    cases = [
        (_damage(data, string.offset, v(26)), string, "unknown vhlo attribute code 26"),
        (_damage(data, array.offset + 1, bytes([0x7F])), array, "elements is longer than the"),
        # a blob one byte short: its width no longer fits the type's elements
        (_damage(data, tensor_entry.offset + 2, v(length - 1)), tensor_entry,
         f"tensor data of {length - 1} bytes does not fit"),
    ]
    for damaged, entry, why in cases:
        out = decode_bytecode(damaged, registry())
        assert out.error is None
        notes = [n for n in out.fallbacks if n.offset == entry.offset]
        assert len(notes) == 1, (why, [n.reason for n in out.fallbacks])
        assert why in notes[0].reason and "model failed at byte" in notes[0].reason, notes[0].reason
        assert encode_bytecode(out, registry=registry()) == damaged


def test_newer_target_keeps_unknown_parts_as_fallbacks_saying_so() -> None:
    data = (CORPUS / "vhlo" / "attention_dpa.mlirbc").read_bytes()
    newer = data.replace(b"StableHLO_v1.15.0", b"StableHLO_v1.21.0", 1)
    m = decode_bytecode(newer, registry())
    string = _entries(m, "string_v1")[0]
    damaged = _damage(newer, string.offset, v(27))
    # an op name this model does not know (same length, so the file stays consistent)
    damaged = damaged.replace(b"iota_v1", b"zeta_v1")
    out = decode_bytecode(damaged, registry())
    assert out.error is None
    reasons = {(n.kind, n.name): n.reason for n in out.fallbacks}
    newer_note = "the file targets StableHLO 1.21.0, newer than the 1.20.0 this model knows"
    assert newer_note in reasons[("attribute", "vhlo")]
    assert "has no op 'vhlo.zeta_v1'" in reasons[("op", "vhlo.zeta_v1")]
    assert newer_note in reasons[("op", "vhlo.zeta_v1")]
    assert len(out.fallbacks) == 3  # the two iota ops and the one attribute; everything else decodes
    assert encode_bytecode(out, registry=registry()) == damaged


# -- switching off, replacing, hooking --------------------------------------------------------------------

def test_disable_model_brings_the_fallbacks_back_with_the_bytes_unchanged() -> None:
    data = (CORPUS / "vhlo" / "sharded_mlp.mlirbc").read_bytes()
    for spec, dialects in (("vhlo", {"vhlo"}), ("sdy", {"sdy"})):
        reg = models(disabled=[spec])
        m = decode_bytecode(data, reg)
        assert {n.name.split(".")[0] for n in m.fallbacks} == dialects
        assert encode_bytecode(m, registry=reg) == data
    assert not decode_bytecode(data, registry()).fallbacks


def test_a_plugin_replaces_one_attribute_kind() -> None:
    from mlirbc.models.stablehlo.vhlo_attrs import StringKind

    class CountingString(StringKind):
        decoded = 0

        def decode(self, code: int, r: EntryReader) -> Attribute | Type:
            self.decoded += 1
            return super().decode(code, r)

    reg = models()
    loud = CountingString("string_v1", 14, "0.9.0")
    regn = reg.register_attr_kind(loud, "plugin test")
    assert regn.label == "attr-kind:vhlo.string_v1"
    data = (CORPUS / "vhlo" / "attention_dpa.mlirbc").read_bytes()
    m = decode_bytecode(data, reg)
    assert loud.decoded > 0
    strings = _entries(m, "string_v1")
    assert strings and all(e.value.kind is loud for e in strings)  # type: ignore[union-attr]
    others = [e for e in _entries(m, "dict_v1")]
    assert others and all(e.value.kind is ATTR_BY_NAME["dict_v1"] for e in others)  # type: ignore[union-attr]
    assert encode_bytecode(m, registry=reg) == data


def test_hooks_extend_without_replacing_and_info_counts_them() -> None:
    from mlirbc.models.hooks import Decode, OpNote
    from mlirbc.summary import module_info

    reg = models()
    seen: list[str] = []

    def check_constants(r: object, decode: Decode) -> dict[str, Attribute]:
        values = decode(r)  # type: ignore[arg-type]
        seen.append(print_attribute(values["value"]))
        return values

    reg.add_decode_hook("vhlo.constant_v1", check_constants, "plugin test")
    reg.add_note_hook("vhlo.add_v1", lambda op: OpNote(lines=["added by a test"]), "plugin test")
    data = (CORPUS / "vhlo" / "attention_dpa.mlirbc").read_bytes()
    m = decode_bytecode(data, reg)
    assert len(seen) == 7 and all(s.startswith("#vhlo.tensor_v1<") for s in seen)
    assert m.root is not None
    add = next(op for op in m.root.walk() if op.name == "vhlo.add_v1")
    notes = reg.op_notes(add, add.name)
    assert [n.lines[0] for n in notes][-1] == "added by a test"
    assert notes[0].spelling is not None and notes[0].spelling.startswith("stablehlo.add : tensor<")
    info = module_info(m, len(data), reg)
    hooks = {h["hook"]: h for h in info["hooks"]}
    assert hooks["decode:vhlo.constant_v1"]["runs"] == 7
    assert hooks["note:vhlo.add_v1"]["runs"] == 1
    assert hooks["write-check:vhlo"]["origin"] == "plugin mlirbc:stablehlo"
    assert info["models"]["vhlo.add_v1"] == "plugin mlirbc:stablehlo"
    assert encode_bytecode(m, registry=reg) == data


def test_a_plugin_module_replaces_one_op_and_info_says_so() -> None:
    from mlirbc.summary import module_info
    from stablehlo_test_plugin import SUMMARY

    reg = models(plugin_modules=["stablehlo_test_plugin"])
    assert not reg.problems
    look = reg.op("vhlo.constant_v1")
    assert look.origin == "plugin module stablehlo_test_plugin" and look.model is not None
    assert look.model.info().summary == SUMMARY
    assert reg.op("vhlo.add_v1").origin == "plugin mlirbc:stablehlo"  # the others stay
    data = (CORPUS / "vhlo" / "attention_dpa.mlirbc").read_bytes()
    m = decode_bytecode(data, reg)
    assert not m.fallbacks and encode_bytecode(m, registry=reg) == data
    info = module_info(m, len(data), reg)
    assert info["models"]["vhlo.constant_v1"] == "plugin module stablehlo_test_plugin"
    assert info["models"]["vhlo.dot_general_v2"] == "plugin mlirbc:stablehlo"
    replaced = {r["key"]: r["replaced"] for r in info["replaced_models"]}
    assert replaced["op:vhlo.constant_v1"] == ["plugin mlirbc:stablehlo"]
    assert m.root is not None
    add = next(op for op in m.root.walk() if op.name == "vhlo.add_v1")
    lines = [line for n in reg.op_notes(add, add.name) for line in n.lines]
    assert lines[0].startswith("**StableHLO** `stablehlo.add`")
    assert lines[-1] == "2 operands (from stablehlo_test_plugin)"


# -- integers the text can hold ------------------------------------------------------------------------

def test_a_huge_quantized_dimension_is_a_located_error() -> None:
    """Found by a hostile-text run: a quantized dimension of 4,000 hex digits was read, and printing it in
    decimal (a diagnostic, the saved view) ended in Python's digit-limit ValueError."""
    from corpus import REPO
    from mlirbc.view.parser import parse_module

    text = (REPO / "tests" / "data" / "hardening" / "found_vhlo_quant_dim_4000_hex_digits.mlir").read_text()
    result = parse_module(text, registry=registry())
    got = [(e.span.start_line + 1, e.span.start_col + 1, e.message) for e in result.errors]
    line = next(i for i, s in enumerate(text.split("\n"), 1) if "0xFFFF" in s)
    col = text.split("\n")[line - 1].index("0xFFFF") + 1
    assert got == [(line, col, "integer constant out of range for the quantized dimension")]


_I8, _F32 = "!vhlo.i8_v1", "!vhlo.f32_v1"
_BIG_HEX = "0x" + "F" * 4000
_BIG_DEC = "9" * 5000


@pytest.mark.parametrize("text, what", [
    (f"!vhlo.quant_per_axis_v1<{_I8}:{_F32}, 2147483648, [1.0], [0], -127:127, 1>", "quantized dimension"),
    (f"!vhlo.quant_per_axis_v1<{_I8}:{_F32}, 0, [1.0], [{_BIG_DEC}], -127:127, 1>", "a zero point"),
    (f"!vhlo.quant_per_axis_v1<{_I8}:{_F32}, 0, [1.0], [0], -127:127, 4294967296>", "flags"),
    (f"!vhlo.quant_v1<{_I8}:{_F32}, 1.0:{_BIG_HEX}, -127:127, 1>", "zero point"),
    (f"!vhlo.quant_v1<{_I8}:{_F32}, 1.0:0, -9223372036854775809:127, 1>", "storage minimum"),
    (f"!vhlo.quant_v1<{_I8}:{_F32}, 1.0:0, -127:9223372036854775808, 1>", "storage maximum"),
    (f"!vhlo.tensor_v1<?x{_F32}, #vhlo.type_extensions_v1<bounds = [{_BIG_HEX}]>>", "dimension size"),
    (f"#vhlo.output_operand_alias_v1<outputTupleIndices = [], operandIndex = {_BIG_DEC}, "
     "operandTupleIndices = []>", "operandIndex"),
    ('#sdy.sharding<@mesh, [{"a"}p' + _BIG_DEC + ", {}]>", "priority"),
    ('#sdy.mesh<["a"=' + _BIG_HEX + "]>", "64-bit integer"),
    ('#sdy.op_sharding_rule<([i])->([i]) {i=' + _BIG_DEC + "}>", "64-bit integer"),
])
def test_every_integer_slot_is_bounded_by_its_type(text: str, what: str) -> None:
    from mlirbc.errors import TextError

    parse = parse_type_text if text.startswith("!") else parse_attribute_text
    with pytest.raises(TextError) as info:
        parse(text, SYNTAX)
    assert "out of range" in str(info.value) and what in str(info.value), str(info.value)[:300]
