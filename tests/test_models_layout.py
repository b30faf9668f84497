"""Property layouts of ODS-derived models: the spec's hand-checked payloads, native property codecs, and a
decode/encode round trip of every generated op on synthetic payloads at versions 5 and 6."""

from __future__ import annotations

import dataclasses
import random
import struct

import pytest

from mlirbc.ir.attributes import (
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    IntegerAttr,
    StringAttr,
    UnitAttr,
)
from mlirbc.ir.types import IntegerType
from mlirbc.models.api import ModelError
from mlirbc.models.layout import (
    ATTR_FLAGGED,
    ATTR_REQUIRED,
    SEGMENTS,
    Field,
    LayoutOpModel,
    native_codec,
    segment_attr,
    segment_sizes,
)
from mlirbc.models.memory import MemoryEntryReader, MemoryEntryWriter
from mlirbc.models.ods import OdsDataset
from test_property_storage import sample_of_kind

DATASET = OdsDataset()


def model(name: str) -> LayoutOpModel:
    """The op's layout alone: these tests check bytes with string stand-ins for every attribute (the
    kinds each property stores are checked in test_property_storage.py and by the round trip below)."""
    m = OdsDataset().model(name)
    assert m is not None, name
    m = dataclasses.replace(m, attributes=[dataclasses.replace(f, storage=None) for f in m.attributes])
    return m


def table(n: int = 32) -> list[Attribute]:
    """Stand-ins for a file's attribute table: entry i is the string `attr#i`."""
    return [StringAttr.get(f"attr#{i}") for i in range(n)]


def decode(name: str, payload: str, version: int = 6) -> dict[str, Attribute]:
    r = MemoryEntryReader(bytes.fromhex(payload), attrs=table(), version=version)
    return model(name).decode_properties(r)


def encode(name: str, values: dict[str, Attribute], version: int = 6) -> str:
    w = MemoryEntryWriter(version, attrs=table())
    model(name).encode_properties(values, w)
    return w.data.hex(" ")


def a(i: int) -> Attribute:
    return StringAttr.get(f"attr#{i}")


# -- format section 7.3: observed payloads -----------------------------------------------------------
SPEC_EXAMPLES = [
    # (op, version, payload, decoded fields)
    ("builtin.module", 6, "01 01", {}),
    ("func.func", 6, "01 05 01 01 07 01", {"function_type": a(2), "sym_name": a(3)}),
    ("func.func", 6, "01 0f 01 01 11 27",
     {"function_type": a(7), "sym_name": a(8), "sym_visibility": a(9)}),
    ("arith.constant", 6, "11", {"value": a(8)}),
    ("arith.addi", 6, "43", {"overflowFlags": a(16)}),
    ("cf.cond_br", 6, "01 0d 03 03 01", {"operandSegmentSizes": segment_attr([1, 1, 0])}),
    ("cf.cond_br", 5, "01 19", {"operandSegmentSizes": a(12)}),
    ("memref.alloc", 6, "01 07 01 03", {"operandSegmentSizes": segment_attr([1, 0])}),
    ("memref.alloc", 6, "01 07 03 07", {"operandSegmentSizes": segment_attr([0, 1])}),
    ("memref.alloc", 6, "4f 03", {"alignment": a(19), "operandSegmentSizes": segment_attr([0, 0])}),
    ("memref.alloc", 6, "01 09 05 03", {"operandSegmentSizes": segment_attr([2, 1])}),
    ("scf.for", 6, "01", {}),
]


@pytest.mark.parametrize("op,version,payload,fields", SPEC_EXAMPLES,
                         ids=[f"{e[0]}-v{e[1]}-{e[2].replace(' ', '')}" for e in SPEC_EXAMPLES])
def test_spec_payloads(op: str, version: int, payload: str, fields: dict[str, Attribute]) -> None:
    values = decode(op, payload, version)
    assert values == dict(sorted(fields.items()))
    assert list(values) == sorted(values), "decoded fields come sorted by name"
    assert encode(op, values, version) == payload


def test_layout_facts() -> None:
    func = model("func.func")
    assert [(f.name, f.kind) for f in func.attributes] == [
        ("arg_attrs", ATTR_FLAGGED), ("function_type", ATTR_REQUIRED), ("no_inline", ATTR_FLAGGED),
        ("res_attrs", ATTR_FLAGGED), ("sym_name", ATTR_REQUIRED), ("sym_visibility", ATTR_FLAGGED)]
    # upper case sorts first (byte-wise order)
    assert model("llvm.func").attributes[0].name == "CConv"
    # at v5 the segment sizes sit at their sorted place, before static_*
    sub = [f.name for f in model("memref.subview").attributes]
    assert sub.index("operandSegmentSizes") < sub.index("static_offsets")
    seg = model("memref.subview").attributes[sub.index("operandSegmentSizes")]
    assert seg.kind == SEGMENTS and seg.count == 4
    assert [f.name for f in model("gpu.spmm_buffer_size").attributes if f.kind == SEGMENTS] == [
        "resultSegmentSizes"]
    assert model("arith.addi").attributes[0].default == "#arith.overflow<none>"
    assert model("arith.xori").has_properties() is False
    assert model("func.return").has_properties() is False


