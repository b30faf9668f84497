"""Records an encoding (attribute/type entry or properties payload) before any number is known.

The writer must number attributes, types and resources by first encounter *while* it walks the encodings, and
only knows the final numbers after sorting them.  So each encoding is produced once, into a `Recorder`: plain
bytes are kept as they are, and every reference (attribute, type, string, resource) becomes a token.  The
numbering pass reads the references from the tokens; `render` later turns the tokens into bytes with the final
numbers.  A model or codec is therefore called once per encoding, not once per pass.
"""

from __future__ import annotations

from collections.abc import Callable

from ..binary.stream import encode_varint, zigzag
from ..files.chunks import Chunks
from ..ir.attributes import Attribute
from ..ir.types import Type

REF_ATTR = 0
REF_TYPE = 1
REF_STRING = 2
REF_RESOURCE = 3
REF_OPT_ATTR = 4
"""An optional attribute that is present: rendered as `varint((attr# << 1) | 1)`."""

Ref = tuple[int, object]
Token = bytes | memoryview | Ref
"""Plain bytes, a large payload kept by reference (a view, see `blob`), or a reference."""

BY_REFERENCE = 64 * 1024
"""Blobs from this size on are recorded by reference, not copied (dense tensors of a mapped file)."""


class Recorder:
    """An `EntryWriter` (and builtin `resource` writer) that records tokens instead of writing numbers."""

    __slots__ = ("version", "tokens", "_buf")

    def __init__(self, version: int) -> None:
        self.version = version
        self.tokens: list[Token] = []
        self._buf = bytearray()

    def finish(self) -> list[Token]:
        if self._buf:
            self.tokens.append(bytes(self._buf))
            self._buf.clear()
        return self.tokens

    def _ref(self, kind: int, obj: object) -> None:
        if self._buf:
            self.tokens.append(bytes(self._buf))
            self._buf.clear()
        self.tokens.append((kind, obj))

    # -- plain bytes ----------------------------------------------------------------------------
    def varint(self, v: int) -> None:
        if 0 <= v < 0x80:
            self._buf.append((v << 1) | 1)
        else:
            self._buf += encode_varint(v)

    def signed_varint(self, v: int) -> None:
        self.varint(zigzag(v))

    def varint_flag(self, v: int, flag: bool) -> None:
        self.varint((v << 1) | (1 if flag else 0))

    def byte(self, b: int) -> None:
        self._buf.append(b)

    def raw(self, data: bytes | memoryview) -> None:
        self._buf += data

    def blob(self, data: bytes | memoryview) -> None:
        self.varint(len(data))
        if len(data) >= BY_REFERENCE:
            if self._buf:
                self.tokens.append(bytes(self._buf))
                self._buf.clear()
            self.tokens.append(memoryview(data))
        else:
            self._buf += data

    def sparse_array(self, values: list[int]) -> None:
        """ODS segment sizes at v6 (format 7.3): dense when more than half are non-zero or the last non-zero
        index exceeds 256, else (value << bits) | index pairs."""
        n = len(values)
        nonzero = [i for i, v in enumerate(values) if v]
        last = nonzero[-1] if nonzero else 0
        if last > 256 or len(nonzero) > n // 2:
            self.varint_flag(n, False)
            for v in values:
                self.varint(v)
            return
        self.varint_flag(len(nonzero), True)
        if not nonzero:
            return
        bits = last.bit_length()  # == ceil(log2(last + 1))
        self.varint(bits)
        for i in nonzero:
            self.varint((values[i] << bits) | i)

    # -- references -----------------------------------------------------------------------------
    def attr(self, a: Attribute) -> None:
        self._ref(REF_ATTR, a)

    def optional_attr(self, a: Attribute | None) -> None:
        if a is None:
            self._buf.append(1)  # varint(0)
        else:
            self._ref(REF_OPT_ATTR, a)

    def type(self, t: Type) -> None:
        self._ref(REF_TYPE, t)

    def string(self, s: bytes) -> None:
        self._ref(REF_STRING, bytes(s))

    def resource(self, key: str) -> None:
        self._ref(REF_RESOURCE, key)


def has_reference(tokens: list[Token]) -> bool:
    """Whether `tokens` hold a payload kept by reference (render those into `Chunks`)."""
    return any(type(t) is memoryview for t in tokens)


def render(tokens: list[Token], out: bytearray | Chunks, attr_index: Callable[[object], int],
           type_index: Callable[[object], int], string_index: Callable[[bytes], int],
           resource_index: Callable[[str], int]) -> None:
    """Append the bytes of `tokens` to `out`, with final numbers from the index functions."""
    extend = out.extend
    for t in tokens:
        if type(t) is bytes or type(t) is memoryview:
            extend(t)
            continue
        kind, obj = t
        if kind == REF_ATTR:
            v = attr_index(obj)
        elif kind == REF_TYPE:
            v = type_index(obj)
        elif kind == REF_OPT_ATTR:
            v = (attr_index(obj) << 1) | 1
        elif kind == REF_STRING:
            v = string_index(obj)  # type: ignore[arg-type]
        else:
            v = resource_index(obj)  # type: ignore[arg-type]
        if v < 0x80:
            out.append((v << 1) | 1)
        else:
            extend(encode_varint(v))
