"""The kinds of attribute an op's properties store (`models.storage`): what each ODS storage class admits
and refuses, and that every spec in the generated data is one the check knows (an unknown spec would
admit anything without a word).  The reader, parser and writer sides are in test_hardening.py."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from mlirbc.ir.attributes import (
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    DenseElementsAttr,
    DenseStringElementsAttr,
    DialectAttr,
    DictionaryAttr,
    FallbackAttr,
    FlatSymbolRefAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
    UnknownLoc,
)
from mlirbc.ir.types import FloatType, IndexType, IntegerType, RankedTensorType
from mlirbc.models import storage
from mlirbc.models.storage import storage_problem

MODELS = Path(storage.__file__).parent
I32 = IntegerType.get(32)
F32 = FloatType.get("f32")
NESTED = SymbolRefAttr.get(StringAttr.get("a"), (FlatSymbolRefAttr.get(StringAttr.get("b")),))

_DENSE_ARRAYS = {"DenseBoolArrayAttr": (IntegerType.get(1), 1), "DenseI8ArrayAttr": (IntegerType.get(8), 1),
                 "DenseI16ArrayAttr": (IntegerType.get(16), 2), "DenseI32ArrayAttr": (I32, 4),
                 "DenseI64ArrayAttr": (IntegerType.get(64), 8), "DenseF32ArrayAttr": (F32, 4),
                 "DenseF64ArrayAttr": (FloatType.get("f64"), 8)}


def sample_of_kind(spec: str | None, tag: str) -> Attribute:
    """An attribute property `spec` admits, distinct per `tag` where the kind allows it."""
    ints = DenseElementsAttr.get(RankedTensorType.get((2,), I32), tag.encode()[:8].ljust(8, b"\0"))
    if spec is None or spec == "StringAttr":
        return StringAttr.get(tag)
    if spec.startswith("#"):
        dialect, _, mnemonic = spec[1:].partition(".")
        text = f'#{dialect}.{mnemonic}<"{tag}">' if mnemonic else f'#{dialect}<"{tag}">'
        return DialectAttr.get(dialect, text)
    if spec.startswith("int-enum:"):
        return IntegerAttr.get(IntegerType.get(int(spec[9:])), len(tag))
    if spec in _DENSE_ARRAYS:
        t, size = _DENSE_ARRAYS[spec]
        return DenseArrayAttr.get(t, 1, b"\1" + b"\0" * (size - 1))
    samples: dict[str, Attribute] = {
        "IntegerAttr": IntegerAttr.get(IntegerType.get(64), len(tag)),
        "BoolAttr": IntegerAttr.get(IntegerType.get(1), 1),
        "FloatAttr": FloatAttr.get(F32, len(tag)),
        "ArrayAttr": ArrayAttr.get((StringAttr.get(tag),)),
        "DictionaryAttr": DictionaryAttr.get(((StringAttr.get("k"), StringAttr.get(tag)),)),
        "TypeAttr": TypeAttr.get(I32),
        "UnitAttr": UnitAttr.get(),
        "AffineMapAttr": DialectAttr.get("builtin", "affine_map<(d0) -> (d0)>"),
        "IntegerSetAttr": DialectAttr.get("builtin", "affine_set<(d0) : (d0 >= 0)>"),
        "FlatSymbolRefAttr": FlatSymbolRefAttr.get(StringAttr.get(tag)),
        "SymbolRefAttr": SymbolRefAttr.get(StringAttr.get(tag), NESTED.nested),
        "LocationAttr": UnknownLoc.get(),
        "DenseElementsAttr": ints, "DenseIntElementsAttr": ints, "ElementsAttr": ints, "TypedAttr": ints,
        "DenseFPElementsAttr": DenseElementsAttr.get(RankedTensorType.get((1,), F32), b"\0" * 4),
    }
    return samples[spec]


def _specs() -> set[str]:
    found: set[str] = set()
    for path in MODELS.rglob("*.json.gz"):
        data = json.loads(gzip.decompress(path.read_bytes()))
        for op in (data.get("ops") or {}).values() if isinstance(data, dict) else ():
            found.update((op.get("storage") or {}).values())
    return found


def test_every_spec_in_the_data_is_known_and_has_a_sample() -> None:
    specs = _specs()
    assert {"IntegerAttr", "ArrayAttr", "#arith.fastmath", "int-enum:64"} <= specs
    for spec in sorted(specs):
        if spec.startswith(("#", "int-enum:")):
            continue
        assert spec in storage._BUILTIN, spec
        assert storage_problem("p", spec, sample_of_kind(spec, "x")) is None, spec


@pytest.mark.parametrize("spec, wrong", [
    ("IntegerAttr", UnknownLoc.get()),
    ("IntegerAttr", FloatAttr.get(F32, 0)),
    ("BoolAttr", IntegerAttr.get(I32, 1)),
    ("StringAttr", IntegerAttr.get(I32, 1)),
    ("ArrayAttr", DenseArrayAttr.get(I32, 0, b"")),
    ("TypeAttr", StringAttr.get("i32")),
    ("UnitAttr", ArrayAttr.get(())),
    ("AffineMapAttr", DialectAttr.get("builtin", "affine_set<(d0) : (d0 >= 0)>")),
    ("FlatSymbolRefAttr", NESTED),
    ("SymbolRefAttr", StringAttr.get("a")),
    ("DenseIntElementsAttr", DenseElementsAttr.get(RankedTensorType.get((1,), F32), b"\0" * 4)),
    ("DenseFPElementsAttr", DenseElementsAttr.get(RankedTensorType.get((1,), IndexType.get()), b"\0" * 8)),
    ("DenseI64ArrayAttr", DenseArrayAttr.get(I32, 0, b"")),
    ("DenseBoolArrayAttr", DenseArrayAttr.get(IntegerType.get(8), 0, b"")),
    ("DenseElementsAttr", DenseArrayAttr.get(I32, 0, b"")),
    ("ElementsAttr", IntegerAttr.get(I32, 1)),
    ("TypedAttr", ArrayAttr.get(())),
    ("TypedAttr", UnknownLoc.get()),
    ("int-enum:64", IntegerAttr.get(I32, 1)),
    ("int-enum:32", IntegerAttr.get(IntegerType.get(32, 1), 1)),
    ("#arith.fastmath", DialectAttr.get("arith", "#arith.overflow<none>")),
    ("#arith.fastmath", DialectAttr.get("llvm", "#llvm.fastmath<fast>")),
    ("#arith.fastmath", IntegerAttr.get(I32, 1)),
    ("#gpu", StringAttr.get("x")),
])
def test_what_a_kind_refuses(spec: str, wrong: Attribute) -> None:
    problem = storage_problem("p", spec, wrong)
    assert problem is not None and problem.startswith("property p must be ")


@pytest.mark.parametrize("spec, right", [
    ("TypedAttr", StringAttr.get("x")),
    ("TypedAttr", DialectAttr.get("ub", "#ub.poison")),
    ("ElementsAttr", DenseStringElementsAttr.get(RankedTensorType.get((1,), I32), True, (b"x",))),
    ("ElementsAttr", FallbackAttr.get("vhlo", b"\1\2")),
    ("SymbolRefAttr", FlatSymbolRefAttr.get(StringAttr.get("a"))),
    ("FlatSymbolRefAttr", SymbolRefAttr.get(StringAttr.get("a"), ())),
    ("IntegerAttr", IntegerAttr.get(IndexType.get(), 3)),
    # what the text does not show, a check cannot hold against: opaque text, aliases, opaque bytes
    ("#arith.fastmath", DialectAttr.get("arith", '#arith<"fastmath<fast>">')),
    ("#arith.fastmath", FallbackAttr.get("arith", b"\1")),
    ("#gpu", DialectAttr.get("gpu", "#gpu.dim<x>")),
    ("::mlir::SomeInterface", UnknownLoc.get()),
    (None, UnknownLoc.get()),
])
def test_what_a_kind_admits(spec: str | None, right: Attribute) -> None:
    assert storage_problem("p", spec, right) is None
