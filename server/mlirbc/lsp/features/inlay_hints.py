"""Inlay hints: after a fallback op's verbatim properties, what their bytes would reference if read as
varint indices into the file's attribute and type tables (the full reading is in the tooltip); after an op's
name, another spelling of the op when a model's note hook gives one (e.g. its StableHLO form), except in a
dialect-level view, which spells its ops that way already."""

from __future__ import annotations

from lsprotocol import types as lsp

from ...ir.operation import Properties
from ...view.edits import ViewState
from ...view.sourcemap import PART_FALLBACK_PROPERTIES
from ..analysis import state_of
from ..positions import PositionCodec
from ..server import MlirbcServer
from .hover import varint_refs

MAX_HINTS = 2000


def spelling_hints(server: MlirbcServer, state: ViewState, codec: PositionCodec, lo: int, hi: int
                   ) -> list[lsp.InlayHint]:
    """`⇒ spelling` after the name of each op in [lo, hi] whose note hooks give another spelling."""
    registry = server.registry()
    out: list[lsp.InlayHint] = []
    smap = state.map
    for op, _ in smap.ops_in(lo, hi + 1):
        name = smap.op_name_span(op)
        if name is None or name.end < lo or name.start > hi:
            continue
        for note in registry.op_notes(op, op.name):
            if note.spelling:
                out.append(lsp.InlayHint(position=codec.position(name.end),
                                         label=f"⇒ {note.spelling}", padding_left=True))
                break
        if len(out) >= MAX_HINTS:
            break
    return out


def register(server: MlirbcServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_INLAY_HINT)
    async def hints(params: lsp.InlayHintParams) -> list[lsp.InlayHint]:
        view = server.view(params.text_document.uri)
        if view is None or not server.settings.inlay_hints:
            return []
        state = await state_of(server, view)
        decoded = server.decoded_for(view)
        module = decoded.file_module if decoded is not None else None
        if state is None or module is None or module.source is None:
            return []  # without the original tables the indices mean nothing
        codec = view.codec
        lo, hi = codec.offset(params.range.start), codec.offset(params.range.end)
        # A dialect-level view already spells its ops the way the hints would (StableHLO for VHLO).
        out: list[lsp.InlayHint] = spelling_hints(server, state, codec, lo, hi) \
            if decoded is None or decoded.conversion is None else []
        for part in state.map.parts_in(lo, hi + 1):
            if part.kind != PART_FALLBACK_PROPERTIES or not isinstance(part.obj, Properties):
                continue
            refs = varint_refs(part.obj.raw or b"", module, limit=8)
            if not refs:
                continue
            short = [r.split(": ", 1)[1] for r in refs[:3]]
            label = " ≈ " + " · ".join(x if len(x) < 48 else x[:47] + "…" for x in short)
            if len(refs) > 3:
                label += " …"
            out.append(lsp.InlayHint(
                position=codec.position(part.end), label=label, kind=lsp.InlayHintKind.Type,
                padding_left=True,
                tooltip=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=(
                    "Fallback payload read as varints (a guess):\n\n"
                    + "\n".join(f"- {r}" for r in refs)))))
            if len(out) >= MAX_HINTS:
                break
        return out
