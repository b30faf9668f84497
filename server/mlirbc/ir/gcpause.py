"""Pausing Python's cyclic garbage collector while a large IR (or its text view and map) is built.

Building a module allocates hundreds of thousands of objects that all live as long as the result.  The
collector would walk that growing heap again and again meanwhile, and then once more in the first young
collections after the build (a tenth of the text parser's time, a third of a printer's right after the
reader).  The reader and writer pause it themselves; the view's printer and parser, and the CLI's commands,
use `building`.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def building() -> Iterator[None]:
    """No cyclic collection inside the block; what it allocated is then moved to the oldest generation,
    as if it had survived the collections it skipped.  Nested and concurrent uses only pause (the
    outermost one, which found the collector running, restarts it)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()
