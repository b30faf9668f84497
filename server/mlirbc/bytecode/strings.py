"""String section (format 3): count, lengths in reverse order, NUL-terminated data; the writer's table."""

from __future__ import annotations

from ..binary.stream import ByteReader, ByteWriter


def decode_strings(r: ByteReader) -> list[bytes]:
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


def encode_strings(strings: list[bytes]) -> bytes:
    w = ByteWriter()
    w.varint(len(strings))
    for s in reversed(strings):
        w.varint(len(s) + 1)
    for s in strings:
        w.cstring(s)
    return bytes(w.buf)


class StringTable:
    """The writer's string table: deduplicated by content, numbered on first insertion (format 11.7).

    Template mode seeds it with the template's strings at their numbers (duplicates included), so opaque
    bytes that refer to strings stay valid.
    """

    __slots__ = ("strings", "_index")

    def __init__(self, seed: list[bytes] | None = None) -> None:
        self.strings: list[bytes] = []
        self._index: dict[bytes, int] = {}
        for s in seed or ():
            self._index.setdefault(s, len(self.strings))
            self.strings.append(s)

    def intern(self, s: bytes) -> int:
        idx = self._index.get(s)
        if idx is None:
            idx = len(self.strings)
            self._index[s] = idx
            self.strings.append(s)
        return idx
