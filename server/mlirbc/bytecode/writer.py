"""Writes a `Module` as bytecode (versions 0-6), byte-faithful to MLIR 22.1.8's writer.

Two modes:

* **fresh** (`template=None`, or a module not read from a file): every number and order is computed from the
  IR with upstream's rules (format 11), so the IR of an upstream file encodes to the same bytes.
* **template** (the default for a module read from a file, or an explicit template module): the template's
  strings, dialects (with version payloads), op names and attribute/type entries keep their numbers and
  their original bytes; new ones are appended.  The IR, properties (unless kept verbatim) and resources are
  encoded again.  The template's section order and the presence of its resource sections are kept.

Errors in the IR (values out of scope, opaque parts that cannot be re-encoded, ...) raise `EncodeError`.
"""

from __future__ import annotations

import gc
from typing import Literal

from ..errors import EncodeError
from ..ir.module import RESOURCE_BLOB, Module, SourceTables
from ..models.registry import Registry, default_registry
from .attrtypes import Encoding, compile_attr_types, template_groups
from .chunks import Chunks
from .dialects import compile_dialects, template_op_name_groups
from .header import MAX_VERSION, write_header
from .ir_writer import IRWriter
from .numbering import ATTR, TYPE, Numbering
from .properties import compile_properties_table
from .recorder import has_reference, render
from .resources import compile_resources, plan_resources, resource_handles
from .sections import Section, frame_section, read_section
from .stream import ByteReader, ByteWriter
from .strings import StringTable, compile_strings

DEFAULT_PRODUCER = "MLIR22.1.8"
SECTION_ORDER = (1, 3, 2, 4, 6, 5, 0, 8)
"""The order upstream writes its sections in (format 2)."""

Template = Module | None | Literal["auto"]


def write_bytecode(module: Module, version: int | None = None, producer: str | None = None,
                   template: Template = "auto", registry: Registry | None = None) -> bytes:
    """Encode `module`.  `version`/`producer` default to the template's (else the module's);
    `template="auto"` uses the file the module was read from, if any."""
    return write_bytecode_chunks(module, version, producer, template, registry).tobytes()


def write_bytecode_chunks(module: Module, version: int | None = None, producer: str | None = None,
                          template: Template = "auto", registry: Registry | None = None) -> Chunks:
    """`write_bytecode` as `Chunks`: large payloads (views of the template's mapped file, or of the
    module's own) are kept by reference, so the output can be streamed to a file (`Chunks.write_to`)
    without ever being held whole."""
    # The writer allocates many small objects that live until it returns; the cyclic collector would
    # rescan the whole IR again and again meanwhile (a third of the time on large modules).
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _write(module, version, producer, template, registry)
    except EncodeError:
        raise
    except RecursionError:
        raise EncodeError("the IR is nested too deeply to encode") from None
    except Exception as exc:  # bad IR must surface as EncodeError, never as an internal error
        raise EncodeError(f"cannot encode the module: {type(exc).__name__}: {exc}") from exc
    finally:
        if gc_was_enabled:
            gc.enable()


