"""Shared helpers for the language-server tests: the server command, starting a session, opening a file's
view, and the client calls the tests make (the `client` fixture itself is in `conftest.py`)."""

from __future__ import annotations

import asyncio
import base64
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from corpus import path as corpus

CONFIG = ClientServerConfig(server_command=[sys.executable, "-m", "mlirbc.lsp"])
GENERIC_VIEW: dict[str, Any] = {"view": {"form": "generic", "aliases": False}}
"""`lsp_options` of a test about the generic view (MLIR's generic form, local scope, as
`mlir-opt --mlir-print-op-generic --mlir-print-local-scope` prints it): the default is the pretty view with
aliases (tests/test_lsp_pretty.py)."""


def copy(rel: str, tmp: Path) -> Path:
    """A copy of corpus file `rel` in `tmp` (the corpus itself is never saved over)."""
    dst = tmp / Path(rel).name
    shutil.copyfile(corpus(rel), dst)
    return dst


def view_uri(path: Path, scheme: str = "mlirbc") -> str:
    """`mlirbc:///p/x.mlirbc` (as the extension's contract test sends it) or another scheme."""
    return f"{scheme}://{path.as_posix()}"


async def start(client: LanguageClient, options: dict[str, Any] | None = None,
                spec: str = "visual-studio-code",
                encodings: list[str] | None = None) -> lsp.InitializeResult:
    """Initialize like the client `spec`; `encodings` offers position encodings (LSP 3.17)."""
    caps = client_capabilities(spec)
    if encodings is not None:
        general = caps.general or lsp.GeneralClientCapabilities()
        general.position_encodings = [lsp.PositionEncodingKind(e) for e in encodings]
        caps.general = general
    result = await client.initialize_session(lsp.InitializeParams(
        capabilities=caps, initialization_options=options or {}))
    INIT_RESULTS[id(client)] = result
    return result


INIT_RESULTS: dict[int, lsp.InitializeResult] = {}


def plain(x: Any) -> Any:
    """A custom request's result as plain dicts/lists (pygls hands back namedtuples)."""
    if hasattr(x, "_asdict"):
        return {k: plain(v) for k, v in x._asdict().items()}
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [plain(v) for v in x]
    return x


async def request(client: LanguageClient, method: str, params: dict[str, Any],
                  timeout: float = 120) -> Any:
    res = await asyncio.wait_for(
        client.protocol.send_request_async(method, params),  # type: ignore[no-untyped-call]
        timeout)
    return plain(res)


async def convert_from(client: LanguageClient, uri: str) -> str:
    res = await request(client, "mlir/convertFromBytecode", {"uri": uri})
    out = res["output"] if isinstance(res, dict) else res.output
    assert isinstance(out, str)
    return out


async def convert_to(client: LanguageClient, uri: str) -> bytes:
    res = await request(client, "mlir/convertToBytecode", {"uri": uri})
    out = res["output"] if isinstance(res, dict) else res.output
    return base64.b64decode(out)


def open_view(client: LanguageClient, uri: str, text: str, version: int = 1) -> None:
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=uri, language_id="mlir", version=version,
                                           text=text)))


def close_view(client: LanguageClient, uri: str) -> None:
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri)))


class Opened(NamedTuple):
    uri: str
    """The view's URI."""
    text: str
    path: Path
    """The bytecode file on disk."""


async def open_bytecode(client: LanguageClient, file: Path | str, tmp: Path | None = None,
                        scheme: str = "mlirbc") -> Opened:
    """Open a bytecode file as VS Code does: `mlir/convertFromBytecode` of its `file:` URI, then `didOpen`
    of the text as the view `scheme://PATH`.  `file` is a path, or with `tmp` a corpus file (`jax/x.mlirbc`)
    that is copied into `tmp` first."""
    path = copy(str(file), tmp) if tmp is not None else Path(file)
    text = await convert_from(client, path.as_uri())
    uri = view_uri(path, scheme)
    open_view(client, uri, text)
    return Opened(uri, text, path)


def change(client: LanguageClient, uri: str, version: int,
           changes: Sequence[lsp.TextDocumentContentChangeEvent]) -> None:
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=list(changes)))


def insert(line: int, col: int, text: str) -> lsp.TextDocumentContentChangePartial:
    p = lsp.Position(line=line, character=col)
    return lsp.TextDocumentContentChangePartial(range=lsp.Range(start=p, end=p), text=text)


def replace_all(text: str) -> lsp.TextDocumentContentChangeWholeDocument:
    return lsp.TextDocumentContentChangeWholeDocument(text=text)


async def wait_diagnostics(client: LanguageClient, uri: str, predicate: Any,
                           timeout: float = 30) -> Sequence[lsp.Diagnostic]:
    """Wait until the diagnostics published for `uri` satisfy `predicate`."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        diags = client.diagnostics.get(uri, [])
        if predicate(diags):
            return diags
        left = end - loop.time()
        if left <= 0:
            raise AssertionError(f"diagnostics for {uri} never matched; last: "
                                 f"{[(d.code, d.message) for d in diags][:10]}")
        # Poll rather than wait on pytest-lsp's notification future: a wait that times out cancels that
        # future, and the notification arriving later then fails inside the client's message loop.
        await asyncio.sleep(min(left, 0.02))


def find(text: str, needle: str, nth: int = 0) -> lsp.Position:
    """Position of the `nth` occurrence of `needle` in `text`."""
    idx = -1
    for _ in range(nth + 1):
        idx = text.index(needle, idx + 1)
    line = text.count("\n", 0, idx)
    col = idx - (text.rfind("\n", 0, idx) + 1)
    return lsp.Position(line=line, character=col)


async def hover(client: LanguageClient, uri: str, position: lsp.Position) -> str:
    """The text of the hover at `position` of the view `uri`."""
    return hover_text(await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=position)))


def hover_text(h: lsp.Hover | None) -> str:
    assert h is not None
    c = h.contents
    if isinstance(c, lsp.MarkupContent):
        return c.value
    if isinstance(c, str):
        return c
    return str(c)
