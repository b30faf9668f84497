"""Safe file access: reading only regular files of bounded size, and atomic writes of regular files.

Reading: a path is checked with `stat` before anything opens it (a FIFO would block the reader forever,
`/dev/zero` never ends, a directory or socket cannot be read), its size is checked against the limit from
`stat`, and after `open` an `fstat` makes sure the file opened is the one checked (no swap in between).

Writing: `atomic_write` replaces a regular file (or creates one) so that readers see the old bytes or the new
ones, never a mix, and never replaces anything else: a target that exists and is not a regular file (a
device such as `/dev/null`, a FIFO, a directory) is refused, and so is a file whose permission bits make
it read-only (a rename would replace it all the same).  A symbolic link is written through to its
target, as editors do, and stays a link.  The new bytes are written into an anonymous file (`O_TMPFILE`) in
the target's folder, synced, given a name and renamed over the target, so a crash or `kill -9` leaves at
most a named temporary file for the instant between naming and renaming; such leftovers (their names carry
the writer's process id) are removed by the next write to that folder once their writer is gone.  A large
replaced file is freed in the background after the rename (POSIX), so a save does not wait for it.  The file
mode (and, where permitted, owner) of an existing target is kept.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

from .chunks import Chunks, write_buffer

Payload = bytes | bytearray | memoryview | str | Chunks | Iterable[bytes | bytearray | memoryview]
"""What `atomic_write` writes: text (UTF-8), bytes, a view of a mapped file, streamed `Chunks`, or any
iterable of buffers (produced while writing)."""

TEMP_PREFIX = ".mlirbc-tmp."
"""Temporary files are `.mlirbc-tmp.<pid>.<random>.<target name>` in the target's folder."""

_TEMP_RE = re.compile(r"^\.mlirbc-tmp\.(\d+)\.[0-9a-f]+\.")


