"""An abort that lands in the uniquer's weak-reference callback never leaves its lock held.

The language server stops a cancelled job with an asynchronous exception, which may fire anywhere in the
job's thread, the uniquer's callback included (it runs each time an attribute is freed).  A lock taken
there and not released by the unwinding leaves every later job waiting for it for ever: the CI's VS Code
run once waited 60 s for a graph that never came."""

from __future__ import annotations

import sys
import threading
import time

import pytest

from mlirbc.ir import uniquer
from mlirbc.ir.attributes import StringAttr
from mlirbc.lsp import guard

ROUNDS = 400


def _free_attributes(stop: threading.Event, started: threading.Event, caught: list[int]) -> None:
    started.set()
    n = 0
    while not stop.is_set():
        try:
            while not stop.is_set():
                # each attribute dies at once: its callback takes the lock to drop the table's entry
                StringAttr.get(f"uniquer-abort-{n}")
                n += 1
        except guard.WorkAborted:
            caught[0] += 1


def test_aborts_landing_in_the_uniquer_callback_never_keep_its_lock(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Python hands the aborts that land in a callback to the unraisable hook, which drops them here (as
    # the server's does); pytest's own hook would itself be aborted on the way.
    monkeypatch.setattr(sys, "unraisablehook", lambda _info: None)
    stop, started = threading.Event(), threading.Event()
    caught = [0]
    worker = threading.Thread(target=_free_attributes, args=(stop, started, caught), daemon=True)
    worker.start()
    started.wait()
    assert worker.ident is not None
    try:
        for _ in range(ROUNDS):
            guard._set_async_exc(worker.ident, guard.WorkAborted)
            time.sleep(0.001)
            # another thread (the next job) must get the lock whenever the worker is not inside it
            got = uniquer._lock.acquire(timeout=5)
            assert got, "the uniquer's lock is held by a thread that left the callback"
            uniquer._lock.release()
    finally:
        stop.set()
        worker.join(10)
    assert caught[0] > 0  # the aborts did reach the worker (some in its loop, the rest in callbacks)
