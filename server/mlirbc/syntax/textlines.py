"""Where the lines of a text start: character offsets <-> (line, column) for messages to people.

Every layer works with character offsets; lines and columns (0-based, counted in characters) exist only
to name a place in a message ("3:14: expected ..."). The language server converts offsets to its client's
position encoding at its edge (`lsp/positions.py`) on top of the same line starts.

A table can follow an edit without rescanning the text (`edited`): line starts before the edit stay,
those after it shift, and only the inserted text is scanned.
"""

from __future__ import annotations

from bisect import bisect_right

from ..errors import TextSpan


def _newlines(text: str, start: int, end: int, base: int) -> list[int]:
    """Offsets (plus `base`) just after each newline in text[start:end]."""
    out: list[int] = []
    find = text.find
    i = find("\n", start, end)
    while i >= 0:
        out.append(base + i + 1 - start)
        i = find("\n", i + 1, end)
    return out


class TextLines:
    """The line starts of one text (`starts[0] == 0`)."""

    __slots__ = ("starts", "length")

    def __init__(self, text: str | None = None, *, starts: list[int] | None = None,
                 length: int = 0) -> None:
        if text is not None:
            self.starts = [0, *_newlines(text, 0, len(text), 0)]
            self.length = len(text)
        else:
            self.starts = starts if starts is not None else [0]
            self.length = length

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_of(self, offset: int) -> int:
        return bisect_right(self.starts, offset) - 1

    def line_start(self, line: int) -> int:
        return self.starts[line]

    def line_end(self, line: int) -> int:
        """Offset of the line's newline (or of the end of the text on the last line)."""
        return self.starts[line + 1] - 1 if line + 1 < len(self.starts) else self.length

    def position(self, offset: int) -> tuple[int, int]:
        """0-based (line, column in characters) of a character offset."""
        line = bisect_right(self.starts, offset) - 1
        return line, offset - self.starts[line]

    def offset(self, line: int, column: int) -> int:
        """The offset of (line, column), clamped to the line and to the text."""
        if line >= len(self.starts):
            return self.length
        line = max(line, 0)
        return min(self.starts[line] + max(column, 0), self.line_end(line))

    def span(self, start: int, end: int) -> TextSpan:
        sl, sc = self.position(start)
        el, ec = self.position(end) if end != start else (sl, sc)
        return TextSpan(sl, sc, el, ec, start, end)

    def edited(self, start: int, end: int, inserted: str) -> TextLines:
        """The table of the text after replacing [start, end) by `inserted`."""
        starts = self.starts
        delta = len(inserted) - (end - start)
        lo = bisect_right(starts, start)  # starts[:lo] are at or before the edit: unchanged
        hi = bisect_right(starts, end)  # starts[hi:] come after the replaced text: shifted
        new = starts[:lo]
        new += _newlines(inserted, 0, len(inserted), start)
        new += [s + delta for s in starts[hi:]] if delta else starts[hi:]
        return TextLines(starts=new, length=self.length + delta)
