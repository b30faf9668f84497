"""Hover, navigation, symbols, folding, semantic tokens, inlay hints and completion on real files."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from lsp_support import (
    GENERIC_VIEW,
    change,
    find,
    hover,
    open_bytecode,
    replace_all,
    wait_diagnostics,
)

PDL = "upstream/Rewrite__pdl-bytecode.p01.mlirbc"
JAX = "jax/mlp2.mlirbc"
USELIST = "upstream/Bytecode__uselist_orders.p00.mlirbc"
# The StableHLO models are off: the JAX export stands for a file with fallback parts.
pytestmark = pytest.mark.lsp_options({"models": {"disabled": ["vhlo"]}, **GENERIC_VIEW})


def _td(uri: str) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri=uri)


async def test_hover_op_name_decoded(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, _ = await open_bytecode(client, USELIST, tmp_path)
    pos = find(text, '"arith.constant"')
    h = await hover(client, uri, lsp.Position(line=pos.line, character=pos.character + 3))
    assert "arith.constant" in h
    assert "value" in h  # its decoded property
    assert "i32" in h  # result type


async def test_hover_fallback_op(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, _ = await open_bytecode(client, JAX, tmp_path)
    line_no = next(i for i, ln in enumerate(text.split("\n")) if "mlirbc.properties" in ln)
    line = text.split("\n")[line_no]
    h = await hover(client, uri, lsp.Position(line=line_no, character=line.index('"') + 2))
    assert "Fallback op" in h
    assert "file offset" in h
    assert "varints" in h
    assert "vhlo" in h


async def test_hover_value_and_block_arg(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, _ = await open_bytecode(client, USELIST, tmp_path)
    h = await hover(client, uri, find(text, "%2, %0)"))
    assert "Type: `i32`" in h and "test.addi" in h
    h = await hover(client, uri, find(text, "%arg0, %arg0"))
    assert "Type: `i32`" in h and "Block argument #0" in h


async def test_definition_and_references(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, _ = await open_bytecode(client, USELIST, tmp_path)
    use = find(text, "%2, %0)")
    defs = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=_td(uri), position=use))
    assert isinstance(defs, list) and len(defs) == 1
    assert defs[0].range.start == find(text, "%2 = ")
    refs = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=_td(uri), position=use,
        context=lsp.ReferenceContext(include_declaration=True)))
    assert refs is not None and len(refs) == text.count("%2,") + text.count("%2 =")


async def test_block_labels_and_nested_symbols(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, _ = await open_bytecode(client, PDL, tmp_path)
    use = find(text, "^bb2]")
    defs = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=_td(uri), position=use))
    assert isinstance(defs, list) and defs[0].range.start == find(text, "^bb2:")
    # `@rewriters::@success`: the second part goes to the nested function
    ref = find(text, "@rewriters::@success")
    on_success = lsp.Position(line=ref.line, character=ref.character + len("@rewriters::@s"))
    defs = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=_td(uri), position=on_success))
    assert isinstance(defs, list) and defs[0].range.start == find(text, '"success"')
    on_root = lsp.Position(line=ref.line, character=ref.character + 2)
    defs = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=_td(uri), position=on_root))
    assert isinstance(defs, list) and defs[0].range.start == find(text, '"rewriters"')


async def test_document_symbols(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, _ = await open_bytecode(client, PDL, tmp_path)
    syms = await client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(text_document=_td(uri)))
    assert syms is not None
    root = syms[0]
    assert isinstance(root, lsp.DocumentSymbol)
    names = [c.name for c in root.children or []]
    assert names == ["@patterns", "@ir"]
    patterns = (root.children or [])[0]
    assert [c.name for c in patterns.children or []] == ["@matcher", "@rewriters"]


async def test_folding(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, _ = await open_bytecode(client, PDL, tmp_path)
    folds = await client.text_document_folding_range_async(
        lsp.FoldingRangeParams(text_document=_td(uri)))
    assert folds is not None and len(folds) >= 5
    assert any(f.start_line == find(text, '"builtin.module"').line for f in folds)


async def test_semantic_tokens_mark_fallbacks(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, _ = await open_bytecode(client, JAX, tmp_path)
    toks = await client.text_document_semantic_tokens_full_async(
        lsp.SemanticTokensParams(text_document=_td(uri)))
    assert toks is not None
    data = toks.data
    assert len(data) % 5 == 0 and data
    from lsp_support import INIT_RESULTS

    provider = INIT_RESULTS[id(client)].capabilities.semantic_tokens_provider
    assert isinstance(provider, lsp.SemanticTokensOptions)
    legend = provider.legend
    fallback_bit = 1 << legend.token_modifiers.index("fallback")
    mods = [data[i + 4] for i in range(0, len(data), 5)]
    assert any(m & fallback_bit for m in mods)
    assert any(not (m & fallback_bit) for m in mods)


async def test_inlay_hints_for_fallback_payload(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, _ = await open_bytecode(client, JAX, tmp_path)
    n = text.count("\n")
    hints = await client.text_document_inlay_hint_async(lsp.InlayHintParams(
        text_document=_td(uri), range=lsp.Range(start=lsp.Position(line=0, character=0),
                                                end=lsp.Position(line=n, character=0))))
    assert hints
    assert all(isinstance(h.label, str) and h.label.startswith(" ≈") for h in hints)


async def test_completion(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, _ = await open_bytecode(client, USELIST, tmp_path)
    pos = find(text, '"func.return"')
    # values in scope after `%`
    lines = text.split("\n")
    line = lines[pos.line]
    new = line[:pos.character] + '"func.return"(%' + ")"
    edited = "\n".join(lines[:pos.line] + [new] + lines[pos.line + 1:])
    change(client, uri, 2, [replace_all(edited)])
    at = lsp.Position(line=pos.line, character=pos.character + len('"func.return"(%'))
    res = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=_td(uri), position=at))
    assert res is not None
    items = res.items if isinstance(res, lsp.CompletionList) else res
    labels = {i.label for i in items}
    assert {"%0", "%7", "%arg0"} <= labels
    # op names at the start of a statement
    at = lsp.Position(line=pos.line, character=pos.character + 1)
    res = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=_td(uri), position=at))
    items = res.items if isinstance(res, lsp.CompletionList) else (res or [])
    assert "arith.constant" in {i.label for i in items}


async def test_decode_error_diagnostic_on_partial_view(client: LanguageClient,
                                                       tmp_path: Path) -> None:
    """A file that decodes part-way opens as a partial view with a located error."""
    uri, text, _ = await open_bytecode(client, "invalid/mlp2__ir_byte_flip_0.mlirbc", tmp_path)
    diags = await wait_diagnostics(client, uri, lambda ds: any(d.code == "decode-error"
                                                               for d in ds))
    d = next(d for d in diags if d.code == "decode-error")
    assert "byte" in d.message and d.severity == lsp.DiagnosticSeverity.Error
    assert isinstance(d.data, dict) and d.data["offset"] > 0
    # a partial view cannot be written back
    import pytest
    from pygls.exceptions import JsonRpcException

    from lsp_support import request

    with pytest.raises(JsonRpcException):
        await request(client, "mlirbc/save", {"uri": uri})


async def test_hover_attribute(client: LanguageClient, tmp_path: Path) -> None:
    """An attribute inside an op's properties: the map parses the piece on demand."""
    uri, text, _ = await open_bytecode(client, USELIST, tmp_path)
    pos = find(text, "45 : i32")
    h = await hover(client, uri, lsp.Position(line=pos.line, character=pos.character + 1))
    assert "IntegerAttr" in h and "45 : i32" in h


async def test_navigation_inside_an_op_that_does_not_parse(client: LanguageClient,
                                                           tmp_path: Path) -> None:
    """In an op the parser cannot read, names still resolve (through a lexer index of its text)."""
    uri, text, _ = await open_bytecode(client, USELIST, tmp_path)
    at = text.index('"test.addi"(%2, %0)')
    close = text.index(")", at)
    broken = text[:at] + '"test.addi"(%2 %0' + text[close:]  # a missing comma
    change(client, uri, 2, [replace_all(broken)])
    await wait_diagnostics(client, uri, lambda ds: any(d.severity == lsp.DiagnosticSeverity.Error
                                                       for d in ds))
    use = find(broken, "%2 %0")
    defs = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=_td(uri), position=use))
    assert isinstance(defs, list) and defs and defs[0].range.start == find(broken, "%2 = ")
    h = await hover(client, uri, use)
    assert "does not parse" in h
