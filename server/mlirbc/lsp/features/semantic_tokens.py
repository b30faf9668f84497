"""Semantic tokens: op names, values, block labels, symbols; fallback ops and opaque attributes/types carry
the `fallback` modifier (and the `macro` type) so that themes can set them apart from decoded ones."""

from __future__ import annotations

from lsprotocol import types as lsp

from ..analysis import indexed
from ..server import MlirbcServer
from ..textindex import BLOCK, SYMBOL, VALUE, TextIndex

TOKEN_TYPES = ["function", "macro", "variable", "parameter", "label", "namespace", "comment"]
TOKEN_MODIFIERS = ["declaration", "fallback", "documentation"]
_T = {t: i for i, t in enumerate(TOKEN_TYPES)}
_DECL, _FALLBACK, _DOC = 1, 2, 4

LEGEND = lsp.SemanticTokensLegend(token_types=TOKEN_TYPES, token_modifiers=TOKEN_MODIFIERS)


def collect(index: TextIndex, start: int = 0, end: int | None = None) -> list[int]:
    """The LSP-encoded token data for the text between offsets `start` and `end`."""
    stop = len(index.text) if end is None else end
    toks: list[tuple[int, int, int, int]] = []  # (start, end, type, modifiers)
    for op in index.ops:
        if op.name_start >= stop:
            break
        if op.name_end <= start:
            continue
        if op.fallback_props is not None:
            toks.append((op.name_start, op.name_end, _T["macro"], _FALLBACK))
            toks.append((op.fallback_props[0], op.fallback_props[1], _T["macro"], _FALLBACK))
        else:
            toks.append((op.name_start, op.name_end, _T["function"], 0))
    for o in index.opaque:
        if start <= o.start < stop:
            toks.append((o.start, o.end, _T["macro"], _FALLBACK))
    for c in index.comments:
        if start <= c[0] < stop and index.text.startswith("// mlirbc:", c[0]):
            toks.append((c[0], c[1], _T["comment"], _DOC))
    for occ in index.occurrences:
        if occ.start >= stop:
            break
        if occ.end <= start:
            continue
        mods = _DECL if occ.is_def else 0
        if occ.kind == VALUE:
            d = occ if occ.is_def else index.definition_of(occ)
            kind = "parameter" if d is not None and d.op < 0 else "variable"
            toks.append((occ.start, occ.end, _T[kind], mods))
        elif occ.kind == BLOCK:
            toks.append((occ.start, occ.end, _T["label"], mods))
        elif occ.kind == SYMBOL:
            toks.append((occ.start, occ.end, _T["namespace"], 0))
    for op in index.ops:
        if op.sym_span is not None and start <= op.sym_span[0] < stop:
            toks.append((op.sym_span[0], op.sym_span[1], _T["namespace"], _DECL))
    toks.sort()
    lines = index.lines
    data: list[int] = []
    prev_line = prev_col = 0
    last_end = -1
    for s, e, t, m in toks:
        if s < last_end:
            continue  # overlapping (e.g. an opaque part inside fallback properties): keep the first
        p = lines.position(s)
        q = lines.position(e)
        length = (q.character - p.character) if q.line == p.line else \
            len(lines.line_text(p.line)) - p.character
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
        index = await indexed(server, params.text_document.uri)
        return lsp.SemanticTokens(data=collect(index) if index is not None else [])

    @server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, LEGEND)
    async def ranged(params: lsp.SemanticTokensRangeParams) -> lsp.SemanticTokens:
        index = await indexed(server, params.text_document.uri)
        if index is None:
            return lsp.SemanticTokens(data=[])
        lines = index.lines
        return lsp.SemanticTokens(data=collect(index, lines.offset(params.range.start),
                                               lines.offset(params.range.end)))
