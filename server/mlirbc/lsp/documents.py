"""What the server holds per bytecode file and per open view.

A `Decoded` file is the original bytes, the module its view shows (the decoded module, or a dialect-level
view of it: the StableHLO of a VHLO artifact, the decoded module then `file_module`) and the state of its
printed view (text and source map); it is shared by every view URI of the file.  A `View` is one open
document: its current text (kept here, edited in place by incremental changes), its line table, the state
of the last version that was analysed, and the last state that had a module (`good`), from which an edit
inside one op is re-read alone.  `dirty` says which part of `good.text` the current text may differ in.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from ..files.chunks import Chunks
from ..ir.module import Module
from ..models.registry import Registry
from ..models.views import ViewConversion
from ..syntax.textlines import TextLines
from ..view.edits import ViewState
from ..view.forms import Shown
from ..view.lexindex import LexIndex
from .positions import UTF16, PositionCodec


@dataclass
class Decoded:
    key: str
    data: bytes | memoryview
    """The file's bytes: a read-only view of its memory map (see `files.mapped`)."""
    module: Module
    """What the view shows: the decoded module, or a dialect-level view's IR of it (`file_module` is then
    the decoded one)."""
    state: ViewState
    """The printed view of `module`: its text, its source map, no diagnostics."""
    registry: Registry
    lines: TextLines
    mtime_ns: int = 0
    saved: tuple[str, Chunks] | None = None
    """The last view text saved over this file by `mlirbc/save`, with the bytes written (as `Chunks`:
    the elided values in them are views of the original's map, not copies)."""
    elide_larger_than: int = 0
    """The elision threshold the view was printed with."""
    extra: dict[str, object] = field(default_factory=dict)
    """Per-file state of features (the elided values' resolver and statistics)."""
    shown: Shown | None = None
    """How `module` came from the file: the form's choice, with the view's conversion when there is one."""

    @property
    def text(self) -> str:
        return self.state.text

    @property
    def file_module(self) -> Module:
        """The module decoded from the file (the template of every save)."""
        return self.shown.source if self.shown is not None else self.module

    @property
    def conversion(self) -> ViewConversion | None:
        """The dialect-level view's conversion when `module` is a view's IR, else None."""
        return self.shown.conversion if self.shown is not None else None


@dataclass
class View:
    uri: str
    key: str | None
    version: int
    text: str
    lines: TextLines
    encoding: str = UTF16
    state: ViewState | None = None
    state_version: int = -1
    good: ViewState | None = None
    dirty: tuple[int, int] | None = None
    """(start, tail): the text equals `good.text` except, at most, in good.text[start:len - tail]."""
    check_s: float = 0.0
    """How long the last check of this view took (a cheap one is not debounced)."""
    computing: tuple[int, asyncio.Future[ViewState | None]] | None = None
    """The version whose state is being computed, and its result to come."""
    changes: dict[str, int] = field(default_factory=lambda: {"ranged": 0, "whole": 0})
    """How the client sent its changes so far (incremental sync sends ranged ones)."""
    lex: dict[tuple[int, int], LexIndex] = field(default_factory=dict)
    """Indexes of the ranges of the current state that did not parse."""
    extra: dict[str, object] = field(default_factory=dict)
    """Per-view state of features (e.g. the graph's source map of the last state)."""

    @property
    def codec(self) -> PositionCodec:
        return PositionCodec(self.text, self.lines, self.encoding)

    def set_good(self, state: ViewState) -> None:
        self.good = state
        self.dirty = None

    def replace(self, start: int, end: int, new: str, version: int) -> None:
        """Apply one change: [start, end) of the current text becomes `new`."""
        old_len = len(self.text)
        # one join copies the text once more than its two slices; `a + b + c` copies the head twice
        self.text = "".join((self.text[:start], new, self.text[end:]))
        self._follow(start, end, new, old_len, version)

    def _follow(self, start: int, end: int, new: str, old_len: int, version: int) -> None:
        """The line table, version and dirty range after [start, end) of a text of `old_len`
        characters became `new` (the text itself is already set)."""
        self.lines = self.lines.edited(start, end, new)
        self.version = version
        self.lex = {}
        if self.good is None:
            return
        if self.dirty is None:
            lo, tail = start, old_len - end
        else:
            lo, tail = self.dirty
            lo, tail = min(lo, start), min(tail, old_len - end)
        self.dirty = (lo, tail)

    def set_text(self, text: str, version: int) -> None:
        """A whole-document change: the dirty part is what differs from the previous text."""
        old = self.text
        if text == old:
            self.version = version
            return
        start = common_prefix(old, text)
        tail = common_suffix(old, text, min(len(old), len(text)) - start)
        self.text = text  # the same string object the client sent: no splice, no copy kept
        self._follow(start, len(old) - tail, text[start:len(text) - tail], len(old), version)


_CHUNK = 1 << 16


def common_prefix(a: str, b: str) -> int:
    """Length of the longest common prefix, comparing in chunks (a 14 MB text in a few ms)."""
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i:i + _CHUNK] == b[i:i + _CHUNK]:
        i += _CHUNK
    if i >= n:
        return n
    lo, hi = i, min(i + _CHUNK, n)
    while lo < hi:  # the first difference is in [lo, hi)
        mid = (lo + hi) // 2
        if a[lo:mid + 1] == b[lo:mid + 1]:
            lo = mid + 1
        else:
            hi = mid
    return lo


def common_suffix(a: str, b: str, limit: int) -> int:
    """Length of the longest common suffix, at most `limit`."""
    la, lb = len(a), len(b)
    k = 0
    while k < limit and a[la - k - min(_CHUNK, limit - k):la - k] == \
            b[lb - k - min(_CHUNK, limit - k):lb - k]:
        k += min(_CHUNK, limit - k)
    if k >= limit:
        return limit
    lo, hi = k, min(k + _CHUNK, limit)
    while lo < hi:  # the suffix ends within (lo, hi]
        mid = (lo + hi + 1) // 2
        if a[la - mid:la - k] == b[lb - mid:lb - k]:
            lo = mid
        else:
            hi = mid - 1
    return lo
