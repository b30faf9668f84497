"""A cheap check of the JSON kinds of LSP params (object, array, string, number, boolean, null) against
their lsprotocol types, run before cattrs structures them.

cattrs takes any iterable for a `Sequence[...]` field and goes on past the first wrong element: a string or
an object where an array belongs is structured character by character or key by key, each failing on its
own (a 100,000-character `contentChanges` cost 3.2 s of CPU before its refusal), and so is a long array of
wrong elements.  This walk stops at the first value whose kind the declared type cannot hold and names its
field.  What it cannot classify (`LSPAny`, an object of a union of classes, a type it does not know) it
leaves to cattrs.
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, Literal, Union

import attrs

OBJECT, ARRAY, STRING, NUMBER, BOOLEAN, NULL = "object", "array", "string", "number", "boolean", "null"
_ANY = frozenset({OBJECT, ARRAY, STRING, NUMBER, BOOLEAN, NULL})


class _Shape:
    """What a declared type accepts: the JSON kinds, the attrs class an object is checked against (when
    exactly one), and the element shape of an array."""

    __slots__ = ("kinds", "cls", "element")

    def __init__(self, kinds: frozenset[str], cls: type | None = None, element: _Shape | None = None) -> None:
        self.kinds = kinds
        self.cls = cls
        self.element = element

    @property
    def deep(self) -> bool:
        """Whether values inside are checked: an object of a known class, an array of known elements."""
        return self.cls is not None or self.element is not None


_FREE = _Shape(_ANY)


def _kind(value: Any) -> str:
    """The JSON kind of a decoded value."""
    if isinstance(value, dict):
        return OBJECT
    if isinstance(value, list):
        return ARRAY
    if isinstance(value, str):
        return STRING
    if value is None:
        return NULL
    return BOOLEAN if isinstance(value, bool) else NUMBER


@cache
def _shape(tp: Any) -> _Shape:
    if tp is Any or isinstance(tp, typing.ForwardRef | str | typing.TypeVar):
        return _FREE
    if tp is str:
        return _Shape(frozenset({STRING}))
    if tp is bool:
        return _Shape(frozenset({BOOLEAN}))
    if tp in (int, float):
        return _Shape(frozenset({NUMBER}))
    if tp is type(None):
        return _Shape(frozenset({NULL}))
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _Shape(frozenset(_kind(m.value) for m in tp))
    if isinstance(tp, type) and attrs.has(tp):
        return _Shape(frozenset({OBJECT}), cls=tp)
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is Literal:
        return _Shape(frozenset(_kind(a) for a in args))
    if origin is Union or origin is types.UnionType:
        members = [_shape(a) for a in args]
        kinds = frozenset().union(*(m.kinds for m in members))
        classes = [m for m in members if OBJECT in m.kinds]
        arrays = [m for m in members if ARRAY in m.kinds]
        cls = classes[0].cls if len(classes) == 1 else None
        element = arrays[0].element if len(arrays) == 1 else None
        return _Shape(kinds, cls=cls, element=element)
    if origin in (list, tuple, Sequence, typing.Sequence) or (isinstance(origin, type)
                                                               and issubclass(origin, Sequence)
                                                               and not issubclass(origin, str)):
        element = _shape(args[0]) if len(args) == 1 else None
        return _Shape(frozenset({ARRAY}), element=element)
    if origin in (dict, Mapping) or (isinstance(origin, type) and issubclass(origin, Mapping)):
        return _Shape(frozenset({OBJECT}))
    return _FREE


@cache
def _fields(cls: type) -> tuple[tuple[str, _Shape], ...]:
    """(JSON name, shape) of every field of an attrs class worth checking."""
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # an unresolvable annotation: leave the class to cattrs
        return ()
    out = []
    for f in attrs.fields(cls):
        shape = _shape(hints.get(f.name, Any))
        if shape.kinds != _ANY or shape.deep:
            out.append((_json_name(f.name), shape))
    return tuple(out)


def _json_name(name: str) -> str:
    """lsprotocol's field name on the wire (`text_document` -> `textDocument`, `from_` -> `from`)."""
    head, *rest = name.removesuffix("_").split("_")
    return head + "".join(p.title() for p in rest)


_NAMES = {OBJECT: "an object", ARRAY: "an array", STRING: "a string", NUMBER: "a number",
          BOOLEAN: "a boolean", NULL: "null"}


def _expected(kinds: frozenset[str]) -> str:
    names = [_NAMES[k] for k in (OBJECT, ARRAY, STRING, NUMBER, BOOLEAN, NULL) if k in kinds]
    if len(names) < 2:
        return names[0] if names else "nothing"
    return ", ".join(names[:-1]) + " or " + names[-1]


def params_problem(message_type: type, params: Any) -> str | None:
    """`path: what is wrong` for the first value of `params` whose JSON kind the `params` field of
    `message_type` (an lsprotocol request or notification class) cannot hold, or None.

    Linear in the JSON values it visits (objects of known classes, arrays of known elements), without
    recursion; a path is only spelled out for the value it refuses."""
    fields = dict(_fields(message_type))
    shape = fields.get("params")
    if shape is None or shape.kinds == {NULL}:
        # A method without params (shutdown, exit): clients send null, nothing or `[]` (vscode-jsonrpc),
        # and none of them is worth refusing the request that stops the server.
        return None
    # (parent entry, key, value, shape): the path is rebuilt from the parents when something is wrong
    stack: list[tuple[Any, str | int, Any, _Shape]] = [(None, "params", params, shape)]
    while stack:
        entry = stack.pop()
        _, _, value, shape = entry
        kind = _kind(value)
        if kind not in shape.kinds:
            return _refusal(entry, kind, shape)
        if kind == OBJECT and shape.cls is not None:
            for name, sub in reversed(_fields(shape.cls)):  # (popped in the fields' order)
                if name in value:
                    stack.append((entry, name, value[name], sub))
        elif kind == ARRAY and shape.element is not None:
            # Every element's kind first (cattrs goes on past the first wrong one, failing on each),
            # then what is inside them.
            element = shape.element
            if element.kinds != _ANY:
                kinds = element.kinds
                for i, v in enumerate(value):
                    k = _kind(v)
                    if k not in kinds:
                        return _refusal((entry, i, v, element), k, element)
            if element.deep:
                stack.extend((entry, i, value[i], element) for i in range(len(value) - 1, -1, -1))
    return None


def _refusal(entry: tuple[Any, str | int, Any, _Shape], kind: str, shape: _Shape) -> str:
    keys: list[str | int] = []
    at: Any = entry
    while at is not None:
        keys.append(at[1])
        at = at[0]
    path = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in reversed(keys))[1:]
    return f"{path}: expected {_expected(shape.kinds)}, got {_NAMES[kind]}"
