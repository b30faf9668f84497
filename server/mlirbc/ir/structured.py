"""Structured dialect attributes and types: what a model decoded, kept as fields instead of text.

A `StructuredAttr` / `StructuredType` is a pair (kind, fields).  `kind` is the model object that owns one
attribute or type kind of a dialect (`vhlo.tensor_v1`, `sdy.sharding`, `llvm.di_file`): it names the
dialect and mnemonic and prints values of its kind.  `fields` are the decoded parameters, as plain hashable
Python values: ints, bools, bytes, str, None, attributes and types (by identity: they are uniqued), and
tuples of those.  Values are uniqued like every attribute and type, so the reader, the text parser and a
model get the same object for the same (kind, fields), and the writer numbers them by identity.

The IR layer only needs a kind to print (`ValueKind`); decoding, encoding and parsing are the models'
business (`models.kinds`).  A kind whose values carry a dense payload (a tensor constant) exposes it with
`payload(value)`, so that generic code (elision of large constants, hover) reaches the raw bytes and the
shaped type without knowing the dialect: see `StructuredAttr.payload`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias, runtime_checkable

from .attributes import Attribute
from .digest import LARGE, payload_key
from .types import Type
from .uniquer import unique

FieldValue: TypeAlias = (int | bool | bytes | memoryview | str | None | Attribute | Type
                         | tuple["FieldValue", ...])
"""What a structured value's fields may hold (all hashable; attributes and types compare by identity).
A memoryview is a read-only view of a mapped file (a tensor's data, `digest.frozen`): values holding one
are uniqued by a sampled key with content equality, never by hashing the whole payload."""


class ValueKind(Protocol):
    """The one thing the IR needs from the model owning a structured value: its names and its text."""

    dialect: str
    name: str
    """The mnemonic (`tensor_v1`) or another name unique within the dialect."""

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        """The full text of `value` (`#vhlo.integer_v1<0 : i32>`, `!vhlo.f32_v1`)."""
        ...


@dataclass(frozen=True)
class DensePayload:
    """The raw dense data a structured value carries, with the builtin shaped type that describes it.

    `data` is stored as MLIR's raw dense storage (little-endian, one element per ceil(bits/8) bytes, a splat
    stores one element; for i1, the encoding's own packing as `encoding` says); `field` is the index of the
    field holding the bytes, so a caller can rebuild the value with other data (`with_field`).
    """

    shaped_type: Type
    data: bytes | memoryview
    field: int
    encoding: str = "raw"
    """How `data` stores booleans: `raw` (one byte per element or a splat), or `vhlo-bool` (VHLO's
    bit-packing rule); other element types are always raw."""


@runtime_checkable
class PayloadKind(Protocol):
    """A kind whose values carry a dense payload (optional: `StructuredAttr.payload` asks for it)."""

    def payload(self, value: StructuredAttr) -> DensePayload | None: ...


@runtime_checkable
class ElidableKind(Protocol):
    """A payload kind whose values a text view may elide (`syntax.elision`): `print_elided` is the value's
    text with `elements` (an elements placeholder, `dense_resource<mlirbc.elided.SIZE.FP> : T` with T the
    payload's shaped type) in place of its data; the kind's parser must take that text back, resolving
    the placeholder with `syntax.elision.structured_scope` to the very value it stands for."""

    def print_elided(self, value: StructuredAttr, elements: str) -> str: ...


def _key_fields(fields: tuple[FieldValue, ...]) -> tuple[object, ...] | None:
    """The uniquer key of fields holding a large payload (see `FieldValue`), None when none does."""
    if not any(isinstance(f, bytes | memoryview) and len(f) >= LARGE for f in fields):
        return None
    return tuple(payload_key(f) if isinstance(f, bytes | memoryview) else f for f in fields)


class StructuredAttr(Attribute):
    """A dialect attribute decoded into fields by the model `kind` (see module docstring)."""

    __slots__ = ("kind", "fields")
    kind: ValueKind
    fields: tuple[FieldValue, ...]

    @classmethod
    def get(cls, kind: ValueKind, fields: tuple[FieldValue, ...]) -> StructuredAttr:
        both = (kind, tuple(fields))
        return unique(cls, both, cls.key_fields(both))

    @staticmethod
    def key_fields(both: tuple[Any, ...]) -> tuple[Any, ...] | None:
        """The uniquer key of (kind, fields): large payloads by a sampled key (see `FieldValue`)."""
        key = _key_fields(both[1])
        return None if key is None else (both[0], key)

    def __reduce__(self) -> Any:
        # Pickling (worker processes) copies a mapped payload into bytes; the other side re-interns.
        fields = tuple(bytes(f) if isinstance(f, memoryview) else f for f in self.fields)
        return (StructuredAttr.get, (self.kind, fields))

    @property
    def dialect(self) -> str:
        return self.kind.dialect

    @property
    def mnemonic(self) -> str:
        return self.kind.name

    def with_field(self, index: int, value: FieldValue) -> StructuredAttr:
        """The same kind with one field replaced."""
        fields = list(self.fields)
        fields[index] = value
        return StructuredAttr.get(self.kind, tuple(fields))

    def payload(self) -> DensePayload | None:
        """The dense data this value carries (a tensor constant), or None."""
        # what `isinstance(kind, PayloadKind)` asks (its one method), without a runtime protocol check:
        # that costs more than the rest of a small view's constant conversion
        payload = getattr(self.kind, "payload", None)
        return payload(self) if payload is not None else None

    def __repr__(self) -> str:
        return f"StructuredAttr({self.kind.dialect}.{self.kind.name}, {len(self.fields)} fields)"


class StructuredType(Type):
    """A dialect type decoded into fields by the model `kind`."""

    __slots__ = ("kind", "fields")
    kind: ValueKind
    fields: tuple[FieldValue, ...]

    @classmethod
    def get(cls, kind: ValueKind, fields: tuple[FieldValue, ...] = ()) -> StructuredType:
        return unique(cls, (kind, tuple(fields)))

    @property
    def dialect(self) -> str:
        return self.kind.dialect

    @property
    def mnemonic(self) -> str:
        return self.kind.name

    def with_field(self, index: int, value: FieldValue) -> StructuredType:
        fields = list(self.fields)
        fields[index] = value
        return StructuredType.get(self.kind, tuple(fields))

    def __repr__(self) -> str:
        return f"StructuredType({self.kind.dialect}.{self.kind.name}, {len(self.fields)} fields)"
