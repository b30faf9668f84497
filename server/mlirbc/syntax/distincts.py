"""The numbers of distinct attributes in one text (`distinct[N]<...>`): what N stands for.

A distinct attribute has no value that tells it apart from another of the same referenced value: its
identity is its own.  The IR keeps it as an `ident` (a decoded file's attribute-table index, or the number
a text gave it); MLIR's printer numbers distinct attributes of one print 0, 1, 2, ... in the order the
text first shows them (the AsmState's distinct-attribute counter: alias definitions before the module
count where they are printed, locations aliased after the module after it), and its parser takes the same
N in one text for the same attribute (an N met again with another referenced value is an error).

`DistinctIds` is that numbering for one text, both ways:

* printing: the printers write each attribute's `ident`; `renumber` rewrites the finished text piece by
  piece, giving each ident its number in order of first appearance (string literals skipped), and says
  where the text moved (for the source map); `idents` is then the ident of each number;
* reading: `resolve(N, referenced)` is the attribute `distinct[N]<referenced>` means: the one a view's
  numbering names (same ident, so the very attribute the file holds), the one N meant earlier in the text,
  or a new one whose ident no attribute of the file or of the numbering has.  A dialect value kept as text
  (no model reads it) holds its distinct attributes as text: the printer renumbers them with the others
  and `unnumber` gives the text back its idents.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from ..ir.attributes import Attribute, DistinctAttr

_DISTINCT = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"|(?<![\w$.\-])distinct\[(-?\d+)\](?=<)')
"""A string literal (skipped), or a distinct attribute's number."""
_KEYWORD = "distinct["

Moves = list[tuple[int, int]]
"""(offset, delta) in increasing offset order: everything at or after `offset` (in the text before the
change) moves by `delta`, on top of the moves before it."""


class DistinctMismatch(ValueError):
    """`distinct[N]<value>` where N stands for a distinct attribute of another referenced value."""

    def __init__(self, previous: Attribute) -> None:
        super().__init__("referenced attribute does not match previous definition")
        self.previous = previous


