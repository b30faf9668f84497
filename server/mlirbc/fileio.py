"""Safe file writing: a temporary file in the target's folder, flushed, synced, then renamed over it."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

from .bytecode.chunks import Chunks, write_buffer

Payload = bytes | bytearray | memoryview | str | Chunks | Iterable[bytes | bytearray | memoryview]
"""What `atomic_write` writes: text (UTF-8), bytes, a view of a mapped file, streamed `Chunks`, or any
iterable of buffers (produced while writing)."""


def write_payload(f: BinaryIO, data: Payload) -> None:
    """Write `data` to the open file `f`, streaming: `Chunks` and iterables piece by piece, large buffers
    (views of a mapped original) in bounded slices, so no copy of the whole output is ever made."""
    if isinstance(data, str):
        f.write(data.encode("utf-8"))
    elif isinstance(data, Chunks):
        data.write_to(f)
    elif isinstance(data, bytes | bytearray | memoryview):
        write_buffer(f, data)
    else:
        for piece in data:
            write_buffer(f, piece)


def atomic_write(path: str | os.PathLike[str], data: Payload) -> None:
    """Replace `path` with `data` so that readers see the old file or the new one, never a mix.

    On any error the temporary file is removed and an existing target is left untouched.  The data is
    streamed to the temporary file (`write_payload`) and renamed over the target: on POSIX the rename
    leaves a memory map of the old file intact (see `bytecode.mapped`).
    """
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or ".")
    try:
        with os.fdopen(fd, "wb") as f:
            write_payload(f, data)
            f.flush()
            os.fsync(f.fileno())
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    try:  # make the rename itself durable
        dfd = os.open(target.parent or ".", os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass
