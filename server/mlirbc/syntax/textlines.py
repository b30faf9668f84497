"""Where the lines of a text start: character offsets <-> (line, column) for messages to people.

Every layer works with character offsets; lines and columns (0-based, counted in characters) exist only
to name a place in a message ("3:14: expected ..."). The language server converts offsets to its client's
position encoding at its edge (`lsp/positions.py`) on top of the same line starts.

A table follows an edit without rescanning the text (`edited`), and without touching every line after
it: the line starts are kept in blocks of about `BLOCK` lines, each with its own shift, so an edit
rebuilds the blocks it falls in and moves the blocks after it by changing their shift (a keystroke in a
14 MB view costs microseconds, not a pass over its 400,000 lines).  Tables are immutable: an edit
returns a new table sharing the untouched blocks with the old one.
"""

from __future__ import annotations

from bisect import bisect_right

from ..errors import TextSpan

BLOCK = 1024
"""Lines per block when a table is built (an edit may leave a block shorter or up to twice as long)."""


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
    """The line starts of one text (the first line starts at 0)."""

    __slots__ = ("_blocks", "_shifts", "_bases", "_firsts", "length")

    def __init__(self, text: str | None = None, *, starts: list[int] | None = None,
                 length: int = 0) -> None:
        if text is not None:
            flat = [0, *_newlines(text, 0, len(text), 0)]
            length = len(text)
        else:
            flat = starts if starts is not None else [0]
        self._blocks = [flat[i:i + BLOCK] for i in range(0, len(flat), BLOCK)]
        """Line starts as they were when the block was made; add the block's shift."""
        self._shifts = [0] * len(self._blocks)
        self._bases = [b[0] for b in self._blocks]
        """The current start of each block's first line (for finding the block of an offset)."""
        self._firsts = list(range(0, len(flat), BLOCK))
        """The index of each block's first line."""
        self.length = length

    @property
    def starts(self) -> list[int]:
        """Every line start (a flat copy: for tests and small texts)."""
        return [s + shift for block, shift in zip(self._blocks, self._shifts, strict=True)
                for s in block]

    @property
    def line_count(self) -> int:
        return self._firsts[-1] + len(self._blocks[-1])

    def line_of(self, offset: int) -> int:
        b = bisect_right(self._bases, offset) - 1
        if b < 0:
            return -1
        return self._firsts[b] + bisect_right(self._blocks[b], offset - self._shifts[b]) - 1

    def line_start(self, line: int) -> int:
        b = bisect_right(self._firsts, line) - 1
        return self._blocks[b][line - self._firsts[b]] + self._shifts[b]

    def line_end(self, line: int) -> int:
        """Offset of the line's newline (or of the end of the text on the last line)."""
        return self.line_start(line + 1) - 1 if line + 1 < self.line_count else self.length

    def position(self, offset: int) -> tuple[int, int]:
        """0-based (line, column in characters) of a character offset."""
        line = self.line_of(offset)
        return line, offset - self.line_start(line)

    def offset(self, line: int, column: int) -> int:
        """The offset of (line, column), clamped to the line and to the text."""
        if line >= self.line_count:
            return self.length
        line = max(line, 0)
        return min(self.line_start(line) + max(column, 0), self.line_end(line))

    def span(self, start: int, end: int) -> TextSpan:
        sl, sc = self.position(start)
        el, ec = self.position(end) if end != start else (sl, sc)
        return TextSpan(sl, sc, el, ec, start, end)

    def edited(self, start: int, end: int, inserted: str) -> TextLines:
        """The table of the text after replacing [start, end) by `inserted`."""
        delta = len(inserted) - (end - start)
        lo = self.line_of(start) + 1  # lines before `lo` start at or before the edit: unchanged
        hi = self.line_of(end) + 1  # lines from `hi` on start after the replaced text: shifted
        count = self.line_count
        blocks, shifts, firsts = self._blocks, self._shifts, self._firsts
        b_lo = bisect_right(firsts, lo - 1) - 1
        b_hi = bisect_right(firsts, hi) - 1 if hi < count else len(blocks) - 1
        # The blocks the edit falls in, made again from their current starts.
        seg_first = firsts[b_lo]
        seg: list[int] = []
        for b in range(b_lo, b_hi + 1):
            shift = shifts[b]
            seg += [s + shift for s in blocks[b]] if shift else blocks[b]
        seg_lo, seg_hi = lo - seg_first, hi - seg_first
        made = seg[:seg_lo]
        made += _newlines(inserted, 0, len(inserted), start)
        made += [s + delta for s in seg[seg_hi:]] if delta else seg[seg_hi:]
        added = len(made) - len(seg)
        new_blocks = [made[i:i + BLOCK] for i in range(0, len(made), BLOCK)]
        out = TextLines.__new__(TextLines)
        after = b_hi + 1
        out._blocks = blocks[:b_lo] + new_blocks + blocks[after:]
        out._shifts = shifts[:b_lo] + [0] * len(new_blocks) + \
            ([s + delta for s in shifts[after:]] if delta else shifts[after:])
        out._bases = self._bases[:b_lo] + [b[0] for b in new_blocks] + \
            ([s + delta for s in self._bases[after:]] if delta else self._bases[after:])
        out._firsts = firsts[:b_lo] + list(range(seg_first, seg_first + len(made), BLOCK)) + \
            ([f + added for f in firsts[after:]] if added else firsts[after:])
        out.length = self.length + delta
        return out
