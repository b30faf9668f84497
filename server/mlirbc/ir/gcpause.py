"""Pausing Python's cyclic garbage collector while a large IR (or its text view and map) is built, and
collecting what such builds leave behind.

Building a module allocates hundreds of thousands of objects that all live as long as the result.  The
collector would walk that growing heap again and again meanwhile, and then once more in the first young
collections after the build (a tenth of the text parser's time, a third of a printer's right after the
reader).  The reader, the writer, a dialect-level view's conversion, the view's printer and parser, and the
CLI's commands use `building`.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_moved = [0, 0]
"""Objects moved to the oldest generation since the last full collection `building` ran, and objects
tracked right after it."""


@contextmanager
def building(collect: bool = True) -> Iterator[None]:
    """No cyclic collection inside the block; what it allocated is then moved to the oldest generation,
    as if it had survived the collections it skipped, and collected there by the rule below.  Nested and
    concurrent uses only pause (the outermost one, which found the collector running, restarts it).
    `collect=False`: for a command whose process exits right after (a full collection of what it built
    would only delay the exit)."""
    was_enabled = gc.isenabled()
    try:
        gc.disable()
        yield
    finally:
        if was_enabled:
            # The language server stops a cancelled job with an exception that may fire anywhere in
            # here: the collector must be running again whatever step it cut short.
            try:
                if gc.get_freeze_count() == 0:
                    young = gc.get_count()[0]  # (what the block allocated: no collection ran meanwhile)
                    try:
                        gc.freeze()
                    finally:
                        gc.unfreeze()  # never left frozen: frozen objects are never collected
                    if collect:
                        _collect_when_grown(young)
            finally:
                gc.enable()


def _collect_when_grown(young: int) -> None:
    """Objects moved to the oldest generation by `gc.freeze` are not counted by the collector's own rule
    for full collections (it counts promotions), so with only builds the oldest generation never gets
    collected: cyclic garbage (modules nobody holds, the IR and maps of views parsed on every keystroke,
    partial IR of refused files) grew without bound (1.4 GB in a long fuzzing run of the reader, 450 MB of
    the text parser).  So collect it fully once a quarter as many objects were moved there as it held
    after the last time, the collector's own rule for promotions (a cost linear in what was allocated)."""
    _moved[0] += young
    if _moved[1] == 0 and _moved[0] == young > 100_000:
        # The first large build of the process, and nothing moved before it: what it built is alive (its
        # caller holds the result: a program's `load`), and a full collection now would walk all of it
        # for nothing.  It is the size held that the next builds are measured against.
        _moved[0] = 0
        _moved[1] = young
        return
    if _moved[0] > max(100_000, _moved[1] // 4):
        # Claimed before collecting: a collection cut short (a cancelled job's thread is stopped by an
        # exception that may fire in here) must not leave the count high for the next build to collect
        # again.
        _moved[0] = 0
        gc.collect()
        try:
            gc.freeze()
            _moved[1] = gc.get_freeze_count()
        finally:
            gc.unfreeze()
