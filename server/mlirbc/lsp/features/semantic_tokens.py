"""Semantic tokens: op names, values, block labels, symbols; fallback ops and opaque attributes/types carry
the `fallback` modifier (and the `macro` type) so that themes can set them apart from decoded ones.  All
from the view's source map."""

from __future__ import annotations

from lsprotocol import types as lsp

from ...ir.operation import BlockArgument
from ...view.edits import ViewState
from ...view.lexindex import custom_keywords
from ...view.sourcemap import (
    PART_FALLBACK_ATTRIBUTE,
    PART_FALLBACK_PROPERTIES,
    PART_FALLBACK_TYPE,
    PART_HEADER,
    PART_USELIST,
    PIECE_CUSTOM,
)
from ..analysis import state_of
from ..positions import PositionCodec
from ..server import MlirbcServer

TOKEN_TYPES = ["function", "macro", "variable", "parameter", "label", "namespace", "comment", "keyword"]
TOKEN_MODIFIERS = ["declaration", "fallback", "documentation"]
_T = {t: i for i, t in enumerate(TOKEN_TYPES)}
_DECL, _FALLBACK, _DOC = 1, 2, 4

LEGEND = lsp.SemanticTokensLegend(token_types=TOKEN_TYPES, token_modifiers=TOKEN_MODIFIERS)


def collect(state: ViewState, codec: PositionCodec, start: int = 0,
            end: int | None = None) -> list[int]:
    """The LSP-encoded token data for the text between offsets `start` and `end`."""
    smap = state.map
    stop = len(state.text) if end is None else end
    toks: list[tuple[int, int, int, int]] = []  # (start, end, type, modifiers)
    for op, _ in smap.ops_in(start, stop):
        custom = smap.piece_span(op, PIECE_CUSTOM)
        if custom is not None:
            toks.extend((a, b, _T["keyword"], 0) for a, b in custom_keywords(state.text, custom.start,
                                                                            custom.end))
        name = smap.op_name_span(op)
        if name is not None:
            if op.is_fallback:
                toks.append((name.start, name.end, _T["macro"], _FALLBACK))
            else:
                toks.append((name.start, name.end, _T["function"], 0))
    for part in smap.parts_in(start, stop):
        if part.kind in (PART_FALLBACK_PROPERTIES, PART_FALLBACK_ATTRIBUTE, PART_FALLBACK_TYPE):
            toks.append((part.start, part.end, _T["macro"], _FALLBACK))
        elif part.kind in (PART_HEADER, PART_USELIST):
            toks.append((part.start, part.end, _T["comment"], _DOC))
    for occ in smap.occurrences_in(start, stop):
        mods = _DECL if occ.is_def else 0
        if occ.is_block:
            toks.append((occ.start, occ.end, _T["label"], mods))
        else:
            kind = "parameter" if isinstance(occ.target, BlockArgument) else "variable"
            toks.append((occ.start, occ.end, _T[kind], mods))
    for ref in smap.symbol_refs_in(start, stop):
        for sp in ref.spans:
            toks.append((sp.start, sp.end, _T["namespace"], 0))
    for op, _ in smap.symbol_ops():
        whole = smap.op_span(op)
        if whole is None or whole.end < start or whole.start >= stop:
            continue
        decl = smap.symbol_name_span(op)
        if decl is not None and start <= decl.start < stop:
            toks.append((decl.start, decl.end, _T["namespace"], _DECL))
    toks.sort()
    data: list[int] = []
    prev_line = prev_col = 0
    last_end = -1
    for s, e, t, m in toks:
        if s < last_end:
            continue  # overlapping (e.g. an opaque part inside fallback properties): keep the first
        p = codec.position(s)
        q = codec.position(e)
        length = (q.character - p.character) if q.line == p.line else \
            len(codec.line_text(p.line)) - p.character
        if length <= 0:
            continue
        dl = p.line - prev_line
        dc = p.character - prev_col if dl == 0 else p.character
        data += [dl, dc, length, t, m]
        prev_line, prev_col = p.line, p.character
        last_end = e
    return data


def register(server: MlirbcServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)
    async def full(params: lsp.SemanticTokensParams) -> lsp.SemanticTokens:
        view = server.view(params.text_document.uri)
        state = await state_of(server, view) if view is not None else None
        if view is None or state is None:
            return lsp.SemanticTokens(data=[])
        return lsp.SemanticTokens(data=collect(state, view.codec))

    @server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, LEGEND)
    async def ranged(params: lsp.SemanticTokensRangeParams) -> lsp.SemanticTokens:
        view = server.view(params.text_document.uri)
        state = await state_of(server, view) if view is not None else None
        if view is None or state is None:
            return lsp.SemanticTokens(data=[])
        codec = view.codec
        return lsp.SemanticTokens(data=collect(state, codec, codec.offset(params.range.start),
                                               codec.offset(params.range.end)))
