"""Process-wide uniquing of attributes and types, so that equal values are the same object.

MLIR identifies attributes by their uniqued storage; the writer numbers them by identity. Interning every
attribute and type here gives Python the same property: the reader, the text parser and a model all get the
same object for the same value, `is` is equality, and hashing stays shallow (children hash by identity), which
keeps deep location chains cheap.  Entries vanish when nothing references them any more.
"""

from __future__ import annotations

import sys
import threading
import weakref
from typing import Any, TypeVar

T = TypeVar("T")

# Re-entrant: a dead reference's callback can run (garbage collection) while this thread holds the lock.
_lock = threading.RLock()


class _KeyedRef(weakref.ref[Any]):
    """A weak reference that knows its table key, so the entry can go when the object does.

    No Python-level `__new__`/`__init__`: creating one is a C call plus one slot store (the uniquer
    creates one per attribute and type, hundreds of thousands for a large file)."""

    __slots__ = ("key",)
    key: tuple[Any, ...]


# A plain dict of keyed weak references: the same behaviour as weakref.WeakValueDictionary without its
# Python-level method calls, which dominated decoding and parsing of large files.
_table: dict[tuple[Any, ...], _KeyedRef] = {}
_slots: dict[type, tuple[str, ...]] = {}
_new = object.__new__
_finalizing = sys.is_finalizing
_set = object.__setattr__


def _forget(ref: _KeyedRef) -> None:
    # Only drop the entry if it still holds this (dead) reference: a new object may have replaced it.
    # At interpreter exit a daemon thread may have been frozen holding the lock: the table dies with the
    # process, and waiting for the lock there never ends.  Only `with` takes the lock here: a job's abort
    # (an asynchronous exception) may fire in this callback, and between a bare `acquire()` and its `try`
    # it would leave the lock held for ever (tests/test_uniquer_aborts.py).
    if _table.get(ref.key) is ref and not _finalizing():
        with _lock:
            if _table.get(ref.key) is ref:
                del _table[ref.key]


def unique(cls: type[T], fields: tuple[Any, ...], key_fields: tuple[Any, ...] | None = None) -> T:
    """Return the one instance of `cls` with these field values, creating it on first use.

    `cls.__slots__` (without `__weakref__`) names the fields in order.  `key_fields`, when given, stands
    for `fields` in the table (equal exactly when the fields are): large payloads are keyed by a sampled
    fingerprint with content equality instead of being hashed whole (see `digest.payload_key`).
    """
    key = (cls, *(fields if key_fields is None else key_fields))
    ref = _table.get(key)
    if ref is not None:
        obj = ref()
        if obj is not None:
            return obj  # type: ignore[no-any-return]
    names = _slots.get(cls)
    if names is None:
        names = _slots[cls] = tuple(getattr(cls, "__slots__", ()))
    if len(names) != len(fields):
        raise TypeError(f"{cls.__name__} has {len(names)} fields, got {len(fields)}")
    obj = _new(cls)
    for name, value in zip(names, fields):  # noqa: B905  (lengths checked above)
        _set(obj, name, value)
    new = _KeyedRef(obj, _forget)
    new.key = key
    # `setdefault` is atomic: of two threads creating the same value, one inserts and both return its
    # object, without a lock on this path (it runs once per new attribute or type).
    ref = _table.setdefault(key, new)
    if ref is new:
        return obj
    other = ref()
    if other is not None:
        return other  # type: ignore[no-any-return]
    # The table holds a dead reference whose callback has not removed it yet: replace it, serialised
    # with `_forget` so that neither undoes the other.
    with _lock:
        ref = _table.get(key)
        other = ref() if ref is not None else None
        if other is not None:
            return other  # type: ignore[no-any-return]
        _table[key] = new
    return obj


class Uniqued:
    """Base of attributes and types: immutable, compared and hashed by identity."""

    __slots__ = ("__weakref__",)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self) -> Any:
        # Pickling (for worker processes) must re-intern on the other side.
        fields = tuple(bytes(v) if isinstance(v, memoryview) else v
                       for v in (getattr(self, n) for n in type(self).__slots__))
        return (_reintern, (type(self), fields))


def _reintern(cls: type[T], fields: tuple[Any, ...]) -> T:
    keyed = getattr(cls, "key_fields", None)  # payload classes key large data by fingerprint
    return unique(cls, fields, keyed(fields) if keyed is not None else None)
