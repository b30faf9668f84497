"""Background work steps aside at checkpoints while foreground work holds the gate."""

from __future__ import annotations

import threading
import time

from mlirbc.yielding import Gate, checkpoint, in_background


def test_background_waits_at_checkpoints_while_foreground_runs() -> None:
    gate = Gate()
    steps = [0]
    stop = threading.Event()

    def work() -> int:
        while not stop.is_set():
            checkpoint()
            steps[0] += 1
        return steps[0]

    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(in_background(gate, work)))
    with gate.foreground():
        thread.start()
        time.sleep(0.2)
        assert steps[0] <= 1  # at most the step it was in when it first reached a checkpoint
        with gate.foreground():  # nested foreground work
            time.sleep(0.05)
        time.sleep(0.05)
        assert steps[0] <= 1 and thread.is_alive()
    deadline = time.monotonic() + 10
    while steps[0] < 1000 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert steps[0] >= 1000  # released: it runs again
    stop.set()
    thread.join(10)
    assert result and result[0] >= 1000


def test_checkpoint_outside_background_work_never_waits() -> None:
    gate = Gate()
    with gate.foreground():
        for _ in range(10):
            checkpoint()  # this thread is not background work of any gate
    assert not gate.busy


def test_background_work_that_is_awaited_runs_through_foreground_work() -> None:
    gate = Gate()
    done = threading.Event()

    def work() -> None:
        for _ in range(100):
            checkpoint()
        done.set()

    with gate.foreground():
        thread = threading.Thread(target=lambda: in_background(gate, work))
        thread.start()
        assert not done.wait(0.2)  # waiting at its first checkpoint
        with gate.awaited():  # a save waits for it while the user still types
            assert done.wait(10)
    thread.join(10)
