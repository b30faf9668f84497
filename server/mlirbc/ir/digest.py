"""Content fingerprints of byte strings that read a bounded sample of a large value, never all of it.

Model-sized files hold values of hundreds of megabytes that live in the mapped file.  Two things need an
identity for such a value without reading it whole:

* the uniquer (equal values are one object): `content_key` wraps a large payload in a key whose hash is
  the sampled fingerprint and whose equality compares the full content, so equal values still meet and
  different values never do; the full comparison only runs when two fingerprints agree;
* elided placeholders in the text view (`syntax/elision.py`) name a value by its size and fingerprint.

The sample: the length, the first and last `EDGE` bytes, and `WINDOWS` windows of `WINDOW` bytes at
evenly spaced offsets, hashed with BLAKE2b (64-bit digest, its own personalisation).  Values up to
`FULL_LIMIT` bytes are hashed whole.  So at most 2*EDGE + WINDOWS*WINDOW = 24 KiB of any value is read,
about 2 pages out of every 512 of a 64 MiB tensor.  Two different values of one size collide only when
they agree on every sampled byte: random weights, or trained ones, which differ almost everywhere, never
do; values that differ in a few unsampled bytes (a sparse update of one row) can.  Where that matters the
callers do not rely on the sample alone: the view printer detects equal fingerprints among the values it
elides and gives those a `full_digest` instead, and the uniquer compares content.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

FULL_LIMIT = 64 * 1024
"""Values up to this many bytes are hashed whole."""
EDGE = 4096
WINDOW = 256
WINDOWS = 64
DIGEST_BYTES = 8

LARGE = 4096
"""Payloads from this size on are kept as views of the file (no copy) and keyed by `content_key`."""

Bytes = bytes | memoryview
"""A payload: bytes, or a read-only view of a mapped file."""


def sample_ranges(n: int) -> Iterator[tuple[int, int]]:
    """The (start, end) byte ranges the sampled fingerprint of an `n`-byte value reads, in order."""
    if n <= FULL_LIMIT:
        yield 0, n
        return
    yield 0, EDGE
    inner = n - 2 * EDGE - WINDOW
    for i in range(WINDOWS):
        start = EDGE + inner * i // (WINDOWS - 1)
        yield start, start + WINDOW
    yield n - EDGE, n


def sampled_digest(data: Bytes) -> bytes:
    """The 8-byte sampled fingerprint of `data` (see the module docstring)."""
    h = hashlib.blake2b(digest_size=DIGEST_BYTES, person=b"mlirbc-sample")
    n = len(data)
    h.update(n.to_bytes(8, "little"))
    for start, end in sample_ranges(n):
        h.update(data[start:end])
    return h.digest()


def sampled_parts_digest(parts: list[Bytes]) -> bytes:
    """A sampled fingerprint of a sequence of byte strings (dense string elements, sparse parts): each
    part's length and sampled digest when there are few, else those of a bounded selection."""
    h = hashlib.blake2b(digest_size=DIGEST_BYTES, person=b"mlirbc-parts")
    n = len(parts)
    h.update(n.to_bytes(8, "little"))
    picks = range(n) if n <= 2 * WINDOWS else sorted({(n - 1) * i // (2 * WINDOWS - 1)
                                                       for i in range(2 * WINDOWS)})
    total = 0
    for i in picks:
        p = parts[i]
        total += len(p)
        h.update(i.to_bytes(8, "little"))
        h.update(sampled_digest(p))
    return h.digest()


def full_digest(data: Bytes, chunk: int = 1 << 22) -> bytes:
    """The 8-byte BLAKE2b digest of all of `data` (read in chunks; used only to tell apart values whose
    sampled fingerprints agree)."""
    h = hashlib.blake2b(digest_size=DIGEST_BYTES, person=b"mlirbc-full")
    n = len(data)
    h.update(n.to_bytes(8, "little"))
    view = memoryview(data)
    for i in range(0, n, chunk):
        h.update(view[i:i + chunk])
    return h.digest()


class ContentKey:
    """A uniquer key for a large payload: hashed by its sampled fingerprint, equal by content."""

    __slots__ = ("data", "_hash")

    def __init__(self, data: Bytes) -> None:
        self.data = data
        self._hash = int.from_bytes(sampled_digest(data), "little")

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ContentKey):
            return NotImplemented
        if self._hash != other._hash or len(self.data) != len(other.data):
            return False
        return self.data is other.data or _same_content(self.data, other.data)


def _same_content(a: Bytes, b: Bytes, chunk: int = 1 << 16) -> bool:
    # Memoryview equality compares item by item (about 300 MB/s: 0.7 s for a 200 MB tensor met again
    # when a file is reopened); small copies compare with memcmp and stay in the allocator's cache.
    va, vb = memoryview(a), memoryview(b)
    for i in range(0, len(va), chunk):
        if va[i:i + chunk].tobytes() != vb[i:i + chunk].tobytes():
            return False
    return True


def frozen(data: bytes | bytearray | memoryview) -> Bytes:
    """`data` as an immutable payload: a read-only view stays a view when it is large (no copy of a value
    that lives in a mapped file), anything else becomes bytes."""
    if isinstance(data, memoryview) and data.readonly and len(data) >= LARGE:
        if data.ndim != 1 or data.format != "B" or not data.c_contiguous:
            return bytes(data)
        return data
    return bytes(data)


def payload_key(data: Bytes) -> object:
    """The uniquer key component for a payload: the bytes themselves when small, a `ContentKey` when
    large (hashing it whole would read every page of a mapped tensor)."""
    return ContentKey(data) if len(data) >= LARGE else data
