"""The language server on the StableHLO view of portable artifacts (the default form): what it shows, hover
(StableHLO's summary, then the stored VHLO op, its versions and the file's target), no spelling inlay hints,
outline, definition, completion of `stablehlo.*` ops, the graph, elided weights that save back to the exact
bytes, Information diagnostics for ops kept as stored, and edits saved with `mlirbc/save` at the file's
target (read back by jaxlib, the oracle), or refused at the op with nothing written."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from corpus import full_only
from lsp_support import (
    change,
    convert_from,
    copy,
    find,
    hover_text,
    open_bytecode,
    open_view,
    replace_all,
    request,
    view_uri,
    wait_diagnostics,
)
from mlirbc.bytecode.reader import decode_bytecode
from stablehlo_oracle import SKIP_REASON, available, legalized_print

MLP = "jax/mlp2.mlirbc"
OLD = "vhlo/mlp_f32.v1_5_0.mlirbc"
BIG = "vhlo/const_12mb.mlirbc"


async def _open(client: LanguageClient, tmp_path: Path, rel: str) -> tuple[str, str, Path]:
    opened = await open_bytecode(client, rel, tmp_path)
    return opened.uri, opened.text, opened.path


def _td(uri: str) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri=uri)


async def _hover(client: LanguageClient, uri: str, at: lsp.Position) -> str:
    return hover_text(await client.text_document_hover_async(lsp.HoverParams(
        text_document=_td(uri), position=at)))


async def test_the_view_is_stablehlo(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, _ = await _open(client, tmp_path, MLP)
    first, rest = text.split("\n", 1)
    assert '"view": "stablehlo"' in first and '"producer": "StableHLO_v1.15.0"' in first
    assert "vhlo." not in rest
    assert "%1 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>" \
        in rest
    info = await request(client, "mlirbc/info", {"uri": uri})
    assert info["view"] == {"name": "stablehlo", "model": "plugin mlirbc:stablehlo",
                            "stored_dialect": "vhlo", "kept_ops": 0}


async def test_hover_shows_the_stablehlo_op_and_what_is_stored(client: LanguageClient,
                                                               tmp_path: Path) -> None:
    uri, text, _ = await _open(client, tmp_path, MLP)
    h = await _hover(client, uri, find(text, "stablehlo.dot_general", 0))
    assert "### `stablehlo.dot_general`" in h
    assert "**stablehlo.dot_general**: DotGeneral operation" in h
    assert "Stored as `vhlo.dot_general_v2` (exists in StableHLO 1.6.0 to current); the file's target is " \
        "StableHLO 1.15.0" in h
    assert "View: stablehlo [plugin mlirbc:stablehlo]" in h
    # An op the file does not have yet says what saving will write.
    at = find(text, "stablehlo.add %0, %2")
    edited = text.replace("stablehlo.add %0, %2", "stablehlo.atan2 %0, %2", 1)
    change(client, uri, 2, [replace_all(edited)])
    h = await _hover(client, uri, lsp.Position(line=at.line, character=at.character + 2))
    assert "### `stablehlo.atan2`" in h
    assert "Not in the file yet: saved as `vhlo.atan2_v1`, the version for the file's target, " \
        "StableHLO 1.15.0" in h


async def test_no_spelling_hints_outline_definition_completion(client: LanguageClient,
                                                               tmp_path: Path) -> None:
    uri, text, _ = await _open(client, tmp_path, MLP)
    n = text.count("\n")
    hints = await client.text_document_inlay_hint_async(lsp.InlayHintParams(
        text_document=_td(uri), range=lsp.Range(start=lsp.Position(line=0, character=0),
                                                end=lsp.Position(line=n, character=0))))
    assert not [h for h in hints or [] if isinstance(h.label, str) and h.label.startswith("⇒")]
    symbols = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
        text_document=_td(uri)))
    assert symbols is not None and isinstance(symbols[0], lsp.DocumentSymbol)
    children = symbols[0].children or []
    assert [(s.name, s.detail) for s in children] == [("@main", "func.func"), ("@relu", "func.func"),
                                                      ("@log_softmax", "func.func")]
    # definition of a use of %3 is its `%3 = stablehlo.add`
    use = find(text, "call @relu(%3)")
    res = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=_td(uri), position=lsp.Position(line=use.line, character=use.character + 12)))
    loc = res[0] if isinstance(res, list) else res
    assert isinstance(loc, lsp.Location)
    assert loc.range.start.line == find(text, "%3 = stablehlo.add").line
    # op names at the start of a statement include StableHLO's
    at = find(text, "%1 = stablehlo.broadcast_in_dim")
    lines = text.split("\n")
    lines[at.line] = lines[at.line][:at.character] + "s" + lines[at.line][at.character:]
    change(client, uri, 2, [replace_all("\n".join(lines))])
    res2 = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=_td(uri), position=lsp.Position(line=at.line, character=at.character + 1)))
    items = res2.items if isinstance(res2, lsp.CompletionList) else (res2 or [])
    labels = {i.label for i in items}
    assert {"stablehlo.add", "stablehlo.dot_general", "stablehlo.broadcast_in_dim"} <= labels


async def test_the_graph_of_a_function(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, _ = await _open(client, tmp_path, MLP)
    at = find(text, "stablehlo.add %0, %2")
    g = await request(client, "mlirbc/graph", {"uri": uri, "position": {"line": at.line, "character": 8}})
    assert g["root"]["name"] == "func.func"
    names = [n["name"] for n in g["nodes"] if n["kind"] == "op"]
    assert "stablehlo.dot_general" in names and "stablehlo.add" in names


@full_only(BIG)
async def test_elided_weights_save_back_to_the_exact_bytes(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, path = await _open(client, tmp_path, BIG)
    original = path.read_bytes()
    assert re.search(r"stablehlo\.constant dense_resource<mlirbc\.elided\.12582912\.\w+> : "
                     r"tensor<3072x1024xf32>", text)
    assert len(text) < 20_000
    res = await request(client, "mlirbc/save", {"uri": uri})
    assert path.read_bytes() == original and res["bytes"] == len(original)
    # another op edited: the elided weights are written from the original's bytes
    edited = text.replace("stablehlo.add %arg1, %2", "stablehlo.subtract %arg1, %2", 1)
    assert edited != text
    change(client, uri, 2, [replace_all(edited)])
    await request(client, "mlirbc/save", {"uri": uri})
    saved = path.read_bytes()
    assert saved != original
    weights = _weights(original)
    assert len(weights) == 12_582_912 and saved.find(weights) >= 0
    assert _weights(saved) == weights
    assert "stablehlo.subtract %arg1, %2" in await convert_from(client, path.as_uri())


def _weights(data: bytes) -> bytes:
    """The payload of the file's largest `vhlo.constant_v1` (its `#vhlo.tensor_v1` data)."""
    from mlirbc.ir.structured import StructuredAttr

    module = decode_bytecode(data)
    assert module.root is not None
    best = b""
    for op in module.root.walk():
        props = op.properties
        value = props.values.get("value") if op.name == "vhlo.constant_v1" and props is not None else None
        if isinstance(value, StructuredAttr) and len(value.fields) == 2 and \
                isinstance(value.fields[1], bytes | memoryview) and len(value.fields[1]) > len(best):
            best = bytes(value.fields[1])
    return best


async def test_an_op_kept_as_stored_is_an_information_diagnostic(client: LanguageClient,
                                                                  tmp_path: Path) -> None:
    data = copy(MLP, tmp_path).read_bytes()
    path = tmp_path / "newer.mlirbc"
    path.write_bytes(data.replace(b"maximum_v1\0", b"maximum_v9\0"))
    text = await convert_from(client, path.as_uri())
    uri = view_uri(path)
    open_view(client, uri, text)
    diags = await wait_diagnostics(client, uri, lambda ds: len([
        d for d in ds if "shown as stored" in d.message]) == 3)
    kept = [d for d in diags if "shown as stored" in d.message]
    assert all(d.severity == lsp.DiagnosticSeverity.Information for d in kept)
    assert "vhlo.maximum_v9 is not an op this model knows" in kept[0].message
    at = find(text, '"vhlo.maximum_v9"')
    assert kept[0].range.start.line == at.line
    res = await request(client, "mlirbc/save", {"uri": uri})
    assert path.read_bytes() == data.replace(b"maximum_v1\0", b"maximum_v9\0") and res["bytes"] == len(data)


def _edits() -> list[tuple[str, str, str]]:
    return [
        ("change a constant", r"stablehlo\.constant dense<0\.000000e\+00> : tensor<f32>",
         "stablehlo.constant dense<1.500000e+00> : tensor<f32>"),
        ("swap add for subtract", r"stablehlo\.add (%0, %2)", r"stablehlo.subtract \1"),
        ("delete an op", r"\n( *)%1 = stablehlo\.maximum %arg0, %0 : tensor<8x256xf32>[^\n]*\n( *)"
         r"return %1 :", r"\n\2return %0 :"),
        ("add an op", r"(= stablehlo\.maximum %arg0, %0 : tensor<8x256xf32>[^\n]*)\n( *)return %1 : ",
         r'\1\n\2%neg = stablehlo.negate %1 : tensor<8x256xf32> loc("neg")\n\2return %neg : '),
        ("rename a function", r"@relu\b", "@rectify"),
    ]


