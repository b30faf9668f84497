"""Runs heavy work (decode, print, parse, encode) off the event loop, bounded in time and cancellable.

Each job gets its own daemon thread.  A thread cannot be killed, but pure-Python work can be interrupted:
on timeout or cancellation the thread is sent an asynchronous exception (`PyThreadState_SetAsyncExc`), which
fires at its next bytecode.  The reader and writer are pure Python, so a hostile file cannot keep a thread
spinning after its request is gone.
"""

from __future__ import annotations

import asyncio
import ctypes
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class WorkAborted(Exception):
    """Raised inside a worker thread to stop it (timeout or cancellation)."""


class WorkTimeout(Exception):
    def __init__(self, what: str, seconds: float) -> None:
        super().__init__(f"{what} took longer than {seconds:g} s and was stopped "
                         "(setting mlirbc.limits.decodeTimeoutSeconds)")


def _interrupt(thread: threading.Thread) -> None:
    ident = thread.ident
    if ident is None or not thread.is_alive():
        return
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(WorkAborted))


async def run_bounded(fn: Callable[[], T], what: str, timeout: float | None) -> T:
    """Run `fn()` in a fresh thread; wait at most `timeout` seconds (None: as long as it takes).

    Cancelling the awaiting task (an LSP `$/cancelRequest`) interrupts the thread too.
    """
    loop = asyncio.get_running_loop()
    fut: asyncio.Future[T] = loop.create_future()

    def deliver(ok: bool, value: object) -> None:
        if fut.done():
            return
        if ok:
            fut.set_result(value)  # type: ignore[arg-type]
        else:
            assert isinstance(value, BaseException)
            fut.set_exception(value)

    def body() -> None:
        try:
            result = fn()
        except WorkAborted:
            return  # the awaiting side already moved on
        except RecursionError:
            err = RuntimeError(f"{what}: input nested too deeply")
            _post(loop, deliver, False, err)
            return
        except BaseException as exc:  # noqa: BLE001 - handed to the awaiting task
            _post(loop, deliver, False, exc)
            return
        _post(loop, deliver, True, result)

    thread = threading.Thread(target=body, name=f"mlirbc: {what}", daemon=True)
    thread.start()
    try:
        return await asyncio.wait_for(asyncio.shield(fut), timeout)
    except TimeoutError:
        _interrupt(thread)
        raise WorkTimeout(what, timeout or 0.0) from None
    except asyncio.CancelledError:
        _interrupt(thread)
        raise


def _post(loop: asyncio.AbstractEventLoop, cb: Callable[[bool, object], None], ok: bool,
          value: object) -> None:
    try:
        loop.call_soon_threadsafe(cb, ok, value)
    except RuntimeError:
        pass  # the loop is closed: the server is shutting down
