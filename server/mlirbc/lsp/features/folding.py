"""Folding ranges: regions, multi-line attribute dictionaries, the resource trailer, header comments."""

from __future__ import annotations

from lsprotocol import types as lsp

from ..analysis import indexed
from ..server import MlirbcServer
from ..textindex import TextIndex


def folding_ranges(index: TextIndex) -> list[lsp.FoldingRange]:
    lines = index.lines
    out: list[lsp.FoldingRange] = []
    for f in index.folds:
        a, b = lines.line_of(f.start), lines.line_of(f.end)
        if b > a:
            out.append(lsp.FoldingRange(
                start_line=a, end_line=b - 1 if f.kind != "resources" else b,
                kind=lsp.FoldingRangeKind.Region if f.kind in ("region", "resources") else None))
    # runs of `// ...` comment lines (the `// mlirbc:` header)
    run_start = prev = -2
    for s, _e in index.comments:
        line = lines.line_of(s)
        if line != prev + 1:
            if prev - run_start >= 1:
                out.append(lsp.FoldingRange(start_line=run_start, end_line=prev,
                                            kind=lsp.FoldingRangeKind.Comment))
            run_start = line
        prev = line
    if prev - run_start >= 1 and run_start >= 0:
        out.append(lsp.FoldingRange(start_line=run_start, end_line=prev,
                                    kind=lsp.FoldingRangeKind.Comment))
    out.sort(key=lambda r: (r.start_line, -r.end_line))
    return out


def register(server: MlirbcServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_FOLDING_RANGE)
    async def folding(params: lsp.FoldingRangeParams) -> list[lsp.FoldingRange]:
        index = await indexed(server, params.text_document.uri)
        return folding_ranges(index) if index is not None else []
