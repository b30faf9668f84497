"""The attributes and types IR objects hold: one walk for every pass that looks for values (elision of
large values, dropping table entries nothing uses any more, the distinct attributes of a view).

Attribute and type classes keep what they hold in `__slots__`, directly or in (nested) tuples; an op holds
values in its attribute dictionary, properties, location, result types and its blocks' arguments.
"""

from __future__ import annotations

from collections.abc import Iterator

from .attributes import Attribute, DistinctAttr
from .operation import PROPS_ATTRIBUTE, PROPS_DECODED, Operation
from .types import Type


def held_values(node: object) -> Iterator[Attribute | Type]:
    """The attributes and types `node` holds directly (its slots, tuples followed)."""
    for name in getattr(type(node), "__slots__", ()):
        if name == "__weakref__":
            continue
        stack = [getattr(node, name, None)]
        while stack:
            v = stack.pop()
            if isinstance(v, tuple):
                stack.extend(reversed(v))
            elif isinstance(v, Attribute | Type):
                yield v


def op_values(op: Operation) -> Iterator[object]:
    """The values `op` itself holds (not those of the ops in its regions); properties kept verbatim
    (a fallback's payload) are bytes, not values: callers that must know of them look at
    `op.properties` themselves."""
    if op.attributes is not None:
        yield op.attributes
    p = op.properties
    if p is not None:
        if p.kind == PROPS_DECODED:
            yield from p.values.values()
        elif p.kind == PROPS_ATTRIBUTE and p.attribute is not None:
            yield p.attribute
    yield op.location
    for r in op.results:
        yield r.type
    for region in op.regions:
        for block in region.blocks:
            for a in block.arguments:
                yield a.type
                yield a.location


def distinct_attributes(root: Operation) -> dict[int, DistinctAttr]:
    """The distinct attributes the ops under `root` (included) hold, anywhere inside their values, by
    ident."""
    out: dict[int, DistinctAttr] = {}
    seen: set[int] = set()
    for op in root.walk():
        stack = [v for v in op_values(op) if isinstance(v, Attribute | Type)]
        while stack:
            v = stack.pop()
            if id(v) in seen:
                continue
            seen.add(id(v))
            if isinstance(v, DistinctAttr):
                out.setdefault(v.ident, v)
            stack.extend(held_values(v))
    return out
