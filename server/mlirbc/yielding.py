"""Cooperative yielding: long work that nobody waits for steps aside while somebody waits.

The server runs its jobs in threads that share one interpreter lock, so a background job (readying a
file's first save right after it opened) halves the speed of a keystroke's check running beside it: the
lock passes between the two every few milliseconds.  A background job therefore runs `in_background` of
a `Gate`, and the long loops it goes through (numbering a template's entries, encoding them) call
`checkpoint()`: while foreground work holds the gate, the background thread waits there, without the
lock.  Outside a background thread a checkpoint is one attribute lookup.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")

_local = threading.local()


class Gate:
    """Counts the foreground work in progress; background work waits at checkpoints while any runs."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._busy = 0
        self._awaited = 0

    @property
    def busy(self) -> bool:
        """Whether background work should wait: foreground work runs and none waits for the
        background work itself."""
        return self._busy > 0 and not self._awaited

    def enter(self) -> None:
        with self._cond:
            self._busy += 1

    def leave(self) -> None:
        with self._cond:
            self._busy = max(0, self._busy - 1)
            if not self._busy:
                self._cond.notify_all()

    @contextmanager
    def foreground(self) -> Iterator[None]:
        self.enter()
        try:
            yield
        finally:
            self.leave()

    @contextmanager
    def awaited(self) -> Iterator[None]:
        """Foreground work waits for the background work: it runs on while the block lasts."""
        with self._cond:
            self._awaited += 1
            self._cond.notify_all()
        try:
            yield
        finally:
            with self._cond:
                self._awaited -= 1

    def wait_idle(self) -> None:
        with self._cond:
            while self.busy:
                # a timeout keeps the waiting thread interruptible (a job's cancellation)
                self._cond.wait(0.05)


def checkpoint() -> None:
    """Wait here while the gate of this background thread has foreground work (no-op elsewhere)."""
    gate: Gate | None = getattr(_local, "gate", None)
    if gate is not None and gate.busy:
        gate.wait_idle()


def in_background(gate: Gate, fn: Callable[[], T]) -> T:
    """Run `fn()` in this thread as background work of `gate`."""
    _local.gate = gate
    try:
        return fn()
    finally:
        _local.gate = None
