"""Resource sections (format 8): the offset index (id 6) and the payloads (id 5), read, planned and written.

Blobs are exposed as zero-copy `memoryview`s into the file buffer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..binary.stream import ByteReader, ByteWriter, encode_varint
from ..errors import EncodeError
from ..files.chunks import Chunks, file_range
from ..ir.module import (
    RESOURCE_BLOB,
    RESOURCE_BOOL,
    RESOURCE_STRING,
    DialectEntry,
    ResourceEntry,
    ResourceGroup,
    ResourceKind,
)
from .sections import Section


def decode_resources(
    offsets: Section, payload: Section, strings: list[bytes], dialects: list[DialectEntry]
) -> list[ResourceGroup]:
    r = offsets.data
    data = payload.data
    groups: list[ResourceGroup] = []

    def string(at: int, idx: int) -> bytes:
        if idx >= len(strings):
            raise r.error(f"string index {idx} out of range ({len(strings)} strings)", at)
        return strings[idx]

    def entries(group: ResourceGroup) -> None:
        n = r.count("resource entry", 3)
        for _ in range(n):
            at = r.pos
            key = string(at, r.varint()).decode("utf-8", "surrogateescape")
            size = r.varint()
            kind_at = r.pos
            kind = r.byte()
            if kind > RESOURCE_STRING:
                raise r.error(f"unknown resource kind {kind}", kind_at)
            if size > data.remaining:
                raise r.error(f"resource '{key}' of {size} bytes runs past the Resource section", at)
            sub = data.sub(size)
            group.entries.append(_read_entry(sub, key, ResourceKind(kind), size, group, strings))

    n_external = r.count("external resource group", 2)
    for _ in range(n_external):
        at = r.pos
        name = string(at, r.varint()).decode("utf-8", "surrogateescape")
        g = ResourceGroup(name, False)
        entries(g)
        groups.append(g)
    while not r.at_end():
        at = r.pos
        d = r.varint()
        if d >= len(dialects):
            raise r.error(f"resource group names dialect #{d} but there are {len(dialects)}", at)
        g = ResourceGroup(dialects[d].name, True)
        entries(g)
        groups.append(g)
    if not data.at_end():
        raise data.error(f"{data.remaining} bytes in the Resource section belong to no resource")
    return groups


def _read_entry(sub: ByteReader, key: str, kind: ResourceKind, size: int, group: ResourceGroup,
                strings: list[bytes]) -> ResourceEntry:
    if size == 0:
        if not group.is_dialect:
            raise sub.error(f"external resource '{key}' in group '{group.name}' has no data")
        return ResourceEntry(key, kind)
    if kind == RESOURCE_BOOL:
        b = sub.byte()
        entry = ResourceEntry(key, kind, flag=bool(b))
    elif kind == RESOURCE_STRING:
        at = sub.pos
        idx = sub.varint()
        if idx >= len(strings):
            raise sub.error(f"string index {idx} out of range", at)
        entry = ResourceEntry(key, kind, string=strings[idx])
    else:
        at = sub.pos
        alignment = sub.varint()
        if alignment == 0 or alignment & (alignment - 1):
            raise sub.error(f"blob alignment {alignment} is not a power of two", at)
        length = sub.varint()
        while sub.pos % alignment:
            pad_at = sub.pos
            if sub.byte() != 0xCB:
                raise sub.error("blob padding byte is not 0xcb", pad_at)
        at = sub.pos
        entry = ResourceEntry(key, kind, blob=sub.bytes(length), alignment=alignment, offset=at)
    if not sub.at_end():
        raise sub.error(f"resource '{key}' has {sub.remaining} unexpected trailing bytes")
    return entry


def dialect_resource_keys(groups: list[ResourceGroup]) -> list[str]:
    """Handle index -> key, counting the entries of dialect groups in section order."""
    return [e.key for g in groups if g.is_dialect for e in g.entries]


def plan_resources(groups: list[ResourceGroup], referenced: list[str], dialect_order: dict[str, int],
                   fresh: bool) -> list[ResourceGroup]:
    """The groups the writer emits (format 11.9), externals first, then dialect groups.

    `referenced` lists the builtin resources the IR refers to, in first-numbered order.  Fresh mode builds
    the builtin group as upstream does: referenced entries that have data, in that order, then referenced
    ones without data as declarations; unreferenced entries are dropped; dialect groups go in dialect-number
    order.  Template mode keeps the groups as they are and adds declarations for new references.
    """
    externals = [g for g in groups if not g.is_dialect]
    dialect_groups = [g for g in groups if g.is_dialect]
    builtin = next((g for g in dialect_groups if g.name == "builtin"), None)
    if fresh:
        data: dict[str, ResourceEntry] = {}
        if builtin is not None:
            for e in builtin.entries:
                if e.kind != RESOURCE_BLOB or e.blob is not None:
                    data.setdefault(e.key, e)
        entries = [data[k] for k in referenced if k in data]
        entries += [ResourceEntry(k, RESOURCE_BLOB) for k in referenced if k not in data]
        others = [g for g in dialect_groups if g.name != "builtin" and g.entries]
        if entries:
            others.append(ResourceGroup("builtin", True, entries))
        others.sort(key=lambda g: dialect_order.get(g.name, len(dialect_order)))
        return [*externals, *others]
    known = {e.key for e in builtin.entries} if builtin is not None else set()
    missing = [k for k in referenced if k not in known]
    if missing:
        if builtin is None:
            builtin = ResourceGroup("builtin", True, [])
            dialect_groups.append(builtin)
        else:
            builtin = ResourceGroup("builtin", True, list(builtin.entries))
            dialect_groups = [builtin if g.name == "builtin" else g for g in dialect_groups]
        builtin.entries += [ResourceEntry(k, RESOURCE_BLOB) for k in missing]
    return [*externals, *dialect_groups]


def resource_handles(groups: list[ResourceGroup]) -> dict[str, int]:
    """Builtin resource key -> handle (position among all dialect-group entries, format 8.4)."""
    handles: dict[str, int] = {}
    n = 0
    for g in groups:
        if not g.is_dialect:
            continue
        for e in g.entries:
            if g.name == "builtin":
                handles.setdefault(e.key, n)
            n += 1
    return handles


def encode_resources(
    groups: list[ResourceGroup], intern: Callable[[bytes], int], dialect_index: Callable[[str], int],
    source: Any = None,
) -> tuple[bytes, Chunks, int]:
    """Return (offset section data, resource section data, alignment the resource section needs).

    Strings are interned in upstream's order: an external group's string values, then its name, then its
    keys; a dialect group's values, then its keys.  Blob padding is relative to the section start, which
    the caller aligns to the largest blob alignment.  Blobs are kept by reference (views of the original
    file stay views): the resource data is `Chunks`, streamed when written.  A blob read from `source`
    (the template's `MappedFile`) is a `FileRange` of it, which the kernel can copy.
    """
    off = ByteWriter()
    pay = Chunks()
    max_align = 1
    externals = [g for g in groups if not g.is_dialect]
    off.varint(len(externals))
    for g in [*externals, *[g for g in groups if g.is_dialect]]:
        sizes = []
        for e in g.entries:
            start = pay.size
            if e.kind == RESOURCE_BOOL:
                pay.append(1 if e.flag else 0)
            elif e.kind == RESOURCE_STRING:
                pay.write(encode_varint(intern(e.string)))
            elif e.blob is not None:
                if e.alignment < 1 or e.alignment & (e.alignment - 1):
                    raise EncodeError(f"resource '{e.key}' has alignment {e.alignment}, which is not a "
                                      "power of two")
                pay.write(encode_varint(e.alignment))
                pay.write(encode_varint(len(e.blob)))
                if e.alignment > 1:
                    pay.align(e.alignment)
                    max_align = max(max_align, e.alignment)
                pay.write(file_range(e.blob, e.offset, source))
            sizes.append(pay.size - start)
        off.varint(dialect_index(g.name) if g.is_dialect
                   else intern(g.name.encode("utf-8", "surrogateescape")))
        off.varint(len(g.entries))
        for e, size in zip(g.entries, sizes, strict=True):
            off.varint(intern(e.key.encode("utf-8", "surrogateescape")))
            off.varint(size)
            off.byte(e.kind)
    return bytes(off.buf), pay, max_align
