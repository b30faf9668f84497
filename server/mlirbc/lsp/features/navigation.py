"""Go to definition, find references and document highlights for `%values`, `^blocks` and `@symbols`
(nested references `@a::@b` resolve part by part through symbol tables)."""

from __future__ import annotations

from lsprotocol import types as lsp

from ..analysis import ensure_index
from ..server import MlirbcServer
from ..textindex import SYMBOL, Occurrence, TextIndex


def _symbol_part_at(index: TextIndex, occ: Occurrence, offset: int) -> int | None:
    """For `@a::@b::@c`, how many parts lead up to the one under the cursor."""
    if occ.kind != SYMBOL:
        return None
    rel = offset - occ.start
    text = occ.name
    parts = text.split("::")
    pos = 0
    for i, p in enumerate(parts):
        if rel <= pos + len(p):
            return i + 1
        pos += len(p) + 2
    return len(parts)


def register(server: MlirbcServer) -> None:
    async def locate(uri: str, pos: lsp.Position) -> tuple[TextIndex, Occurrence, int] | None:
        view = server.view(uri)
        if view is None:
            return None
        await ensure_index(server, view)
        if view.index is None:
            return None
        offset = view.index.lines.offset(pos)
        occ = view.index.occurrence_at(offset)
        return (view.index, occ, offset) if occ is not None else None

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    async def definition(params: lsp.DefinitionParams) -> list[lsp.Location] | None:
        found = await locate(params.text_document.uri, params.position)
        if found is None:
            return None
        index, occ, offset = found
        if occ.kind == SYMBOL:
            op = index.symbol_op(occ, _symbol_part_at(index, occ, offset))
            if op is None or op.sym_span is None:
                return None
            s, e = op.sym_span
        else:
            d = index.definition_of(occ)
            if d is None:
                return None
            s, e = d.start, d.end
        return [lsp.Location(uri=params.text_document.uri, range=index.lines.range(s, e))]

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    async def references(params: lsp.ReferenceParams) -> list[lsp.Location] | None:
        found = await locate(params.text_document.uri, params.position)
        if found is None:
            return None
        index, occ, _ = found
        refs = index.references_of(occ)
        out = [lsp.Location(uri=params.text_document.uri, range=index.lines.range(o.start, o.end))
               for o in refs if params.context.include_declaration or not o.is_def]
        if occ.kind == SYMBOL and params.context.include_declaration:
            op = index.symbol_op(occ)
            if op is not None and op.sym_span is not None:
                out.insert(0, lsp.Location(uri=params.text_document.uri,
                                           range=index.lines.range(*op.sym_span)))
        return out

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
    async def highlight(params: lsp.DocumentHighlightParams) -> list[lsp.DocumentHighlight] | None:
        found = await locate(params.text_document.uri, params.position)
        if found is None:
            return None
        index, occ, _ = found
        return [lsp.DocumentHighlight(
            range=index.lines.range(o.start, o.end),
            kind=lsp.DocumentHighlightKind.Write if o.is_def else lsp.DocumentHighlightKind.Read)
            for o in index.references_of(occ)]
