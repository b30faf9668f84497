"""Reads a whole bytecode file into a `Module`: header, sections, tables, resources, properties, IR.

Every failure becomes a `DecodeError` naming the section and absolute byte offset.  When the IR was partly
decoded before the failure, the module keeps what was decoded and carries the error (a partial view).
"""

from __future__ import annotations

import os

from ..errors import DecodeError
from ..ir.module import FallbackNote, Module, SourceTables
from ..ir.verify import verify
from ..models.registry import Registry, default_registry
from .attrtypes import ATTR, TYPE, AttrTypeTable
from .dialects import decompile_dialects
from .header import read_header
from .ir_section import IRDecoder
from .mapped import open_mapped
from .properties import decompile_properties_table
from .resources import decompile_resources, dialect_resource_keys
from .sections import MAX_SECTION_ID, SECTION_NAMES, Section, read_section
from .stream import ByteReader
from .strings import decompile_strings

_REQUIRED = (0, 1, 2, 3, 4)


def read_sections(r: ByteReader) -> dict[int, Section]:
    sections: dict[int, Section] = {}
    while not r.at_end():
        at = r.pos
        sec = read_section(r)
        if sec.id > MAX_SECTION_ID:
            raise DecodeError(f"invalid section id {sec.id}", at, "header")
        if sec.id in sections:
            raise DecodeError(f"duplicate top-level section {sec.name} (id {sec.id})", at, "header")
        sections[sec.id] = sec
    return sections


def read_bytecode_file(path: str | os.PathLike[str], registry: Registry | None = None,
                       decode_all_entries: bool = True, max_size: int | None = None,
                       strategy: str | None = None) -> Module:
    """Decode the file at `path` from a read-only memory map (see `mapped`): large payloads stay views of
    the map and nothing proportional to them is copied.  `module.source.mapped` is the `MappedFile`.

    Raises OSError (cannot open), FileTooLarge (over `max_size`, nothing read) and DecodeError."""
    mapped = open_mapped(path, max_size, strategy)
    module = read_bytecode(mapped.data, registry, decode_all_entries)
    if module.source is not None:
        module.source.mapped = mapped
    return module


def read_bytecode(data: bytes | bytearray | memoryview, registry: Registry | None = None,
                  decode_all_entries: bool = True) -> Module:
    """Decode `data`.  Raises DecodeError when nothing usable could be decoded; otherwise returns a
    module whose `error` is set if decoding stopped part-way."""
    reg = registry if registry is not None else default_registry()
    buf = memoryview(data)
    if buf.ndim != 1 or buf.itemsize != 1:
        buf = buf.cast("B")
    r = ByteReader(buf, 0, len(buf), "header")
    version, producer = read_header(r)
    sections = read_sections(r)
    for sid in _REQUIRED:
        if sid not in sections:
            raise DecodeError(f"missing required section {SECTION_NAMES[sid]} (id {sid})", len(buf),
                              "header")
    if version >= 5 and 8 not in sections:
        raise DecodeError("missing Properties section (id 8), required from version 5", len(buf),
                          "header")
    if (5 in sections) != (6 in sections):
        present = 5 if 5 in sections else 6
        raise DecodeError(f"{SECTION_NAMES[present]} section present without its partner "
                          f"({SECTION_NAMES[11 - present]})", sections[present].header_offset, "header")
    strings = decompile_strings(sections[0].data)
    dialects, op_names = decompile_dialects(sections[1].data, version, strings)
    reg = reg.for_file(producer, {d.name: d.version for d in dialects})
    resources = []
    if 5 in sections:
        resources = decompile_resources(sections[6], sections[5], strings, dialects)
    source = SourceTables(buf, strings=strings, dialects=dialects, op_names=op_names,
                          has_resource_sections=5 in sections)
    source.sections = {sid: (s.header_offset, s.data.end) for sid, s in sections.items()}
    fallbacks: list[FallbackNote] = []
    module = Module(None, version, producer, dialects, resources, source, fallbacks,
                    model_set=reg.model_set, model_set_note=reg.model_set_note)
    table = AttrTypeTable(buf, version, strings, dialects, reg, dialect_resource_keys(resources),
                          sections[3], sections[2], producer)
    props = decompile_properties_table(sections[8]) if version >= 5 and 8 in sections else None
    source.properties = props or []
    decoder = IRDecoder(version, op_names, table, props, reg, fallbacks)
    try:
        module.root = decoder.decode(sections[4].data)
        if not sections[4].data.at_end():
            raise sections[4].data.error("trailing bytes after the root op")
        if decode_all_entries:
            table.decode_all()
        problem = verify(module.root)
        if problem is not None:
            raise problem
    except DecodeError as exc:
        module.root = decoder.root
        module.error = exc
        if module.root is None:
            raise
    except RecursionError:
        module.root = decoder.root
        module.error = DecodeError("attributes or regions nested too deeply to decode",
                                   sections[4].header_offset, "IR")
        if module.root is None:
            raise module.error from None
    source.declared_values = decoder.declared_values
    source.attrs = table.table_entries(ATTR)
    source.types = table.table_entries(TYPE)
    complete = len(source.attrs) == table.count(ATTR) and len(source.types) == table.count(TYPE)
    if not complete:
        source.attrs = source.types = []  # a partial table cannot serve as a template
    for kind, entries in (("attribute", source.attrs), ("type", source.types)):
        for e in entries:
            if e.fallback_reason:
                fallbacks.append(FallbackNote(kind, dialects[e.dialect].name, e.fallback_reason,
                                              e.offset, e.size))
    return module
