"""Structure-aware mutations of MLIR bytecode for the fuzz targets.

A random byte flip of a bytecode file mostly breaks the section framing and stops the reader within a few
bytes.  These mutations know the format instead: the header (magic, version varint, producer string), the
framed sections (id byte with alignment flag, length varint, alignment padding) and, inside a section, the
stream of prefix varints that most of the format is made of.  Each mutation edits inside the structure and
re-frames the file, so the damage reaches the reader's later stages:

* `varint`: a varint replaced by a boundary value (0, 1, 2^7 - 1, 2^7, ... 2^64 - 1, the value +/- 1, the
  section's size) in its canonical or an over-long encoding;
* `section`: drop, duplicate, reorder, renumber or re-align a section, or swap its content with the same
  section of another file (a splice between files);
* `splice`: a byte range of another file spliced in;
* `version`: every version byte (0-7, huge), with the rest kept;
* `offsets`: the AttrTypeOffset table's counts and sizes;
* `opmask`: the IR section's op mask bytes (bits 0x01-0x40 and the undefined 0x80);
* `properties`: bytes of one properties payload;
* `truncate`: the file cut at a section or varint boundary;
* `bytes`: plain byte flips, insertions and deletions.

`Mutator.mutate(data, rng)` returns the mutated bytes and the name of the mutation used; it never raises on
any input (an input whose framing does not parse gets the byte-level mutations).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

MAGIC = b"ML\xefR"

BOUNDARY_VALUES = (0, 1, 2, 3, 0x3F, 0x40, 0x7F, 0x80, 0xFF, 0x100, 0x3FFF, 0x4000, 0xFFFF, 0x10000,
                   0x1FFFFF, 0x200000, 0xFFFFFFF, 0x10000000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF,
                   1 << 32, (1 << 35) - 1, 1 << 35, (1 << 49) - 1, (1 << 56) - 1, 1 << 56, (1 << 63) - 1,
                   1 << 63, (1 << 64) - 1)

KINDS = ("varint", "section", "splice", "version", "offsets", "opmask", "properties", "truncate",
         "bytes")


def encode_varint(v: int, length: int = 0) -> bytes:
    """MLIR's prefix varint of `v` (< 2^64), over-long (padded to `length` bytes) when asked."""
    v &= (1 << 64) - 1
    need = 1
    while need < 9 and v >= 1 << (7 * need):
        need += 1
    n = max(need, min(length, 9))
    if n == 9:
        return b"\x00" + v.to_bytes(8, "little")
    return ((v << n) | (1 << (n - 1))).to_bytes(n, "little")


def read_varint(data: bytes, pos: int, end: int) -> tuple[int, int] | None:
    """(value, next position) of the varint at `pos`, or None if it runs past `end`."""
    if pos >= end:
        return None
    b = data[pos]
    if b == 0:
        if pos + 9 > end:
            return None
        return int.from_bytes(data[pos + 1:pos + 9], "little"), pos + 9
    n = (b & -b).bit_length()
    if pos + n > end:
        return None
    return int.from_bytes(data[pos:pos + n], "little") >> n, pos + n


@dataclass
class Section:
    id_byte: int
    alignment: int | None
    content: bytes


@dataclass
class Layout:
    """A bytecode file taken apart: header pieces and framed sections (None: framing does not parse)."""

    version: int
    producer: bytes
    sections: list[Section] = field(default_factory=list)
    trailing: bytes = b""

    def assemble(self) -> bytes:
        out = bytearray(MAGIC)
        out += encode_varint(self.version)
        out += self.producer + b"\0"
        for s in self.sections:
            out.append(s.id_byte)
            out += encode_varint(len(s.content))
            if s.alignment is not None:
                out += encode_varint(s.alignment)
                align = s.alignment if 0 < s.alignment <= 4096 and not s.alignment & (s.alignment - 1) \
                    else 1
                while len(out) % align:
                    out.append(0xCB)
            out += s.content
        out += self.trailing
        return bytes(out)

    def find(self, sid: int) -> int | None:
        for i, s in enumerate(self.sections):
            if s.id_byte & 0x7F == sid:
                return i
        return None