def _write(module: Module, version: int | None, producer: str | None, template: Template,
           registry: Registry | None) -> Chunks:
    root = module.root
    if root is None:
        raise EncodeError("the module has no root op")
    if module.error is not None:
        raise EncodeError(f"the module was only partly decoded ({module.error}); it cannot be written")
    if template == "auto":
        tmpl = module if module.source is not None else None
    elif template is None:
        tmpl = None
    elif isinstance(template, Module):
        tmpl = template
        if template.source is None:
            raise EncodeError("the template module was not read from a bytecode file")
        if template.error is not None:
            raise EncodeError(f"the template was only partly decoded ({template.error})")
    else:
        raise EncodeError(f"template must be a Module, None or 'auto', not {template!r}")
    src = tmpl.source if tmpl is not None else None
    base = tmpl if tmpl is not None else module
    if version is None:
        version = base.version
    if not isinstance(version, int) or not 0 <= version <= MAX_VERSION:
        raise EncodeError(f"cannot write bytecode version {version}: versions 0 to {MAX_VERSION} exist")
    if producer is None:
        producer = base.producer
    if "\0" in producer:
        raise EncodeError("the producer string cannot contain a NUL character")
    reg = registry if registry is not None else default_registry()
    if reg.model_set is None and module.model_set is not None:
        reg = reg.with_set(module.model_set, module.model_set_note)
    reg = reg.for_file(producer, {d.name: d.version for d in base.dialects})

    num = Numbering(version, reg, src, tmpl.version if tmpl is not None else -1,
                    derive_registered=module.version < 5 <= version)
    num.run(root)
    referenced = list(num.resource_keys)
    if tmpl is not None:
        # Template entries are copied, not re-numbered, so their resource references are not seen by the
        # traversal; the template's declarations (referenced keys without data) must stay.
        for g in tmpl.resources:
            if g.is_dialect and g.name == "builtin":
                referenced += [e.key for e in g.entries if e.kind == RESOURCE_BLOB and e.blob is None
                               and e.key not in num.resource_keys]
    groups = plan_resources(module.resources, referenced, num.dialects, src is None)
    for g in groups:
        if g.is_dialect:
            num.number_dialect(g.name)
    num.finalize()
    handles = resource_handles(groups)
    if tmpl is not None:
        # Copied template entries hold resource handles by number: they are only valid while every
        # resource the template had keeps its position.
        for key, h in resource_handles(tmpl.resources).items():
            if handles.get(key, h) != h:
                raise EncodeError(f"resource '{key}' moved in the dialect_resources list; the original "
                                  "file's entries refer to resources by position, so resources of a view "
                                  "may be edited and added but not removed or reordered")

    def resource_index(key: str) -> int:
        h = handles.get(key)
        if h is None:
            raise EncodeError(f"dense_resource<{key}> refers to a resource the module does not have")
        return h

    strings = StringTable(src.strings if src is not None else None)
    intern = strings.intern
    sections: dict[int, bytes | Chunks] = {}

    # Dialect section: names (and version payloads), then op names; strings are numbered as written.
    dialect_entries: list[tuple[int, bytes | None]] = []
    for i, name in enumerate(num.dialect_names):
        idx = intern(name.encode("utf-8", "surrogateescape"))
        if src is not None and i < len(src.dialects):
            payload = src.dialects[i].version
        else:
            payload = module.dialect_version(name)
        dialect_entries.append((idx, payload if payload else None))
    op_entries = [(e.dialect, intern(e.value.name.encode("utf-8", "surrogateescape")),  # type: ignore[attr-defined]
                   bool(e.value.registered))  # type: ignore[attr-defined]
                  for e in num.ordered_ops]
    op_groups = None
    if src is not None and tmpl is not None and 1 in src.sections:
        op_groups = template_op_name_groups(_template_section(src, 1).data, tmpl.version)
    sections[1] = compile_dialects(version, dialect_entries, op_entries, op_groups)

    # Attribute and type entries in final order; strings in entry order.
    rendered: list[list[tuple[int, bool, Encoding]]] = [[], []]
    for kind in (ATTR, TYPE):
        out = rendered[kind]
        for e in num.ordered[kind]:
            if e.raw is not None:
                out.append((e.dialect, e.custom, e.raw))
                continue
            if has_reference(e.tokens):
                big = Chunks()
                render(e.tokens, big, num.attr_index, num.type_index, intern, resource_index)
                out.append((e.dialect, e.custom, big))
                continue
            buf = bytearray()
            render(e.tokens, buf, num.attr_index, num.type_index, intern, resource_index)
            out.append((e.dialect, e.custom, bytes(buf)))
    groups_at = template_groups(_template_section(src, 3).data) if src is not None and \
        3 in src.sections and num.seeded != [0, 0] else None
    sections[3], sections[2] = compile_attr_types(rendered[ATTR], rendered[TYPE], groups_at)

    ir = IRWriter(num, intern, resource_index, keep_use_orders=src is not None,
                  source=src.data if src is not None and tmpl is module else None)
    sections[4] = ir.write(root)

    res_offsets, res_data, res_align = compile_resources(groups, intern, num.dialects.__getitem__,
                                                         src.mapped if src is not None else None)
    if src is None or src.has_resource_sections or groups:
        sections[6] = res_offsets
        sections[5] = res_data
    sections[0] = compile_strings(strings.strings)
    if version >= 5:
        sections[8] = compile_properties_table(ir.payloads)
    frames: dict[int, int] = {}
    if src is not None and tmpl is not None:
        frames = _template_alignments(src)
        if tmpl.version == version:
            # Sections the reader ignores (a Properties section below v5, a top-level DialectVersions
            # section) carry nothing the IR could have changed: keep the template's bytes.
            for sid in src.sections:
                if sid not in sections and sid not in (5, 6):
                    sections[sid] = _template_section_data(src, sid)

    w = ByteWriter()
    write_header(w, version, producer)
    output = Chunks(w.buf)
    for sid in _section_order(src, sections):
        if sid == 5:
            frame_section(output, sid, sections[sid], res_align)
        elif sid in frames:
            frame_section(output, sid, sections[sid], frames[sid], force_alignment=True)
        else:
            frame_section(output, sid, sections[sid])
    return output


def _section_order(src: SourceTables | None, sections: dict[int, bytes | Chunks]) -> list[int]:
    if src is None:
        return [s for s in SECTION_ORDER if s in sections]
    kept = [sid for sid, _ in sorted(src.sections.items(), key=lambda kv: kv[1][0]) if sid in sections]
    return kept + [s for s in SECTION_ORDER if s in sections and s not in kept]


def _template_section(src: SourceTables, sid: int) -> Section:
    start, end = src.sections[sid]
    return read_section(ByteReader(src.data, start, end))


def _template_section_data(src: SourceTables, sid: int) -> bytes:
    sec = _template_section(src, sid)
    return bytes(sec.data.bytes(sec.data.remaining))


def _template_alignments(src: SourceTables) -> dict[int, int]:
    """Sections other than Resource that the template wrote with an alignment: section id -> alignment
    (upstream never aligns them, but another producer may, and the template's framing is kept)."""
    out: dict[int, int] = {}
    for sid, (start, end) in src.sections.items():
        if sid != 5 and src.data[start] & 0x80:
            out[sid] = read_section(ByteReader(src.data, start, end)).alignment
    return out