def test_op_info() -> None:
    info = model("func.func").info()
    assert info.isolated_from_above
    assert info.summary == "An operation with a name containing a single `SSACFG` region"
    assert info.regions == ["body"]
    assert "function_type" in info.attributes
    br = model("cf.cond_br").info()
    assert br.operands == ["condition", "trueDestOperands", "falseDestOperands"]
    assert br.successors == ["trueDest", "falseDest"]
    assert model("arith.addi").info().description.startswith("Performs N-bit addition")
    assert not model("arith.addi").info().isolated_from_above


def test_flagged_forms() -> None:
    # absent: varint 0; present: varint (n << 1) | 1; a non-zero even value is malformed
    assert decode("scf.for", "03") == {"unsignedCmp": a(0)}
    assert decode("scf.for", "07") == {"unsignedCmp": a(1)}
    with pytest.raises(ModelError):
        decode("scf.for", "05")
    with pytest.raises(ModelError):
        decode("arith.constant", "11 01")  # trailing bytes
    with pytest.raises(ModelError):
        encode("arith.constant", {})  # required field missing
    with pytest.raises(ModelError):
        encode("arith.constant", {"value": a(1), "bogus": a(2)})


def test_segment_count_checked() -> None:
    with pytest.raises(ModelError):
        decode("memref.alloc", "01 07 05 05 03 05")  # three segments for two operand groups
    with pytest.raises(ModelError):
        encode("memref.alloc", {"operandSegmentSizes": segment_attr([1, 2, 3])})


# -- native properties (format 7.3 item 2; properties-from-ods rule 8) ---------------------------------
I1, I8, I32, I64 = IntegerType.get(1), IntegerType.get(8), IntegerType.get(32), IntegerType.get(64)


def test_native_layouts() -> None:
    load = model("ptr.load")
    assert [(f.name, f.kind) for f in load.natives] == [
        ("alignment", "native:opt(int64)"), ("volatile_", "native:unit"), ("nontemporal", "native:unit"),
        ("invariant", "native:unit"), ("invariantGroup", "native:unit"), ("ordering", "native:enum")]
    assert [f.kind for f in model("llvm.add").natives] == ["native:enum"]
    assert [f.kind for f in model("ptr.ptr_diff").natives] == ["native:uint8"]
    assert [f.kind for f in model("affine.linearize_index").natives] == ["native:unit"]


def test_ptr_load_payload() -> None:
    # syncscope absent, alignment [16], volatile_, not nontemporal/invariant, invariantGroup, ordering 2
    payload = "01 01 21 01 00 00 01 05"
    values = decode("ptr.load", payload)
    assert values == {
        "alignment": ArrayAttr.get((IntegerAttr.get(I64, 16),)),
        "invariant": IntegerAttr.get(I1, 0),
        "invariantGroup": UnitAttr.get(),
        "nontemporal": IntegerAttr.get(I1, 0),
        "ordering": IntegerAttr.get(I32, 2),
        "volatile_": UnitAttr.get(),
    }
    assert encode("ptr.load", values) == payload
    assert decode("ptr.load", "01 00 00 00 00 00 01", 5)["alignment"] is ArrayAttr.get(())


@pytest.mark.parametrize("spec,payload,value", [
    ("unit", "01", UnitAttr.get()),
    ("unit", "00", IntegerAttr.get(I1, 0)),
    ("bool", "01", IntegerAttr.get(I1, 1)),
    ("enum", "09", IntegerAttr.get(I32, 4)),
    ("uint8", "02 02", IntegerAttr.get(I8, 128)),
    ("int64", "03", IntegerAttr.get(I64, 1)),
    ("int32", "00 ff ff ff ff ff ff ff ff", IntegerAttr.get(I32, 0xFFFFFFFF)),  # sign-extended -1
    ("int", "05", IntegerAttr.get(I64, 2)),
    ("opt_int", "00", ArrayAttr.get(())),
    ("opt(int64)", "01 21", ArrayAttr.get((IntegerAttr.get(I64, 16),))),
    ("string", "03", StringAttr.get(b"s1")),
    ("attr", "05", a(2)),
    ("array(enum)", "05 03 05", ArrayAttr.get((IntegerAttr.get(I32, 1), IntegerAttr.get(I32, 2)))),
    ("intarray(int64)", "05 03 05",
     DenseArrayAttr.get(I64, 2, struct.pack("<2q", 1, 2))),
    ("opt(array(string))", "01 03 01", ArrayAttr.get((ArrayAttr.get((StringAttr.get(b"s0"),)),))),
])
def test_native_codecs(spec: str, payload: str, value: Attribute) -> None:
    codec = native_codec(spec)
    assert codec is not None
    strings = [b"s0", b"s1"]
    r = MemoryEntryReader(bytes.fromhex(payload), attrs=table(), strings=strings)
    assert codec[0](r) is value and r.at_end()
    w = MemoryEntryWriter(attrs=table(), strings=list(strings))
    codec[1](value, w)
    assert w.data.hex(" ") == payload


