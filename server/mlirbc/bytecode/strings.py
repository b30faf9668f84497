"""String section (format 3): count, lengths in reverse order, NUL-terminated data."""

from __future__ import annotations

from .stream import ByteReader, ByteWriter


def decompile_strings(r: ByteReader) -> list[bytes]:
    n = r.count("string", 2)
    lengths = [r.varint() for _ in range(n)]
    lengths.reverse()
    total = sum(lengths)
    if total != r.remaining:
        raise r.error(f"string lengths add up to {total} bytes but the string data has {r.remaining}")
    out: list[bytes] = []
    data = r.data
    pos = r.pos
    for ln in lengths:
        if ln == 0 or data[pos + ln - 1] != 0:
            raise r.error("string is not NUL-terminated", pos)
        out.append(bytes(data[pos:pos + ln - 1]))
        pos += ln
    r.pos = pos
    return out


def compile_strings(strings: list[bytes]) -> bytes:
    w = ByteWriter()
    w.varint(len(strings))
    for s in reversed(strings):
        w.varint(len(s) + 1)
    for s in strings:
        w.cstring(s)
    return bytes(w.buf)
