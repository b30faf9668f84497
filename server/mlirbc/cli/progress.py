"""Progress on stderr for work longer than a second, only when stderr is a terminal."""

from __future__ import annotations

import sys
import threading
import time
from types import TracebackType


class Progress:
    def __init__(self, label: str, enabled: bool | None = None) -> None:
        self.label = label
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start = time.monotonic()
        self._shown = False

    def phase(self, label: str) -> None:
        self.label = label

    def _run(self) -> None:
        if self._stop.wait(1.0):
            return
        while not self._stop.is_set():
            self._shown = True
            sys.stderr.write(f"\r{self.label}... {time.monotonic() - self._start:.1f}s  ")
            sys.stderr.flush()
            self._stop.wait(0.2)

    def __enter__(self) -> Progress:
        if self.enabled:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, et: type[BaseException] | None, e: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self._shown:
            sys.stderr.write(f"\r{self.label}: done in {time.monotonic() - self._start:.1f}s\n")
