"""Large template entries and resource blobs an edited module no longer uses: the writer leaves them out.

In template mode every attribute and type entry of the original keeps its number, because the entries
copied verbatim (and opaque payloads) refer to each other by number.  A tensor constant whose op was
deleted, or whose value was replaced by a literal, would so stay in the file.  Here such entries are
found so the writer can write a stand-in of a few bytes at their number instead (`unit` or `none` as
a textual entry, which every reader accepts in any dialect's group and which nothing refers to).

An entry is dropped only when all of this holds, so that nothing still in use is ever lost:
* it is a payload (dense elements or array, string, a model's tensor constant) of `MIN_SIZE` bytes
  or more: weights, not the many small entries an edit leaves behind, which cost nothing;
* the template's own IR uses it (so an unchanged module, or one whose producer wrote an entry nothing
  references, is written byte for byte as before);
* nothing the edited module holds reaches it: the values of every op (attributes, properties, location,
  result and block argument types and locations), followed through the values they contain;
* the edited module holds no opaque payload (fallback properties, attributes or types): those refer to
  entries by number in ways no model describes, so then every entry stays.

Resource blobs likewise (the builtin dialect's, `dense_resource<key>`): a large blob the template's IR
uses and nothing in the edited module names (a `dense_resource` value, or one in the text of a textual
value) is written as a declaration without data, at its place (the template's entries refer to
resources by position, so none may move).  What upstream's writer does with a resource nothing uses is
leave it out altogether.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator

from ..ir.attributes import (
    DenseArrayAttr,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    DenseStringElementsAttr,
    DialectAttr,
    FallbackAttr,
    SparseElementsAttr,
    StringAttr,
)
from ..ir.module import RESOURCE_BLOB, Module, ResourceEntry, ResourceGroup
from ..ir.operation import PROPS_FALLBACK, Operation
from ..ir.structured import StructuredAttr
from ..ir.types import DialectType, FallbackType
from ..ir.walk import held_values, op_values
from .attrtypes import TableEntries
from .template import Template

MIN_SIZE = 1024
"""Entries and blobs from this size on are dropped when unused (the server's default elision threshold)."""
_PAYLOADS = (DenseElementsAttr, DenseStringElementsAttr, SparseElementsAttr, DenseArrayAttr, StringAttr,
             StructuredAttr)

STAND_IN = (b"unit\0", b"none\0")
"""The textual entry written in place of a dropped attribute and a dropped type."""

_CACHE = "unused.candidates"
_EDITED_IN_PLACE = "unused.edited_in_place"


class _Opaque(Exception):
    """The module holds an opaque payload: no entry may be dropped."""


def _op_roots(op: Operation) -> Iterator[object]:
    p = op.properties
    if p is not None and p.kind == PROPS_FALLBACK and p.raw is not None:
        raise _Opaque
    return op_values(op)


_RESOURCE_IN_TEXT = re.compile(r'dense_resource<\s*("[^"\\]*(?:\\.[^"\\]*)*"|[^>\s]+)\s*>')


def _reached(roots: Iterable[object], targets: set[int]) -> tuple[set[int], set[str]]:
    """Which of `targets` (ids) the values reachable from `roots` include, and the resource keys they
    name (a quoted key in a textual value is kept quoted: it then matches no key, which only keeps
    more); raises _Opaque on a fallback value."""
    seen: set[int] = set()
    hit: set[int] = set()
    keys: set[str] = set()
    stack = list(roots)
    while stack:
        v = stack.pop()
        i = id(v)
        if i in seen:
            continue
        seen.add(i)
        t = type(v)
        if t is FallbackAttr or t is FallbackType:
            raise _Opaque
        if i in targets:
            hit.add(i)
        if t is DenseResourceElementsAttr:
            keys.add(v.key)  # type: ignore[attr-defined]
        elif t is DialectAttr or t is DialectType:
            keys.update(m.group(1) for m in _RESOURCE_IN_TEXT.finditer(v.text))  # type: ignore[attr-defined]
        stack.extend(held_values(v))
    return hit, keys


def _module_reaches(module: Module, targets: set[int]) -> tuple[set[int], set[str]]:
    if module.root is None:
        return set(), set()
    return _reached((v for op in module.root.walk() for v in _op_roots(op)), targets)


def _blobs(module: Module) -> dict[str, ResourceEntry]:
    return {e.key: e for g in module.resources if g.is_dialect and g.name == "builtin" for e in g.entries
            if e.kind == RESOURCE_BLOB and e.blob is not None and len(e.blob) >= MIN_SIZE}


_Candidates = tuple[dict[int, tuple[int, int]], list[object], set[str]]


def _candidates(src: Template, template: Module) -> _Candidates:
    """The template's large entries its own IR uses: id(value) -> (kind, index), the values (kept
    alive so the ids stay valid), and the keys of the large blobs it uses.  Computed once per
    template."""
    cached = src.cache.get(_CACHE)
    if isinstance(cached, tuple):
        return cached
    found: dict[int, tuple[int, int]] = {}
    keep: list[object] = []
    for kind, entries in enumerate((src.attrs, src.types)):
        # (index, value, size) of the large entries: of a table of 100,000, found from its offsets
        rows = entries.sized(MIN_SIZE) if isinstance(entries, TableEntries) else \
            ((i, e.value, e.size) for i, e in enumerate(entries) if e.size >= MIN_SIZE)
        for i, value, _ in rows:
            if isinstance(value, _PAYLOADS) and \
                    (type(value) is not StructuredAttr or value.payload() is not None):
                found[id(value)] = (kind, i)
                keep.append(value)
    blobs = _blobs(template)
    keys: set[str] = set()
    if found or blobs:
        try:
            used, named = _module_reaches(template, set(found))
        except _Opaque:
            used, named = set(), set()
        found = {i: at for i, at in found.items() if i in used}
        keys = named & set(blobs)
    result = (found, keep, keys)
    src.cache[_CACHE] = result
    return result


class Unused:
    """What the writer may leave out of a template-mode write (see the module docstring)."""

    def __init__(self, attrs: set[int] | None = None, types: set[int] | None = None,
                 blobs: set[str] | None = None) -> None:
        self.entries: tuple[set[int], set[int]] = (attrs or set(), types or set())
        """(attribute numbers, type numbers) of the entries written as a stand-in."""
        self.blobs = blobs or set()
        """Keys of the builtin blobs written as declarations without data."""

    def resources(self, groups: list[ResourceGroup], named: Collection[str]) -> list[ResourceGroup]:
        """`groups` (as the writer plans them) with the unused blobs, unless `named` (the resources the
        writer's numbering saw referenced), as declarations without data."""
        drop = self.blobs - set(named)
        if not drop:
            return groups
        return [ResourceGroup(g.name, g.is_dialect, [
            ResourceEntry(e.key, RESOURCE_BLOB) if g.is_dialect and g.name == "builtin" and e.key in drop
            and e.kind == RESOURCE_BLOB else e for e in g.entries]) for g in groups]


def remember_template(src: Template, template: Module) -> None:
    """Before the decoded module `template` is changed in place (the Python API edits the IR it read):
    what its own IR uses is taken now, from the module as read, so that a write of the edited module
    (then both the template and the module written) can leave out what the edit no longer uses."""
    _candidates(src, template)
    src.cache[_EDITED_IN_PLACE] = True


def unused(src: Template, template: Module, module: Module) -> Unused:
    """What the writer may leave out when it writes `module` with `template` (the decoded original)."""
    if module is template and not src.cache.get(_EDITED_IN_PLACE):
        return Unused()  # the module as read uses what it uses
    found, _, keys = _candidates(src, template)
    if not (found or keys):
        return Unused()
    try:
        live, named = _module_reaches(module, set(found))
    except _Opaque:
        return Unused()
    out = Unused(blobs=keys - named)
    for i, (kind, index) in found.items():
        if i not in live:
            out.entries[kind].add(index)
    return out