def parse_layout(data: bytes) -> Layout | None:
    if not data.startswith(MAGIC):
        return None
    v = read_varint(data, 4, len(data))
    if v is None:
        return None
    version, pos = v
    nul = data.find(b"\0", pos)
    if nul < 0:
        return None
    layout = Layout(version, data[pos:nul])
    pos = nul + 1
    while pos < len(data):
        id_byte = data[pos]
        v = read_varint(data, pos + 1, len(data))
        if v is None:
            layout.trailing = data[pos:]
            break
        length, p = v
        alignment = None
        if id_byte & 0x80:
            a = read_varint(data, p, len(data))
            if a is None:
                layout.trailing = data[pos:]
                break
            alignment, p = a
            if 0 < alignment <= 4096 and not alignment & (alignment - 1):
                while p < len(data) and p % alignment and data[p] == 0xCB:
                    p += 1
        if p + length > len(data):
            layout.trailing = data[pos:]
            break
        layout.sections.append(Section(id_byte, alignment, data[p:p + length]))
        pos = p + length
    return layout


def varint_positions(content: bytes, limit: int = 4096) -> list[tuple[int, int]]:
    """(start, end) of the varints read consecutively from the start of `content` (a section's stream of
    varints; strings and blobs inside make later positions approximate, which is fine for mutation)."""
    out: list[tuple[int, int]] = []
    pos = 0
    while pos < len(content) and len(out) < limit:
        v = read_varint(content, pos, len(content))
        if v is None:
            break
        out.append((pos, v[1]))
        pos = v[1]
    return out


