"""Output bytes as a list of pieces, so that writing a model-sized file never holds the whole output.

The writer's output is mostly what the original file already holds: resource blobs, dense tensors and
fallback payloads, which the reader keeps as read-only views of the mapped original.  `Chunks` gathers small
writes in a bytearray and keeps large buffers by reference; `write_to` then streams every piece to a file
in bounded slices, so the only memory a save costs is that of the bytes that are new.
"""

from __future__ import annotations

import mmap
import os
from collections.abc import Iterator
from typing import BinaryIO, Protocol

BY_REFERENCE = 64 * 1024
"""Buffers from this size on are kept by reference instead of being copied into the gathered bytes."""
WRITE_SLICE = 8 << 20
"""Bytes handed to one `write` call when streaming (bounds the kernel copy, not our memory)."""

Buffer = bytes | bytearray | memoryview


class Source(Protocol):
    """A file the pieces may be copied from by the kernel (`files.mapped.MappedFile`)."""

    @property
    def fd(self) -> int: ...


class FileRange:
    """`length` bytes at `offset` of a mapped file: `view` is their memoryview, `source` the file.

    Written with `os.copy_file_range` (the kernel copies from the original, without mapping its pages
    into this process) where the platform has it, else from the view."""

    __slots__ = ("view", "source", "offset")

    def __init__(self, view: memoryview, source: Source, offset: int) -> None:
        self.view = view
        self.source = source
        self.offset = offset

    def __len__(self) -> int:
        return len(self.view)


Piece = Buffer | FileRange


def file_range(view: bytes | memoryview, offset: int, source: object) -> bytes | memoryview | FileRange:
    """`view` as a `FileRange` when it is the bytes at `offset` of `source`'s map (a view of that very
    map), else the view itself."""
    data = getattr(source, "data", None)
    if offset >= 0 and isinstance(data, memoryview) and isinstance(view, memoryview) and \
            view.obj is data.obj and offset + len(view) <= len(data):
        return FileRange(view, source, offset)  # type: ignore[arg-type]
    return view


class Chunks:
    """Bytes being built: `pieces` in order, the last small writes still gathering in `_tail`."""

    __slots__ = ("pieces", "size", "_tail")

    def __init__(self, data: Piece | Chunks | None = None) -> None:
        self.pieces: list[Piece] = []
        self.size = 0
        self._tail = bytearray()
        if data is not None:
            self.write(data)

    def __len__(self) -> int:
        return self.size

    def __iadd__(self, data: Piece | Chunks) -> Chunks:
        self.write(data)
        return self

    def extend(self, data: Piece | Chunks) -> None:
        self.write(data)

    def append(self, b: int) -> None:
        self._tail.append(b)
        self.size += 1

    def write(self, data: Piece | Chunks) -> None:
        if isinstance(data, Chunks):
            for piece in data.buffers():
                self.write(piece)
            return
        n = len(data)
        if n >= BY_REFERENCE:
            self._flush()
            self.pieces.append(data if not isinstance(data, bytearray) else bytes(data))
        else:
            self._tail += data.view if isinstance(data, FileRange) else data
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

    def buffers(self) -> Iterator[Piece]:
        """Every piece in order (the gathered tail included)."""
        yield from self.pieces
        if self._tail:
            yield self._tail

    def tobytes(self) -> bytes:
        return b"".join(p.view if isinstance(p, FileRange) else p for p in self.buffers())

    def write_to(self, f: BinaryIO) -> None:
        """Stream all bytes to `f`: file ranges copied by the kernel, buffers at most `WRITE_SLICE`
        per call."""
        for piece in self.buffers():
            write_piece(f, piece)


def write_piece(f: BinaryIO, piece: Piece) -> None:
    if isinstance(piece, FileRange):
        copy_range(f, piece)
    else:
        write_buffer(f, piece)


def copy_range(f: BinaryIO, r: FileRange) -> None:
    """Append `r` to `f`, copied from the source file rather than through the map (see `copy_plan`)."""
    n = len(r.view)
    done = 0
    if n >= BY_REFERENCE:
        f.flush()
        out = f.fileno()
        at = os.lseek(out, 0, os.SEEK_CUR)
        if copy_plan(r.offset, at) == KERNEL:
            done = _kernel_copy(r, out)
        if done == 0 and getattr(os, "preadv", None) is not None:
            done = _bounce_copy(r, out, at)
        f.seek(0, os.SEEK_END)  # the buffered writer's idea of the position follows the descriptor
    if done < n:
        write_buffer(f, r.view[done:])


KERNEL = "kernel"
BOUNCE = "bounce"
PAGE = mmap.PAGESIZE
BOUNCE_SIZE = 256 << 10
"""The buffer of a bounced copy: small enough to stay in the CPU's cache between the read and the write
(measured: 256 KiB costs half the CPU time of 8 MiB, whose second pass misses the cache)."""


def copy_plan(src_offset: int, dst_offset: int) -> str:
    """How a range at `src_offset` of the source is copied to `dst_offset` of the output.

    `KERNEL` (`os.copy_file_range`, the copy `cp` makes) when both offsets sit at the same place in a
    page.  Otherwise the kernel's copy (a splice, page by page of the source) cuts every destination
    page in two and writes it as small folios: profiled on Linux 6.18/ext4, a 1 GiB range 5 bytes out
    of step took twice the CPU time of `cp` in the copy, and longer again to sync and to free.  An
    edit before the weights (a renamed symbol) moves them by a few bytes, so that is the common case
    of saving an edited file; it is copied through a small buffer instead (`BOUNCE`), read at the
    source offset and written in page-aligned pieces, which costs what `cp` does."""
    return KERNEL if (src_offset - dst_offset) % PAGE == 0 else BOUNCE


def _kernel_copy(r: FileRange, out: int) -> int:
    """Bytes of `r` copied by `os.copy_file_range` (0 where unavailable or refused: e.g. EXDEV across
    file systems on older kernels, or another platform)."""
    copy = getattr(os, "copy_file_range", None)
    if copy is None:
        return 0
    n = len(r.view)
    done = 0
    try:
        while done < n:
            k = copy(r.source.fd, out, min(n - done, 1 << 30), r.offset + done)
            if k <= 0:
                break
            done += k
    except OSError:
        pass  # the rest goes another way
    return done


def _bounce_copy(r: FileRange, out: int, at: int) -> int:
    """Bytes of `r` copied with `os.preadv` from the source into one `BOUNCE_SIZE` buffer and written
    to `out` (at output offset `at`) in pieces that end on `BOUNCE_SIZE` boundaries of the output."""
    n = len(r.view)
    buf = memoryview(bytearray(BOUNCE_SIZE))
    done = 0
    while done < n:
        k = min(BOUNCE_SIZE - (at + done) % BOUNCE_SIZE, n - done)
        try:
            got = os.preadv(r.source.fd, [buf[:k]], r.offset + done)
        except OSError:
            break  # the rest is written from the map
        if got <= 0:
            break
        view = buf[:got]
        while view:  # a failed write (a full disk) raises: the save is abandoned, nothing half-kept
            view = view[os.write(out, view):]
        done += got
    return done


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