class DistinctIds:
    """What the numbers `distinct[N]` of one text stand for (see the module docstring)."""

    __slots__ = ("idents", "_number", "_seen", "_base", "fresh_base", "_known", "_lookup", "changed")

    def __init__(self, idents: Sequence[int] = (), fresh_base: int = 0,
                 lookup: Callable[[], dict[int, DistinctAttr]] | None = None) -> None:
        self.idents: list[int] = list(idents)
        """The ident of each number: `distinct[N]` is the attribute of ident `idents[N]`."""
        self._number: dict[int, int] = {ident: n for n, ident in enumerate(self.idents)}
        self._seen: dict[int, DistinctAttr] = {}
        """N -> the attribute it stands for, as this reading met it."""
        self._base: dict[int, DistinctAttr] = {}
        """N -> the attribute it stands for in the text this reading is a part of (`copy`)."""
        self.fresh_base = max(fresh_base, max(self.idents, default=-1) + 1)
        """A number N no numbering names gets the ident `fresh_base + N`: no attribute of the file (the
        template's table) nor of the numbering has it."""
        self._known: dict[int, DistinctAttr] | None = None
        self._lookup = lookup
        """The printed module's attributes by ident, made on first need (what the rest of the text holds,
        for a reading of one part of it)."""
        self.changed = False
        """This reading gave a number another referenced value than the rest of the text gives it: only
        a reading of the whole text can say whether that is an error."""

    def __len__(self) -> int:
        return len(self.idents)

    def copy(self, fresh_base: int = 0) -> DistinctIds:
        """The numbering of this text for a reading of one part of it (one op read again in place, an
        attribute looked up), which may add numbers of its own."""
        out = DistinctIds.__new__(DistinctIds)
        out.idents = list(self.idents)
        out._number = dict(self._number)
        out._seen = {}
        out._base = {**self._base, **self._seen}
        out.fresh_base = max(self.fresh_base, fresh_base)
        out._known = self._known
        out._lookup = self._lookup
        out.changed = False
        return out

    # -- printing -----------------------------------------------------------------------------------
    def number(self, ident: int) -> int:
        """The number of the attribute of `ident`: the next one the first time it is asked for."""
        n = self._number.get(ident)
        if n is None:
            n = self._number[ident] = len(self.idents)
            self.idents.append(ident)
        return n

    def renumber(self, text: str, at: int = 0, moves: Moves | None = None) -> str:
        """`text` (a piece of the view starting at offset `at` of the text as printed) with each distinct
        attribute's ident replaced by its number; each replacement that changes the length is added to
        `moves`.  Pieces are renumbered in text order; a string literal never spans two pieces."""
        if _KEYWORD not in text:
            return text
        out: list[str] = []
        done = 0
        find = text.find
        i = find(_KEYWORD)
        while i >= 0:
            ls = text.rfind("\n", 0, i) + 1
            le = find("\n", i)
            if le < 0:
                le = len(text)
            for m in _DISTINCT.finditer(text, ls, le):
                digits = m.group(1)
                if digits is None:
                    continue
                new = str(self.number(int(digits)))
                if new == digits:
                    continue
                s, e = m.span(1)
                out.append(text[done:s])
                out.append(new)
                done = e
                if moves is not None:
                    moves.append((at + e, len(new) - len(digits)))
            i = find(_KEYWORD, le)
        out.append(text[done:])
        return "".join(out)

    def numbered(self, text: str) -> str:
        """Text printed apart from the view (a value shown on hover) with the numbers the view gives its
        distinct attributes; an ident the view does not number stays as it is."""
        if _KEYWORD not in text:
            return text
        numbers = dict(self._number)
        for n, attr in (*self._base.items(), *self._seen.items()):
            numbers.setdefault(attr.ident, n)

        def number(m: re.Match[str]) -> str:
            digits = m.group(1)
            n = numbers.get(int(digits)) if digits is not None else None
            return m.group() if n is None else f"distinct[{n}]"

        return _DISTINCT.sub(number, text)

    # -- reading ------------------------------------------------------------------------------------
    def unnumber(self, text: str) -> str:
        """A dialect value's text kept as text (no model reads it): its `distinct[N]` back to the idents
        the printer renumbered, so that the value is the one it was (its text is its identity)."""
        if _KEYWORD not in text or not self.idents:
            return text
        idents = self.idents

        def back(m: re.Match[str]) -> str:
            digits = m.group(1)
            if digits is None or not digits.isdigit() or int(digits) >= len(idents):
                return m.group()
            return f"distinct[{idents[int(digits)]}]"

        return _DISTINCT.sub(back, text)

    def resolve(self, n: int, referenced: Attribute) -> DistinctAttr:
        """The attribute `distinct[n]<referenced>` is in this text (DistinctMismatch: n stands for one
        of another referenced value)."""
        seen = self._seen.get(n)
        if seen is not None:
            if seen.referenced is not referenced:
                raise DistinctMismatch(seen.referenced)
            return seen
        known = self._base.get(n)
        if known is None and n < len(self.idents):
            known = self._known_attrs().get(self.idents[n])
        if known is not None:
            if known.referenced is not referenced:
                self.changed = True
                raise DistinctMismatch(known.referenced)
            attr = known
        else:
            ident = self.idents[n] if n < len(self.idents) else self.fresh_base + n
            attr = DistinctAttr.get(ident, referenced)
        self._seen[n] = attr
        return attr

    def _known_attrs(self) -> dict[int, DistinctAttr]:
        if self._known is None:
            self._known = self._lookup() if self._lookup is not None else {}
            self._lookup = None
        return self._known


def parse_idents(words: Iterable[str]) -> list[int]:
    """The idents a view lists (`// mlirbc: distinct 380 381 ...`); ValueError names the bad one."""
    out: list[int] = []
    seen: set[int] = set()
    for w in words:
        try:
            ident = int(w)
        except ValueError:
            raise ValueError(f"'{w[:40]}' is not an integer") from None
        if ident in seen:
            raise ValueError(f"{ident} is listed twice")
        seen.add(ident)
        out.append(ident)
    return out
