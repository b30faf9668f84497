"""Builtin attributes (locations included) and the two forms a dialect attribute can take.

Every attribute is uniqued (see `uniquer`), so `is` compares values.  Construct them with `get`.
Integer and float payloads are kept as raw bit patterns so that nothing is lost or rounded.
"""

from __future__ import annotations

from typing import Any

from .digest import Bytes, frozen, payload_key
from .opaque import DialectText, FallbackBytes
from .types import NoneType, Type
from .uniquer import Uniqued, unique


class Attribute(Uniqued):
    """Base of all attributes."""

    __slots__ = ()

    @property
    def dialect(self) -> str:
        return "builtin"


class LocationAttr(Attribute):
    """Base of the location attributes."""

    __slots__ = ()


class ArrayAttr(Attribute):
    __slots__ = ("elements",)
    elements: tuple[Attribute, ...]

    @classmethod
    def get(cls, elements: tuple[Attribute, ...]) -> ArrayAttr:
        return unique(cls, (tuple(elements),))


class StringAttr(Attribute):
    """A string (arbitrary bytes); `type` is NoneType for the common untyped form."""

    __slots__ = ("value", "type")
    value: bytes
    type: Type

    @classmethod
    def get(cls, value: bytes | str, type: Type | None = None) -> StringAttr:
        if isinstance(value, str):
            value = value.encode("utf-8", "surrogateescape")
        return unique(cls, (bytes(value), type if type is not None else NoneType.get()))

    @property
    def text(self) -> str:
        return self.value.decode("utf-8", "surrogateescape")


class DictionaryAttr(Attribute):
    """Named attributes in stored order (MLIR keeps them sorted by name)."""

    __slots__ = ("entries",)
    entries: tuple[tuple[StringAttr, Attribute], ...]

    @classmethod
    def get(cls, entries: tuple[tuple[StringAttr, Attribute], ...]) -> DictionaryAttr:
        return unique(cls, (tuple(entries),))

    def lookup(self, name: str) -> Attribute | None:
        key = name.encode("utf-8", "surrogateescape")
        for k, v in self.entries:
            if k.value == key:
                return v
        return None


class FlatSymbolRefAttr(Attribute):
    __slots__ = ("root",)
    root: StringAttr

    @classmethod
    def get(cls, root: StringAttr) -> FlatSymbolRefAttr:
        return unique(cls, (root,))


class SymbolRefAttr(Attribute):
    __slots__ = ("root", "nested")
    root: StringAttr
    nested: tuple[FlatSymbolRefAttr, ...]

    @classmethod
    def get(cls, root: StringAttr, nested: tuple[FlatSymbolRefAttr, ...]) -> SymbolRefAttr:
        return unique(cls, (root, tuple(nested)))


class TypeAttr(Attribute):
    __slots__ = ("type",)
    type: Type

    @classmethod
    def get(cls, type: Type) -> TypeAttr:
        return unique(cls, (type,))


class UnitAttr(Attribute):
    __slots__ = ()

    @classmethod
    def get(cls) -> UnitAttr:
        return unique(cls, ())


class IntegerAttr(Attribute):
    """`bits` is the value's two's-complement bit pattern, 0 <= bits < 2**width (index: width 64)."""

    __slots__ = ("type", "bits")
    type: Type
    bits: int

    @classmethod
    def get(cls, type: Type, bits: int) -> IntegerAttr:
        return unique(cls, (type, bits))


class FloatAttr(Attribute):
    """`bits` is the IEEE bit pattern of the value in the type's float semantics."""

    __slots__ = ("type", "bits")
    type: Type
    bits: int

    @classmethod
    def get(cls, type: Type, bits: int) -> FloatAttr:
        return unique(cls, (type, bits))


class DenseArrayAttr(Attribute):
    """`array<T: ...>`: raw storage, one byte per i1 element, little-endian otherwise.

    `data` of a large array read from a file is a read-only view of the file (see `digest.frozen`)."""

    __slots__ = ("element_type", "count", "data")
    element_type: Type
    count: int
    data: Bytes

    @classmethod
    def get(cls, element_type: Type, count: int, data: bytes | memoryview) -> DenseArrayAttr:
        fields = (element_type, count, frozen(data))
        return unique(cls, fields, cls.key_fields(fields))

    @staticmethod
    def key_fields(fields: tuple[Any, ...]) -> tuple[Any, ...]:
        return (*fields[:-1], payload_key(fields[-1]))


class DenseElementsAttr(Attribute):
    """DenseIntOrFPElementsAttr: `data` is the bytecode blob (i1 bit-packed; a splat stores one element).

    `data` of a large tensor read from a file is a read-only view of the file, never a copy."""

    __slots__ = ("type", "data")
    type: Type
    data: Bytes

    @classmethod
    def get(cls, type: Type, data: bytes | memoryview) -> DenseElementsAttr:
        fields = (type, frozen(data))
        return unique(cls, fields, cls.key_fields(fields))

    @staticmethod
    def key_fields(fields: tuple[Any, ...]) -> tuple[Any, ...]:
        return (fields[0], payload_key(fields[1]))


