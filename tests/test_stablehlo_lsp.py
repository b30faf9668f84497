"""The language server on StableHLO exports shown as stored (setting `mlirbc.view.form` = generic) with the
StableHLO models: hover shows the StableHLO name, summary, attribute values and StableHLO types; the outline
names vhlo functions; inlay hints give the StableHLO spelling; the text stays exact VHLO and an edit saves
through the model.  (The StableHLO view, the default, is tested in test_stablehlo_view_lsp.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from lsp_support import find, hover, open_bytecode, request
from mlirbc.bytecode.reader import decode_bytecode

ATTENTION = "vhlo/attention_dpa.mlirbc"
SHARDED = "vhlo/sharded_mlp.mlirbc"


pytestmark = pytest.mark.lsp_options({"view": {"form": "generic"}})


def _td(uri: str) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri=uri)


async def test_the_view_is_vhlo_without_fallbacks(client: LanguageClient, tmp_path: Path) -> None:
    _, text, _ = await open_bytecode(client, SHARDED, tmp_path)
    assert "mlirbc.fallback" not in text and "mlirbc.properties" not in text
    assert '#sdy.sharding<@mesh, [{"data"}, {}]>' in text
    assert "!vhlo.tensor_v1<16x32x!vhlo.f32_v1>" in text


async def test_hover_shows_stablehlo_name_summary_attributes_and_types(client: LanguageClient,
                                                                       tmp_path: Path) -> None:
    uri, text, _ = await open_bytecode(client, ATTENTION, tmp_path)
    pos = find(text, '"vhlo.dot_general_v2"')
    h = await hover(client, uri, lsp.Position(line=pos.line, character=pos.character + 3))
    assert "**StableHLO** `stablehlo.dot_general`: DotGeneral operation" in h
    assert "`vhlo.dot_general_v2` exists in StableHLO 1.6.0 to current" in h
    assert "- `lhs_contracting_dimensions` = `dense<4> : tensor<1xi64>`" in h
    assert "- `precision_config` = `[DEFAULT, DEFAULT]`" in h
    assert "Operands: `tensor<2x8x4x1x16xf32>`, `tensor<2x8x4x16xf32>`" in h
    assert "Results: `tensor<2x4x8x1x8xf32>`" in h
    assert "Model: plugin mlirbc:stablehlo" in h


async def test_outline_names_vhlo_functions(client: LanguageClient, tmp_path: Path) -> None:
    uri, _, _ = await open_bytecode(client, ATTENTION, tmp_path)
    symbols = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
        text_document=_td(uri)))
    assert symbols is not None
    module = symbols[0]
    assert isinstance(module, lsp.DocumentSymbol) and module.children is not None
    names = [(s.name, s.detail, s.kind) for s in module.children]
    assert names == [("@main", "vhlo.func_v1", lsp.SymbolKind.Function),
                     ("@tril", "vhlo.func_v1", lsp.SymbolKind.Function),
                     ("@_where", "vhlo.func_v1", lsp.SymbolKind.Function)]


async def test_inlay_hints_give_the_stablehlo_spelling(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, _ = await open_bytecode(client, ATTENTION, tmp_path)
    n = text.count("\n")
    hints = await client.text_document_inlay_hint_async(lsp.InlayHintParams(
        text_document=_td(uri), range=lsp.Range(start=lsp.Position(line=0, character=0),
                                                end=lsp.Position(line=n, character=0))))
    assert hints
    labels = [h.label for h in hints if isinstance(h.label, str)]
    assert "⇒ func.func @main" in labels
    assert "⇒ stablehlo.dot_general : tensor<2x4x8x1x8xf32>" in labels
    pos = find(text, '"vhlo.dot_general_v2"')
    at = [h for h in hints if h.label == "⇒ stablehlo.dot_general : tensor<2x4x8x1x8xf32>"][0].position
    assert at.line == pos.line and at.character == pos.character + len('"vhlo.dot_general_v2"')


async def test_edit_and_save_through_the_model(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, path = await open_bytecode(client, ATTENTION, tmp_path)
    original = path.read_bytes()
    edited = text.replace('#vhlo.string_v1<"tril">', '#vhlo.string_v1<"lower">')
    assert edited != text
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=edited)]))
    res = await request(client, "mlirbc/save", {"uri": uri})
    assert res["written"] == str(path)
    saved = path.read_bytes()
    assert saved != original
    after = decode_bytecode(saved)
    assert after.error is None and not after.fallbacks and after.producer == "StableHLO_v1.15.0"
    assert after.version == 6
