"""Offsets in a text <-> LSP positions (UTF-16 code units, the protocol's default encoding)."""

from __future__ import annotations

from bisect import bisect_right

from lsprotocol import types as lsp


class LineIndex:
    """Line starts of a text, for converting absolute character offsets to LSP positions and back."""

    __slots__ = ("text", "starts")

    def __init__(self, text: str) -> None:
        self.text = text
        starts = [0]
        find = text.find
        i = find("\n")
        while i >= 0:
            starts.append(i + 1)
            i = find("\n", i + 1)
        self.starts = starts

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_of(self, offset: int) -> int:
        return bisect_right(self.starts, offset) - 1

    def line_text(self, line: int) -> str:
        if line < 0 or line >= len(self.starts):
            return ""
        end = self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.text)
        return self.text[self.starts[line]:end]

    def position(self, offset: int) -> lsp.Position:
        offset = max(0, min(offset, len(self.text)))
        line = self.line_of(offset)
        start = self.starts[line]
        col = offset - start
        prefix = self.text[start:offset]
        if not prefix.isascii():
            col = len(prefix.encode("utf-16-le")) // 2
        return lsp.Position(line=line, character=col)

    def offset(self, pos: lsp.Position) -> int:
        if pos.line >= len(self.starts):
            return len(self.text)
        line = max(pos.line, 0)
        start = self.starts[line]
        text = self.line_text(line)
        if text.isascii():
            return start + min(pos.character, len(text))
        units = 0
        for i, ch in enumerate(text):
            if units >= pos.character:
                return start + i
            units += 2 if ord(ch) > 0xFFFF else 1
        return start + len(text)

    def range(self, start: int, end: int) -> lsp.Range:
        return lsp.Range(start=self.position(start), end=self.position(end))
