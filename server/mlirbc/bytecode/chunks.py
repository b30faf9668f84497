"""Output bytes as a list of pieces, so that writing a model-sized file never holds the whole output.

The writer's output is mostly what the original file already holds: resource blobs, dense tensors and
fallback payloads, which the reader keeps as read-only views of the mapped original.  `Chunks` gathers small
writes in a bytearray and keeps large buffers by reference; `write_to` then streams every piece to a file
in bounded slices, so the only memory a save costs is that of the bytes that are new.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

BY_REFERENCE = 64 * 1024
"""Buffers from this size on are kept by reference instead of being copied into the gathered bytes."""
WRITE_SLICE = 8 << 20
"""Bytes handed to one `write` call when streaming (bounds the kernel copy, not our memory)."""

Buffer = bytes | bytearray | memoryview


class Chunks:
    """Bytes being built: `pieces` in order, the last small writes still gathering in `_tail`."""

    __slots__ = ("pieces", "size", "_tail")

    def __init__(self, data: Buffer | Chunks | None = None) -> None:
        self.pieces: list[Buffer] = []
        self.size = 0
        self._tail = bytearray()
        if data is not None:
            self.write(data)

    def __len__(self) -> int:
        return self.size

    def __iadd__(self, data: Buffer | Chunks) -> Chunks:
        self.write(data)
        return self

    def extend(self, data: Buffer | Chunks) -> None:
        self.write(data)

    def append(self, b: int) -> None:
        self._tail.append(b)
        self.size += 1

    def write(self, data: Buffer | Chunks) -> None:
        if isinstance(data, Chunks):
            for piece in data.buffers():
                self.write(piece)
            return
        n = len(data)
        if n >= BY_REFERENCE:
            self._flush()
            self.pieces.append(data if not isinstance(data, bytearray) else bytes(data))
        else:
            self._tail += data
        self.size += n

    def align(self, alignment: int, fill: int = 0xCB) -> None:
        """Pad with `fill` bytes up to a multiple of `alignment` (relative to the first byte)."""
        pad = (-self.size) % alignment
        if pad:
            self.write(bytes((fill,)) * pad)

    def _flush(self) -> None:
        if self._tail:
            self.pieces.append(self._tail)
            self._tail = bytearray()

    def buffers(self) -> Iterator[Buffer]:
        """Every piece in order (the gathered tail included)."""
        yield from self.pieces
        if self._tail:
            yield self._tail

    def tobytes(self) -> bytes:
        return b"".join(self.buffers())

    def write_to(self, f: BinaryIO) -> None:
        """Stream all bytes to `f`, at most `WRITE_SLICE` per call."""
        for piece in self.buffers():
            write_buffer(f, piece)


def write_buffer(f: BinaryIO, data: Buffer) -> None:
    """Write `data` to `f` in slices of `WRITE_SLICE` bytes (a view of a mapped file is read page by page
    as it is written, never copied whole)."""
    view = memoryview(data)
    n = len(view)
    if n <= WRITE_SLICE:
        f.write(view)
        return
    for i in range(0, n, WRITE_SLICE):
        f.write(view[i:i + WRITE_SLICE])
