"""The shape of an affine map kept as text (`affine_map<(d0, d1)[s0] -> (d0 + s0, d1)>`): how many
dimensions, symbols and results it has, which is all the verifiers ask of one."""

from __future__ import annotations

from dataclasses import dataclass

from ..ir.attributes import Attribute, DialectAttr


@dataclass(frozen=True)
class MapShape:
    dims: int
    symbols: int
    results: int


def _items(text: str) -> int:
    """How many comma-separated items a parenthesised list holds (nested brackets kept whole)."""
    body = text.strip()
    if not body:
        return 0
    depth, n = 0, 1
    for ch in body:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        elif ch == "," and depth == 0:
            n += 1
    return n


def _group(text: str, at: int, open_ch: str, close_ch: str) -> tuple[str, int] | None:
    """The text inside the bracket group starting at `at` (which must be `open_ch`), and the index after."""
    if at >= len(text) or text[at] != open_ch:
        return None
    depth = 0
    for i in range(at, len(text)):
        if text[i] == open_ch:
            depth += 1
        elif text[i] == close_ch:
            depth -= 1
            if depth == 0:
                return text[at + 1:i], i + 1
    return None


def set_shape(a: Attribute | None) -> MapShape | None:
    """The dimensions and symbols of an `affine_set<...>` attribute (`results`: its constraints)."""
    if not isinstance(a, DialectAttr) or not a.text.startswith("affine_set<") or not a.text.endswith(">"):
        return None
    body = a.text[len("affine_set<"):-1].strip()
    dims = _group(body, 0, "(", ")")
    if dims is None:
        return None
    rest = body[dims[1]:].lstrip()
    syms = 0
    if rest.startswith("["):
        group = _group(rest, 0, "[", "]")
        if group is None:
            return None
        syms = _items(group[0])
        rest = rest[group[1]:].lstrip()
    if not rest.startswith(":"):
        return None
    cons = _group(rest[1:].lstrip(), 0, "(", ")")
    return None if cons is None else MapShape(_items(dims[0]), syms, _items(cons[0]))


def map_shape(a: Attribute | None) -> MapShape | None:
    """The shape of an `affine_map<...>` attribute (None for anything else, or text this cannot read)."""
    if not isinstance(a, DialectAttr) or not a.text.startswith("affine_map<") or not a.text.endswith(">"):
        return None
    body = a.text[len("affine_map<"):-1].strip()
    dims = _group(body, 0, "(", ")")
    if dims is None:
        return None
    rest = body[dims[1]:].lstrip()
    syms = 0
    if rest.startswith("["):
        group = _group(rest, 0, "[", "]")
        if group is None:
            return None
        syms = _items(group[0])
        rest = rest[group[1]:].lstrip()
    if not rest.startswith("->"):
        return None
    rest = rest[2:].lstrip()
    results = _group(rest, 0, "(", ")")
    if results is None or rest[results[1]:].strip():
        return None
    return MapShape(_items(dims[0]), syms, _items(results[0]))
