"""Names in the parts of a view the parser could not read, through a lexer index of that part."""

from __future__ import annotations

from ...view.edits import ViewState
from ...view.lexindex import LexIndex, LexName
from ..documents import View

MAX_LEXED = 4_000_000
"""The largest text a lexer index is built for (a top-level op around text that does not parse)."""


def broken_index(view: View, state: ViewState, offset: int) -> LexIndex | None:
    """A lexer index around `offset` when it lies in an op the parser could not read (None when it
    does not): of the whole top-level op holding it, so that names defined before the broken op in the
    same function resolve too."""
    if not any(s.start <= offset <= s.end for s in state.map.broken_spans()):
        return None
    spans = [span for _, span in state.map.enclosing(offset)]
    span = spans[-2] if len(spans) >= 2 else spans[-1] if spans else None
    if span is None or span.end - span.start > MAX_LEXED:
        return None
    key = (span.start, span.end)
    index = view.lex.get(key)
    if index is None:
        index = view.lex[key] = LexIndex(state.text, span.start, span.end)
    return index


def lex_name_at(view: View, state: ViewState, offset: int) -> tuple[LexIndex, LexName] | None:
    index = broken_index(view, state, offset)
    if index is None:
        return None
    name = index.at(offset)
    return (index, name) if name is not None else None
