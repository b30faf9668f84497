"""Decodes a whole bytecode file into a `Module`: header, sections, tables, resources, properties, IR;
and what the bytes say beyond the IR, its `Template` (in `Module.source`), for the writer and for hover.

Every failure becomes a `DecodeError` naming the section and absolute byte offset.  When the IR was partly
decoded before the failure, the module keeps what was decoded and carries the error (a partial view).
"""

from __future__ import annotations

import os

from ..binary.stream import ByteReader
from ..errors import DecodeError
from ..files.mapped import open_mapped
from ..ir.attributes import UnknownLoc
from ..ir.gcpause import building
from ..ir.implicit import needs_module, source_location, wrap
from ..ir.module import Module
from ..models.build import default_registry
from ..models.registry import Registry
from .attrtypes import ATTR, TYPE, AttrTypeTable
from .dialects import decode_dialects
from .header import decode_header
from .ir_section import IRDecoder
from .properties import decode_properties_table
from .resources import decode_resources, dialect_resource_keys
from .sections import MAX_SECTION_ID, SECTION_NAMES, Section, SectionId, read_section
from .strings import decode_strings
from .template import FallbackNote, Template
from .verify import verify
from .writable import PROPERTIES_FROM, PropertyCheck, module_properties

_REQUIRED = (SectionId.STRING, SectionId.DIALECT, SectionId.ATTR_TYPE, SectionId.ATTR_TYPE_OFFSET,
             SectionId.IR)
_RES, _RES_OFF, _PROPS = SectionId.RESOURCE, SectionId.RESOURCE_OFFSET, SectionId.PROPERTIES


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
    module = decode_bytecode(mapped.data, registry, decode_all_entries, name=os.fspath(path))
    if isinstance(module.source, Template):
        module.source.mapped = mapped
    return module


def decode_bytecode(data: bytes | bytearray | memoryview, registry: Registry | None = None,
                    decode_all_entries: bool = True, *, name: str = "-") -> Module:
    """Decode `data`.  Raises DecodeError when nothing usable could be decoded; otherwise returns a
    module whose `error` is set if decoding stopped part-way.  A top-level op that is not a module comes
    in MLIR's implicit module (`ir.implicit`), located at `loc("name":0:0)` as MLIR's reader of a buffer
    called `name` puts it (`-`: the name MLIR's Python bindings give bytes)."""
    # Everything the reader allocates lives as long as the module: the cyclic collector would only rescan
    # the growing IR again and again (a sixth of the time on large files), as in the writer.
    with building():
        return _read(data, registry, decode_all_entries, name)


def _read(data: bytes | bytearray | memoryview, registry: Registry | None,
          decode_all_entries: bool, name: str) -> Module:
    reg = registry if registry is not None else default_registry()
    buf = memoryview(data)
    if buf.ndim != 1 or buf.itemsize != 1:
        buf = buf.cast("B")
    r = ByteReader(buf, 0, len(buf), "header")
    version, producer = decode_header(r)
    sections = read_sections(r)
    for sid in _REQUIRED:
        if sid not in sections:
            raise DecodeError(f"missing required section {SECTION_NAMES[sid]} (id {sid})", len(buf),
                              "header")
    if version >= 5 and _PROPS not in sections:
        raise DecodeError("missing Properties section (id 8), required from version 5", len(buf),
                          "header")
    if (_RES in sections) != (_RES_OFF in sections):
        present = _RES if _RES in sections else _RES_OFF
        partner = _RES_OFF if present == _RES else _RES
        raise DecodeError(f"{SECTION_NAMES[present]} section present without its partner "
                          f"({SECTION_NAMES[partner]})", sections[present].header_offset, "header")
    strings = decode_strings(sections[SectionId.STRING].data)
    dialects, op_names = decode_dialects(sections[SectionId.DIALECT].data, version, strings)
    reg = reg.for_file(producer, {d.name: d.version for d in dialects})
    resources = []
    if _RES in sections:
        resources = decode_resources(sections[_RES_OFF], sections[_RES], strings, dialects)
    source = Template(buf, version, strings=strings, dialects=dialects, op_names=op_names,
                      has_resource_sections=_RES in sections)
    source.sections = {sid: (s.header_offset, s.data.end) for sid, s in sections.items()}
    fallbacks: list[FallbackNote] = source.fallbacks
    module = Module(None, version, producer, dialects, resources, source,
                    model_set=reg.model_set, model_set_note=reg.model_set_note)
    table = AttrTypeTable(buf, version, strings, dialects, reg, dialect_resource_keys(resources),
                          sections[SectionId.ATTR_TYPE_OFFSET], sections[SectionId.ATTR_TYPE],
                          producer)
    props = decode_properties_table(sections[_PROPS]) if version >= 5 and _PROPS in sections \
        else None
    source.properties = props or []
    decoder = IRDecoder(version, op_names, table, props, reg, fallbacks)
    if decode_all_entries:
        table.decode_builtin()
    ir = sections[SectionId.IR]
    try:
        module.root = decoder.decode(ir.data)
        if not ir.data.at_end():
            raise ir.data.error("trailing bytes after the root op")
        if decode_all_entries:
            table.decode_all()
        problem = verify(module.root)
        if problem is not None:
            raise problem
        if version >= PROPERTIES_FROM:
            # A registered op stored without the properties its model requires (upstream's verifier
            # refuses it; the writer could not write it again).
            check = PropertyCheck(reg, version)
            for op in module.root.walk():
                if op.properties is None:
                    found = check.problem(op)
                    if found is not None:
                        raise DecodeError(found, max(op.offset, 0), "IR")
    except DecodeError as exc:
        decoder.seal()
        module.root = decoder.root
        module.error = exc
        if module.root is None:
            raise
    except RecursionError:
        decoder.seal()
        module.root = decoder.root
        module.error = DecodeError("attributes or regions nested too deeply to decode",
                                   ir.header_offset, "IR")
        if module.root is None:
            raise module.error from None
    if module.root is not None and needs_module([module.root]):
        module.root = wrap([module.root], source_location(name), module_properties(reg, version))
        module.implicit_module = True
    source.declared_values = decoder.declared_values
    source.prop_seq = decoder.prop_seq
    source.attrs = table.table_entries(ATTR)
    source.types = table.table_entries(TYPE)
    complete = len(source.attrs) == table.count(ATTR) and len(source.types) == table.count(TYPE)
    if not complete:
        source.attrs = source.types = []  # a partial table cannot serve as a template
    # A section whose block arguments have no stored location refers to UnknownLoc: it can only be
    # copied when the table has that entry (upstream always writes it; another producer may not).
    unknown = UnknownLoc.get()
    stored_unknown = not decoder.made_up_sections or any(e.value is unknown for e in source.attrs)
    source.isolated_sections = {op: span for op, span in decoder.sections.items()
                                if stored_unknown or op not in decoder.made_up_sections}
    if complete:
        for kind, what in ((ATTR, "attribute"), (TYPE, "type")):
            for i, reason in enumerate(table.reasons[kind]):
                if reason:
                    e = table.entry(kind, i)
                    fallbacks.append(FallbackNote(what, dialects[e.dialect].name, reason, e.offset,
                                                  e.size))
    return module


read_bytecode = decode_bytecode
"""The former name (kept while other branches still call it; decode/encode is the verb pair)."""
