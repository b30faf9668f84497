"""Keeps a view's state (module, source map, diagnostics) up to date with its text, debounced after
edits.

A view that still shows the decoded text has the file's printed state.  After an edit, the op that holds
the change is re-read alone when it can be (`view.edits.reparse_edit`); otherwise the whole text is
parsed.  Both run as jobs off the event loop; a newer edit cancels the pending run.
"""

from __future__ import annotations

import asyncio
import time

from ..view.edits import ViewState, parse_state, reparse_edit, with_verification
from .diagnostics import decode_diagnostics, fallback_diagnostics, text_diagnostics
from .documents import Decoded, View
from .server import SOURCE_DECODE, SOURCE_FALLBACK, SOURCE_TEXT, MlirbcServer

QUICK_CHECK_S = 0.25
"""A view whose last check took less than this is checked again at once after an edit; the debounce
(`diagnostics.debounceMs`) is for views whose checks are expensive (a whole large text parsed)."""


def debounce_s(server: MlirbcServer, view: View) -> float:
    if view.check_s < QUICK_CHECK_S:
        return 0.0
    return server.settings.debounce_ms / 1000


def schedule(server: MlirbcServer, uri: str, delay_s: float) -> None:
    """(Re)start the analysis of `uri` after `delay_s`; a newer edit cancels the pending one."""
    old = server.pending.pop(uri, None)
    if old is not None and not old.done():
        old.cancel()
    # From the edit until its check is published the user waits: background work steps aside.
    server.gate.enter()
    task = asyncio.ensure_future(_run(server, uri, delay_s))
    server.pending[uri] = task

    def forget(t: asyncio.Task[None]) -> None:
        server.gate.leave()
        if server.pending.get(uri) is t:
            server.pending.pop(uri, None)
        if not t.cancelled() and t.exception() is not None:
            server.log(f"analysis of {uri} failed: {t.exception()!r}")

    task.add_done_callback(forget)


async def state_of(server: MlirbcServer, view: View) -> ViewState | None:
    """The state of the view's current text (computed now if needed, once however many ask; None
    when the view changed while it was computed)."""
    while True:
        if view.state is not None and view.state_version == view.version:
            return view.state
        running = view.computing
        if running is None or running[0] != view.version:
            break
        try:
            return await asyncio.shield(running[1])
        except asyncio.CancelledError:
            if not running[1].cancelled():
                raise  # this request was cancelled
            # the run computing it was cancelled (a newer edit): compute it here
    fut: asyncio.Future[ViewState | None] = asyncio.get_running_loop().create_future()
    view.computing = (view.version, fut)
    try:
        state = await _compute(server, view)
        fut.set_result(state)
        return state
    except BaseException as exc:
        if isinstance(exc, asyncio.CancelledError):
            fut.cancel()
        else:
            fut.set_exception(exc)
            fut.exception()  # retrieved: the others get it through their own await
        raise
    finally:
        if view.computing is not None and view.computing[1] is fut:
            view.computing = None


async def _compute(server: MlirbcServer, view: View) -> ViewState | None:
    version, text, lines = view.version, view.text, view.lines
    decoded = server.decoded_for(view)
    verify = server.settings.verify
    if decoded is not None and (text is decoded.text or text == decoded.text):
        view.text = decoded.text  # one copy of the text, shared with the file
        printed = decoded.state
        if verify and printed.verification is None and printed.module is not None:
            # The decoded file is verified once, off the event loop; every view of it shares the result.
            def verify_printed(state: ViewState = printed, file: Decoded = decoded) -> ViewState:
                return with_verification(state, file.registry, file.lines)

            printed = await server.run_job(verify_printed, "verifying", "mlirbc: verifying")
            if decoded.state.verification is None:
                decoded.state = printed
            printed = decoded.state
        if view.version != version:
            return None
        view.state, view.state_version = printed, version
        view.set_good(printed)
        return printed
    template = decoded.module if decoded is not None else None
    registry = decoded.registry if decoded is not None else server.registry()
    good, dirty = view.good, view.dirty

    def work() -> ViewState:
        if good is not None and dirty is not None:
            lo, tail = dirty
            state = reparse_edit(good, text, lo, len(good.text) - tail, template, registry, lines,
                                 verify=verify)
            if state is not None:
                return state
        return parse_state(text, template, registry, lines, verify=verify)

    t0 = time.perf_counter()
    state = await server.run_job(work, "checking the text", "mlirbc: checking the text")
    view.check_s = time.perf_counter() - t0
    if view.version != version:
        return None
    view.state, view.state_version = state, version
    if state.module is not None:
        view.set_good(state)
    return state


async def _run(server: MlirbcServer, uri: str, delay_s: float) -> None:
    if delay_s > 0:
        await asyncio.sleep(delay_s)
    view = server.views.get(uri)
    if view is None:
        return
    version = view.version
    try:
        state = await state_of(server, view)
    except Exception as exc:  # a parser crash on odd text must not silence the rest
        server.log(f"checking {uri} failed: {exc!r}")
        return
    if state is None or view.version != version or server.views.get(uri) is not view:
        return
    decoded = server.decoded_for(view)
    codec = view.codec
    if decoded is not None:
        server.set_diagnostics(uri, SOURCE_DECODE, decode_diagnostics(decoded, state, codec))
    server.set_diagnostics(uri, SOURCE_TEXT, text_diagnostics(state.diagnostics, codec, uri))
    if server.settings.fallback_diagnostics:
        server.set_diagnostics(uri, SOURCE_FALLBACK, fallback_diagnostics(
            uri, state, decoded, codec, server.settings.max_fallback_diagnostics))
    else:
        server.set_diagnostics(uri, SOURCE_FALLBACK, [])
