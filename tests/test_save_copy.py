"""How a save copies the unchanged ranges of a mapped original: the kernel's copy where source and output
offsets sit at the same place in a page, a small bounce buffer where an edit moved them out of step, the
view itself where neither is available; always the same bytes, with memory bounded by the buffer.  A large
replaced file is released after the rename, in the background."""

from __future__ import annotations

import os
import sys
import threading
import tracemalloc
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server" / "tools"))

import make_weights  # noqa: E402

from mlirbc.bytecode.reader import read_bytecode_file  # noqa: E402
from mlirbc.bytecode.writer import encode_bytecode, encode_bytecode_chunks  # noqa: E402
from mlirbc.files import (
    access,  # noqa: E402
    chunks,  # noqa: E402
)
from mlirbc.files.access import atomic_write  # noqa: E402
from mlirbc.files.chunks import BOUNCE, KERNEL, PAGE, Chunks, FileRange, copy_plan  # noqa: E402
from mlirbc.files.mapped import open_mapped  # noqa: E402
from mlirbc.view.parser import parse_module  # noqa: E402
from mlirbc.view.printer import print_module  # noqa: E402


def test_copy_plan_keeps_the_kernel_copy_for_offsets_in_step() -> None:
    assert copy_plan(0, 0) == KERNEL
    assert copy_plan(160, 160) == KERNEL
    assert copy_plan(160, 160 + 3 * PAGE) == KERNEL
    assert copy_plan(160, 165) == BOUNCE
    assert copy_plan(4096 + 7, 0) == BOUNCE


def _source(tmp_path: Path, size: int) -> tuple[bytes, object]:
    path = tmp_path / "src.bin"
    data = os.urandom(size)
    path.write_bytes(data)
    return data, open_mapped(path)


@pytest.mark.parametrize("head", [0, 5, PAGE - 3, PAGE + 160, 300_000])
@pytest.mark.parametrize("start", [0, 160, 4096, 77_777])
def test_ranges_copy_exactly_whatever_the_offsets(tmp_path: Path, head: int, start: int) -> None:
    data, mapped = _source(tmp_path, 1_500_000)
    n = 1_200_000
    c = Chunks(b"h" * head)
    c.write(FileRange(mapped.data[start:start + n], mapped, start))  # type: ignore[attr-defined]
    c.write(b"tail")
    out = tmp_path / "out.bin"
    atomic_write(out, c)
    assert out.read_bytes() == b"h" * head + data[start:start + n] + b"tail"


@pytest.mark.parametrize("missing", ["copy_file_range", "preadv", "both"])
def test_ranges_copy_exactly_without_the_system_calls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      missing: str) -> None:
    for name in (["copy_file_range", "preadv"] if missing == "both" else [missing]):
        monkeypatch.delattr(os, name, raising=False)
    data, mapped = _source(tmp_path, 700_000)
    for head in (0, 5):
        c = Chunks(b"x" * head)
        c.write(FileRange(mapped.data[100:], mapped, 100))  # type: ignore[attr-defined]
        out = tmp_path / f"out{head}.bin"
        atomic_write(out, c)
        assert out.read_bytes() == b"x" * head + data[100:]


def test_a_bounced_copy_holds_one_small_buffer(tmp_path: Path) -> None:
    data, mapped = _source(tmp_path, 16 << 20)
    c = Chunks(b"12345")  # out of step with the source: bounced
    c.write(FileRange(mapped.data, mapped, 0))  # type: ignore[attr-defined]
    out = tmp_path / "out.bin"
    tracemalloc.start()
    try:
        atomic_write(out, c)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * chunks.BOUNCE_SIZE, peak  # not a copy of the 16 MiB
    assert out.read_bytes() == b"12345" + data


def test_an_edit_that_moves_the_weights_saves_the_same_bytes_as_an_in_memory_encode(tmp_path: Path) -> None:
    path = tmp_path / "dr.mlirbc"
    make_weights.dense_resource(str(path), 3 << 20)
    m = read_bytecode_file(path)
    text = print_module(m, elide_larger_than=1024).text
    result = parse_module(text.replace('sym_name = "get"', 'sym_name = "get_renamed_longer"'), template=m)
    assert result.module is not None
    out = encode_bytecode_chunks(result.module, template=m)
    pos, plans = 0, []
    for p in out.buffers():
        if isinstance(p, FileRange):
            plans.append(copy_plan(p.offset, pos))
        pos += len(p)
    assert BOUNCE in plans  # the rename moved the blob out of step with the original
    expected = encode_bytecode(result.module, template=m)
    atomic_write(path, out)
    assert path.read_bytes() == expected
    blob = read_bytecode_file(path).resources[0].entries[0].blob
    assert blob is not None and bytes(blob) == bytes(m.resources[0].entries[0].blob or b"")


def test_a_large_replaced_file_is_released_in_the_background(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(access, "RELEASE_LATER", 1 << 20)
    path = tmp_path / "big.bin"
    path.write_bytes(os.urandom(2 << 20))
    old_ino = path.stat().st_ino
    atomic_write(path, b"new contents")
    assert path.read_bytes() == b"new contents" and path.stat().st_ino != old_ino
    for t in threading.enumerate():
        if t.name == "mlirbc-release-replaced":
            t.join(10)
    held = [os.stat(f"/proc/self/fd/{fd}").st_ino for fd in os.listdir("/proc/self/fd")
            if _is_file(f"/proc/self/fd/{fd}")] if Path("/proc/self/fd").is_dir() else []
    assert old_ino not in held  # the descriptor that kept it was closed


def test_small_or_linked_files_are_not_held(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(access, "RELEASE_LATER", 1 << 16)
    path = tmp_path / "f.bin"
    path.write_bytes(b"x" * 10)
    assert access._hold_replaced(str(path), path.stat()) is None  # small
    big = tmp_path / "big.bin"
    big.write_bytes(b"\0" * access.RELEASE_LATER)
    os.link(big, tmp_path / "other-name.bin")
    assert access._hold_replaced(str(big), big.stat()) is None  # another name keeps it: nothing freed
    os.unlink(tmp_path / "other-name.bin")
    fd = access._hold_replaced(str(big), big.stat())
    assert fd is not None and os.fstat(fd).st_ino == big.stat().st_ino
    os.close(fd)


def _is_file(p: str) -> bool:
    try:
        return os.path.isfile(p)
    except OSError:
        return False
