"""Bad input through the Python API: damaged files, malformed calls, and programs that do odd things.

* every damaged corpus file that must be refused raises one exception type, `mlirbc.DecodeError` (an
  `mlirbc.Error`), naming the section and byte offset, with what could be read on it (`partial_module`);
* calls with things that are not IR raise at the call (TypeError/IRError), naming what is wrong;
* whatever a program does, `save` either refuses (EncodeError, nothing written) or writes a file the
  reader reads back: checked with seeded random edit sequences on real files.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import mlirbc
from corpus import CORPUS, invalid_manifest
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.ir import (
    Attribute,
    F32Type,
    IndexType,
    InsertionPoint,
    IntegerAttr,
    IntegerType,
    Location,
    Operation,
    StringAttr,
    UnitAttr,
)

INVALID = invalid_manifest()
SEMANTIC_ONLY = {"Dialect__LLVMIR__roundtrip.v1__ir_byte_flip_2.mlirbc"}
"""Damage only a dialect verifier sees (see test_reader_corpus)."""


def _rejected(row: dict[str, str]) -> bool:
    verdict = row["mlir_opt"]
    return (verdict.startswith("rejected") or row["damage"] == "empty" or (
        verdict.startswith("n/a") and "byte_flip" not in row["damage"])) and row["path"] not in SEMANTIC_ONLY


@pytest.mark.parametrize("row", [r for r in INVALID if _rejected(r)], ids=lambda r: r["path"])
def test_a_damaged_file_raises_one_located_error(row: dict[str, str], tmp_path: Path) -> None:
    path = CORPUS / "invalid" / row["path"]
    size = path.stat().st_size
    with pytest.raises(mlirbc.DecodeError) as info:
        mlirbc.load(path)
    err = info.value
    assert isinstance(err, mlirbc.Error)
    assert 0 <= err.offset <= size and f"byte {err.offset}" in str(err)
    assert err.section and err.section in str(err)
    partial = err.partial_module
    if partial is not None:
        assert isinstance(partial, mlirbc.Module)
        n = sum(1 for _ in partial.walk())
        assert n >= 1 and str(partial)  # it can be looked at
        with pytest.raises(mlirbc.EncodeError, match="partly decoded"):
            partial.save(tmp_path / "never.mlirbc")
        assert not (tmp_path / "never.mlirbc").exists()


def test_some_damaged_files_keep_what_was_read() -> None:
    partial = 0
    for row in INVALID:
        if not _rejected(row):
            continue
        try:
            mlirbc.load(CORPUS / "invalid" / row["path"])
        except mlirbc.DecodeError as err:
            if err.partial_module is not None:
                partial += 1
    assert partial >= 5


def test_calls_with_things_that_are_not_ir_raise_at_the_call() -> None:
    m = mlirbc.load(CORPUS / "upstream/Dialect__Arith__ops.mlirbc")
    f = m.body.operations[0]
    with pytest.raises(TypeError, match="Attribute"):
        f.attributes["x"] = 3  # type: ignore[assignment]
    with pytest.raises(mlirbc.IRError, match="non-empty"):
        f.attributes[""] = UnitAttr.get()
    with pytest.raises(TypeError, match="Value"):
        Operation.create("test.op", operands=[3], ip=False)  # type: ignore[list-item]
    with pytest.raises(TypeError, match="Type"):
        Operation.create("test.op", results=["i32"], ip=False)  # type: ignore[list-item]
    with pytest.raises(TypeError, match="Location"):
        f.location = "here"  # type: ignore[assignment]
    with pytest.raises(mlirbc.IRError, match="invalid op name"):
        Operation.create("", ip=False)
    with pytest.raises(mlirbc.IRError):
        IntegerAttr.get(F32Type.get(), 1)


# -- random programs ---------------------------------------------------------------------------------------

FILES = ["upstream/Dialect__SCF__ops.f08.mlirbc", "upstream/Dialect__Arith__ops.mlirbc",
         "upstream/Dialect__GPU__canonicalize.p02.mlirbc", "upstream/Dialect__SCF__ops.f08.v3.mlirbc",
         "jax/mlp2.mlirbc", "iree/mlp2.flow.mlirbc"]


def _random_edit(rng: random.Random, m: mlirbc.Module) -> None:
    ops = [op for op in m.walk()][1:]
    if not ops:
        return
    op = rng.choice(ops)
    values = [v for o in rng.sample(ops, min(20, len(ops))) for v in o.results]
    values += [a for o in rng.sample(ops, min(5, len(ops))) for r in o.regions for b in r.blocks
               for a in b.arguments]
    choice = rng.randrange(10)
    try:
        if choice == 0:
            op.erase()
        elif choice == 1:
            op.move_before(rng.choice(ops))
        elif choice == 2 and op.operands and values:
            op.operands[rng.randrange(len(op.operands))] = rng.choice(values)
        elif choice == 3 and op.results and values:
            op.results[0].replace_all_uses_with(rng.choice(values))
        elif choice == 4:
            name = rng.choice(list(op.attributes.keys()) or ["my.attr"])
            op.attributes[name] = rng.choice([UnitAttr.get(), StringAttr.get("s"),
                                              IntegerAttr.get(IntegerType.get_signless(32), 7),
                                              Attribute.parse("[1, 2]")])
        elif choice == 5 and op.attributes.keys():
            del op.attributes[rng.choice(op.attributes.keys())]
        elif choice == 6:
            with InsertionPoint(op):
                Operation.create(rng.choice(["test.new", "arith.constant", "func.return", "scf.yield"]),
                                 results=[IndexType.get()] * rng.randrange(2),
                                 operands=rng.sample(values, min(len(values), rng.randrange(3))),
                                 attributes={"value": IntegerAttr.get(IndexType.get(), 1)})
        elif choice == 7 and op.regions and op.regions[0].blocks:
            b = op.regions[0].blocks[0]
            b.add_argument(rng.choice([F32Type.get(), IndexType.get()]), Location.unknown())
        elif choice == 8 and op.results:
            op.results[0].set_type(rng.choice([F32Type.get(), IndexType.get()]))
        elif choice == 9:
            op.clone(ip=InsertionPoint(rng.choice(ops)) if rng.random() < 0.5 else None)
    except (mlirbc.IRError, mlirbc.OpaqueError, ValueError, KeyError):
        pass  # refused at the call: what matters is what a save does after


@pytest.mark.parametrize("seed", range(24))
def test_save_writes_what_the_reader_reads_or_refuses(seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    rel = FILES[seed % len(FILES)]
    disabled = ["arith"] if seed % 4 == 3 else []
    m = mlirbc.load(CORPUS / rel, disable_models=disabled)
    for _ in range(rng.randrange(1, 12)):
        _random_edit(rng, m)
    out = tmp_path / "out.mlirbc"
    out.write_bytes(b"before")
    try:
        m.save(out)
    except mlirbc.EncodeError:
        assert out.read_bytes() == b"before"
        return
    data = out.read_bytes()
    back = decode_bytecode(data)
    assert back.error is None, f"{rel} seed {seed}: the reader refuses what save wrote: {back.error}"
    again = mlirbc.load(out, disable_models=disabled)
    assert sum(1 for _ in again.walk()) == sum(1 for _ in m.walk())
