"""The job guard of the language server: a cancelled job stops, and its abort reaches no other job."""

from __future__ import annotations

import asyncio
import sys
import threading
import weakref
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from mlirbc.ir.attributes import StringAttr
from mlirbc.lsp import guard
from mlirbc.lsp.guard import WorkAborted, run_bounded

HANG_S = 150.0
"""Only a hung or runaway job takes this long.  The churning jobs below lose nearly every abort in their
callbacks and stop after tens of resends (seconds; up to 44 s on a loaded 2-core machine at one resend a
second); every other job ends in well under a second."""


class _Box:
    pass


def _slow_forget(ref: weakref.ref[_Box]) -> None:
    sum(range(5000))  # stands for the work of many callbacks (the uniquer's, when a large IR is freed)


def _churn(stop: threading.Event, ended: list[str]) -> Callable[[], int]:
    """A job that spends nearly all its time in weak-reference callbacks, where Python prints and drops an
    asynchronous exception: an abort sent once is lost."""

    def fn() -> int:
        n = 0
        try:
            while not stop.is_set():
                box = _Box()
                ref = weakref.ref(box, _slow_forget)
                del box  # the callback runs here
                del ref
                StringAttr.get(f"guard-churn-{n}")  # and some of the uniquer's own
                n += 1
        except WorkAborted:
            ended.append("aborted")
            raise
        ended.append("finished")
        return n

    return fn


# What Python prints of the aborts it drops in the callbacks (the server does not print them).
LOST_ABORTS = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


def _how_churn_ends(give_up: Callable[[Callable[[], int]], Awaitable[None]]) -> list[str]:
    """Start `_churn` as a job that `give_up` abandons; how the job's thread ended (it only ends on an
    abort, or when the test is over after `HANG_S`)."""
    stop = threading.Event()
    ended: list[str] = []

    async def main() -> None:
        await give_up(_churn(stop, ended))
        for _ in range(int(HANG_S / 0.05)):
            if ended:
                break
            await asyncio.sleep(0.05)

    try:
        asyncio.run(main())
    finally:
        stop.set()
    return ended


@LOST_ABORTS
def test_a_cancelled_job_stops_even_when_aborts_are_lost() -> None:
    async def cancel(fn: Callable[[], int]) -> None:
        task = asyncio.ensure_future(run_bounded(fn, "churn", None))
        await asyncio.sleep(0.2)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    assert _how_churn_ends(cancel) == ["aborted"]


@LOST_ABORTS
def test_a_timed_out_job_stops() -> None:
    async def time_out(fn: Callable[[], int]) -> None:
        with pytest.raises(guard.WorkTimeout, match="took longer than 0.2 s"):
            await run_bounded(fn, "churn", 0.2)

    assert _how_churn_ends(time_out) == ["aborted"]


def test_cancelling_jobs_as_they_end_never_aborts_the_next_one() -> None:
    """Each round cancels a job about when its thread ends, just after the next job's thread started (and
    may have been given the ended thread's id): the next job always delivers its result."""

    def count(n: int) -> int:
        return sum(range(n))

    async def main() -> list[int]:
        results = []
        for r in range(400):
            a = asyncio.ensure_future(run_bounded(lambda: count(3000), "a", None))
            await asyncio.sleep(0.0001 * (r % 5))
            b = asyncio.ensure_future(run_bounded(lambda: count(1000), "b", None))
            await asyncio.sleep(0)
            a.cancel()
            results.append(await asyncio.wait_for(b, HANG_S))
        return results

    assert asyncio.run(main()) == [sum(range(1000))] * 400


def test_an_abort_sent_before_the_thread_starts_stops_the_job_before_it_runs() -> None:
    abort = guard._Abort()
    assert not abort.send()  # no thread runs the job yet: nothing sent
    assert not abort.enter()  # ... and the job never starts
    assert abort.sent == 0


def test_an_abort_after_the_job_left_is_not_sent() -> None:
    abort = guard._Abort()
    seen: list[BaseException] = []

    def worker() -> None:
        try:
            assert abort.enter()
            guard._leave(abort)
        except BaseException as exc:  # noqa: BLE001 - recorded for the assertion
            seen.append(exc)

    t = threading.Thread(target=worker)
    t.start()
    t.join(HANG_S)
    assert not abort.send()
    assert abort.sent == 0 and seen == []


def test_lost_aborts_are_not_printed_but_other_unraisable_exceptions_are(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[type[BaseException] | None] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda info: seen.append(info.exc_type))
    guard.quiet_lost_aborts()

    def raising(exc: BaseException) -> Callable[[weakref.ref[_Box]], None]:
        def cb(_: weakref.ref[_Box]) -> None:
            raise exc
        return cb

    for exc in (WorkAborted(), ValueError("a callback's own bug")):
        box = _Box()
        ref = weakref.ref(box, raising(exc))
        del box, ref
    assert seen == [ValueError]


def test_work_aborted_is_not_an_exception() -> None:
    """Code under a job turns an `Exception` into an error result or a fallback; an abort must pass it."""
    assert not issubclass(WorkAborted, Exception)


def test_an_abort_waits_until_the_job_is_done_importing(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A job cancelled while it imports a module stops once the import is done, not inside it: Python's
    module locks are Python code, and an abort between their steps leaves a module locked for ever."""
    (tmp_path / "mlirbc_slow_import.py").write_text(
        "import time\nend = time.monotonic() + 0.6\nwhile time.monotonic() < end:\n    pass\nDONE = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "mlirbc_slow_import", raising=False)
    ended: list[str] = []

    def job() -> None:
        try:
            import mlirbc_slow_import  # noqa: F401
            ended.append("imported")
            while True:
                sum(range(100))
        except WorkAborted:
            ended.append("aborted")
            raise

    async def main() -> None:
        task = asyncio.ensure_future(run_bounded(job, "slow import", None))
        await asyncio.sleep(0.2)  # inside the module's body
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        for _ in range(int(HANG_S / 0.05)):
            if "aborted" in ended:
                break
            await asyncio.sleep(0.05)

    asyncio.run(main())
    assert ended == ["imported", "aborted"]
    assert getattr(sys.modules.get("mlirbc_slow_import"), "DONE", False)
