"""Section framing (format 1.8): id byte with alignment flag, length, optional alignment and padding."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ..binary.stream import ByteReader, ByteWriter, encode_varint
from ..files.chunks import Chunks


class SectionId(IntEnum):
    """Section ids (format 2): the byte before each section's length."""

    STRING = 0
    DIALECT = 1
    ATTR_TYPE = 2
    ATTR_TYPE_OFFSET = 3
    IR = 4
    RESOURCE = 5
    RESOURCE_OFFSET = 6
    DIALECT_VERSIONS = 7
    PROPERTIES = 8


SECTION_NAMES: dict[int, str] = {
    SectionId.STRING: "String", SectionId.DIALECT: "Dialect", SectionId.ATTR_TYPE: "AttrType",
    SectionId.ATTR_TYPE_OFFSET: "AttrTypeOffset", SectionId.IR: "IR", SectionId.RESOURCE: "Resource",
    SectionId.RESOURCE_OFFSET: "ResourceOffset", SectionId.DIALECT_VERSIONS: "DialectVersions",
    SectionId.PROPERTIES: "Properties",
}
MAX_SECTION_ID = max(SectionId)


@dataclass
class Section:
    id: int
    header_offset: int
    data: ByteReader
    alignment: int = 1

    @property
    def name(self) -> str:
        return SECTION_NAMES.get(self.id, str(self.id))


def read_section(r: ByteReader) -> Section:
    """Read one framed section; `r` moves past it."""
    start = r.pos
    id_flag = r.byte()
    sid = id_flag & 0x7F
    length = r.varint()
    alignment = 1
    if id_flag & 0x80:
        align_at = r.pos
        alignment = r.varint()
        if alignment == 0 or alignment & (alignment - 1):
            raise r.error(f"section alignment {alignment} is not a power of two", align_at)
        while r.pos % alignment:
            pad_at = r.pos
            if r.byte() != 0xCB:
                raise r.error("section padding byte is not 0xcb", pad_at)
    if length > r.remaining:
        raise r.error(f"section {SECTION_NAMES.get(sid, sid)} (id {sid}) declares {length} bytes "
                      f"but only {r.remaining} remain", start)
    name = SECTION_NAMES.get(sid, f"id {sid}")
    return Section(sid, start, r.sub(length, section=name), alignment)


def write_section(w: ByteWriter, sid: int, data: bytes | bytearray, alignment: int = 1,
                  force_alignment: bool = False) -> None:
    """Frame `data` as section `sid`; pad to `alignment` only when the data would start unaligned
    (upstream's rule), or always write the alignment when `force_alignment` (a template's choice)."""
    w.byte(sid)
    flag_at = len(w.buf) - 1
    w.varint(len(data))
    if force_alignment or (alignment > 1 and w.offset % alignment):
        w.buf[flag_at] |= 0x80
        w.varint(alignment)
        w.align(alignment)
    w.raw(data)


def frame_section(out: Chunks, sid: int, data: bytes | bytearray | Chunks, alignment: int = 1,
                  force_alignment: bool = False) -> None:
    """`write_section` onto streamed output: the frame is written, the data is kept by reference."""
    head = bytearray((sid,))
    head += encode_varint(len(data))
    at = out.size + len(head)
    if force_alignment or (alignment > 1 and at % alignment):
        head[0] |= 0x80
        head += encode_varint(alignment)
        head += b"\xcb" * ((-(out.size + len(head))) % alignment)
    out.write(head)
    out.write(data)
