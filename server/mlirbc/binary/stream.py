"""Primitive encodings (format section 1): varints, signed varints, flagged varints, strings, blobs.

`ByteReader` reads from a buffer window and reports every failure as a `DecodeError` that names the section
and the absolute file offset.  `ByteWriter` appends to a bytearray; alignment is relative to `base`, the
absolute file offset of the writer's first byte.
"""

from __future__ import annotations

import builtins

from ..errors import DecodeError

_MASK64 = (1 << 64) - 1


class ByteReader:
    """Reads primitives from `data[pos:end]`; `pos` is an absolute offset into the whole file."""

    __slots__ = ("data", "pos", "end", "section")

    def __init__(self, data: memoryview | bytes, pos: int = 0, end: int | None = None,
                 section: str = "") -> None:
        self.data = data
        self.pos = pos
        self.end = len(data) if end is None else end
        self.section = section

    def error(self, message: str, offset: int | None = None) -> DecodeError:
        return DecodeError(message, self.pos if offset is None else offset, self.section)

    def sub(self, length: int, section: str | None = None) -> ByteReader:
        """A reader over the next `length` bytes; this reader moves past them."""
        if length < 0 or length > self.end - self.pos:
            raise self.error(f"length {length} runs past the end ({self.end - self.pos} bytes left)")
        r = ByteReader(self.data, self.pos, self.pos + length, self.section if section is None else section)
        self.pos += length
        return r

    @property
    def remaining(self) -> int:
        return self.end - self.pos

    def at_end(self) -> bool:
        return self.pos >= self.end

    def byte(self) -> int:
        if self.pos >= self.end:
            raise self.error("unexpected end of data while reading a byte")
        b = self.data[self.pos]
        self.pos += 1
        return b

    def bytes(self, n: int) -> memoryview:
        if n < 0 or n > self.end - self.pos:
            raise self.error(f"needs {n} bytes but only {self.end - self.pos} remain")
        start = self.pos
        self.pos += n
        return memoryview(self.data)[start:start + n]

    def varint(self) -> int:
        pos = self.pos
        if pos >= self.end:
            raise self.error("unexpected end of data while reading a varint")
        data = self.data
        b = data[pos]
        if b & 1:
            self.pos = pos + 1
            return b >> 1
        if b == 0:
            if pos + 9 > self.end:
                raise self.error("truncated 9-byte varint", pos)
            self.pos = pos + 9
            return int.from_bytes(data[pos + 1:pos + 9], "little")
        n = (b & -b).bit_length() - 1  # trailing zeros = bytes that follow
        if pos + 1 + n > self.end:
            raise self.error("truncated varint", pos)
        self.pos = pos + 1 + n
        return int.from_bytes(data[pos:pos + 1 + n], "little") >> (n + 1)

    def signed_varint(self) -> int:
        u = self.varint()
        v = (u >> 1) ^ -(u & 1)
        return v

    def varint_flag(self) -> tuple[int, bool]:
        v = self.varint()
        return v >> 1, bool(v & 1)

    def cstring(self) -> builtins.bytes:
        end = self.end
        data = self.data
        if isinstance(data, memoryview):
            # Search in growing windows: copying the rest of a mapped file to find one NUL would copy
            # the whole file (the header's producer string is read this way).
            idx = -1
            start = self.pos
            step = 64
            while start < end:
                stop = min(end, start + step)
                i = bytes(data[start:stop]).find(b"\0")
                if i >= 0:
                    idx = start + i - self.pos
                    break
                start = stop
                step *= 4
        else:
            idx = data.find(b"\0", self.pos, end)
            idx = -1 if idx < 0 else idx - self.pos
        if idx < 0:
            raise self.error("string is not NUL-terminated")
        s = bytes(data[self.pos:self.pos + idx])
        self.pos += idx + 1
        return s

    def blob(self) -> memoryview:
        n = self.varint()
        return self.bytes(n)

    def count(self, what: str, min_item_size: int = 1) -> int:
        """A varint count of items that each take at least `min_item_size` bytes; refuses hostile counts."""
        start = self.pos
        n = self.varint()
        if min_item_size and n > (self.end - self.pos) // min_item_size:
            raise self.error(f"{what} count {n} exceeds what the remaining "
                             f"{self.end - self.pos} bytes can hold", start)
        return n


def encode_varint(v: int) -> bytes:
    if v < 0 or v > _MASK64:
        raise ValueError(f"varint out of range: {v}")
    if v < 0x80:
        return bytes(((v << 1) | 1,))
    if v >= 1 << 56:
        return b"\0" + v.to_bytes(8, "little")
    n = (v.bit_length() + 6) // 7  # total bytes, 2..8
    return (((v << 1) | 1) << (n - 1)).to_bytes(n, "little")


def zigzag(v: int) -> int:
    return ((v << 1) ^ (v >> 63)) & _MASK64


class ByteWriter:
    """Appends primitives to a bytearray; `base` is the absolute file offset of its first byte."""

    __slots__ = ("buf", "base")

    def __init__(self, base: int = 0) -> None:
        self.buf = bytearray()
        self.base = base

    @property
    def offset(self) -> int:
        return self.base + len(self.buf)

    def byte(self, b: int) -> None:
        self.buf.append(b)

    def raw(self, data: bytes | bytearray | memoryview) -> None:
        self.buf += data

    def varint(self, v: int) -> None:
        if 0 <= v < 0x80:
            self.buf.append((v << 1) | 1)
        else:
            self.buf += encode_varint(v)

    def signed_varint(self, v: int) -> None:
        self.varint(zigzag(v))

    def varint_flag(self, v: int, flag: bool) -> None:
        self.varint((v << 1) | (1 if flag else 0))

    def cstring(self, s: bytes) -> None:
        self.buf += s
        self.buf.append(0)

    def blob(self, data: bytes | bytearray | memoryview) -> None:
        self.varint(len(data))
        self.buf += data

    def align(self, alignment: int) -> None:
        pad = (-self.offset) % alignment
        self.buf += b"\xcb" * pad