class Mutator:
    """Mutations of bytecode files; `donors` are other files for splices."""

    def __init__(self, donors: list[bytes]) -> None:
        self.donors = [d for d in donors if d]
        self._layouts: dict[int, Layout | None] = {}

    def donor_layout(self, rng: random.Random) -> Layout | None:
        if not self.donors:
            return None
        i = rng.randrange(len(self.donors))
        if i not in self._layouts:
            self._layouts[i] = parse_layout(self.donors[i])
        return self._layouts[i]

    def mutate(self, data: bytes, rng: random.Random, kind: str | None = None) -> tuple[bytes, str]:
        layout = parse_layout(data)
        if kind is None:
            kind = rng.choice(KINDS)
        if layout is None or not layout.sections:
            kind = rng.choice(("bytes", "splice", "truncate"))
        try:
            out = getattr(self, f"_m_{kind}")(data, layout, rng)
        except (IndexError, ValueError):
            out = None
        if out is None or out == data:
            return self._m_bytes(data, layout, rng), "bytes"
        return out, kind

    # -- mutations -------------------------------------------------------------------------------------
    def _pick_section(self, layout: Layout, rng: random.Random, sid: int | None = None) -> int | None:
        if sid is not None:
            return layout.find(sid)
        return rng.randrange(len(layout.sections)) if layout.sections else None

    def _m_varint(self, data: bytes, layout: Layout, rng: random.Random) -> bytes | None:
        i = self._pick_section(layout, rng, rng.choice((None, 2, 4, 4, 8, 1, 0)))
        if i is None:
            return None
        s = layout.sections[i]
        spots = varint_positions(s.content)
        if not spots:
            return None
        start, end = rng.choice(spots)
        old = read_varint(s.content, start, end)
        value = old[0] if old is not None else 0
        choice = rng.random()
        if choice < 0.5:
            new = rng.choice(BOUNDARY_VALUES)
        elif choice < 0.7:
            new = max(0, value + rng.choice((-2, -1, 1, 2)))
        elif choice < 0.8:
            new = len(s.content) + rng.randrange(-2, 3)
        elif choice < 0.9:
            new = value ^ (1 << rng.randrange(8))
        else:
            new = value
        pad = rng.choice((0, 0, 0, end - start + 1, 9))
        s.content = s.content[:start] + encode_varint(max(new, 0), pad) + s.content[end:]
        return layout.assemble()

    def _m_section(self, data: bytes, layout: Layout, rng: random.Random) -> bytes | None:
        i = self._pick_section(layout, rng)
        if i is None:
            return None
        op = rng.randrange(7)
        secs = layout.sections
        if op == 0:
            del secs[i]
        elif op == 1:
            secs.insert(rng.randrange(len(secs) + 1), Section(secs[i].id_byte, secs[i].alignment,
                                                                secs[i].content))
        elif op == 2:
            j = rng.randrange(len(secs))
            secs[i], secs[j] = secs[j], secs[i]
        elif op == 3:
            secs[i].id_byte = (secs[i].id_byte & 0x80) | rng.choice((0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0x7F))
        elif op == 4:
            secs[i].alignment = rng.choice((None, 0, 1, 3, 8, 64, 4096, 1 << 20))
            secs[i].id_byte = secs[i].id_byte | 0x80 if secs[i].alignment is not None \
                else secs[i].id_byte & 0x7F
        elif op == 5:
            donor = self.donor_layout(rng)
            if donor is None:
                return None
            j = donor.find(secs[i].id_byte & 0x7F)
            if j is None:
                return None
            secs[i] = Section(secs[i].id_byte, secs[i].alignment, donor.sections[j].content)
        else:
            c = secs[i].content
            cut = rng.randrange(len(c) + 1) if c else 0
            secs[i].content = c[:cut] if rng.random() < 0.5 else c[cut:]
        return layout.assemble()

    def _m_splice(self, data: bytes, layout: Layout | None, rng: random.Random) -> bytes | None:
        if not self.donors:
            return None
        donor = rng.choice(self.donors)
        a = rng.randrange(len(data) + 1)
        b = min(len(data), a + rng.randrange(64))
        c = rng.randrange(len(donor) + 1)
        d = min(len(donor), c + rng.randrange(1, 256))
        return data[:a] + donor[c:d] + data[b:]

    def _m_version(self, data: bytes, layout: Layout, rng: random.Random) -> bytes | None:
        layout.version = rng.choice((0, 1, 2, 3, 4, 5, 6, 7, 8, 127, 128, 1 << 32, (1 << 64) - 1))
        return layout.assemble()

    def _m_offsets(self, data: bytes, layout: Layout, rng: random.Random) -> bytes | None:
        i = layout.find(3)
        if i is None:
            return None
        s = layout.sections[i]
        spots = varint_positions(s.content)
        if not spots:
            return None
        start, end = rng.choice(spots)
        new = rng.choice((0, 1, 2, 0x7F, 0x80, len(s.content), 1 << 20, (1 << 64) - 1))
        s.content = s.content[:start] + encode_varint(new) + s.content[end:]
        return layout.assemble()

    def _m_opmask(self, data: bytes, layout: Layout, rng: random.Random) -> bytes | None:
        i = layout.find(4)
        if i is None:
            return None
        s = layout.sections[i]
        c = bytearray(s.content)
        # Op masks are small bytes (<= 0x7F) that follow an op name index; flip a bit of a candidate.
        candidates = [k for k in range(1, len(c)) if c[k] < 0x80 and c[k] & 0x7F and not c[k] & 1
                      or c[k] in (0x01, 0x03, 0x07, 0x43, 0x47, 0x53)]
        if not candidates:
            return None
        k = rng.choice(candidates)
        c[k] ^= rng.choice((0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80))
        s.content = bytes(c)
        return layout.assemble()

    def _m_properties(self, data: bytes, layout: Layout, rng: random.Random) -> bytes | None:
        i = layout.find(8)
        if i is None:
            return None
        s = layout.sections[i]
        if len(s.content) < 2:
            return None
        c = bytearray(s.content)
        k = rng.randrange(1, len(c))
        op = rng.randrange(4)
        if op == 0:
            c[k] ^= 1 << rng.randrange(8)
        elif op == 1:
            c[k] = rng.choice((0x00, 0x01, 0x02, 0x03, 0x7F, 0x80, 0xFF))
        elif op == 2:
            c.insert(k, rng.randrange(256))
        else:
            del c[k]
        s.content = bytes(c)
        return layout.assemble()

    def _m_truncate(self, data: bytes, layout: Layout | None, rng: random.Random) -> bytes | None:
        if layout is not None and layout.sections and rng.random() < 0.6:
            i = rng.randrange(len(layout.sections))
            s = layout.sections[i]
            spots = varint_positions(s.content)
            cut = rng.choice(spots)[0] if spots else 0
            s.content = s.content[:cut]
            del layout.sections[i + 1:]
            return layout.assemble()
        return data[:rng.randrange(len(data) + 1)] if data else None

    def _m_bytes(self, data: bytes, layout: Layout | None, rng: random.Random) -> bytes:
        b = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            if not b:
                b.append(rng.randrange(256))
                continue
            pos = rng.randrange(len(b))
            op = rng.randrange(4)
            if op == 0:
                b[pos] ^= 1 << rng.randrange(8)
            elif op == 1:
                b[pos] = rng.choice((0x00, 0xFF, 0x80, 0x01, rng.randrange(256)))
            elif op == 2:
                b.insert(pos, rng.randrange(256))
            else:
                del b[pos]
        return bytes(b)
