"""The server's edge for positions: character offsets <-> LSP positions in the negotiated encoding.

Everything below the server works with character offsets (`syntax.textlines`).  LSP counts columns in
UTF-16 code units unless client and server agree on UTF-8 or UTF-32 at initialization
(`general.positionEncodings`); pygls picks the client's first supported choice and announces it, and
`PositionCodec` converts with that encoding, only here.
"""

from __future__ import annotations

from lsprotocol import types as lsp

from ..errors import TextSpan
from ..syntax.textlines import TextLines

UTF8 = "utf-8"
UTF16 = "utf-16"
UTF32 = "utf-32"


def encoding_name(kind: object) -> str:
    """The codec name for a negotiated `PositionEncodingKind` (UTF-16 for anything unknown)."""
    value = getattr(kind, "value", kind)
    if value in (UTF8, UTF32):
        return str(value)
    return UTF16


def _units(text: str, encoding: str) -> int:
    """How many code units of `encoding` the characters of `text` take."""
    if encoding == UTF32 or text.isascii():
        return len(text)
    if encoding == UTF16:
        return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)
    # Lone surrogates (bytes kept with surrogateescape) count as the 3 bytes a client would see.
    return len(text.encode("utf-8", "surrogatepass"))


def _index_of_units(line: str, units: int, encoding: str) -> int:
    """The character index in `line` where `units` code units have been counted (clamped)."""
    if encoding == UTF32 or line.isascii():
        return min(units, len(line))
    count = 0
    for i, ch in enumerate(line):
        if count >= units:
            return i
        o = ord(ch)
        if encoding == UTF16:
            count += 2 if o > 0xFFFF else 1
        else:
            count += 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4
    return len(line)


class PositionCodec:
    """Offsets of one text <-> LSP positions; `lines` is the text's line table."""

    __slots__ = ("text", "lines", "encoding")

    def __init__(self, text: str, lines: TextLines | None = None, encoding: str = UTF16) -> None:
        self.text = text
        self.lines = lines if lines is not None else TextLines(text)
        self.encoding = encoding

    def line_text(self, line: int) -> str:
        if line < 0 or line >= self.lines.line_count:
            return ""
        return self.text[self.lines.line_start(line):self.lines.line_end(line)]

    def position(self, offset: int) -> lsp.Position:
        offset = max(0, min(offset, len(self.text)))
        line, col = self.lines.position(offset)
        if col:
            start = self.lines.line_start(line)
            col = _units(self.text[start:offset], self.encoding)
        return lsp.Position(line=line, character=col)

    def offset(self, pos: lsp.Position) -> int:
        if pos.line >= self.lines.line_count:
            return len(self.text)
        line = max(pos.line, 0)
        start = self.lines.line_start(line)
        return start + _index_of_units(self.line_text(line), max(pos.character, 0), self.encoding)

    def range(self, start: int, end: int) -> lsp.Range:
        return lsp.Range(start=self.position(start), end=self.position(end))

    def span_range(self, span: TextSpan) -> lsp.Range:
        return self.range(span.start, span.end)