@pytest.mark.parametrize("spec,payload", [
    ("unit", "02"), ("bool", "02"), ("opt(int64)", "02"),
    ("enum", "00 00 00 00 00 01 00 00 00"),  # beyond uint32, as upstream's reader refuses
    ("uint8", "02 04"),  # 256
    ("int32", "00 00 00 00 00 01 00 00 00"),  # not a sign-extended 32-bit value
])
def test_native_codecs_strict(spec: str, payload: str) -> None:
    codec = native_codec(spec)
    assert codec is not None
    with pytest.raises(ModelError):
        codec[0](MemoryEntryReader(bytes.fromhex(payload)))


def test_unknown_native_codec_is_a_model_error() -> None:
    assert native_codec("unknown") is None
    m = LayoutOpModel("x.y", natives=[Field("p", "native:unknown")])
    with pytest.raises(ModelError):
        m.decode_properties(MemoryEntryReader(b"\x01"))


# -- every generated op: synthetic round trip -------------------------------------------------------
def _sample(spec: str, rng: random.Random) -> Attribute:
    if spec.startswith("opt("):
        if rng.random() < 0.3:
            return ArrayAttr.get(())
        return ArrayAttr.get((_sample(spec[4:-1], rng),))
    if spec.startswith("array("):
        return ArrayAttr.get(tuple(_sample(spec[6:-1], rng) for _ in range(rng.randrange(3))))
    if spec.startswith("intarray(int"):
        width = int(spec[12:-1])
        vals = [rng.randrange(-5, 5) for _ in range(rng.randrange(3))]
        fmt = {8: "b", 16: "h", 32: "i", 64: "q"}[width]
        return DenseArrayAttr.get(IntegerType.get(width), len(vals), struct.pack(f"<{len(vals)}{fmt}", *vals))
    if spec == "unit":
        return UnitAttr.get() if rng.random() < 0.5 else IntegerAttr.get(I1, 0)
    if spec == "bool":
        return IntegerAttr.get(I1, rng.randrange(2))
    if spec == "enum":
        return IntegerAttr.get(I32, rng.randrange(1 << 32))
    if spec.startswith("uint"):
        width = int(spec[4:])
        return IntegerAttr.get(IntegerType.get(width), rng.randrange(1 << width))
    if spec.startswith("int"):
        width = int(spec[3:] or 64)
        return IntegerAttr.get(IntegerType.get(width), rng.randrange(1 << width))
    if spec == "string":
        return StringAttr.get(f"s{rng.randrange(5)}")
    if spec == "attr":
        return StringAttr.get(f"attr#{rng.randrange(5)}")
    raise AssertionError(f"no sample for codec {spec}")


def _synthetic_values(m: LayoutOpModel, rng: random.Random, version: int,
                      present: float) -> dict[str, Attribute]:
    values: dict[str, Attribute] = {}
    for i, f in enumerate(m.attributes):
        if f.kind == SEGMENTS:
            n = f.count if f.count is not None else 3
            sizes = [rng.choice((0, 0, 1, 2, 300)) for _ in range(n)]
            values[f.name] = segment_attr(sizes)
        elif f.kind == ATTR_REQUIRED or rng.random() < present:
            values[f.name] = sample_of_kind(f.storage, f"{m.name}:{f.name}:{i % 3}")
    for f in m.natives:
        values[f.name] = _sample(f.kind.removeprefix("native:"), rng)
    return values


def all_op_names() -> list[str]:
    return sorted(f"{d}.{op}" for d, e in DATASET.dialects.items() for op in e["ops"])


def test_generated_data_counts() -> None:
    names = all_op_names()
    assert len(names) == 2633
    assert len(DATASET.dialects) == 48
    assert sum(1 for n in names if model(n).has_properties()) == 1374


@pytest.mark.parametrize("dialect", sorted(DATASET.dialects))
def test_every_op_round_trips(dialect: str) -> None:
    ds = OdsDataset()
    rng = random.Random(dialect)
    for op in ds.dialects[dialect]["ops"]:
        m = ds.model(f"{dialect}.{op}")
        assert m is not None and m.name == f"{dialect}.{op}"
        for f in m.natives:
            assert native_codec(f.kind.removeprefix("native:")) is not None, (m.name, f)
        for version in (5, 6):
            for present in (0.0, 0.5, 1.0):
                values = _synthetic_values(m, rng, version, present)
                w = MemoryEntryWriter(version)
                m.encode_properties(values, w)
                if not m.has_properties():
                    assert w.data == b""
                    continue
                r = MemoryEntryReader(w.data, attrs=w.attrs, strings=w.strings, version=version)
                decoded = m.decode_properties(r)
                assert decoded == dict(sorted(values.items())), m.name
                w2 = MemoryEntryWriter(version, attrs=list(w.attrs), strings=list(w.strings))
                m.encode_properties(decoded, w2)
                assert w2.data == w.data, m.name


def test_segment_helpers() -> None:
    assert segment_sizes(segment_attr([3, 0, 1])) == [3, 0, 1]
    with pytest.raises(ModelError):
        segment_sizes(StringAttr.get("x"))
