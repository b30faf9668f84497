"""Opening a bytecode file without reading it into memory: a read-only memory map.

The reader decodes straight from the map, and everything large it finds (resource blobs, dense tensors,
fallback payloads) stays a read-only `memoryview` of it, so opening a model-sized file costs memory only
for its structure: the weights are page cache, shared and dropped by the kernel under pressure, never a
private copy.  A map lives as long as any view of it does (the views hold it); nothing closes it early.

Saving over a file that is mapped (the language server saves onto the file it decoded, with that file's
module as template) depends on the platform; `MAP_STRATEGY` picks one of two strategies:

* **in-place** (Linux, macOS and other POSIX systems): the original is mapped itself.  A save writes a
  temporary file next to the target and renames it over the target.  The rename replaces the directory
  entry only: the mapped inode lives on, unchanged, until the last view of it is gone, so the template
  stays exactly the bytes that were decoded and later saves keep copying from it.  (The old file's disk
  blocks are freed when the map goes, that is when the document is closed or re-opened.)  What a map
  cannot survive is another program rewriting the file *in place* (truncate and write, as `cp` onto an
  existing file does): `MappedFile.changed` notices a changed size or modification time on the same inode,
  and the server then refuses to use the stale template instead of reading pages that changed.
* **shadow** (Windows): a mapped file cannot be replaced or deleted there (the rename fails with a sharing
  violation), so the original is first copied, in bounded chunks, to an anonymous temporary file
  (`tempfile.TemporaryFile`, deleted by the system when its last handle closes) and that copy is mapped.
  The original is then never mapped or held open and can be replaced at any time; the cost is one copy of
  the file on open.  The strategy runs on any platform (tests exercise it on Linux).
"""

from __future__ import annotations

import mmap
import os
import stat
import tempfile
import weakref
from dataclasses import dataclass
from typing import BinaryIO

from .access import FileRefused, stat_regular

IN_PLACE = "in-place"
SHADOW = "shadow"
MAP_STRATEGY = SHADOW if os.name == "nt" else IN_PLACE
"""The strategy `open_mapped` uses by default on this platform (see the module docstring)."""

COPY_CHUNK = 8 << 20


class FileTooLarge(Exception):
    """The file is larger than the caller's limit (nothing was mapped)."""

    def __init__(self, path: str, size: int, limit: int) -> None:
        super().__init__(f"{path} is {size} bytes, over the limit of {limit} bytes")
        self.size = size
        self.limit = limit


@dataclass(frozen=True)
class FileIdentity:
    """What says a file on disk is still the one that was mapped."""

    device: int
    inode: int
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, st: os.stat_result) -> FileIdentity:
        return cls(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


@dataclass(eq=False)
class MappedFile:
    """A file mapped read-only: `data` is the whole file as a read-only memoryview; `fd` a descriptor of
    the mapped file (the original's inode, or the shadow copy), open as long as this object lives, so
    that a save can have the kernel copy unchanged ranges (`chunks.copy_range`)."""

    path: str
    data: memoryview
    identity: FileIdentity
    strategy: str
    fd: int = -1

    def __post_init__(self) -> None:
        if self.fd >= 0:
            weakref.finalize(self, os.close, self.fd)

    @property
    def size(self) -> int:
        return len(self.data)

    def changed(self) -> str | None:
        """Why the mapped bytes can no longer be trusted as this file's, or None while they can.

        A file replaced by a rename (a new inode) does not matter to the map, which still holds the old
        inode's bytes; a file rewritten in place does (in-place strategy only).  A shadow copy is never
        affected by the original.
        """
        if self.strategy == SHADOW:
            return None
        try:
            now = FileIdentity.of(os.stat(self.path))
        except OSError:
            return None  # deleted or renamed away: the mapped inode is intact
        was = self.identity
        if (now.device, now.inode) != (was.device, was.inode):
            return None
        if (now.size, now.mtime_ns) != (was.size, was.mtime_ns):
            return (f"{self.path} was rewritten in place by another program since it was opened "
                    f"({was.size} -> {now.size} bytes); re-open it")
        return None


def open_mapped(path: str | os.PathLike[str], max_size: int | None = None,
                strategy: str | None = None) -> MappedFile:
    """Map `path` read-only (see the module docstring for `strategy`, default `MAP_STRATEGY`).

    Raises OSError when the file cannot be opened (`access.FileRefused`, an OSError, for anything but a
    regular file, checked before opening) and FileTooLarge (before mapping anything) when it is larger
    than `max_size`.
    """
    strategy = strategy or MAP_STRATEGY
    if strategy not in (IN_PLACE, SHADOW):
        raise ValueError(f"unknown map strategy {strategy!r}")
    # Nothing is opened before `stat` says it is a regular file of acceptable size: opening a FIFO would
    # block, and a device never ends.  It is opened non-blocking, and must still be that file.
    before = stat_regular(path)
    name = os.fspath(path)
    if max_size is not None and before.st_size > max_size:
        raise FileTooLarge(name, before.st_size, max_size)
    fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode) or (st.st_dev, st.st_ino) != (before.st_dev, before.st_ino):
            raise FileRefused(name, "changed while being opened")
        identity = FileIdentity.of(st)
        if max_size is not None and st.st_size > max_size:
            raise FileTooLarge(name, st.st_size, max_size)
        if strategy == SHADOW:
            view, fd = _map_shadow(f, max_size)
            return MappedFile(name, view, identity, strategy, fd)
        return MappedFile(name, _map(f.fileno(), st.st_size), identity, strategy, os.dup(f.fileno()))


def _map(fd: int, size: int) -> memoryview:
    if size == 0:
        return memoryview(b"")  # an empty file cannot be mapped
    m = mmap.mmap(fd, 0, access=mmap.ACCESS_READ)  # the map keeps its own duplicate of the descriptor
    return memoryview(m)


def _map_shadow(f: BinaryIO, max_size: int | None) -> tuple[memoryview, int]:
    shadow = tempfile.TemporaryFile(prefix="mlirbc-map-")
    try:
        copied = 0
        while True:
            chunk = f.read(COPY_CHUNK)
            if not chunk:
                break
            copied += len(chunk)
            if max_size is not None and copied > max_size:
                raise FileTooLarge(str(f.name), copied, max_size)
            shadow.write(chunk)
        shadow.flush()
        # The map and the kept descriptor hold the copy; it is deleted when both are gone.
        return _map(shadow.fileno(), copied), os.dup(shadow.fileno())
    finally:
        shadow.close()
