"""Process-wide uniquing of attributes and types, so that equal values are the same object.

MLIR identifies attributes by their uniqued storage; the writer numbers them by identity. Interning every
attribute and type here gives Python the same property: the reader, the text parser and a model all get the
same object for the same value, `is` is equality, and hashing stays shallow (children hash by identity), which
keeps deep location chains cheap.  Entries vanish when nothing references them any more.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any, TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_table: weakref.WeakValueDictionary[tuple[Any, ...], Any] = weakref.WeakValueDictionary()


def unique(cls: type[T], fields: tuple[Any, ...]) -> T:
    """Return the one instance of `cls` with these field values, creating it on first use.

    `cls.__slots__` (without `__weakref__`) names the fields in order.
    """
    key = (cls, *fields)
    obj = _table.get(key)
    if obj is not None:
        return obj  # type: ignore[no-any-return]
    with _lock:
        obj = _table.get(key)
        if obj is None:
            obj = object.__new__(cls)
            slots: tuple[str, ...] = getattr(cls, "__slots__", ())
            for name, value in zip(slots, fields, strict=True):
                object.__setattr__(obj, name, value)
            _table[key] = obj
    return obj


class Uniqued:
    """Base of attributes and types: immutable, compared and hashed by identity."""

    __slots__ = ("__weakref__",)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self) -> Any:
        # Pickling (for worker processes) must re-intern on the other side.
        return (_reintern, (type(self), tuple(getattr(self, n) for n in type(self).__slots__)))


def _reintern(cls: type[T], fields: tuple[Any, ...]) -> T:
    return unique(cls, fields)
