"""The two forms a dialect's attribute or type takes when no model structures it, shared by both kinds:
its exact text (`DialectText`: `DialectAttr`, `DialectType`) or its exact custom-encoded bytes
(`FallbackBytes`: `FallbackAttr`, `FallbackType`).

Each is a mixin before `Attribute`/`Type` in the bases; the class itself names its fields in `__slots__`
(`dialect_name` first), which the uniquer reads in order.
"""

from __future__ import annotations

from typing import Any, Self

from .digest import Bytes, frozen, payload_key
from .uniquer import unique


class DialectText:
    """A value known by its dialect and exact text: the text is the identity."""

    __slots__ = ()
    dialect_name: str
    text: str

    @classmethod
    def get(cls, dialect: str, text: str) -> Self:
        return unique(cls, (dialect, text))

    @property
    def dialect(self) -> str:
        return self.dialect_name


class FallbackBytes:
    """A value known by its dialect and exact encoding bytes (a view of the file when large), keyed in the
    uniquer by a sampled fingerprint of the bytes."""

    __slots__ = ()
    dialect_name: str
    data: Bytes

    @classmethod
    def get(cls, dialect: str, data: bytes | memoryview) -> Self:
        fields = (dialect, frozen(data))
        return unique(cls, fields, cls.key_fields(fields))

    @staticmethod
    def key_fields(fields: tuple[Any, ...]) -> tuple[Any, ...]:
        return (fields[0], payload_key(fields[1]))

    @property
    def dialect(self) -> str:
        return self.dialect_name
