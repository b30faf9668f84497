"""In-memory `EntryReader`/`EntryWriter`: run a model on bytes without a file (tests, plugin authors).

References are plain indices into the lists given (attributes, types, strings), encoded exactly as the
bytecode does: `varint index`, the flagged optional form `varint((index << 1) | 1)` / `varint 0`, and the
version-6 sparse array of segment sizes (format section 7.3).
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import TypeVar

from ..binary.stream import ByteReader, ByteWriter
from ..ir.attributes import Attribute
from ..ir.types import Type
from .api import ModelError

T = TypeVar("T")


def _index(table: Sequence[T], what: str, idx: int) -> T:
    if idx >= len(table):
        raise ModelError(f"{what} index {idx} out of range ({len(table)} entries)")
    return table[idx]


def _number(table: list[T], value: T) -> int:
    for i, v in enumerate(table):
        if v is value:
            return i
    table.append(value)
    return len(table) - 1


class MemoryEntryReader:
    """Reads one payload; `attrs`/`types`/`strings` are the tables its references index."""

    def __init__(self, data: bytes, attrs: Sequence[Attribute] = (), types: Sequence[Type] = (),
                 strings: Sequence[bytes] = (), version: int = 6) -> None:
        self._r = ByteReader(data, section="payload")
        self.attrs = attrs
        self.types = types
        self.strings = strings
        self.version = version

    def varint(self) -> int:
        return self._r.varint()

    def signed_varint(self) -> int:
        return self._r.signed_varint()

    def byte(self) -> int:
        return self._r.byte()

    def bytes(self, n: int) -> memoryview:
        return self._r.bytes(n)

    def blob(self) -> memoryview:
        return self._r.blob()

    def attr(self) -> Attribute:
        return _index(self.attrs, "attribute", self.varint())

    def optional_attr(self) -> Attribute | None:
        v = self.varint()
        if not v & 1:
            if v:
                raise ModelError("absent optional attribute with a non-zero index")
            return None
        return _index(self.attrs, "attribute", v >> 1)

    def type(self) -> Type:
        return _index(self.types, "type", self.varint())

    def string(self) -> builtins.bytes:  # (`bytes` is a method name in this class)
        return _index(self.strings, "string", self.varint())

    def sparse_array(self) -> list[int]:
        n, sparse = self._r.varint_flag()
        if not sparse:
            return [self.varint() for _ in range(n)]
        if n == 0:
            return []
        bits = self.varint()
        pairs = [self.varint() for _ in range(n)]
        mask = (1 << bits) - 1
        out = [0] * (max(p & mask for p in pairs) + 1)
        for p in pairs:
            out[p & mask] = p >> bits
        return out

    def at_end(self) -> bool:
        return self._r.at_end()


class MemoryEntryWriter:
    """Writes one payload; references go to `attrs`/`types`/`strings`, which grow as new values appear."""

    def __init__(self, version: int = 6, attrs: list[Attribute] | None = None,
                 types: list[Type] | None = None, strings: list[bytes] | None = None) -> None:
        self._w = ByteWriter()
        self.version = version
        self.attrs = attrs if attrs is not None else []
        self.types = types if types is not None else []
        self.strings = strings if strings is not None else []

    @property
    def data(self) -> bytes:
        return bytes(self._w.buf)

    def varint(self, v: int) -> None:
        self._w.varint(v)

    def signed_varint(self, v: int) -> None:
        self._w.signed_varint(v)

    def byte(self, b: int) -> None:
        self._w.byte(b)

    def raw(self, data: bytes) -> None:
        self._w.raw(data)

    def blob(self, data: bytes) -> None:
        self._w.blob(data)

    def attr(self, a: Attribute) -> None:
        self.varint(_number(self.attrs, a))

    def optional_attr(self, a: Attribute | None) -> None:
        self.varint(0 if a is None else (_number(self.attrs, a) << 1) | 1)

    def type(self, t: Type) -> None:
        self.varint(_number(self.types, t))

    def string(self, s: bytes) -> None:
        for i, v in enumerate(self.strings):
            if v == s:
                self.varint(i)
                return
        self.strings.append(bytes(s))
        self.varint(len(self.strings) - 1)

    def sparse_array(self, values: list[int]) -> None:
        n = len(values)
        nonzero = [i for i, v in enumerate(values) if v]
        last = nonzero[-1] if nonzero else 0
        if last > 256 or len(nonzero) > n // 2:
            self._w.varint_flag(n, False)
            for v in values:
                self.varint(v)
            return
        self._w.varint_flag(len(nonzero), True)
        if not nonzero:
            return
        bits = last.bit_length()  # ceil(log2(last + 1))
        self.varint(bits)
        for i in nonzero:
            self.varint((values[i] << bits) | i)
