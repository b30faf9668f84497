"""Reading and writing files safely (`mlirbc.files.access`): only regular files, sizes from `stat`, atomic
saves.

Saves: a target that exists and is not a regular file is refused (`/dev/null` stays a device); a symbolic link
is written through to its target and stays a link; the file mode is kept; the temporary file lives next to
the target and never outlives the save (not on errors, not on a full or read-only disk, and not after
`kill -9`: the next save removes what a killed writer left).  Reads: FIFOs, devices, directories, sockets
and NUL bytes are refused from `stat` alone, before any `open`, and sizes are checked before reading.
"""

from __future__ import annotations

import os
import random
import signal
import socket
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from corpus import REPO
from mlirbc.files.access import FileRefused, atomic_write, read_regular, resolve_target, temp_files


def _child(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO / "server"))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], env=env,
                          capture_output=True, text=True, timeout=120)


# -- reading ----------------------------------------------------------------------------------------
def test_special_files_are_refused_before_open(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.mlirbc"
    os.mkfifo(fifo)
    sock_path = tmp_path / "sock.mlirbc"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(sock_path))
    try:
        cases = {fifo: "FIFO", sock_path: "socket", Path("/dev/zero"): "character device",
                 tmp_path: "directory"}
        for path, kind in cases.items():
            with pytest.raises(FileRefused, match=kind):
                read_regular(path, limit=1 << 30)  # a FIFO would block here if it were opened
    finally:
        sock.close()
    with pytest.raises(FileRefused, match="NUL"):
        read_regular(str(tmp_path / "a\0b"))


def test_size_is_checked_from_stat(tmp_path: Path) -> None:
    big = tmp_path / "big.mlirbc"
    with open(big, "wb") as f:
        f.truncate(10 << 20)  # sparse: the refusal must not read it
    with pytest.raises(FileRefused, match="over the limit"):
        read_regular(big, limit=1 << 20)
    data, st = read_regular(big, limit=20 << 20)
    assert len(data) == 10 << 20 and st.st_size == 10 << 20


# -- writing ----------------------------------------------------------------------------------------
def test_a_device_is_never_replaced() -> None:
    before = os.stat("/dev/null")
    with pytest.raises(FileRefused, match="character device"):
        atomic_write("/dev/null", b"data")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev
    assert not temp_files("/dev")


def test_fifo_and_directory_targets_are_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "out.mlirbc"
    os.mkfifo(fifo)
    with pytest.raises(FileRefused, match="FIFO"):
        atomic_write(fifo, b"x")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    with pytest.raises(FileRefused, match="directory"):
        atomic_write(tmp_path, b"x")
    with pytest.raises(FileRefused, match="folder does not exist"):
        atomic_write(tmp_path / "missing" / "x.mlirbc", b"x")
    assert not temp_files(tmp_path)


