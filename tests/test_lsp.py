"""The server driven like vscode-mlir and our extension drive it: conversions, sync, info, save."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from corpus import CORPUS
from lsp_support import (
    GENERIC_VIEW,
    change,
    convert_from,
    convert_to,
    copy,
    insert,
    open_bytecode,
    open_view,
    replace_all,
    request,
    view_uri,
    wait_diagnostics,
)

UPSTREAM = "upstream/Bytecode__uselist_orders.p01.mlirbc"
JAX = "jax/mlp2.mlirbc"
# The StableHLO models are off: the JAX export stands for a file with fallback parts.
pytestmark = pytest.mark.lsp_options({"models": {"disabled": ["vhlo"]}, **GENERIC_VIEW})


@pytest.mark.parametrize("rel", [UPSTREAM, JAX, "iree/mlp2.flow.mlirbc"])
@pytest.mark.parametrize("scheme", ["mlir.bytecode-mlir", "mlirbc"])
async def test_vscode_mlir_sequence(client: LanguageClient, tmp_path: Path, rel: str,
                                    scheme: str) -> None:
    """convertFromBytecode(file:), didOpen(view), didChange (edit + undo), convertToBytecode(view)."""
    uri, text, path = await open_bytecode(client, rel, tmp_path, scheme=scheme)
    original = path.read_bytes()
    assert '"builtin.module"' in text
    change(client, uri, 2, [insert(0, 0, "// an edit\n")])
    change(client, uri, 3, [lsp.TextDocumentContentChangePartial(
        range=lsp.Range(start=lsp.Position(line=0, character=0),
                        end=lsp.Position(line=1, character=0)), text="")])
    assert await convert_to(client, uri) == original


async def test_file_uri_as_view(client: LanguageClient, tmp_path: Path) -> None:
    """A client (e.g. Neovim) that opens the decoded text under the file: URI itself."""
    path = copy(UPSTREAM, tmp_path)
    uri = path.as_uri()
    text = await convert_from(client, uri)
    open_view(client, uri, text)
    assert await convert_to(client, uri) == path.read_bytes()
    info = await request(client, "mlirbc/info", {"uri": uri})
    assert info["version"] == 6 and info["producer"] == "MLIR22.1.8"


async def test_vscode_style_view_uri(client: LanguageClient, tmp_path: Path) -> None:
    """VS Code spells the view `mlirbc:/p/x.mlirbc` (no authority)."""
    path = copy(UPSTREAM, tmp_path)
    text = await convert_from(client, path.as_uri())
    uri = f"mlirbc:{path.as_posix()}"
    open_view(client, uri, text)
    assert await convert_to(client, uri) == path.read_bytes()


async def test_info(client: LanguageClient, tmp_path: Path) -> None:
    path = copy(JAX, tmp_path)
    info = await request(client, "mlirbc/info", {"uri": path.as_uri()})
    assert info["version"] == 6
    assert info["producer"].startswith("StableHLO")
    assert info["fallbacks"]["op"] > 0
    assert set(info["fallbacks"]) == {"op", "attribute", "type"}
    assert info["sizes"]["file"] == path.stat().st_size


async def test_invalid_files_keep_server_answering(client: LanguageClient) -> None:
    files = sorted((CORPUS / "invalid").glob("Bytecode__uselist_orders.p00.v4__*.mlirbc"))
    if not files:
        pytest.skip("no invalid corpus")
    answered = 0
    for f in files:
        try:
            text = await convert_from(client, f.as_uri())
            assert isinstance(text, str)
        except JsonRpcException as exc:
            assert exc.message
        answered += 1
    assert answered == len(files)
    # still alive and answering
    path = CORPUS / UPSTREAM
    assert '"builtin.module"' in await convert_from(client, path.as_uri())


async def test_decode_error_is_located(client: LanguageClient) -> None:
    from lsp_support import corpus

    f = corpus("invalid/Bytecode__uselist_orders.p00.v4__truncated_50pct.mlirbc")
    with pytest.raises(JsonRpcException) as info:
        await convert_from(client, f.as_uri())
    assert "byte" in info.value.message


async def test_missing_file_is_an_error(client: LanguageClient, tmp_path: Path) -> None:
    with pytest.raises(JsonRpcException) as info:
        await convert_from(client, (tmp_path / "nope.mlirbc").as_uri())
    assert "cannot read" in info.value.message


async def test_fallback_diagnostics(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, _ = await open_bytecode(client, JAX, tmp_path)
    diags = await wait_diagnostics(client, uri, lambda ds: any(
        d.code == "fallback-op" for d in ds))
    ops = [d for d in diags if d.code == "fallback-op"]
    assert len(ops) == text.count("mlirbc.properties =")
    assert all(d.severity == lsp.DiagnosticSeverity.Information for d in ops)
    assert "kept verbatim" in ops[0].message and "vhlo" in ops[0].message


async def test_save_unchanged_gives_identical_bytes(client: LanguageClient,
                                                    tmp_path: Path) -> None:
    uri, _, path = await open_bytecode(client, UPSTREAM, tmp_path)
    original = path.read_bytes()
    out = tmp_path / "copy.mlirbc"
    res = await request(client, "mlirbc/save", {"uri": uri, "path": str(out)})
    assert res == {"written": str(out), "bytes": len(original)}
    assert out.read_bytes() == original


async def test_invalid_edit_save_leaves_file_untouched(client: LanguageClient,
                                                       tmp_path: Path) -> None:
    uri, text, path = await open_bytecode(client, UPSTREAM, tmp_path)
    original = path.read_bytes()
    broken = text.replace('"func.return"(', '"func.return"(%nope, ', 1)
    change(client, uri, 2, [replace_all(broken)])
    with pytest.raises(JsonRpcException) as info:
        await request(client, "mlirbc/save", {"uri": uri})
    assert "cannot" in info.value.message
    assert path.read_bytes() == original
    diags = await wait_diagnostics(client, uri, lambda ds: any(d.code == "save-refused"
                                                                for d in ds))
    assert diags


async def test_edit_reports_text_errors(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, _ = await open_bytecode(client, UPSTREAM, tmp_path)
    broken = text.replace('"func.return"(', '"func.return"(%nope, ', 1)
    broken = broken.replace("}) :", "} :", 1)
    change(client, uri, 2, [replace_all(broken)])
    diags = await wait_diagnostics(client, uri, lambda ds: len(
        [d for d in ds if d.severity == lsp.DiagnosticSeverity.Error]) >= 2)
    assert all(d.source == "mlirbc" for d in diags)


async def test_edit_then_convert_to_bytecode(client: LanguageClient, tmp_path: Path) -> None:
    """An edited view is parsed and written with the original as template."""
    uri, text, path = await open_bytecode(client, UPSTREAM, tmp_path)
    edited = text.replace("value = 45 : i32", "value = 44 : i32", 1)
    assert edited != text
    change(client, uri, 2, [replace_all(edited)])
    data = await convert_to(client, uri)
    assert data[:4] == b"ML\xefR"
    assert data != path.read_bytes()
    other = tmp_path / "other.mlirbc"
    other.write_bytes(data)
    again = await convert_from(client, other.as_uri())
    assert "value = 44 : i32" in again


async def test_edit_then_save(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, path = await open_bytecode(client, UPSTREAM, tmp_path)
    change(client, uri, 2, [replace_all(text.replace("value = 45 : i32", "value = 7 : i32", 1))])
    res = await request(client, "mlirbc/save", {"uri": uri})
    assert res["written"] == str(path)
    assert "value = 7 : i32" in await convert_from(client, path.as_uri())


async def test_incremental_and_full_sync_agree(client: LanguageClient, tmp_path: Path) -> None:
    """The same edits sent as incremental changes to one view and as whole documents to another give
    the same diagnostics (error, then none after the undo) and the same bytes."""
    path = copy("upstream/Dialect__Arith__ops.mlirbc", tmp_path)
    text = await convert_from(client, path.as_uri())
    inc, full = view_uri(path, "mlirbc"), view_uri(path, "mlir.bytecode-mlir")
    open_view(client, inc, text)
    open_view(client, full, text)
    at = text.index("(%", len(text) // 2) + 1
    line = text.count("\n", 0, at)
    col = at - (text.rfind("\n", 0, at) + 1)
    broken = text[:at] + "%nope" + text[at + 2:]
    rng = lsp.Range(start=lsp.Position(line=line, character=col),
                    end=lsp.Position(line=line, character=col + 2))
    change(client, inc, 2, [lsp.TextDocumentContentChangePartial(range=rng, text="%nope")])
    change(client, full, 2, [replace_all(broken)])
    got = []
    for uri in (inc, full):
        diags = await wait_diagnostics(client, uri, lambda ds: any(
            d.severity == lsp.DiagnosticSeverity.Error for d in ds))
        got.append([(d.range, d.message) for d in diags if d.severity == lsp.DiagnosticSeverity.Error])
    assert got[0] == got[1] and "undefined" in got[0][0][1]
    # undo, then a valid edit (a location renamed): no errors, the same bytes from both views
    back = lsp.Range(start=rng.start, end=lsp.Position(line=line, character=col + 5))
    change(client, inc, 3, [lsp.TextDocumentContentChangePartial(range=back, text=text[at:at + 2])])
    change(client, full, 3, [replace_all(text)])
    for uri in (inc, full):
        await wait_diagnostics(client, uri, lambda ds: not any(
            d.severity == lsp.DiagnosticSeverity.Error for d in ds))
    loc = text.index('loc("', len(text) // 3)
    end = text.index(")", loc) + 1
    renamed = text[:loc] + 'loc("renamed.mlir":7:7)' + text[end:]
    lline = text.count("\n", 0, loc)
    lcol = loc - (text.rfind("\n", 0, loc) + 1)
    change(client, inc, 4, [lsp.TextDocumentContentChangePartial(range=lsp.Range(
        start=lsp.Position(line=lline, character=lcol),
        end=lsp.Position(line=lline, character=lcol + end - loc)), text='loc("renamed.mlir":7:7)')])
    change(client, full, 4, [replace_all(renamed)])
    a, b = await convert_to(client, inc), await convert_to(client, full)
    assert a == b and a != path.read_bytes()
