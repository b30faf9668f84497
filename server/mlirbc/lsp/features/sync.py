"""Document sync: didOpen/didChange/didClose keep the server's copy of each view, then analyse it."""

from __future__ import annotations

from lsprotocol import types as lsp

from ..analysis import ensure_index, schedule
from ..documents import View
from ..positions import LineIndex
from ..server import MlirbcServer, key_of
from ..uris import is_view_uri


def register(server: MlirbcServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(params: lsp.DidOpenTextDocumentParams) -> None:
        td = params.text_document
        key = key_of(td.uri)
        view = View(td.uri, key, td.version, td.text, LineIndex(td.text))
        server.views[td.uri] = view
        if key is not None and key not in server.files and is_view_uri(td.uri):
            # a client that opens the view directly, without convertFromBytecode first
            try:
                await server.load_file(key)
            except Exception as exc:
                server.log(f"cannot decode {key} for {td.uri}: {exc}")
        await ensure_index(server, view)
        schedule(server, td.uri, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: lsp.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        view = server.views.get(uri)
        if view is None:
            return
        doc = server.workspace.get_text_document(uri)
        view.text = doc.source
        view.version = params.text_document.version
        view.lines = LineIndex(view.text)
        # the old index stays usable for navigation until the new one is ready
        schedule(server, uri, server.settings.debounce_ms / 1000)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        view = server.views.pop(uri, None)
        task = server.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        server.clear_diagnostics(uri)
        if view is not None and view.key is not None and not server.views_of(view.key):
            # keep memory bounded: a file nobody views is decoded again when next asked for
            server.files.pop(view.key, None)
