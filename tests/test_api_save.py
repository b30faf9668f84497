"""`Module.save`: faithful writes from the Python API, on every kind of corpus file.

* an unchanged save is the file read, byte for byte (upstream versions 0-6, IREE's MLIR 24 files, JAX and
  other StableHLO exports at bytecode versions 0-6, the 112k-op file, files with fallback ops);
* after an edit, every top-level op the program did not touch is copied byte for byte (its nested section
  is the original's), and upstream `mlir-opt` reads the result and prints what it printed for the
  original with just the edit;
* a save that could not be read back (or that would leave opaque payloads pointing into another file's
  tables) raises EncodeError and writes nothing; only regular files are written, atomically.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest

import mlirbc
from corpus import CORPUS
from large_module import LargeModule
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.template import template_of
from mlirbc.ir import Block, Location, Operation, StringAttr
from oracle import SKIP_REASON, mlir_opt_path, run_mlir_opt

UPSTREAM = [f"upstream/Dialect__SCF__ops.f08{v}.mlirbc"
            for v in ("", ".v0", ".v1", ".v2", ".v3", ".v4", ".v5")]
OTHERS = ["iree/mlp2.flow.mlirbc", "iree/mlp2.flow.v0.mlirbc", "iree/transformer_block.vm.mlirbc",
          "jax/mlp2.mlirbc", "jax/mlp2_const.mlirbc", "vhlo/cond_switch.v0_9_0.mlirbc",
          "vhlo/mlp_f32.v0_12_0.mlirbc", "vhlo/mlp_f32.v0_14_0.mlirbc"]
WITH_FALLBACKS = [("upstream/Dialect__Arith__ops.mlirbc", ("arith",)), ("jax/mlp2.mlirbc", ("vhlo",)),
                  ("iree/mlp2.stream.mlirbc", ("stream", "hal", "util"))]
ORACLE_FLAGS = ["--allow-unregistered-dialect", "--mlir-print-op-generic", "--mlir-print-local-scope",
                "--mlir-print-debuginfo"]


def _oracle(data: bytes) -> str:
    if mlir_opt_path() is None:
        pytest.skip(SKIP_REASON)
    proc = run_mlir_opt(ORACLE_FLAGS, data)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[:2000]
    return proc.stdout.decode()


@pytest.mark.parametrize("rel", UPSTREAM + OTHERS)
def test_an_unchanged_save_is_the_file_read(rel: str, tmp_path: Path) -> None:
    m = mlirbc.load(CORPUS / rel)
    out = tmp_path / "out.mlirbc"
    m.save(out)
    assert out.read_bytes() == (CORPUS / rel).read_bytes()


def test_an_unchanged_save_of_the_112k_op_file_is_the_file_read(large: LargeModule, tmp_path: Path) -> None:
    m = mlirbc.load(large.path)
    out = tmp_path / "out.mlirbc"
    m.save(out)
    assert out.read_bytes() == large.path.read_bytes()


@pytest.mark.parametrize("rel,disabled", WITH_FALLBACKS)
def test_an_unchanged_save_of_fallbacks_is_the_file_read(rel: str, disabled: tuple[str, ...],
                                                         tmp_path: Path) -> None:
    m = mlirbc.load(CORPUS / rel, disable_models=disabled)
    assert any(op.is_fallback for op in m.walk())
    out = tmp_path / "out.mlirbc"
    m.save(out)
    assert out.read_bytes() == (CORPUS / rel).read_bytes()


def _sections(data: bytes) -> list[bytes]:
    """The nested section bytes of each top-level op of a file, in order (empty for ops without one)."""
    module = decode_bytecode(data)
    src = template_of(module)
    assert module.root is not None and src is not None
    out = []
    for op in module.root.regions[0].blocks[0].operations:
        span = src.isolated_sections.get(op)
        out.append(data[span[0]:span[1]] if span is not None else b"")
    return out


def _write(tmp_path: Path, data: bytes) -> Path:
    out = tmp_path / "out.mlirbc"
    out.write_bytes(data)
    return out


def _edit_one(m: mlirbc.Module) -> int:
    """Give one op inside the first top-level op with a body a new location; returns that op's index."""
    for i, top in enumerate(m.body.operations):
        # an op the view shows (not one in a region its parent's custom form leaves out)
        shown = str(top)
        inner = [op for op in list(top.walk())[1:] if str(op).partition("\n")[0] in shown]
        if inner:
            inner[len(inner) // 2].location = Location.file("edited.mlir", 77777, 5)
            return i
    raise AssertionError("no op to edit")


@pytest.mark.parametrize("rel", UPSTREAM + OTHERS + [r for r, _ in WITH_FALLBACKS])
def test_after_an_edit_the_untouched_ops_are_byte_identical(rel: str, tmp_path: Path) -> None:
    disabled = dict(WITH_FALLBACKS).get(rel, ())
    original = (CORPUS / rel).read_bytes()
    m = mlirbc.load(CORPUS / rel, disable_models=disabled)
    edited = _edit_one(m)
    data = m.to_bytes()
    before, after = _sections(original), _sections(data)
    assert len(before) == len(after)
    for i, (a, b) in enumerate(zip(before, after, strict=True)):
        if i != edited:
            assert a == b, f"top-level op #{i} changed"
    assert b"edited.mlir" in data
    if before[edited]:  # (from version 2 on: isolated regions are nested sections)
        assert after[edited] != before[edited]
    # the view of every other top-level op is as before too (at any version)
    back = mlirbc.load(_write(tmp_path, data), disable_models=disabled)
    old = [str(op) for op in mlirbc.load(CORPUS / rel, disable_models=disabled).body.operations]
    new = [str(op) for op in back.body.operations]
    assert [i for i, (x, y) in enumerate(zip(old, new, strict=True)) if x != y] == [edited]
    if disabled:  # fallback payloads are carried byte for byte
        payloads = sorted(op.opaque_properties or b"" for op in m.walk() if op.is_fallback)
        assert sorted(op.opaque_properties or b"" for op in back.walk() if op.is_fallback) == payloads


def test_mlir_opt_reads_an_edited_file_as_the_original_with_the_edit() -> None:
    rel = "upstream/Dialect__SCF__ops.f08.mlirbc"
    original = (CORPUS / rel).read_bytes()
    m = mlirbc.load(CORPUS / rel)
    _edit_one(m)
    printed = _oracle(m.to_bytes())
    before = _oracle(original)
    assert printed != before and 'loc("edited.mlir":77777:5)' in printed
    # the same text but for the one location
    assert len(printed.splitlines()) == len(before.splitlines())
    diff = [(a, b) for a, b in zip(before.splitlines(), printed.splitlines(), strict=True) if a != b]
    no_loc = [re.sub(r"loc\([^)]*\)$", "", line) for line in diff[0]] if len(diff) == 1 else []
    assert len(no_loc) == 2 and no_loc[0] == no_loc[1]


def test_version_and_producer_are_kept_unless_asked(tmp_path: Path) -> None:
    rel = "upstream/Dialect__SCF__ops.f08.mlirbc"
    m = mlirbc.load(CORPUS / rel)
    m.body.operations[0].location = Location.name("renamed")
    out = tmp_path / "a.mlirbc"
    m.save(out)
    back = mlirbc.load(out)
    assert (back.version, back.producer) == (m.version, m.producer) == (6, "MLIR22.1.8")
    m.save(out, version=4, producer="my-tool")
    back = mlirbc.load(out)
    assert (back.version, back.producer) == (4, "my-tool")
    printed = _oracle(out.read_bytes())
    assert 'loc("renamed")' in printed


def test_a_save_that_would_not_read_back_writes_nothing(tmp_path: Path) -> None:
    m = mlirbc.load(CORPUS / "upstream/Dialect__Arith__ops.mlirbc")
    out = tmp_path / "keep.mlirbc"
    out.write_bytes(b"the old contents")
    f = m.body.operations[0]
    f.regions[0].blocks[0].arguments[0].set_type(mlirbc.IndexType.get())  # not its function_type's
    with pytest.raises(mlirbc.EncodeError, match="'func.func' op type of entry block argument #0"):
        m.save(out)
    assert out.read_bytes() == b"the old contents"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.mlirbc"]  # no temporary file left


def test_a_changed_module_that_does_not_verify_is_refused_unless_asked(tmp_path: Path) -> None:
    m = mlirbc.load(CORPUS / "upstream/Dialect__Arith__ops.mlirbc")
    out = tmp_path / "keep.mlirbc"
    out.write_bytes(b"the old contents")
    add = next(op for op in m.walk() if op.name == "arith.addi" and str(op.results[0].type) == "i64")
    add.results[0].set_type(mlirbc.IntegerType.get_signless(32))  # its operands stay i64
    message = "'arith.addi' op requires the same type for all operands and results"
    for save in (lambda: m.save(out), lambda: m.to_bytes(), lambda: m.operation.write_bytecode(io.BytesIO())):
        with pytest.raises(mlirbc.EncodeError, match=f"does not verify: {re.escape(message)}"):
            save()
    assert out.read_bytes() == b"the old contents"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.mlirbc"]
    m.save(out, verify=False)  # asked for: written, and it reads back with the fault
    assert str(mlirbc.load(out)).count("i64, i64) -> i32") == 1
    if mlir_opt_path() is not None:  # upstream's verifier refuses it too, with the same words
        proc = run_mlir_opt(ORACLE_FLAGS, out.read_bytes())
        assert proc.returncode != 0 and message in proc.stderr.decode()


def test_only_regular_files_are_written(tmp_path: Path) -> None:
    m = mlirbc.load(CORPUS / "upstream/Dialect__SCF__ops.f08.mlirbc")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file|FIFO|fifo"):
        m.save(fifo)
    assert fifo.is_fifo()
    with pytest.raises(OSError):
        m.save(tmp_path)


# -- fallback ops -------------------------------------------------------------------------------------

def _fallback_constant(m: mlirbc.Module) -> Operation:
    return next(op for op in m.walk() if op.name == "arith.constant" and op.is_fallback)


def test_fallback_ops_are_moved_erased_and_rewired_with_their_bytes(tmp_path: Path) -> None:
    rel = "upstream/Dialect__GPU__canonicalize.p02.mlirbc"
    m = mlirbc.load(CORPUS / rel, disable_models=["arith"])
    fallbacks = [op for op in m.walk() if op.is_fallback]
    assert len(fallbacks) > 5 and all(op.name.startswith("arith.") for op in fallbacks)
    payloads_before = sorted(op.opaque_properties or b"" for op in fallbacks)
    # rewire: a fallback op's operand swapped for another value of the same type
    target = next(op for op in fallbacks
                  if len(op.operands) == 2 and op.operands[0].type == op.operands[1].type)
    target.operands[0] = target.operands[1]
    # move: a fallback constant to the front of its block
    c = _fallback_constant(m)
    c.move_before(c.block.operations[0])
    # erase: an unused fallback op
    unused = next((op for op in fallbacks if op.results and not any(
        list(r.uses) for r in op.results) and op is not c), None)
    if unused is not None:
        unused.erase()
    out = tmp_path / "fb.mlirbc"
    m.save(out)
    back = mlirbc.load(out, disable_models=["arith"])
    after = sorted(op.opaque_properties or b"" for op in back.walk() if op.is_fallback)
    expected = list(payloads_before)
    if unused is not None:
        expected.remove(unused.opaque_properties or b"")
    assert after == expected
    printed = _oracle(out.read_bytes())  # mlir-opt knows arith: it decodes those payloads itself
    assert printed.count('"arith.') == len(after)


def test_opaque_payloads_refuse_to_be_read_or_changed_as_decoded() -> None:
    m = mlirbc.load(CORPUS / "upstream/Dialect__Arith__ops.mlirbc", disable_models=["arith"])
    op = next(o for o in m.walk() if o.name == "arith.addi")
    assert op.is_fallback and "disable" in (op.fallback_reason or "")
    with pytest.raises(mlirbc.OpaqueError, match="arith.addi.*opaque"):
        _ = op.attributes["overflowFlags"]
    with pytest.raises(mlirbc.OpaqueError, match="arith.addi"):
        _ = "overflowFlags" in op.attributes
    with pytest.raises(mlirbc.OpaqueError, match="arith.addi"):
        del op.attributes["overflowFlags"]
    assert op.attributes.keys() == []  # what is decoded: nothing
    op.attributes["my.tag"] = StringAttr.get("ok")  # a discardable attribute of its own
    assert op.attributes["my.tag"].value == "ok" and op.opaque_properties


def test_a_save_that_would_leave_a_dangling_opaque_reference_is_refused(tmp_path: Path) -> None:
    """A fallback payload holds numbers of its file's attribute and type entries: moved into another
    module, those numbers would name that file's entries.  Saving refuses, and writes nothing."""
    rel = CORPUS / "upstream/Dialect__GPU__canonicalize.p02.mlirbc"
    a = mlirbc.load(rel, disable_models=["arith"])
    b = mlirbc.load(CORPUS / "upstream/Dialect__SCF__ops.f08.mlirbc", disable_models=["arith"])
    c = next(op for op in a.walk() if op.name == "arith.constant" and op.is_fallback and not op.operands)
    c.move_before(next(op for op in b.walk() if op.name == "func.return"))
    out = tmp_path / "b.mlirbc"
    with pytest.raises(mlirbc.EncodeError, match="arith.constant.*another file"):
        b.save(out)
    assert not out.exists()
    fresh = mlirbc.Module.create()
    d = next(op for op in a.walk() if op.name == "arith.constant" and op.is_fallback and not op.operands)
    fresh.body.append(d)
    with pytest.raises(mlirbc.EncodeError, match="arith.constant"):
        fresh.save(out)
    assert not out.exists()
    # moved back home, it saves again
    home = next(op for op in a.walk() if op.name == "func.return")
    c.move_before(home)
    d.move_before(home)
    a.save(out)
    assert len([op for op in mlirbc.load(out, disable_models=["arith"]).walk() if op.is_fallback]) == \
        len([op for op in a.walk() if op.is_fallback])


def test_weights_an_edit_no_longer_uses_are_left_out(tmp_path: Path) -> None:
    np = pytest.importorskip("numpy")
    rel = CORPUS / "jax/mlp2_const.mlirbc"
    m = mlirbc.load(rel)
    const = next(op for op in m.walk() if op.name == "vhlo.constant_v1" and
                 op.attributes["value"].dense_type.shape == [784, 256])
    old = np.asarray(const.attributes["value"].dense_values()).copy()
    new = np.full((784, 256), 0.25, dtype=np.float32) + np.arange(256, dtype=np.float32)
    const.attributes["value"] = const.attributes["value"].with_dense_data(new)
    out = tmp_path / "w.mlirbc"
    m.save(out)
    data = out.read_bytes()
    assert old.tobytes()[:4096] not in data and new.tobytes() in data
    assert len(data) < rel.stat().st_size + 4096
    back = mlirbc.load(out)
    value = next(op for op in back.walk() if op.name == "vhlo.constant_v1" and
                 op.attributes["value"].dense_type.shape == [784, 256]).attributes["value"]
    assert (np.asarray(value.dense_values()) == new).all()


def test_new_blocks_and_ops_save_and_read_back(tmp_path: Path) -> None:
    m = mlirbc.load(CORPUS / "upstream/Dialect__Arith__ops.mlirbc")
    i32 = mlirbc.IntegerType.get_signless(32)
    with mlirbc.InsertionPoint(m.body), Location.file("made.py", 1, 1):
        f = Operation.create("func.func", regions=1, attributes={
            "sym_name": StringAttr.get("made"),
            "function_type": mlirbc.TypeAttr.get(mlirbc.FunctionType.get([i32], [i32]))})
    entry: Block = f.regions[0].blocks.append(i32, arg_locs=[Location.unknown()])
    with mlirbc.InsertionPoint(entry):
        c = Operation.create("arith.constant", results=[i32],
                             attributes={"value": mlirbc.IntegerAttr.get(i32, 41)})
        add = Operation.create("arith.addi", results=[i32], operands=[entry.arguments[0], c.result])
        Operation.create("func.return", operands=[add.result])
    out = tmp_path / "made.mlirbc"
    m.save(out)
    printed = _oracle(out.read_bytes())
    assert '"arith.constant"() <{value = 41 : i32}>' in printed and 'sym_name = "made"' in printed
