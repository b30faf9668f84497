"""A module as a whole: root op, header facts (version, producer), dialects with their versions, resources.

The IR knows no encoding: what a decoded file's bytes say beyond its IR (how it numbered everything,
where each entry sits, what was kept opaque) is the bytecode layer's `Template`, which the reader leaves
in `Module.source`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from ..errors import DecodeError
from .operation import Operation


class ResourceKind(IntEnum):
    BLOB = 0
    BOOL = 1
    STRING = 2


RESOURCE_BLOB = ResourceKind.BLOB
RESOURCE_BOOL = ResourceKind.BOOL
RESOURCE_STRING = ResourceKind.STRING


@dataclass
class ResourceEntry:
    """One resource: a blob (aligned bytes, zero-copy view), a bool or a string.

    `blob is None` for a blob kind marks a declaration without data (size 0 in the file).
    """

    key: str
    kind: ResourceKind
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
    source: object | None = None
    """What the layer that built the module knows of where it came from: for a decoded file, the
    bytecode layer's `Template` (read it with `bytecode.template.template_of`)."""
    error: DecodeError | None = None
    model_set: str | None = None
    """The model set that decoded it (`models/sets.py`), and why that one."""
    model_set_note: str = ""
    view: str | None = None
    """The dialect-level view this module is (`stablehlo`, made by that view from a decoded module: it is
    converted back before it is written); None for a module in its stored dialects."""
    implicit_module: bool = False
    """`root` is the implicit `builtin.module` MLIR's parsers put around a file's top-level op that is not
    a module (`ir.implicit`): the file holds that op alone, and a writer writes it alone again while the
    module is still what a reader would make around it (`implicit.stored_top`)."""

    @property
    def fallbacks(self) -> list[Any]:
        """The parts kept opaque, with why and where (`FallbackNote`s of the decoded file's template;
        empty for IR built otherwise)."""
        notes = getattr(self.source, "fallbacks", None)
        return notes if isinstance(notes, list) else []

    def dialect_version(self, name: str) -> bytes | None:
        for d in self.dialects:
            if d.name == name:
                return d.version
        return None