class FileRefused(OSError):
    """A path that cannot be read or written as asked: not a regular file, too large, a NUL byte, ..."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        super().__init__(errno.EINVAL, reason, os.fspath(path))
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.filename}: {self.reason}"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    return "not a regular file"


def check_path(path: str | os.PathLike[str]) -> str:
    """`path` as a string, refused if it cannot name a file (empty, holding a NUL byte, or a lone surrogate
    that stands for no byte: only U+DC80-U+DCFF do, the bytes of a name that is not UTF-8)."""
    p = os.fspath(path)
    if not p:
        raise FileRefused(p, "an empty path names no file")
    if "\0" in p:
        raise FileRefused(p.replace("\0", "\\0"), "a path with a NUL byte names no file")
    try:
        os.fsencode(p)
    except UnicodeEncodeError as exc:
        # (the path is shown escaped: the message itself must be text that can be sent and printed)
        shown = p.encode("utf-8", "backslashreplace").decode("utf-8")
        raise FileRefused(shown, f"a path with a lone surrogate (U+{ord(p[exc.start]):04X}) names no "
                                 "file") from None
    return p


def stat_regular(path: str | os.PathLike[str], limit: int | None = None) -> os.stat_result:
    """`os.stat(path)` of a regular file no larger than `limit` bytes (else FileRefused or OSError)."""
    p = check_path(path)
    st = os.stat(p)
    if not stat.S_ISREG(st.st_mode):
        raise FileRefused(p, f"is {_kind(st.st_mode)}, not a regular file")
    if limit is not None and st.st_size > limit:
        raise FileRefused(p, f"is {st.st_size} bytes, over the limit of {limit} bytes")
    return st


def read_regular(path: str | os.PathLike[str], limit: int | None = None) -> tuple[bytes, os.stat_result]:
    """The bytes of the regular file at `path` (at most `limit` bytes) and the `stat` it was checked with.

    Nothing is opened before `stat` says the path is a regular file of acceptable size; the file is opened
    non-blocking (a FIFO swapped in after the check cannot block) and `fstat` must show the same file.
    """
    p = check_path(path)
    st = stat_regular(p, limit)
    fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        st2 = os.fstat(fd)
        if not stat.S_ISREG(st2.st_mode) or (st2.st_dev, st2.st_ino) != (st.st_dev, st.st_ino):
            raise FileRefused(p, "changed while being opened")
        if limit is not None and st2.st_size > limit:
            raise FileRefused(p, f"is {st2.st_size} bytes, over the limit of {limit} bytes")
        chunks: list[bytes] = []
        total = 0
        cap = limit if limit is not None else -1
        while True:
            want = 1 << 24 if cap < 0 else min(1 << 24, cap + 1 - total)
            chunk = os.read(fd, want) if want > 0 else b""
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if limit is not None and total > limit:
                raise FileRefused(p, f"grew over the limit of {limit} bytes while being read")
        return b"".join(chunks), st2
    finally:
        os.close(fd)


def resolve_target(path: str | os.PathLike[str], base_dir: str | os.PathLike[str] | None = None,
                   read_only_too: bool = False) -> str:
    """The file a save to `path` writes: relative paths are taken from `base_dir` (the document's folder),
    symbolic links are followed to their final target (which may not exist yet), and an existing target
    must be a regular file, and writable by its mode bits unless `read_only_too` (the user overrides, as
    with Vim's `:w!`; the file keeps its mode)."""
    p = check_path(path)
    if not os.path.isabs(p):
        base = os.fspath(base_dir) if base_dir is not None else os.getcwd()
        p = os.path.join(base, p)
    p = os.path.normpath(p)
    if os.path.islink(p):
        p = os.path.realpath(p)  # write through the link: the link itself stays as it is
    try:
        st = os.stat(p)
    except FileNotFoundError:
        parent = os.path.dirname(p) or "."
        if not os.path.isdir(parent):
            raise FileRefused(p, "its folder does not exist") from None
        return p
    if not stat.S_ISREG(st.st_mode):
        raise FileRefused(p, f"is {_kind(st.st_mode)}; only regular files are written")
    if not read_only_too and not _writable_by_mode(st):
        raise FileRefused(p, f"is read-only (mode {stat.S_IMODE(st.st_mode):04o}); make it writable to save "
                             "over it")
    return p


def _writable_by_mode(st: os.stat_result) -> bool:
    """Whether the file's permission bits let this process write it.

    A save renames a new file over the old one, which needs only the folder's permission, so without this
    check a read-only file would be replaced silently; editors refuse instead.  The bits are read rather
    than asking `os.access`, which is always true for root: for root a file with no write bit at all is
    still read-only."""
    mode = st.st_mode
    if os.name == "nt":
        return bool(mode & stat.S_IWRITE)
    euid = os.geteuid()
    if euid == 0:
        return bool(mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    if st.st_uid == euid:
        return bool(mode & stat.S_IWUSR)
    if st.st_gid == os.getegid() or st.st_gid in os.getgroups():
        return bool(mode & stat.S_IWGRP)
    return bool(mode & stat.S_IWOTH)


def _remove_stale_temps(folder: str) -> None:
    """Remove temporary files left in `folder` by writers that no longer run (a crash mid-save)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        m = _TEMP_RE.match(name)
        if m is None:
            continue
        pid = int(m.group(1))
        if pid == os.getpid() or _alive(pid):
            continue
        try:
            os.unlink(os.path.join(folder, name))
        except OSError:
            pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


def _open_anonymous(folder: str, mode: int) -> int | None:
    """An unnamed file in `folder` (Linux `O_TMPFILE`), or None where the file system has none."""
    flag = getattr(os, "O_TMPFILE", 0)
    if not flag:
        return None
    try:
        return os.open(folder, flag | os.O_WRONLY | getattr(os, "O_CLOEXEC", 0), mode)
    except OSError as exc:
        if exc.errno in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOENT):
            return None
        raise


def _give_name(fd: int, folder: str, target_name: str) -> str:
    """Link the anonymous file `fd` into `folder` under a fresh temporary name; returns the path."""
    root = os.open("/", os.O_RDONLY)
    try:
        for _ in range(100):
            tmp = os.path.join(folder, f"{TEMP_PREFIX}{os.getpid()}.{os.urandom(6).hex()}.{target_name}")
            try:
                os.link(f"/proc/self/fd/{fd}", tmp, src_dir_fd=root, follow_symlinks=True)
                return tmp
            except FileExistsError:
                continue
        raise FileExistsError(errno.EEXIST, "no free temporary name", folder)
    finally:
        os.close(root)


def _named_temp(folder: str, target_name: str, mode: int) -> tuple[int, str]:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp = os.path.join(folder, f"{TEMP_PREFIX}{os.getpid()}.{os.urandom(6).hex()}.{target_name}")
        try:
            return os.open(tmp, flags, mode), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", folder)


RELEASE_LATER = 64 << 20
"""A replaced file at least this large is freed after the save returns, not during its rename."""


def _hold_replaced(target: str, old: os.stat_result | None) -> int | None:
    """A descriptor of the file a rename is about to replace, when freeing it would be slow.

    Renaming over the last name of a file frees its blocks inside `rename` (profiled: 0.8-1.3 s for
    1 GiB on ext4 with online discard), which a save would wait for.  Holding it open moves that work
    to the moment the descriptor closes (`_release_later`).  None when not worth it or not possible."""
    if os.name == "nt" or old is None or old.st_size < RELEASE_LATER or old.st_nlink != 1:
        return None  # (Windows cannot rename over a file that is open)
    try:
        fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    st = os.fstat(fd)
    if (st.st_dev, st.st_ino) != (old.st_dev, old.st_ino):
        os.close(fd)
        return None
    return fd


def _release_later(fd: int) -> None:
    """Close `fd` (the last reference to a replaced file) in a background thread."""
    threading.Thread(target=os.close, args=(fd,), name="mlirbc-release-replaced", daemon=True).start()


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


def atomic_write(path: str | os.PathLike[str], data: Payload,
                 base_dir: str | os.PathLike[str] | None = None, read_only_too: bool = False) -> str:
    """Replace (or create) the regular file at `path` with `data`; returns the path written.

    Readers see the old file or the new one, never a mix.  On any error the temporary file is removed
    and an existing target is left untouched.  The data is streamed (`write_payload`) and renamed over the
    target: on POSIX the rename leaves a memory map of the old file intact (see `files.mapped`).  See
    the module docstring for links, special files and read-only files (`read_only_too`: `resolve_target`).
    """
    target = resolve_target(path, base_dir, read_only_too)
    folder = os.path.dirname(target) or "."
    _remove_stale_temps(folder)
    try:
        old: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        old = None
    mode = stat.S_IMODE(old.st_mode) if old is not None else 0o666
    tmp: str | None = None
    fd = _open_anonymous(folder, 0o600 if old is not None else mode)
    if fd is None:
        fd, tmp = _named_temp(folder, os.path.basename(target), 0o600 if old is not None else mode)
    try:
        try:
            with os.fdopen(fd, "wb", closefd=False) as f:
                write_payload(f, data)
            if old is not None:
                os.fchmod(fd, mode)
                if (old.st_uid, old.st_gid) != (os.getuid(), os.getgid()):
                    try:
                        os.fchown(fd, old.st_uid, old.st_gid)
                    except OSError:
                        pass  # not permitted: the file becomes the writer's, as with any editor
            os.fsync(fd)
            if tmp is None:
                tmp = _give_name(fd, folder, os.path.basename(target))
        finally:
            os.close(fd)
        # The target may have been swapped for something else since it was checked.
        try:
            now = os.lstat(target)
            if not stat.S_ISREG(now.st_mode):
                raise FileRefused(target, f"became {_kind(now.st_mode)} during the save")
        except FileNotFoundError:
            pass
        held = _hold_replaced(target, old)
        os.replace(tmp, target)
        tmp = None
        if held is not None:
            _release_later(held)
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    try:  # make the rename itself durable
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass
    return target


def temp_files(folder: str | os.PathLike[str]) -> list[Path]:
    """Temporary files of `atomic_write` present in `folder` (for checks and tests)."""
    return sorted(p for p in Path(folder).iterdir() if p.name.startswith(TEMP_PREFIX))