class DenseStringElementsAttr(Attribute):
    __slots__ = ("type", "splat", "strings")
    type: Type
    splat: bool
    strings: tuple[bytes, ...]

    @classmethod
    def get(cls, type: Type, splat: bool, strings: tuple[bytes, ...]) -> DenseStringElementsAttr:
        return unique(cls, (type, splat, tuple(strings)))


class DenseResourceElementsAttr(Attribute):
    """`dense_resource<key> : type`: the data lives in the builtin dialect's resource group."""

    __slots__ = ("type", "key")
    type: Type
    key: str

    @classmethod
    def get(cls, type: Type, key: str) -> DenseResourceElementsAttr:
        return unique(cls, (type, key))


class SparseElementsAttr(Attribute):
    __slots__ = ("type", "indices", "values")
    type: Type
    indices: Attribute
    values: Attribute

    @classmethod
    def get(cls, type: Type, indices: Attribute, values: Attribute) -> SparseElementsAttr:
        return unique(cls, (type, indices, values))


class DistinctAttr(Attribute):
    """`distinct[ident]<referenced>`: `ident` keeps distinct attributes of one file apart."""

    __slots__ = ("ident", "referenced")
    ident: int
    referenced: Attribute

    @classmethod
    def get(cls, ident: int, referenced: Attribute) -> DistinctAttr:
        return unique(cls, (ident, referenced))


class UnknownLoc(LocationAttr):
    __slots__ = ()

    @classmethod
    def get(cls) -> UnknownLoc:
        return unique(cls, ())


class FileLineColLoc(LocationAttr):
    """`"file":line:col`, the two-number form (bytecode code 11)."""

    __slots__ = ("filename", "line", "column")
    filename: StringAttr
    line: int
    column: int

    @classmethod
    def get(cls, filename: StringAttr, line: int, column: int) -> FileLineColLoc:
        return unique(cls, (filename, line, column))


class FileLineColRange(LocationAttr):
    """Any other file range (bytecode code 22): `numbers` holds the 0-4 stored numbers."""

    __slots__ = ("filename", "numbers")
    filename: StringAttr
    numbers: tuple[int, ...]

    @classmethod
    def get(cls, filename: StringAttr, numbers: tuple[int, ...]) -> FileLineColRange:
        return unique(cls, (filename, tuple(numbers)))


class NameLoc(LocationAttr):
    __slots__ = ("name", "child")
    name: StringAttr
    child: Attribute

    @classmethod
    def get(cls, name: StringAttr, child: Attribute) -> NameLoc:
        return unique(cls, (name, child))


class CallSiteLoc(LocationAttr):
    __slots__ = ("callee", "caller")
    callee: Attribute
    caller: Attribute

    @classmethod
    def get(cls, callee: Attribute, caller: Attribute) -> CallSiteLoc:
        return unique(cls, (callee, caller))


class FusedLoc(LocationAttr):
    __slots__ = ("locations", "metadata")
    locations: tuple[Attribute, ...]
    metadata: Attribute | None

    @classmethod
    def get(cls, locations: tuple[Attribute, ...], metadata: Attribute | None = None) -> FusedLoc:
        return unique(cls, (tuple(locations), metadata))


def fuse_locations(locations: tuple[Attribute, ...] | list[Attribute],
                   metadata: Attribute | None) -> Attribute:
    """Upstream's `FusedLoc::get(locs, metadata, context)`: nested fusions with the same metadata are
    flattened, unknowns and duplicates dropped; no location left gives `unknown` (or `[unknown]` with
    metadata), one location without metadata is that location.

    Upstream's text parser always builds fused locations this way, and so does its bytecode reader for a
    fused location without metadata (which aborts when the result is not a fused location); a fused
    location with metadata is read from bytecode exactly as stored."""
    out: dict[Attribute, None] = {}
    for loc in locations:
        if isinstance(loc, FusedLoc) and loc.metadata is metadata:
            for inner in loc.locations:
                out[inner] = None
        elif not isinstance(loc, UnknownLoc):
            out[loc] = None
    locs = tuple(out)
    if not locs:
        if metadata is None:
            return UnknownLoc.get()
        return FusedLoc.get((UnknownLoc.get(),), metadata)
    if len(locs) == 1 and metadata is None:
        return locs[0]
    return FusedLoc.get(locs, metadata)


class DialectAttr(DialectText, Attribute):
    """An attribute known by its exact text (`#arith.overflow<none>`, `affine_map<...>`, a model's print).

    Used for entries stored in textual form and for model-decoded dialect attributes: the text is the
    identity, so the text parser finds the same object again without understanding the dialect.
    """

    __slots__ = ("dialect_name", "text")


class FallbackAttr(FallbackBytes, Attribute):
    """A custom-encoded attribute that no model decodes: its dialect and the exact encoding bytes (a view
    of the file when large: a VHLO tensor constant of a JAX export is such a payload)."""

    __slots__ = ("dialect_name", "data")


def is_location(a: Attribute) -> bool:
    """Whether `a` can stand where a location belongs: a builtin location, or an attribute of another
    dialect (`loc(#foo.bar<...>)`, kept as text or opaque), as the text form can say it."""
    if isinstance(a, LocationAttr | FallbackAttr):
        return True
    return isinstance(a, DialectAttr) and a.text.startswith("#")