@pytest.mark.skipif(not available(), reason=SKIP_REASON)
@pytest.mark.parametrize("name", [MLP, OLD])
async def test_edits_saved_through_the_server_read_back_in_jaxlib(client: LanguageClient, tmp_path: Path,
                                                                   name: str) -> None:
    from jaxlib.mlir import ir  # type: ignore[import-not-found,unused-ignore]

    from stablehlo_oracle import context

    original_module = decode_bytecode(copy(name, tmp_path).read_bytes())
    for i, (what, pattern, repl) in enumerate(_edits()):
        sub = tmp_path / f"edit{i}"
        sub.mkdir()
        uri, text, path = await _open(client, sub, name)
        edited, n = re.subn(pattern, repl, text, count=0 if what == "rename a function" else 1)
        assert n >= 1, what
        change(client, uri, 2, [replace_all(edited)])
        res: Any = await request(client, "mlirbc/save", {"uri": uri})
        assert res["written"] == str(path)
        saved = path.read_bytes()
        after = decode_bytecode(saved)
        assert (after.producer, after.version) == (original_module.producer, original_module.version), what
        body = "\n".join(line for line in edited.split("\n") if not line.startswith("// mlirbc:"))
        with context():
            expected = ir.Module.parse(body).operation.get_asm(enable_debug_info=True, use_local_scope=True)
        assert legalized_print(saved) == expected, what


async def test_an_edit_the_target_cannot_hold_is_refused_at_the_op(client: LanguageClient,
                                                                   tmp_path: Path) -> None:
    uri, text, path = await _open(client, tmp_path, OLD)
    original = path.read_bytes()
    at = find(text, "stablehlo.exponential")
    accuracy = "#stablehlo.result_accuracy<atol = 1.000000e-05, ulps = 2, " \
        "mode = #stablehlo.result_accuracy_mode<TOLERANCE>>"
    edited = re.sub(r"stablehlo\.exponential (%\w+) : ",
                    rf"stablehlo.exponential \1 {{result_accuracy = {accuracy}}} : ", text, count=1)
    change(client, uri, 2, [replace_all(edited)])
    with pytest.raises(Exception, match=r"is not in StableHLO 1\.5\.0 \(the oldest target that has it is "
                                        r"1\.9\.0\)"):
        await request(client, "mlirbc/save", {"uri": uri})
    assert path.read_bytes() == original
    diags = await wait_diagnostics(client, uri, lambda ds: any(d.code == "save-refused" for d in ds))
    d = next(d for d in diags if d.code == "save-refused")
    assert d.range.start.line == at.line and "stablehlo.exponential" in d.message