def test_relative_paths_are_resolved_against_the_given_folder(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    doc_dir = tmp_path / "doc"
    doc_dir.mkdir()
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    written = atomic_write("sub/../out.mlirbc", b"abc", base_dir=doc_dir)
    assert written == str(doc_dir / "out.mlirbc")
    assert (doc_dir / "out.mlirbc").read_bytes() == b"abc"
    assert not (elsewhere / "out.mlirbc").exists()
    assert resolve_target("x.mlirbc", doc_dir) == str(doc_dir / "x.mlirbc")


def test_symlinks_are_written_through_and_kept(tmp_path: Path) -> None:
    real = tmp_path / "real.mlirbc"
    real.write_bytes(b"old")
    link = tmp_path / "link.mlirbc"
    link.symlink_to(real.name)
    written = atomic_write(link, b"new")
    assert written == str(real)
    assert link.is_symlink() and os.readlink(link) == real.name
    assert real.read_bytes() == b"new"
    dangling = tmp_path / "dangling.mlirbc"
    dangling.symlink_to("created.mlirbc")
    atomic_write(dangling, b"made")
    assert dangling.is_symlink() and (tmp_path / "created.mlirbc").read_bytes() == b"made"
    assert not temp_files(tmp_path)


def test_file_mode_is_kept_and_new_files_follow_the_umask(tmp_path: Path) -> None:
    target = tmp_path / "x.mlirbc"
    target.write_bytes(b"old")
    os.chmod(target, 0o640)
    atomic_write(target, b"new")
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640
    old_umask = os.umask(0o022)
    try:
        fresh = tmp_path / "fresh.mlirbc"
        atomic_write(fresh, b"x")
        assert stat.S_IMODE(os.stat(fresh).st_mode) == 0o644
    finally:
        os.umask(old_umask)


def test_paths_with_a_lone_surrogate_are_refused(tmp_path: Path) -> None:
    """The server fuzz target (a save to `"\\ud800"`): such a path reached `os.stat` and escaped as
    UnicodeEncodeError.  A surrogate standing for a byte (U+DC80-U+DCFF, a name that is not UTF-8) is a
    real file name and stays one."""
    for bad in ("\ud800", "x\udbff.mlirbc"):
        for call in (lambda p: read_regular(p), lambda p: atomic_write(p, b"x"),
                     lambda p: resolve_target(p, tmp_path)):
            with pytest.raises(FileRefused, match="lone surrogate") as exc:
                call(str(tmp_path / bad))
            str(exc.value).encode("utf-8")  # the message is sendable text
    assert not any(tmp_path.iterdir())
    raw = tmp_path / "caf\udce9.mlirbc"  # b"caf\xe9.mlirbc"
    atomic_write(raw, b"kept")
    assert read_regular(raw)[0] == b"kept" and os.listdir(os.fsencode(tmp_path)) == [b"caf\xe9.mlirbc"]


def test_read_only_files_are_refused_by_their_mode_bits(tmp_path: Path) -> None:
    """Write permission is judged from the bits of the class this process falls in (owner, group,
    others); root, for whom `os.access` is always true, is refused a file with no write bit at all."""
    target = tmp_path / "x.mlirbc"
    target.write_bytes(b"old")
    for mode in (0o444, 0o400, 0o000):
        os.chmod(target, mode)
        with pytest.raises(FileRefused, match=f"read-only \\(mode {mode:04o}\\)"):
            atomic_write(target, b"new")
        assert target.read_bytes() == b"old" and stat.S_IMODE(os.stat(target).st_mode) == mode
    assert not temp_files(tmp_path)
    os.chmod(target, 0o644 if os.geteuid() != 0 else 0o020)
    atomic_write(target, b"new")
    assert target.read_bytes() == b"new"


def test_a_failed_write_leaves_the_file_and_no_temporary(tmp_path: Path) -> None:
    """A write that fails half-way (here: past RLIMIT_FSIZE, as a full disk fails) changes nothing."""
    target = tmp_path / "x.mlirbc"
    target.write_bytes(b"original")
    proc = _child("""
        import resource, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
        from mlirbc.files.access import atomic_write
        try:
            atomic_write(sys.argv[1], b"n" * 100000)
        except OSError as exc:
            print("refused", exc.errno)
    """, str(target))
    assert proc.stdout.startswith("refused"), proc.stderr
    assert target.read_bytes() == b"original"
    assert not temp_files(tmp_path)


def _mount(args: list[str], where: Path) -> bool:
    r = subprocess.run(["mount", *args, str(where)], capture_output=True)
    return r.returncode == 0


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small tmpfs needs root")
def test_full_and_read_only_disks_refuse_and_keep_the_file(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    if not _mount(["-t", "tmpfs", "-o", "size=256k", "tmpfs"], disk):
        pytest.skip("mount is not permitted here")
    try:
        target = disk / "x.mlirbc"
        atomic_write(target, b"original")
        with pytest.raises(OSError) as full:
            atomic_write(target, os.urandom(1 << 20))
        assert full.value.errno == 28  # ENOSPC
        assert target.read_bytes() == b"original" and not temp_files(disk)
        assert _mount(["-o", "remount,ro"], disk)
        with pytest.raises(OSError) as ro:
            atomic_write(target, b"new")
        assert ro.value.errno == 30  # EROFS
        assert target.read_bytes() == b"original" and not temp_files(disk)
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True)


def test_kill_9_during_saves_leaves_old_or_new_bytes(tmp_path: Path) -> None:
    """A writer killed at random moments while it saves 4 MB files: the target always holds one complete
    version, and whatever temporary file the kill left is removed by the next save."""
    target = tmp_path / "x.mlirbc"
    versions = [bytes([i]) * (4 << 20) for i in range(3)]
    target.write_bytes(versions[0])
    rng = random.Random(9)
    leftovers = 0
    for _ in range(12):
        proc = subprocess.Popen(
            [sys.executable, "-c", textwrap.dedent("""
                import sys
                from mlirbc.files.access import atomic_write
                i = 0
                print("ready", flush=True)
                while True:
                    i += 1
                    atomic_write(sys.argv[1], bytes([1 + i % 2]) * (4 << 20))
            """), str(target)], env=dict(os.environ, PYTHONPATH=str(REPO / "server")),
            stdout=subprocess.PIPE)
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"ready"
        time.sleep(rng.uniform(0.0, 0.3))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert target.read_bytes() in versions
        leftovers += len(temp_files(tmp_path))
        atomic_write(target, versions[0])  # the next save cleans up after the killed writer
        assert not temp_files(tmp_path)
    assert leftovers <= 12
