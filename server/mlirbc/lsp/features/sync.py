"""Document sync: didOpen/didChange/didClose keep the server's copy of each view, then analyse it.

Changes arrive incrementally (the server announces `TextDocumentSyncKind.Incremental`) and are applied to
the view's text in place; a client that sends whole documents still works (the changed part is found by
comparing with the previous text).
"""

from __future__ import annotations

from lsprotocol import types as lsp

from ...syntax.textlines import TextLines
from ..analysis import debounce_s, schedule
from ..documents import View
from ..server import MlirbcServer, key_of
from ..uris import is_view_uri


def register(server: MlirbcServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(params: lsp.DidOpenTextDocumentParams) -> None:
        td = params.text_document
        key = key_of(td.uri)
        text = td.text
        if key is not None and key not in server.files and is_view_uri(td.uri):
            # a client that opens the view directly, without convertFromBytecode first
            try:
                await server.load_file(key)
            except Exception as exc:
                server.log(f"cannot decode {key} for {td.uri}: {exc}")
        decoded = server.files.get(key) if key is not None else None
        if decoded is not None:
            # Start from the decoded text (one copy of a large text, its line table and state
            # shared), then take what the client sent as an edit of it.
            view = View(td.uri, key, td.version, decoded.text, decoded.lines,
                        server.position_encoding)
            view.set_good(decoded.state)
            view.set_text(text, td.version)
        else:
            view = View(td.uri, key, td.version, text, TextLines(text), server.position_encoding)
        server.views[td.uri] = view
        schedule(server, td.uri, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: lsp.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        view = server.views.get(uri)
        if view is None:
            return
        version = params.text_document.version
        for change in params.content_changes:
            if isinstance(change, lsp.TextDocumentContentChangePartial):
                codec = view.codec
                start = codec.offset(change.range.start)
                end = max(start, codec.offset(change.range.end))
                view.replace(start, end, change.text, version)
                view.changes["ranged"] += 1
            else:
                view.set_text(change.text, version)
                view.changes["whole"] += 1
        view.version = version
        # the last state stays usable for navigation until the new one is ready
        schedule(server, uri, debounce_s(server, view))

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
