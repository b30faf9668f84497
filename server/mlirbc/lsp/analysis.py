"""Keeps a view's index, parse and diagnostics up to date with its text (debounced after edits)."""

from __future__ import annotations

import asyncio

from . import backend
from .diagnostics import (
    decode_diagnostics,
    fallback_diagnostics,
    structural_diagnostics,
    text_diagnostics,
)
from .documents import View, make_snapshot
from .server import SOURCE_DECODE, SOURCE_FALLBACK, SOURCE_TEXT, MlirbcServer
from .textindex import TextIndex

SMALL_TEXT = 2_000_000
"""Texts up to this many characters are indexed on the event loop (a few ms); larger ones in a job."""


def schedule(server: MlirbcServer, uri: str, delay_s: float) -> None:
    """(Re)start the analysis of `uri` after `delay_s`; a newer edit cancels the pending one."""
    old = server.pending.pop(uri, None)
    if old is not None and not old.done():
        old.cancel()
    task = asyncio.ensure_future(_run(server, uri, delay_s))
    server.pending[uri] = task

    def forget(t: asyncio.Task[None]) -> None:
        if server.pending.get(uri) is t:
            server.pending.pop(uri, None)
        if not t.cancelled() and t.exception() is not None:
            server.log(f"analysis of {uri} failed: {t.exception()!r}")

    task.add_done_callback(forget)


async def ensure_index(server: MlirbcServer, view: View) -> None:
    """Make `view.index` describe the view's current text (small texts inline, large ones in a job;
    a view still showing the decoded text shares the file's index)."""
    if view.index_version == view.version:
        return
    version, text = view.version, view.text
    decoded = server.decoded_for(view)
    if decoded is not None and text == decoded.text:
        if decoded.index is None and decoded.index_job is not None:
            try:
                await asyncio.shield(decoded.index_job)
            except Exception as exc:
                server.log(f"indexing {decoded.key} failed: {exc}")
        if decoded.index is not None:
            if view.version == version:
                view.index, view.index_version = decoded.index, version
            return
    if len(text) > server.settings.max_index_mb * 1e6:
        view.index, view.index_version = None, version
        return
    if len(text) <= SMALL_TEXT:
        index = TextIndex(text)
    else:
        index = await server.run_job(lambda: TextIndex(text), "indexing the view",
                                     "mlirbc: indexing")
    if view.version == version:
        view.index, view.index_version = index, version


async def indexed(server: MlirbcServer, uri: str) -> TextIndex | None:
    """The up-to-date index of an open view, or None when the view is unknown or not indexed."""
    view = server.view(uri)
    if view is None:
        return None
    await ensure_index(server, view)
    return view.index


async def ensure_parse(server: MlirbcServer, view: View) -> backend.ParseOutcome | None:
    """The parse of the view's current version (None when the parser is not available)."""
    if view.parse is not None and view.parse_version == view.version:
        return view.parse
    if not backend.available(backend.PARSER):
        return None
    decoded = server.decoded_for(view)
    template = decoded.module if decoded is not None else None
    registry = decoded.registry if decoded is not None else server.registry()
    version, text = view.version, view.text
    outcome = await server.run_job(lambda: backend.parse(text, template, registry),
                                   "parsing the view", "mlirbc: checking the text")
    if view.version == version:
        view.parse, view.parse_version = outcome, version
    return outcome


async def _run(server: MlirbcServer, uri: str, delay_s: float) -> None:
    if delay_s > 0:
        await asyncio.sleep(delay_s)
    view = server.views.get(uri)
    if view is None:
        return
    version = view.version
    await ensure_index(server, view)
    decoded = server.decoded_for(view)
    if view.version != version or server.views.get(uri) is not view:
        return
    if decoded is not None:
        server.set_diagnostics(uri, SOURCE_DECODE, decode_diagnostics(decoded, view))
    unchanged = decoded is not None and view.text == decoded.text
    if unchanged:
        server.set_diagnostics(uri, SOURCE_TEXT, [])
    else:
        try:
            outcome = await ensure_parse(server, view)
        except Exception as exc:  # a parser crash on odd text must not silence the rest
            server.log(f"text parser failed on {uri}: {exc!r}")
            outcome = None
        if view.version != version:
            return
        if outcome is not None:
            server.set_diagnostics(uri, SOURCE_TEXT, text_diagnostics(outcome.problems))
        elif view.index is not None:
            server.set_diagnostics(uri, SOURCE_TEXT,
                                   structural_diagnostics(view.index, view.index.lines))
    if server.settings.fallback_diagnostics:
        snap = make_snapshot(view, decoded)
        server.set_diagnostics(uri, SOURCE_FALLBACK, fallback_diagnostics(
            uri, view, snap, decoded, server.settings.max_fallback_diagnostics))
    else:
        server.set_diagnostics(uri, SOURCE_FALLBACK, [])
