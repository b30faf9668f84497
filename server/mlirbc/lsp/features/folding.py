"""Folding ranges: regions, the resource trailer, runs of `// mlirbc:` comment lines; from the source map."""

from __future__ import annotations

from lsprotocol import types as lsp

from ...view.edits import ViewState
from ...view.sourcemap import PART_HEADER, PART_RESOURCES, PART_USELIST
from ..analysis import state_of
from ..positions import PositionCodec
from ..server import MlirbcServer


def folding_ranges(state: ViewState, codec: PositionCodec) -> list[lsp.FoldingRange]:
    lines = codec.lines
    out: list[lsp.FoldingRange] = []
    for _, span in state.map.regions():
        a, b = lines.line_of(span.start), lines.line_of(span.end)
        if b - 1 > a:
            out.append(lsp.FoldingRange(start_line=a, end_line=b - 1,
                                        kind=lsp.FoldingRangeKind.Region))
    run_start = prev = -2
    for part in state.map.parts():
        if part.kind == PART_RESOURCES:
            a, b = lines.line_of(part.start), lines.line_of(part.end)
            if b > a:
                out.append(lsp.FoldingRange(start_line=a, end_line=b,
                                            kind=lsp.FoldingRangeKind.Region))
        elif part.kind in (PART_HEADER, PART_USELIST):
            line = lines.line_of(part.start)
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
        view = server.view(params.text_document.uri)
        if view is None:
            return []
        state = await state_of(server, view)
        return folding_ranges(state, view.codec) if state is not None else []
