"""Names in the parts of a view the parser could not read, through a lexer index of that part."""

from __future__ import annotations

from ...view.edits import ViewState
from ...view.lexindex import LexIndex, LexName
from ..documents import View


def broken_index(view: View, state: ViewState, offset: int) -> LexIndex | None:
    """The lexer index of the innermost op at `offset` that did not parse (None when it did)."""
    spans = [s for s in state.map.broken_spans() if s.start <= offset <= s.end]
    if not spans:
        return None
    span = min(spans, key=lambda s: s.end - s.start)
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
