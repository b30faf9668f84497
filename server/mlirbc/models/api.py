"""What a model is: the interfaces between dialect models and the bytecode reader/writer.

A model never sees the file: it reads and writes through `EntryReader`/`EntryWriter`, the same primitives a
dialect's bytecode interface uses upstream (varints, attribute/type/string references, raw bytes).
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from ..ir.attributes import Attribute
from ..ir.types import Type


class EntryReader(Protocol):
    """Reads one properties payload or one custom attribute/type encoding."""

    version: int
    """The bytecode version of the file."""

    def varint(self) -> int: ...
    def signed_varint(self) -> int: ...
    def byte(self) -> int: ...
    def bytes(self, n: int) -> memoryview: ...
    def blob(self) -> memoryview: ...
    def attr(self) -> Attribute: ...
    def optional_attr(self) -> Attribute | None: ...
    def type(self) -> Type: ...
    def string(self) -> builtins.bytes: ...  # (`bytes` is a method name here)
    def sparse_array(self) -> list[int]: ...
    def at_end(self) -> bool: ...


class EntryWriter(Protocol):
    """Writes one properties payload or one custom attribute/type encoding."""

    version: int

    def varint(self, v: int) -> None: ...
    def signed_varint(self, v: int) -> None: ...
    def byte(self, b: int) -> None: ...
    def raw(self, data: bytes | memoryview) -> None: ...
    def blob(self, data: bytes | memoryview) -> None: ...
    def attr(self, a: Attribute) -> None: ...
    def optional_attr(self, a: Attribute | None) -> None: ...
    def type(self, t: Type) -> None: ...
    def string(self, s: bytes) -> None: ...
    def sparse_array(self, values: list[int]) -> None: ...


class ModelError(Exception):
    """A model cannot decode or encode something; the caller turns the item into a fallback."""


@dataclass
class OpInfo:
    """What hover and completion say about an op; every field is optional."""

    name: str
    summary: str = ""
    description: str = ""
    operands: list[str] = field(default_factory=list)
    results: list[str] = field(default_factory=list)
    attributes: list[str] = field(default_factory=list)
    regions: list[str] = field(default_factory=list)
    isolated_from_above: bool = False
    successors: list[str] = field(default_factory=list)
    defaults: dict[str, str] = field(default_factory=dict)
    """Attribute name -> MLIR text of its ODS default, for default-valued attributes (hover only)."""


def isolated_from_above(model: OpModel | None) -> bool:
    """Whether `model` says its op's regions are isolated from above (names inside do not see names
    outside); False without a model, or when a plugin's model cannot say."""
    if model is None:
        return False
    try:
        return bool(model.info().isolated_from_above)
    except Exception:  # a plugin's model without that information; upstream's trait is static
        return False


class OpModel(Protocol):
    """Knows one op: how its properties are laid out, and what to say about it."""

    name: str
    """Full op name, e.g. `arith.constant`."""

    def info(self) -> OpInfo: ...

    def has_properties(self) -> bool: ...

    def decode_properties(self, r: EntryReader) -> dict[str, Attribute]:
        """Decode a payload into named fields in print order; raise ModelError if it does not fit."""
        ...

    def encode_properties(self, values: dict[str, Attribute], w: EntryWriter) -> None:
        """Write named fields back; raise ModelError if they do not fit the layout."""
        ...


class AttrTypeCodec(Protocol):
    """Decodes and encodes one dialect's custom attribute/type encodings.

    Decoded values are usually `DialectAttr`/`DialectType` carrying the dialect's canonical text, so that the
    text parser finds the same object; `encode_*` gets them back and writes the binary form, or returns
    False to let the writer store the text form instead.
    """

    dialect: str

    def decode_attribute(self, r: EntryReader) -> Attribute: ...
    def decode_type(self, r: EntryReader) -> Type: ...
    def encode_attribute(self, a: Attribute, w: EntryWriter) -> bool: ...
    def encode_type(self, t: Type, w: EntryWriter) -> bool: ...


@runtime_checkable
class ProducerAware(Protocol):
    """A codec or op provider that can say why a file's producer may hold parts it does not know (the
    reader appends this to a fallback's reason, e.g. "the file targets StableHLO 1.21.0, newer than ...")."""

    def producer_note(self, producer: str) -> str: ...


def producer_note(model: object, producer: str) -> str:
    """`model.producer_note(producer)` when the model has one, else ""; never raises."""
    # The method looked up, not `isinstance(model, ProducerAware)`: a runtime protocol check walks the
    # protocol's members on every call (the reader asks per dialect attribute and type it decodes).
    note = getattr(model, "producer_note", None)
    if note is None:
        return ""
    try:
        return str(note(producer))
    except Exception:  # a plugin's bug must not break reading
        return ""


@runtime_checkable
class ProducerScoped(Protocol):
    """A codec that only knows some producers' encodings (a model set for MLIR 22 must not read what MLIR 24
    writes the same dialect's attributes as): the reader keeps other producers' entries as fallbacks."""

    def accepts_producer(self, producer: str) -> bool: ...


def accepts_producer(model: object, producer: str) -> bool:
    """`model.accepts_producer(producer)`, True for a model without that method; never raises."""
    accepts = getattr(model, "accepts_producer", None)  # as in `producer_note`
    if accepts is None:
        return True
    try:
        return bool(accepts(producer))
    except Exception:  # a plugin's bug means: do not trust it with this file
        return False


def mlir_major(producer: str) -> int | None:
    """The MLIR major version an `MLIR<major>...` producer string names (None for other producers)."""
    import re

    m = re.match(r"MLIR(\d+)", producer)
    return int(m.group(1)) if m else None


def up_to_mlir(major: int) -> Callable[[str], bool]:
    """A producer test for a model set that knows the encodings MLIR up to `major` writes: producers naming
    a newer MLIR are refused, others (no MLIR version in the string) accepted."""

    def accepts(producer: str) -> bool:
        found = mlir_major(producer)
        return found is None or found <= major

    return accepts
