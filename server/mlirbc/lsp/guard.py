"""Runs heavy work (decode, print, parse, encode) off the event loop, bounded in time and cancellable.

Each job gets its own daemon thread.  A thread cannot be killed, but pure-Python work can be interrupted:
on timeout or cancellation the thread is sent an asynchronous exception (`PyThreadState_SetAsyncExc`), which
fires at its next bytecode.  The reader and writer are pure Python, so a hostile file cannot keep a thread
spinning after its request is gone.

Asynchronous exceptions are addressed by thread id, and the C library gives a new thread the id of one that
just ended, so an abort must only ever be sent while the job's own thread is inside the job: `_Abort` holds
that state under a lock the worker takes to leave.  An abort can also be lost: one that fires inside a
weak-reference callback or a `__del__` (as the uniquer's do when a partial IR is freed) is printed and
dropped by Python.  So an aborted job that still runs is sent it again, until it stops.
"""

from __future__ import annotations

import asyncio
import ctypes
import sys
import threading
from collections.abc import Callable
from typing import TypeVar, cast

T = TypeVar("T")

RESEND_S = (0.25, 0.5, 1.0, 0.25)
"""Delays before an abort is sent again to a job that still runs (the last one repeats).  Not sooner at
first: an abort that was not lost is still unwinding the job then, freeing what it built (110 ms for the
112k-op file), and one sent into that only cuts the clean-up short (resending after 20 ms made the next
request wait 227 ms instead of 111, `benchmarks/hostile_requests.py`).  A job still running 1.75 s after
its first abort is not unwinding but losing the aborts (a job freeing much IR spends most of its time in
weak-reference callbacks, where each is dropped): it is sent one every 0.25 s, not once a second (a
churning job in tests/test_guard.py took up to 44 s to stop at one a second)."""

# Our own prototype of the C function (not `ctypes.pythonapi`'s, whose argument types are shared).
_set_async_exc = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_ulong, ctypes.py_object)(
    ("PyThreadState_SetAsyncExc", ctypes.pythonapi))
_NULL = ctypes.py_object()


class WorkAborted(BaseException):
    """Raised inside a worker thread to stop it (timeout or cancellation).

    A BaseException, as KeyboardInterrupt is: the code it interrupts turns an `Exception` into an error
    result or a fallback (a model that failed to decode), which would swallow the abort."""


class WorkTimeout(Exception):
    def __init__(self, what: str, seconds: float) -> None:
        super().__init__(f"{what} took longer than {seconds:g} s and was stopped "
                         "(setting mlirbc.limits.decodeTimeoutSeconds)")


class _Abort:
    """Whether a job's thread may be sent an abort: only between `enter` and `leave`, under `lock`."""

    __slots__ = ("lock", "ident", "running", "wanted", "sent")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.ident = 0
        self.running = False
        self.wanted = False
        self.sent = 0

    def enter(self) -> bool:
        """In the worker, before the job: False when the job was aborted before its thread started."""
        with self.lock:
            if self.wanted:
                return False
            self.ident = threading.get_ident()
            self.running = True
            return True

    def send(self) -> bool:
        """Ask the job's thread to stop; True while it still runs the job (so is worth asking again)."""
        with self.lock:
            self.wanted = True
            if not self.running:
                return False
            if importing(self.ident):
                return True  # asked again once the import is done
            # Under the lock the worker cannot leave the job, so this thread id is still the job's.
            self.sent += 1
            _set_async_exc(self.ident, WorkAborted)
            return True


def importing(ident: int) -> bool:
    """Whether the thread `ident` is inside Python's import machinery.  Its module locks are Python code
    (`importlib._bootstrap._ModuleLock`): an abort fired between their steps leaves a module's lock owned by
    a thread that is gone, and every later import of that module waits for ever (the CI's VS Code run
    waited 60-120 s for answers whose jobs imported a module a cancelled job had been importing)."""
    frame = sys._current_frames().get(ident)
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def preload(package: str = "mlirbc") -> int:
    """Import every module of `package` now, in this thread, so that the server's jobs do not import
    them (see `importing`); returns how many modules were imported."""
    import importlib
    import pkgutil

    root = importlib.import_module(package)
    n = 0
    for info in pkgutil.walk_packages(root.__path__, package + "."):
        if info.name.rsplit(".", 1)[-1] == "__main__":
            continue
        importlib.import_module(info.name)
        n += 1
    return n


def quiet_lost_aborts() -> None:
    """Stop Python printing the aborts it drops (see the module's docstring): they are expected, and sent
    again; every other unraisable exception is still reported."""
    default = sys.unraisablehook

    def hook(info: sys.UnraisableHookArgs) -> None:
        if info.exc_type is not None and issubclass(info.exc_type, WorkAborted):
            return
        default(info)

    sys.unraisablehook = hook


def _leave(abort: _Abort) -> None:
    """In the worker, after the job: no abort is sent any more, and one already sent is discarded."""
    with abort.lock:
        abort.running = False
        if abort.sent:
            _set_async_exc(abort.ident, _NULL)  # NULL clears a pending exception


async def run_bounded(fn: Callable[[], T], what: str, timeout: float | None) -> T:
    """Run `fn()` in a fresh thread; wait at most `timeout` seconds (None: as long as it takes).

    Cancelling the awaiting task (an LSP `$/cancelRequest`) interrupts the thread too.
    """
    loop = asyncio.get_running_loop()
    fut: asyncio.Future[T] = loop.create_future()
    abort = _Abort()

    def deliver(ok: bool, value: object) -> None:
        if fut.done():
            return
        if ok:
            fut.set_result(value)  # type: ignore[arg-type]
        else:
            assert isinstance(value, BaseException)
            fut.set_exception(value)

    def body() -> None:
        ok, value = False, cast(object, None)
        try:
            if not abort.enter():
                return
            try:
                try:
                    value, ok = fn(), True
                except RecursionError:
                    value = RuntimeError(f"{what}: input nested too deeply")
                except WorkAborted:
                    raise
                except BaseException as exc:  # noqa: BLE001 - handed to the awaiting task
                    value = exc
            finally:
                _leave(abort)
        except WorkAborted:
            # Sent before `_leave` took the lock (`_leave` may have been cut short by it): the finally
            # below still clears `running`.
            return  # the awaiting side already moved on
        finally:
            abort.running = False  # whatever happened above, no abort may follow this thread out
        if not abort.wanted:
            _post(loop, deliver, ok, value)

    def resend(step: int) -> None:
        if abort.send():
            loop.call_later(RESEND_S[min(step, len(RESEND_S) - 1)], resend, step + 1)

    thread = threading.Thread(target=body, name=f"mlirbc: {what}", daemon=True)
    thread.start()
    try:
        return await asyncio.wait_for(asyncio.shield(fut), timeout)
    except TimeoutError:
        resend(0)
        raise WorkTimeout(what, timeout or 0.0) from None
    except asyncio.CancelledError:
        resend(0)
        raise


def _post(loop: asyncio.AbstractEventLoop, cb: Callable[[bool, object], None], ok: bool,
          value: object) -> None:
    try:
        loop.call_soon_threadsafe(cb, ok, value)
    except RuntimeError:
        pass  # the loop is closed: the server is shutting down
