"""Go to definition, find references and document highlights for `%values`, `^blocks`, `@symbols`
(nested references `@a::@b` resolve part by part through symbol tables) and aliases (`#map`, `#loc3`),
from the view's source map; in text the parser could not read, from a lexer index of that part."""

from __future__ import annotations

from lsprotocol import types as lsp

from ...view.sourcemap import Span
from ..analysis import state_of
from ..server import MlirbcServer
from .lexnames import lex_name_at

DEF = lsp.DocumentHighlightKind.Write
USE = lsp.DocumentHighlightKind.Read


async def _targets(server: MlirbcServer, uri: str, pos: lsp.Position
                   ) -> tuple[list[tuple[Span, bool]], bool] | None:
    """The definition and every use of what is at `pos`, as (span, is definition); and whether a
    definition was found."""
    view = server.view(uri)
    if view is None:
        return None
    state = await state_of(server, view)
    if state is None:
        return None
    smap = state.map
    offset = view.codec.offset(pos)
    occ = smap.occurrence_at(offset)
    if occ is not None and occ.target is not None:
        d = smap.definition(occ.target)
        spans = [(u, False) for u in smap.uses(occ.target)]
        if d is not None:
            spans.insert(0, (d, True))
        return spans, d is not None
    ref = smap.symbol_at(offset)
    if ref is not None:
        op = smap.resolve_symbol(ref, ref.part_at(offset))
        if op is None:
            return [], False
        decl = smap.symbol_name_span(op) or smap.op_name_span(op)
        spans = [(u, False) for u in smap.symbol_references(op)]
        if decl is not None:
            spans.insert(0, (decl, True))
        return spans, decl is not None
    alias = smap.alias_at(offset)
    if alias is not None:
        where = smap.alias_definition(alias[0])
        spans = [(u, False) for u in smap.alias_uses(alias[0])]
        if where is not None:
            spans.insert(0, (where, True))
        return spans, where is not None
    lexed = lex_name_at(view, state, offset)
    if lexed is not None:
        index, name = lexed
        found = index.definition(name)
        refs = [(Span(n.start, n.end), n.is_def) for n in index.references(name)]
        refs.sort(key=lambda r: (not r[1], r[0]))
        return refs, found is not None
    return None


def register(server: MlirbcServer) -> None:
    def location(uri: str, span: Span) -> lsp.Location:
        view = server.view(uri)
        assert view is not None
        return lsp.Location(uri=uri, range=view.codec.range(span.start, span.end))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    async def definition(params: lsp.DefinitionParams) -> list[lsp.Location] | None:
        uri = params.text_document.uri
        found = await _targets(server, uri, params.position)
        if found is None or not found[1]:
            return None
        return [location(uri, found[0][0][0])]

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    async def references(params: lsp.ReferenceParams) -> list[lsp.Location] | None:
        uri = params.text_document.uri
        found = await _targets(server, uri, params.position)
        if found is None:
            return None
        return [location(uri, s) for s, is_def in found[0]
                if params.context.include_declaration or not is_def]

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
    async def highlight(params: lsp.DocumentHighlightParams) -> list[lsp.DocumentHighlight] | None:
        uri = params.text_document.uri
        found = await _targets(server, uri, params.position)
        view = server.view(uri)
        if found is None or view is None:
            return None
        codec = view.codec
        return [lsp.DocumentHighlight(range=codec.range(s.start, s.end), kind=DEF if d else USE)
                for s, d in found[0]]
