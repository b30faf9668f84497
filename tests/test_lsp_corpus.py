"""The server on the whole corpus: every valid file opens and saves back to identical bytes; every damaged
file that upstream rejects gives a located error, and the server keeps answering."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from corpus import CORPUS, expect, invalid_manifest, manifest
from large_module import LargeModule
from lsp_support import close_view, convert_from, convert_to, open_bytecode
from mlirbc.bytecode.reader import decode_bytecode

# The StableHLO models are off: JAX exports stand for files with fallback parts here (the models' own
# editor behaviour is tested in test_stablehlo_lsp.py).
pytestmark = pytest.mark.lsp_options({"limits": {"decodeTimeoutSeconds": 600},
                                      "models": {"disabled": ["vhlo"]}})


async def _open_and_save(client: LanguageClient, path: Path) -> str | None:
    original = path.read_bytes()
    uri = (await open_bytecode(client, path, scheme="mlir.bytecode-mlir")).uri
    try:
        out = await convert_to(client, uri)
    finally:
        close_view(client, uri)
    return None if out == original else f"{path}: {len(out)} bytes back, {len(original)} original"


SMALL = [r["path"] for r in manifest() if not r["path"].startswith("large/")]


@pytest.mark.parametrize("folder", sorted({p.split("/")[0] for p in SMALL}))
async def test_every_small_file_saves_back_identically(client: LanguageClient, folder: str) -> None:
    rels = [p for p in SMALL if p.split("/")[0] == folder]
    failures = [f for f in [await _open_and_save(client, CORPUS / rel) for rel in rels] if f]
    assert not failures, f"{len(failures)} of {len(rels)}:\n" + "\n".join(failures[:10])


async def test_a_large_file_saves_back_identically(client: LanguageClient, large: LargeModule) -> None:
    assert await _open_and_save(client, large.path) is None


def _rejected(row: dict[str, str]) -> bool:
    verdict = row["mlir_opt"]
    flips = row["damage"].startswith(("ir_byte_flip", "attrtype_byte_flip"))
    return verdict.startswith("rejected") or row["damage"] == "empty" or (
        verdict.startswith("n/a") and not flips)


# Valid bytecode that only a dialect verifier rejects (see test_reader_corpus.SEMANTIC_ONLY).
SEMANTIC_ONLY = {"Dialect__LLVMIR__roundtrip.v1__ir_byte_flip_2.mlirbc"}


async def test_every_rejected_damaged_file_gives_a_located_error(client: LanguageClient) -> None:
    rows = [r for r in invalid_manifest() if _rejected(r) and r["path"] not in SEMANTIC_ONLY]
    assert len(rows) > expect(full=150, core=50)
    unlocated = []
    for row in rows:
        path = CORPUS / "invalid" / row["path"]
        try:
            # A partial view: the decode error is a diagnostic on the view, naming the byte offset.
            uri = (await open_bytecode(client, path)).uri
        except JsonRpcException as exc:
            if "byte" not in exc.message:
                unlocated.append(f"{row['path']}: {exc.message}")
            continue
        await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        diags = client.diagnostics.get(uri, [])
        if not any("byte" in d.message and d.severity == lsp.DiagnosticSeverity.Error for d in diags):
            unlocated.append(f"{row['path']}: partial view without a located error diagnostic")
        close_view(client, uri)
    assert not unlocated, "\n".join(unlocated[:10])
    # Still answering.
    good = CORPUS / "upstream" / "Bytecode__uselist_orders.p01.mlirbc"
    assert "\nmodule {\n" in await convert_from(client, good.as_uri())


async def test_jax_export_fallbacks_survive_an_edit_and_save(client: LanguageClient,
                                                             tmp_path: pytest.TempPathFactory) -> None:
    """A JAX export: a diagnostic on every vhlo fallback op, hover shows the reason and the bytes, and an
    edit elsewhere saves to a file whose fallback payloads are byte-for-byte the original ones."""
    from lsp_support import find, hover, replace_all, request, wait_diagnostics
    from mlirbc.ir.attributes import StringAttr
    from mlirbc.ir.operation import PROPS_FALLBACK
    from mlirbc.models.build import models

    uri, text, path = await open_bytecode(client, "jax/mlp2.mlirbc", Path(str(tmp_path)))
    opaque = models(disabled=["vhlo"])
    before = decode_bytecode(path.read_bytes(), opaque)
    assert before.root is not None
    payloads = [op.properties.raw for op in before.root.walk()
                if op.properties is not None and op.properties.kind == PROPS_FALLBACK]
    assert payloads and all(p for p in payloads)
    diags = await wait_diagnostics(client, uri, lambda ds: any(d.code == "fallback-op" for d in ds))
    assert len([d for d in diags if d.code == "fallback-op"]) == len(payloads)
    shown = await hover(client, uri, find(text, '"vhlo.add_v1"', 0))
    assert "model disabled (--disable-model vhlo)" in shown
    first_add = next(op for op in before.root.walk() if op.name == "vhlo.add_v1")
    assert first_add.properties is None or first_add.properties.raw is None or \
        first_add.properties.raw.hex().upper()[:8] in shown.upper()
    edited = text.replace('sym_name = "jit_mlp"', 'sym_name = "jit_mlp_edited"', 1)
    assert edited != text
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[replace_all(edited)]))
    res = await request(client, "mlirbc/save", {"uri": uri})
    assert res["written"] == str(path)
    after = decode_bytecode(path.read_bytes(), opaque)
    assert after.error is None and after.root is not None
    assert after.root.properties is not None
    name = after.root.properties.values["sym_name"]
    assert isinstance(name, StringAttr) and name.value == b"jit_mlp_edited"
    assert [op.properties.raw for op in after.root.walk()
            if op.properties is not None and op.properties.kind == PROPS_FALLBACK] == payloads
