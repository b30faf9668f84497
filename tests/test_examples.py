"""The tutorial programs of `examples/`, run as programs on corpus files, their results checked by the
oracles: upstream `mlir-opt` reads what they write (and prints what its own passes would make), jaxlib
loads the weight-swapped JAX export and finds the new values in it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

import mlirbc
import stablehlo_oracle
from corpus import CORPUS, REPO
from oracle import SKIP_REASON, mlir_opt_path, run_mlir_opt

EXAMPLES = REPO / "examples"
FLAGS = ["--allow-unregistered-dialect", "--mlir-print-op-generic", "--mlir-print-local-scope",
         "--mlir-print-debuginfo"]


def example(name: str, *args: object) -> str:
    env = dict(os.environ, PYTHONPATH=str(REPO / "server"))
    proc = subprocess.run([sys.executable, str(EXAMPLES / f"{name}.py"), *map(str, args)],
                          capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def oracle(data: bytes, *extra: str) -> str:
    if mlir_opt_path() is None:
        pytest.skip(SKIP_REASON)
    proc = run_mlir_opt([*FLAGS, *extra], data, timeout=600)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[:3000]
    return proc.stdout.decode()


def op_counts(generic: str) -> Counter[str]:
    return Counter(re.findall(r'^\s*(?:%[^=]+= )?"([\w.$]+)"\(', generic, re.MULTILINE))


STATS_FILES = ["upstream/Dialect__Arith__ops.mlirbc", "upstream/Dialect__SCF__ops.f08.mlirbc",
               "upstream/Dialect__GPU__ops.mlirbc"]


@pytest.mark.parametrize("rel", STATS_FILES)
def test_dialect_statistics_count_what_mlir_opt_prints(rel: str) -> None:
    stats = json.loads(example("dialect_stats", CORPUS / rel, "--json"))
    assert stats["ops"] == op_counts(oracle((CORPUS / rel).read_bytes()))
    assert sum(stats["dialects"].values()) == sum(stats["ops"].values()) and not stats["fallbacks"]
    text = example("dialect_stats", CORPUS / rel)
    assert text.startswith(f"{sum(stats['ops'].values())} ops of {len(stats['ops'])} kinds")


def test_dialect_statistics_of_a_jax_export_count_what_jaxlib_prints() -> None:
    if not stablehlo_oracle.available():
        pytest.skip(stablehlo_oracle.SKIP_REASON)
    rel = CORPUS / "jax" / "mlp2.mlirbc"
    stats = json.loads(example("dialect_stats", rel, "--json", "--disable-model", "vhlo"))
    assert stats["ops"] == op_counts(stablehlo_oracle.generic_print(rel.read_bytes()))
    info = json.loads(subprocess.run(
        [sys.executable, "-m", "mlirbc.cli", "info", "--json", "--disable-model", "vhlo", str(rel)],
        capture_output=True, text=True, check=True, env=dict(os.environ, PYTHONPATH=str(REPO / "server")),
    ).stdout)
    assert sum(stats["fallbacks"].values()) == info["fallbacks"]["op"] > 0


def test_strip_debug_locations_is_what_mlir_opt_strip_debuginfo_makes(tmp_path: Path) -> None:
    rel = CORPUS / "upstream" / "Dialect__SCF__ops.f08.mlirbc"
    out = tmp_path / "stripped.mlirbc"
    assert example("strip_debug_locations", rel, out).startswith("stripped ")
    ours = oracle(out.read_bytes())
    assert ours == oracle(rel.read_bytes(), "--strip-debuginfo")
    assert 'loc("' not in ours


def _renamed(generic: str, names: set[str], prefix: str) -> str:
    def ref(m: re.Match[str]) -> str:
        return f"@{prefix}{m.group(1)}" if m.group(1) in names else m.group(0)

    def sym(m: re.Match[str]) -> str:
        return f'sym_name = "{prefix}{m.group(1)}"' if m.group(1) in names else m.group(0)

    return re.sub(r'sym_name = "([^"]+)"', sym, re.sub(r"@([\w$.]+)", ref, generic))


@pytest.mark.parametrize("rel", ["upstream/Dialect__Shape__ops.mlirbc", "the 112k-op file"])
def test_renamed_functions_and_callers_verify_in_mlir_opt(rel: str, tmp_path: Path,
                                                         request: pytest.FixtureRequest) -> None:
    src = CORPUS / rel if rel.endswith(".mlirbc") else request.getfixturevalue("large").path
    out = tmp_path / "renamed.mlirbc"
    said = example("rename_functions", src, out, "--prefix", "p_")
    before = oracle(src.read_bytes())
    names = set(re.findall(r'"func.func"\(\) <\{[^\n]*sym_name = "([^"]+)"', before))
    calls = len(re.findall(r'"func.call"\(', before))
    assert said.strip() == f"renamed {len(names)} functions and {calls} references" and calls > 0
    after = oracle(out.read_bytes())  # mlir-opt verifies every call's callee exists
    assert after == _renamed(before, names, "p_")


def test_swapped_weights_are_in_what_jaxlib_loads(tmp_path: Path) -> None:
    np = pytest.importorskip("numpy")
    if not stablehlo_oracle.available():
        pytest.skip(stablehlo_oracle.SKIP_REASON)
    from jaxlib.mlir import ir
    from jaxlib.mlir.dialects import stablehlo

    weights = (np.arange(784 * 256, dtype=np.float32).reshape(784, 256) % 97) / 97 - 0.5
    npy = tmp_path / "w.npy"
    np.save(npy, weights)
    out = tmp_path / "swapped.mlirbc"
    said = example("swap_weights", CORPUS / "jax" / "mlp2_const.mlirbc", npy, out)
    assert "tensor<784x256xf32>" in said
    found = []
    with stablehlo_oracle.context() as ctx:
        module = stablehlo.deserialize_portable_artifact(ctx, out.read_bytes())

        def visit(op: object) -> object:
            op = getattr(op, "operation", op)
            if op.name == "stablehlo.constant":  # type: ignore[attr-defined]
                found.append(np.array(op.attributes["value"]))  # type: ignore[attr-defined]
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
    assert [a.shape for a in found if a.shape == (784, 256)] == [(784, 256)]
    assert any(a.shape == weights.shape and (a == weights).all() for a in found)


def test_fold_add_zero_keeps_the_fallbacks(tmp_path: Path) -> None:
    """In a file whose `func` and `acc` ops have no model here (fallbacks: their properties are opaque
    bytes), the `arith.addi` of a zero inside the fallback function is folded; mlir-opt reads the
    result, the fallbacks' bytes are those read."""
    src = CORPUS / "upstream" / "Dialect__OpenACC__canonicalize.p14.mlirbc"
    disabled = ["--disable-model", "func", "--disable-model", "acc"]
    out = tmp_path / "folded.mlirbc"
    said = example("fold_add_zero", src, out, *disabled)
    assert said.strip() == "folded 1 additions of zero, erased 1 constants, kept 1 fallback ops"
    printed = oracle(out.read_bytes())
    before = op_counts(oracle(src.read_bytes()))
    after = op_counts(printed)
    assert before - after == Counter({"arith.addi": 1, "arith.constant": 1}) and not after - before
    assert re.search(r'\^bb0\((%\w+): i32[^\n]*\n\s*"acc.yield"\(\1\)', printed)
    kept = [op.opaque_properties for op in mlirbc.load(out, disable_models=["func", "acc"]).walk()
            if op.is_fallback]
    read = [op.opaque_properties for op in mlirbc.load(src, disable_models=["func", "acc"]).walk()
            if op.is_fallback]
    assert kept == read and kept


def test_the_tutorial_lists_every_example() -> None:
    text = (EXAMPLES / "README.md").read_text()
    for path in EXAMPLES.glob("*.py"):
        assert path.name in text, path.name
