"""Inlay hints: after a fallback op's verbatim properties, what their bytes would reference if read as
varint indices into the file's attribute and type tables (the full reading is in the tooltip); after an op's
name, another spelling of the op when a model's note hook gives one (e.g. its StableHLO form)."""

from __future__ import annotations

import re

from lsprotocol import types as lsp

from ..analysis import ensure_index
from ..server import MlirbcServer
from .hover import varint_refs

_HEX = re.compile(r'"0x([0-9A-Fa-f]*)"')
MAX_HINTS = 2000


def spelling_hints(server: MlirbcServer, uri: str, lo: int, hi: int) -> list[lsp.InlayHint]:
    """`⇒ spelling` after the name of each op in [lo, hi] whose note hooks give another spelling."""
    snap = server.snapshot(uri)
    if snap is None:
        return []
    registry = server.registry()
    out: list[lsp.InlayHint] = []
    for entry in snap.index.ops:
        if entry.name_end < lo or entry.name_start > hi:
            continue
        op = snap.op(entry)
        if op is None:
            continue
        for note in registry.op_notes(op, entry.name):
            if note.spelling:
                out.append(lsp.InlayHint(position=snap.lines.position(entry.name_end),
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
        await ensure_index(server, view)
        index = view.index
        if index is None:
            return []
        decoded = server.decoded_for(view)
        module = decoded.module if decoded is not None else None
        if module is None or module.source is None:
            return []  # without the original tables the indices mean nothing
        lines = index.lines
        lo, hi = lines.offset(params.range.start), lines.offset(params.range.end)
        out: list[lsp.InlayHint] = spelling_hints(server, view.uri, lo, hi)
        for op in index.ops:
            if op.fallback_props is None:
                continue
            s, e = op.fallback_props
            if e < lo or s > hi:
                continue
            m = _HEX.search(index.text, s, e)
            if m is None or len(m.group(1)) % 2:
                continue
            refs = varint_refs(bytes.fromhex(m.group(1)), module, limit=8)
            if not refs:
                continue
            short = [r.split(": ", 1)[1] for r in refs[:3]]
            label = " ≈ " + " · ".join(x if len(x) < 48 else x[:47] + "…" for x in short)
            if len(refs) > 3:
                label += " …"
            out.append(lsp.InlayHint(
                position=lines.position(e), label=label, kind=lsp.InlayHintKind.Type,
                padding_left=True,
                tooltip=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=(
                    "Fallback payload read as varints (a guess):\n\n"
                    + "\n".join(f"- {r}" for r in refs)))))
            if len(out) >= MAX_HINTS:
                break
        return out
