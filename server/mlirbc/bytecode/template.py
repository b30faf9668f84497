"""What a decoded file's bytes say beyond its IR: the reader builds a `Template`, the writer takes it.

The template remembers how the file numbered everything (strings, dialects, op names, attributes, types)
and where each entry's bytes sit, what was kept opaque and why (`fallbacks`), how the producer framed
and grouped its sections, and where each isolated op's nested section is.  The writer's template mode
keeps every original entry at its number (opaque parts may refer to them) and copies what did not change;
the language server uses the offsets for hover.

What the writer needs from the template's sections is read once, on first use, and kept: saving a view
again and again does not read the original file again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..binary.stream import ByteReader
from ..ir.attributes import Attribute
from ..ir.module import DialectEntry, Module
from ..ir.operation import Operation, OpName, Region
from ..ir.types import Type
from ..yielding import checkpoint
from .sections import SECTION_NAMES, SectionId, read_section


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
class FallbackNote:
    """A part kept opaque, for `info` and diagnostics: what it is, why, and where its bytes are."""

    kind: str  # "op", "attribute" or "type"
    name: str  # op name, or the dialect of an attribute/type
    reason: str
    offset: int
    size: int


@dataclass(eq=False)
class Template:
    """How the original file numbered things and where its bytes are (see the module docstring)."""

    data: memoryview
    version: int = 6
    strings: list[bytes] = field(default_factory=list)
    dialects: list[DialectEntry] = field(default_factory=list)
    op_names: list[OpName] = field(default_factory=list)
    attrs: Sequence[TableEntry] = field(default_factory=list)
    types: Sequence[TableEntry] = field(default_factory=list)
    properties: list[tuple[int, int]] = field(default_factory=list)
    """(absolute offset, size) of each properties entry."""
    sections: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Section id -> (absolute offset of the section header, absolute end)."""
    has_resource_sections: bool = True
    declared_values: dict[Region, tuple[int, int]] = field(default_factory=dict)
    """Regions whose stored value count exceeds the values they define (upstream accepts that):
    region -> (declared, defined).  The writer keeps such a count so the value numbering stays as read."""
    isolated_sections: dict[Operation, tuple[int, int, int, int]] = field(default_factory=dict)
    """Ops whose isolated regions were read from a nested section: op -> (start, end of the section's
    data, and the slice of `prop_seq` read inside it).  A writer copies the section of such an op when
    the caller says the op is unchanged."""
    prop_seq: list[int] = field(default_factory=list)
    """The properties index of every op with properties, in the order the ops were read."""
    fallbacks: list[FallbackNote] = field(default_factory=list)
    """Every part kept opaque, in reading order."""
    mapped: Any = None
    """The `files.mapped.MappedFile` that `data` views, when the file was read from a memory map."""
    cache: dict[str, object] = field(default_factory=dict, repr=False)
    """What writers derive from the template once and share (e.g. the numbering's seeded tables)."""

    # -- what the writer needs, read from the sections once ----------------------------------------
    def section(self, sid: int) -> ByteReader | None:
        """The data of a top-level section (None when the file has none)."""
        span = self.sections.get(sid)
        if span is None:
            return None
        return read_section(ByteReader(self.data, span[0], span[1])).data

    def section_at(self, offset: int) -> str:
        """The name of the section holding byte `offset` ("header" before the first)."""
        for sid, (start, end) in self.sections.items():
            if start <= offset < end:
                return SECTION_NAMES.get(sid, str(sid))
        return "header"

    def section_bytes(self, sid: int) -> bytes:
        r = self.section(sid)
        return b"" if r is None else bytes(r.bytes(r.remaining))

    @cached_property
    def alignments(self) -> dict[int, int]:
        """Sections other than Resource that the file wrote with an alignment: id -> alignment
        (upstream never aligns them, but another producer may, and the framing is kept)."""
        out: dict[int, int] = {}
        for sid, (start, end) in self.sections.items():
            if sid != SectionId.RESOURCE and self.data[start] & 0x80:
                out[sid] = read_section(ByteReader(self.data, start, end)).alignment
        return out

    @cached_property
    def op_name_groups(self) -> list[int]:
        """How the dialect section grouped op names (producers may split groups)."""
        from .dialects import template_op_name_groups

        r = self.section(SectionId.DIALECT)
        return template_op_name_groups(r, self.version) if r is not None else []

    @cached_property
    def attr_type_groups(self) -> tuple[list[int], list[int]] | None:
        """How the offset section grouped attributes and types."""
        layout = self.attr_type_layout
        return layout[0] if layout is not None else None

    @cached_property
    def attr_type_layout(self) -> tuple[tuple[list[int], list[int]],
                                        tuple[tuple[int, int], tuple[int, int]]] | None:
        """How the offset section grouped attributes and types, and the byte range of each kind's
        groups in `data`."""
        from .attrtypes import template_group_layout

        r = self.section(SectionId.ATTR_TYPE_OFFSET)
        return template_group_layout(r) if r is not None else None

    @cached_property
    def payloads(self) -> list[bytes]:
        """Each properties entry's bytes."""
        return [bytes(self.data[start:start + size]) for start, size in self.properties]

    @cached_property
    def distinct_before(self) -> list[int]:
        """`distinct_before[i]`: how many properties entries the ops before `prop_seq[i]` used (the file
        numbers payloads as they are first written)."""
        out = [0]
        high = -1
        for i, idx in enumerate(self.prop_seq):
            if not i & 1023:
                checkpoint()  # readied in the background by a server (see yielding)
            high = max(high, idx)
            out.append(high + 1)
        return out


@dataclass(frozen=True)
class PayloadWord:
    """One varint of an opaque payload read as a reference: where it starts, its value (None when the
    payload ends inside it), and the attribute and type entries of that number, if any."""

    offset: int
    value: int | None
    attr: Attribute | Type | None
    type: Attribute | Type | None


def payload_words(data: bytes | memoryview, template: Template | None, limit: int
                  ) -> tuple[list[PayloadWord], bool]:
    """Read an opaque payload (fallback properties, a fallback attribute) as varints, the way most
    encodings write references to attributes and types (a guess: the layout is unknown).  Returns the
    first `limit` words and whether the payload has more."""
    from ..errors import DecodeError

    r = ByteReader(data, 0, len(data), "properties")
    out: list[PayloadWord] = []
    while not r.at_end() and len(out) < limit:
        at = r.pos
        try:
            v = r.varint()
        except DecodeError:
            out.append(PayloadWord(at, None, None, None))
            return out, False
        attr = template.attrs[v].value if template is not None and v < len(template.attrs) else None
        typ = template.types[v].value if template is not None and v < len(template.types) else None
        out.append(PayloadWord(at, v, attr, typ))
    return out, not r.at_end()


def template_of(module: Module) -> Template | None:
    """The template of a module decoded from bytecode (None for IR built otherwise)."""
    src = module.source
    return src if isinstance(src, Template) else None
