"""The decoded file as a whole: root op, header facts, dialects, resources, and the original tables.

`SourceTables` remembers how the file numbered everything (strings, dialects, op names, attributes, types)
and where each entry's bytes sit.  The writer's template mode reuses it so opaque parts stay valid, and the
language server uses the offsets for hover.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .attributes import Attribute
from .operation import Operation, OpName, Region
from .types import Type

if TYPE_CHECKING:
    from ..errors import DecodeError

RESOURCE_BLOB = 0
RESOURCE_BOOL = 1
RESOURCE_STRING = 2


@dataclass
class ResourceEntry:
    """One resource: a blob (aligned bytes, zero-copy view), a bool or a string.

    `blob is None` for a blob kind marks a declaration without data (size 0 in the file).
    """

    key: str
    kind: int
    blob: memoryview | None = None
    alignment: int = 1
    flag: bool = False
    string: bytes = b""
    offset: int = -1
    """Absolute file offset of the blob's bytes when it was read from a file (a writer copies them
    from there), -1 otherwise."""


@dataclass
class ResourceGroup:
    """A group of resources: a dialect's (`is_dialect`) or an external provider's (e.g. `mlir_reproducer`)."""

    name: str
    is_dialect: bool
    entries: list[ResourceEntry] = field(default_factory=list)


@dataclass
class DialectEntry:
    name: str
    version: bytes | None = None
    """The raw payload of the dialect's version section, None when it writes no version."""


@dataclass
class TableEntry:
    """One attribute or type entry as stored: its value, owning dialect, encoding form and byte range."""

    value: Attribute | Type
    dialect: int
    custom: bool
    offset: int
    size: int
    model: str = ""
    """Which model decoded it ("" for builtin or textual entries)."""
    fallback_reason: str = ""
    """Why it is kept opaque ("" when it was decoded)."""


@dataclass
class SourceTables:
    """How the original file numbered things, for template-mode writing and for hover."""

    data: memoryview
    strings: list[bytes] = field(default_factory=list)
    dialects: list[DialectEntry] = field(default_factory=list)
    op_names: list[OpName] = field(default_factory=list)
    attrs: list[TableEntry] = field(default_factory=list)
    types: list[TableEntry] = field(default_factory=list)
    properties: list[tuple[int, int]] = field(default_factory=list)
    """(absolute offset, size) of each properties entry."""
    sections: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Section id -> (absolute offset of the section header, absolute end)."""
    has_resource_sections: bool = True
    declared_values: dict[Region, tuple[int, int]] = field(default_factory=dict)
    """Regions whose stored value count exceeds the values they define (upstream accepts that):
    region -> (declared, defined).  The writer keeps such a count so the value numbering stays as read."""
    mapped: Any = None
    """The `bytecode.mapped.MappedFile` that `data` views, when the file was read from a memory map."""


@dataclass
class FallbackNote:
    """A part kept opaque, for `info` and diagnostics: what it is, why, and where its bytes are."""

    kind: str  # "op", "attribute" or "type"
    name: str  # op name, or the dialect of an attribute/type
    reason: str
    offset: int
    size: int


@dataclass
class Module:
    """A decoded bytecode file (or IR parsed from text).

    `root` may be None when decoding failed before the IR; `error` then says where.  When decoding failed
    after the IR, `root` is kept and `error` is set: the caller shows a partial view.
    """

    root: Operation | None
    version: int = 6
    producer: str = "MLIR22.1.8"
    dialects: list[DialectEntry] = field(default_factory=list)
    resources: list[ResourceGroup] = field(default_factory=list)
    source: SourceTables | None = None
    fallbacks: list[FallbackNote] = field(default_factory=list)
    error: DecodeError | None = None
    model_set: str | None = None
    """The model set that decoded it (`models/sets.py`), and why that one."""
    model_set_note: str = ""

    def dialect_version(self, name: str) -> bytes | None:
        for d in self.dialects:
            if d.name == name:
                return d.version
        return None
