"""The server names the model set in hovers and `mlirbc/info`, and takes a forced set from its settings
(`mlirbc.models.set`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from lsp_support import GENERIC_VIEW, find, hover, open_bytecode, request

# These tests read the generic view (the default view's features: test_lsp_pretty.py).
pytestmark = pytest.mark.lsp_options(GENERIC_VIEW)

IREE_FLOW = "iree/mlp2.flow.mlirbc"


async def _hover_addf(client: LanguageClient, tmp_path: Path) -> tuple[str, str]:
    uri, text, _ = await open_bytecode(client, IREE_FLOW, tmp_path)
    pos = find(text, '"arith.addf"')
    h = await hover(client, uri, lsp.Position(line=pos.line, character=pos.character + 3))
    return h, uri


async def test_hover_names_the_set_the_producer_chose(client: LanguageClient, tmp_path: Path) -> None:
    h, uri = await _hover_addf(client, tmp_path)
    assert "Model: builtin (mlirbc, MLIR 24 layouts) · model set mlir24 (producer MLIR24.0.0git)" in h
    assert "Properties decoded by" in h and "- `fastmath` = `#arith.fastmath<none>`" in h
    info = await request(client, "mlirbc/info", {"uri": uri})
    assert info["model_set"] == {"name": "mlir24", "why": "producer MLIR24.0.0git"}


@pytest.mark.lsp_options({"models": {"set": "mlir22"}})
async def test_a_forced_set_decodes_and_says_so(client: LanguageClient, tmp_path: Path) -> None:
    h, uri = await _hover_addf(client, tmp_path)
    assert "model set mlir22 (forced by the user)" in h
    assert "Fallback op" in h  # MLIR 22's arith.addf layout does not fit these MLIR 24 payloads
    info = await request(client, "mlirbc/info", {"uri": uri})
    assert info["model_set"]["name"] == "mlir22" and info["fallbacks"]["op"] == 9
