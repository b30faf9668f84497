"""Arbitrary-width integers as the bytecode stores them (APInt, also the bits of an APFloat): one byte up to
8 bits, a signed varint up to 64, else a count of 64-bit words each a signed varint, least significant first.

Both directions work on anything with the varint primitives: a `ByteReader`/`ByteWriter`, or a model's
`EntryReader`/`EntryWriter`.
"""

from __future__ import annotations

from typing import Protocol

MASK64 = (1 << 64) - 1


class IntReader(Protocol):
    def byte(self) -> int: ...
    def varint(self) -> int: ...
    def signed_varint(self) -> int: ...


class IntWriter(Protocol):
    def byte(self, b: int) -> None: ...
    def varint(self, v: int) -> None: ...
    def signed_varint(self, v: int) -> None: ...


def read_apint(r: IntReader, width: int) -> int:
    """The bits of a `width`-bit integer (an unsigned pattern below `1 << width`)."""
    mask = (1 << width) - 1
    if width <= 8:
        return r.byte() & mask
    if width <= 64:
        return r.signed_varint() & mask
    n = r.varint()
    if n > (width + 63) // 64:
        raise ValueError(f"{n} active words for a {width}-bit integer")
    bits = 0
    for i in range(n):
        bits |= (r.signed_varint() & MASK64) << (64 * i)
    return bits & mask


def as_int64(v: int) -> int:
    """The low 64 bits of `v` as a signed 64-bit value."""
    v &= MASK64
    return v - (1 << 64) if v >> 63 else v


def write_apint(w: IntWriter, width: int, bits: int) -> None:
    if width <= 8:
        w.byte(bits & 0xFF)
    elif width <= 64:
        w.signed_varint(as_int64(bits))
    else:
        words = []
        v = bits
        while v:
            words.append(v & MASK64)
            v >>= 64
        if not words:
            words = [0]
        w.varint(len(words))
        for word in words:
            w.signed_varint(as_int64(word))
