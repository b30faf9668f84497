"""Writes a `Module` as bytecode (versions 0-6), byte-faithful to MLIR 22.1.8's writer.

Two modes:

* **fresh** (`template=None`, or a module not read from a file): every number and order is computed from the
  IR with upstream's rules (format 11), so the IR of an upstream file encodes to the same bytes.
* **template** (the default for a module read from a file, or an explicit template module): the template's
  strings, dialects (with version payloads), op names and attribute/type entries keep their numbers and
  their original bytes; new ones are appended.  The IR, properties (unless kept verbatim) and resources are
  encoded again.  The template's section order and the presence of its resource sections are kept.
  Ops the caller declares `unchanged` (ops of the template module, not modified since they were read)
  have their isolated regions copied from the template's bytes, where that gives what encoding them
  would (see `ir_writer`): the cost of a save follows what changed.

Errors in the IR (values out of scope, opaque parts that cannot be re-encoded, ...) raise `EncodeError`.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Collection, Set
from typing import Literal

from ..binary.stream import ByteWriter
from ..errors import EncodeError
from ..files.chunks import Chunks, FileRange, file_range
from ..ir.digest import LARGE
from ..ir.implicit import stored_top
from ..ir.module import RESOURCE_BLOB, Module
from ..ir.operation import Operation
from ..models.build import default_registry
from ..models.registry import Registry
from .attrtypes import ATTR, TYPE, Encoding, TableEntries, encode_entry_groups, join_attr_types
from .dialects import encode_dialects
from .header import MAX_VERSION, encode_header
from .ir_writer import IRWriter
from .numbering import Entry, Numbering
from .properties import encode_properties_table
from .recorder import has_reference, render
from .resources import encode_resources, plan_resources, resource_handles
from .sections import SectionId, frame_section
from .strings import StringTable, encode_strings
from .template import Template, template_of
from .unused import STAND_IN, Unused, unused
from .writable import problems as structural_problems

DEFAULT_PRODUCER = "MLIR22.1.8"
SECTION_ORDER = (SectionId.DIALECT, SectionId.ATTR_TYPE_OFFSET, SectionId.ATTR_TYPE, SectionId.IR,
                 SectionId.RESOURCE_OFFSET, SectionId.RESOURCE, SectionId.STRING, SectionId.PROPERTIES)
"""The order upstream writes its sections in (format 2)."""
_DIALECT = SectionId.DIALECT

TemplateArg = Module | None | Literal["auto"]


def encode_bytecode(module: Module, version: int | None = None, producer: str | None = None,
                   template: TemplateArg = "auto", registry: Registry | None = None,
                   unchanged: Collection[Operation] = (), *, keep_property_numbers: bool = False) -> bytes:
    """Encode `module`.  `version`/`producer` default to the template's (else the module's);
    `template="auto"` uses the file the module was read from, if any.  `unchanged`: ops of the
    template module that are exactly as they were read (the caller's promise); their isolated regions
    are copied from the template when the result is the same.  `keep_property_numbers`: the
    template's properties payloads keep their numbers (new ones follow), as its attributes and types
    do, so that every unchanged op is copied whatever changed before it; otherwise payloads are
    numbered as upstream numbers them, in writing order."""
    return encode_bytecode_chunks(module, version, producer, template, registry, unchanged,
                                  keep_property_numbers=keep_property_numbers).tobytes()


def encode_bytecode_chunks(module: Module, version: int | None = None, producer: str | None = None,
                           template: TemplateArg = "auto", registry: Registry | None = None,
                           unchanged: Collection[Operation] = (), *,
                           keep_property_numbers: bool = False) -> Chunks:
    """`encode_bytecode` as `Chunks`: large payloads (views of the template's mapped file, or of the
    module's own) are kept by reference, so the output can be streamed to a file (`Chunks.write_to`)
    without ever being held whole."""
    # The writer allocates many small objects that live until it returns; the cyclic collector would
    # rescan the whole IR again and again meanwhile (a third of the time on large modules).
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _write(module, version, producer, template, registry, unchanged, keep_property_numbers)
    except EncodeError:
        raise
    except RecursionError:
        raise EncodeError("the IR is nested too deeply to encode") from None
    except Exception as exc:  # bad IR must surface as EncodeError, never as an internal error
        raise EncodeError(f"cannot encode the module: {type(exc).__name__}: {exc}") from exc
    finally:
        if gc_was_enabled:
            gc.enable()


def _write(module: Module, version: int | None, producer: str | None, template: TemplateArg,
           registry: Registry | None, unchanged: Collection[Operation] = (),
           keep_property_numbers: bool = False) -> Chunks:
    root = module.root
    if root is None:
        raise EncodeError("the module has no root op")
    if module.implicit_module:
        root = stored_top(root)  # the file's own top-level op, unless the module became one of its own
    if module.error is not None:
        raise EncodeError(f"the module was only partly decoded ({module.error}); it cannot be written")
    if module.view is not None:
        raise EncodeError(f"the module is the {module.view} view of a file: it is written after its view "
                          "converts it back (models.views)")
    if template == "auto":
        tmpl = module if template_of(module) is not None else None
    elif template is None:
        tmpl = None
    elif isinstance(template, Module):
        tmpl = template
        if template_of(template) is None:
            raise EncodeError("the template module was not read from a bytecode file")
        if template.error is not None:
            raise EncodeError(f"the template was only partly decoded ({template.error})")
    else:
        raise EncodeError(f"template must be a Module, None or 'auto', not {template!r}")
    src = template_of(tmpl) if tmpl is not None else None
    base = tmpl if tmpl is not None else module
    if version is None:
        version = base.version
    if not isinstance(version, int) or not 0 <= version <= MAX_VERSION:
        raise EncodeError(f"cannot write bytecode version {version}: versions 0 to {MAX_VERSION} exist")
    if producer is None:
        producer = base.producer
        if tmpl is None and registry is not None and registry.model_set is not None:
            from ..models.sets import PRODUCERS, choose_set

            # A new file written with a forced model set: named as that set's writer names its files (a
            # reader then reads it with the same models; MLIR 24's builtin codes under an MLIR 22 name
            # would be damage to it).
            if choose_set(producer).name != registry.model_set:
                producer = PRODUCERS.get(registry.model_set, producer)
    if "\0" in producer:
        raise EncodeError("the producer string cannot contain a NUL character")
    try:
        producer.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError as exc:
        raise EncodeError(f"the producer string cannot be written: {exc.reason} at character {exc.start}"
                          ) from None
    reg = registry if registry is not None else default_registry()
    if reg.model_set is None and module.model_set is not None:
        reg = reg.with_set(module.model_set, module.model_set_note)
    reg = reg.for_file(producer, {d.name: d.version for d in base.dialects})
    problems = reg.write_problems(module, producer, version)
    if problems and tmpl is not None and producer == tmpl.producer:
        problems = _added_problems(problems, reg.write_problems(tmpl, producer, version))
    if problems:
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        raise EncodeError("; ".join(problems[:5]) + more)

    num = Numbering(version, reg, src, tmpl.version if tmpl is not None else -1,
                    derive_registered=module.version < 5 <= version)
    reuse: dict[Operation, tuple[int, int, int, int]] = {}
    seeded_payloads: list[bytes] | None = None
    if src is not None and tmpl is not None and version == tmpl.version and not num.derive_registered:
        spans = src.isolated_sections
        reuse = {op: spans[op] for op in unchanged if op in spans}
        if keep_property_numbers and version >= 5:
            seeded_payloads = src.payloads
    num.run(root, reuse)  # (checks the IR's shape, naming what is malformed)
    # Weights the edit no longer uses (an op deleted, a value replaced by a literal) are left out.
    drop = unused(src, tmpl, module) if src is not None and tmpl is not None else Unused()
    for problem in structural_problems(root, reg, version, module.dialects, first_only=True, skip=reuse):
        raise EncodeError(f"op '{problem.op.name}': {problem.message}")
    referenced = list(num.resource_keys)
    if tmpl is not None:
        # Template entries are copied, not re-numbered, so their resource references are not seen by the
        # traversal; the template's declarations (referenced keys without data) must stay.
        for g in tmpl.resources:
            if g.is_dialect and g.name == "builtin":
                referenced += [e.key for e in g.entries if e.kind == RESOURCE_BLOB and e.blob is None
                               and e.key not in num.resource_keys]
    groups = drop.resources(plan_resources(module.resources, referenced, num.dialects, src is None),
                            num.resource_keys)
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
    op_groups = src.op_name_groups if src is not None and _DIALECT in src.sections else None
    sections[_DIALECT] = encode_dialects(version, dialect_entries, op_entries, op_groups)

    # Attribute and type entries in final order; strings in entry order.  A template's own entries
    # are its bytes, encoded once per template and kept.
    parts: list[tuple[bytes, bytes | Chunks]] = []
    for kind in (ATTR, TYPE):
        entries = num.ordered[kind]
        seeded = num.seeded[kind]
        pieces = [_template_entries(src, kind, entries[:seeded], drop.entries[kind])] \
            if src is not None and seeded else []
        new: list[tuple[int, bool, Encoding]] = []
        for e in entries[seeded if pieces else 0:]:
            if e.raw is not None:
                new.append((e.dialect, e.custom, e.raw))
                continue
            if has_reference(e.tokens):
                big = Chunks()
                render(e.tokens, big, num.attr_index, num.type_index, intern, resource_index)
                new.append((e.dialect, e.custom, big))
                continue
            buf = bytearray()
            render(e.tokens, buf, num.attr_index, num.type_index, intern, resource_index)
            new.append((e.dialect, e.custom, bytes(buf)))
        pieces.append(encode_entry_groups(new))
        data = Chunks()
        for _, d in pieces:
            data.write(d)
        parts.append((b"".join(p[0] for p in pieces), data))
    sections[SectionId.ATTR_TYPE_OFFSET], sections[SectionId.ATTR_TYPE] = join_attr_types(
        len(num.ordered[ATTR]), len(num.ordered[TYPE]), parts)

    ir = IRWriter(num, intern, resource_index, keep_use_orders=src is not None,
                  source=src.data if src is not None and tmpl is module else None, reuse=reuse,
                  template=src, seeded_payloads=seeded_payloads, producer=producer)
    sections[SectionId.IR] = ir.write(root)

    res_offsets, res_data, res_align = encode_resources(groups, intern, num.dialects.__getitem__,
                                                        src.mapped if src is not None else None)
    if src is None or src.has_resource_sections or groups:
        sections[SectionId.RESOURCE_OFFSET] = res_offsets
        sections[SectionId.RESOURCE] = res_data
    sections[SectionId.STRING] = encode_strings(strings.strings)
    if version >= 5:
        sections[SectionId.PROPERTIES] = encode_properties_table(ir.payloads)
    frames: dict[int, int] = {}
    if src is not None and tmpl is not None:
        frames = src.alignments
        if tmpl.version == version:
            # Sections the reader ignores (a Properties section below v5, a top-level DialectVersions
            # section) carry nothing the IR could have changed: keep the template's bytes.
            for sid in src.sections:
                if sid not in sections and sid not in (SectionId.RESOURCE, SectionId.RESOURCE_OFFSET):
                    sections[sid] = src.section_bytes(sid)

    w = ByteWriter()
    encode_header(w, version, producer)
    output = Chunks(w.buf)
    for sid in _section_order(src, sections):
        if sid == SectionId.RESOURCE:
            frame_section(output, sid, sections[sid], res_align)
        elif sid in frames:
            frame_section(output, sid, sections[sid], frames[sid], force_alignment=True)
        else:
            frame_section(output, sid, sections[sid])
    return output


def _added_problems(problems: list[str], had: list[str]) -> list[str]:
    """The write checks' problems that the file read had not already (counted, as a multiset).

    A file may hold what its producer's target lacks (an op outside the target StableHLO's versions): the
    reader keeps it exactly, so writing it back unchanged must work, while an edit adding such a part is
    still refused."""
    left = Counter(had)
    out = []
    for p in problems:
        if left[p]:
            left[p] -= 1
        else:
            out.append(p)
    return out


def _template_entries(src: Template, kind: int, seeded: list[Entry], dropped: Set[int] = frozenset()
                      ) -> tuple[bytes, Chunks]:
    """A template's own attribute or type entries, encoded once and kept in the template; the entries
    numbered in `dropped` (`unused.unused_entries`) are written as a stand-in (not kept)."""
    if dropped:
        fixed = src.attr_type_groups
        raws = template_raws(src, kind)
        return encode_entry_groups(
            [(e.dialect, False, STAND_IN[kind]) if i in dropped else
             (e.dialect, e.custom, raws[i]) for i, e in enumerate(seeded)],
            fixed[kind] if fixed is not None else None)
    key = f"attrtypes.{kind}"
    cached = src.cache.get(key)
    if not isinstance(cached, tuple):
        cached = _original_entries(src, kind, len(seeded))
        if cached is None:
            fixed = src.attr_type_groups
            raws = template_raws(src, kind)
            cached = encode_entry_groups(
                [(e.dialect, e.custom, raws[i]) for i, e in enumerate(seeded)],
                fixed[kind] if fixed is not None else None)
        src.cache[key] = cached
    return cached


def template_raws(src: Template, kind: int) -> list[bytes | memoryview | FileRange]:
    """The bytes of each of a template's attribute or type entries, in order: a large one (a tensor of a
    mapped file) stays a view, written by reference (copied by the kernel from the original when it is a
    range of the mapped file)."""
    entries = src.attrs if kind == ATTR else src.types
    rows = ((r[3], r[4]) for r in entries.stored()) if isinstance(entries, TableEntries) else \
        ((e.offset, e.size) for e in entries)
    data = src.data
    return [file_range(data[o:o + n], o, src.mapped) if n >= LARGE else bytes(data[o:o + n]) for o, n in rows]


def _original_entries(src: Template, kind: int, count: int) -> tuple[bytes, Chunks] | None:
    """What `encode_entry_groups` gives for all of a template's own entries of `kind`, in their order,
    grouped as the template grouped them: the template's own bytes (its groups in the offset section,
    its entries' data as one range of the file, which they fill without gaps).  None when the entries
    are not exactly the template's."""
    entries = src.attrs if kind == ATTR else src.types
    layout = src.attr_type_layout
    if layout is None or count != len(entries) or not count:
        return None
    start, end = layout[1][kind]
    first, last = entries[0], entries[-1]
    lo, hi = first.offset, last.offset + last.size
    data = Chunks()
    data.write(file_range(src.data[lo:hi], lo, src.mapped))
    return bytes(src.data[start:end]), data


def prepare(module: Module, registry: Registry | None = None) -> None:
    """Do once, ahead of the first save, what every template-mode write of `module`'s file needs (the
    numbering's seeded tables, the template's own entries encoded, the groups and payloads of its
    sections): a server calls this after opening a file, so that its first save costs what the
    later ones do."""
    src = template_of(module)
    if src is None or module.error is not None:
        return
    num = Numbering(module.version, registry if registry is not None else default_registry(), src,
                    module.version)
    for kind in (ATTR, TYPE):
        if num.seeded[kind]:
            _template_entries(src, kind, num.ordered[kind][:num.seeded[kind]])
    _ = (src.op_name_groups, src.alignments, src.payloads, src.distinct_before)


def _section_order(src: Template | None, sections: dict[int, bytes | Chunks]) -> list[int]:
    if src is None:
        return [s for s in SECTION_ORDER if s in sections]
    kept = [sid for sid, _ in sorted(src.sections.items(), key=lambda kv: kv[1][0]) if sid in sections]
    return kept + [s for s in SECTION_ORDER if s in sections and s not in kept]

