"""The reader on real bytes: every valid corpus file decodes; every damaged one fails with a located error."""

from __future__ import annotations

from collections import Counter

import pytest

from corpus import CORPUS, EXAMPLES, invalid_manifest, manifest
from mlirbc.bytecode.reader import read_bytecode
from mlirbc.errors import DecodeError
from mlirbc.ir.attributes import FallbackAttr
from mlirbc.ir.operation import PROPS_FALLBACK
from mlirbc.ir.types import FallbackType
from mlirbc.models.build import models

ROWS = manifest()


def _folder(row: dict[str, str]) -> str:
    return row["path"].split("/")[0]


@pytest.mark.parametrize("folder", sorted({_folder(r) for r in ROWS}))
def test_every_valid_file_decodes(folder: str) -> None:
    rows = [r for r in ROWS if _folder(r) == folder]
    assert rows
    failures = []
    for row in rows:
        data = (CORPUS / row["path"]).read_bytes()
        m = read_bytecode(data)
        if m.error is not None or m.root is None:
            failures.append(f"{row['path']}: {m.error}")
            continue
        assert m.version == int(row["bytecode_version"]), row["path"]
        assert m.producer == row["producer"], row["path"]
    assert not failures, "\n".join(failures[:20])


def _rejected(row: dict[str, str]) -> bool:
    verdict = row["mlir_opt"]
    return verdict.startswith("rejected") or row["damage"] == "empty" or (
        verdict.startswith("n/a") and row["damage"] not in ("ir_byte_flip_0", "ir_byte_flip_1",
                                                            "ir_byte_flip_2", "attrtype_byte_flip_0",
                                                            "attrtype_byte_flip_1"))


INVALID = invalid_manifest()

# Damage that leaves valid bytecode whose IR only a dialect's verifier rejects (an operand type constraint of
# llvm.getelementptr): a format reader cannot see it without the dialect's type constraints.
SEMANTIC_ONLY = {"Dialect__LLVMIR__roundtrip.v1__ir_byte_flip_2.mlirbc"}


@pytest.mark.parametrize("row", [r for r in INVALID if _rejected(r) and r["path"] not in SEMANTIC_ONLY],
                         ids=lambda r: r["path"])
def test_damaged_file_fails_with_located_error(row: dict[str, str]) -> None:
    data = (CORPUS / "invalid" / row["path"]).read_bytes()
    with pytest.raises(DecodeError) as info:
        m = read_bytecode(data)
        if m.error is not None:
            raise m.error
    err = info.value
    assert 0 <= err.offset <= len(data)
    assert f"byte {err.offset}" in str(err)


@pytest.mark.parametrize("row", [r for r in INVALID if r["mlir_opt"] == "accepted"
                                 or r["path"] in SEMANTIC_ONLY], ids=lambda r: r["path"])
def test_damage_that_mlir_opt_accepts_still_decodes(row: dict[str, str]) -> None:
    m = read_bytecode((CORPUS / "invalid" / row["path"]).read_bytes())
    assert m.error is None and m.root is not None


HANDCRAFTED = EXAMPLES / "handcrafted"
BROKEN = ["hc_dup_section", "hc_no_props", "hc_only_resource_offset", "hc_section_id_9",
          "hc_version_7", "hc_dialect_version_bad_id"]


@pytest.mark.parametrize("name", BROKEN)
def test_handcrafted_broken_files_are_rejected_with_offset(name: str) -> None:
    data = (HANDCRAFTED / f"{name}.mlirbc").read_bytes()
    with pytest.raises(DecodeError) as info:
        read_bytecode(data)
    assert 0 <= info.value.offset <= len(data)


def test_version_too_new_names_the_version() -> None:
    with pytest.raises(DecodeError, match="version 7 is newer"):
        read_bytecode((HANDCRAFTED / "hc_version_7.mlirbc").read_bytes())


@pytest.mark.parametrize("path", sorted(p.name for p in HANDCRAFTED.glob("*.mlirbc")
                                        if p.stem not in BROKEN))
def test_other_handcrafted_files_decode(path: str) -> None:
    m = read_bytecode((HANDCRAFTED / path).read_bytes())
    assert m.error is None and m.root is not None


def test_builtin_dialect_version_is_kept() -> None:
    m = read_bytecode((HANDCRAFTED / "hc_dialect_version.mlirbc").read_bytes())
    assert m.dialect_version("builtin") == bytes.fromhex("03")


@pytest.mark.parametrize("name", sorted(p.name for p in (CORPUS / "jax").glob("*.mlirbc")))
def test_jax_exports_keep_every_vhlo_part_opaque(name: str) -> None:
    m = read_bytecode((CORPUS / "jax" / name).read_bytes())
    assert m.error is None and m.root is not None and m.source is not None
    ops = list(m.root.walk())
    vhlo = [op for op in ops if op.name.startswith("vhlo.")]
    assert vhlo
    # Every vhlo op with properties is a fallback that keeps its exact payload bytes.
    for op in vhlo:
        if op.properties is not None:
            assert op.properties.kind == PROPS_FALLBACK
            raw = op.properties.raw
            assert raw is not None
            off = op.properties.offset
            assert bytes(m.source.data[off:off + len(raw)]) == raw
    vhlo_entries = [e for e in m.source.attrs + m.source.types
                    if m.source.dialects[e.dialect].name == "vhlo"]
    assert vhlo_entries
    for e in vhlo_entries:
        assert isinstance(e.value, (FallbackAttr, FallbackType))
        assert e.value.data == bytes(m.source.data[e.offset:e.offset + e.size])
    kinds = Counter(n.kind for n in m.fallbacks)
    assert kinds["op"] == sum(1 for op in vhlo if op.properties is not None)
    assert kinds["attribute"] + kinds["type"] == len(vhlo_entries)


def test_resource_blobs_are_zero_copy() -> None:
    data = (EXAMPLES / "08_resources.mlirbc").read_bytes()
    m = read_bytecode(data)
    blobs = [e.blob for g in m.resources for e in g.entries if e.blob is not None]
    assert blobs and all(isinstance(b, memoryview) for b in blobs)
    assert any(b.obj is data for b in blobs)  # a view into the file, not a copy
    keys = {(g.name, e.key) for g in m.resources for e in g.entries}
    assert ("mygroup", "blob_x") in keys and ("builtin", "blob1") in keys


def test_hostile_counts_do_not_allocate() -> None:
    good = (EXAMPLES / "01_empty.mlirbc").read_bytes()
    assert good[0x3A:0x3D] == bytes.fromhex("004307")
    # The string section claims 2**40 strings: a 9-byte count in a section grown by 8 bytes.
    bad = good[:0x3A] + bytes.fromhex("0053") + b"\0" + (2**40).to_bytes(8, "little") + good[0x3D:]
    with pytest.raises(DecodeError, match="string count"):
        read_bytecode(bad)


def test_disabled_dialect_ops_become_fallbacks_with_reason() -> None:
    reg = models(disabled=["builtin"])
    m = read_bytecode((EXAMPLES / "01_empty.mlirbc").read_bytes(), reg)
    assert m.root is not None and m.root.is_fallback
    assert m.root.properties is not None and "disabled" in m.root.properties.reason


def test_dialect_version_newer_than_the_model_makes_a_fallback() -> None:
    m = read_bytecode((HANDCRAFTED / "hc_dialect_version.mlirbc").read_bytes())
    assert m.root is not None and m.root.properties is not None
    assert m.root.properties.kind == PROPS_FALLBACK
    assert "dialect version (0x03) is newer than the model" in m.root.properties.reason
