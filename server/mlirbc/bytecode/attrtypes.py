"""Attribute and type tables (format 5): the offset section (id 3) and the data section (id 2), read and
written (`encode_attr_types`).

Entries are decoded on first use, like upstream does, so a damaged entry nobody references does not fail
the file.  References between entries may point forwards and chains may be long (call-site locations in
JAX/IREE files), so resolution uses an explicit work stack, never recursion over the chain.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterator, Sequence
from enum import IntEnum
from typing import overload

from ..binary.stream import ByteReader, ByteWriter
from ..errors import DecodeError, TextError
from ..files.chunks import Chunks, FileRange
from ..ir.attributes import (
    Attribute,
    DialectAttr,
    DictionaryAttr,
    FallbackAttr,
    IntegerAttr,
    StringAttr,
)
from ..ir.module import DialectEntry
from ..ir.types import FallbackType, MemRefType, Type, UnrankedMemRefType
from ..models.api import ModelError, accepts_producer, producer_note
from ..models.registry import Registry
from ..yielding import checkpoint
from . import builtin_codec
from .builtin_batch import decode_builtin_entries
from .sections import Section
from .template import TableEntry


class EntryKind(IntEnum):
    """The two tables of the AttrType sections."""

    ATTR = 0
    TYPE = 1


ATTR = EntryKind.ATTR
TYPE = EntryKind.TYPE
_KIND = ("attribute", "type")

Value = Attribute | Type


class _Pending(Exception):
    """Raised while decoding an entry that needs another entry not decoded yet."""

    def __init__(self, kind: int, index: int) -> None:
        self.dep = (kind, index)


class _RawEntry:
    """One entry's place in the file, made on demand from the table's arrays (the slow paths use it)."""

    __slots__ = ("dialect", "offset", "size", "custom")

    def __init__(self, dialect: int, offset: int, size: int, custom: bool) -> None:
        self.dialect = dialect
        self.offset = offset
        self.size = size
        self.custom = custom


_SCAN_STRING = StringAttr.get(b"")


class EntryDecoder(ByteReader):
    """Reads one entry (or one properties payload) and resolves its references through the table.

    `scan=True` collects not-yet-decoded references instead of stopping at the first one, returning
    placeholders, so the resolver can queue all of an entry's dependencies at once.
    """

    __slots__ = ("table", "version", "scan", "deps", "distinct_ident")

    def __init__(self, table: AttrTypeTable, data: memoryview, pos: int, end: int, section: str,
                 scan: bool = False) -> None:
        super().__init__(data, pos, end, section)
        self.table = table
        self.version = table.version
        self.scan = scan
        self.deps: set[tuple[int, int]] = set()
        self.distinct_ident = 0

    def _ref(self, kind: int) -> Value:
        at = self.pos
        return self._entry(kind, self.varint(), at)

    def _entry(self, kind: int, idx: int, at: int) -> Value:
        """The referenced entry; one not decoded yet stops a strict decode or is noted by a scan."""
        values = self.table.values[kind]
        if idx >= len(values):
            raise self.error(f"{_KIND[kind]} index {idx} out of range ({len(values)} entries)", at)
        v = values[idx]
        if v is not None:
            return v
        if not self.scan:
            raise _Pending(kind, idx)
        self.deps.add((kind, idx))
        if kind == TYPE:
            raise _Pending(kind, idx)  # a type can change how the rest is laid out: stop here
        return _SCAN_STRING

    def attr(self) -> Attribute:
        v = self._ref(ATTR)
        assert isinstance(v, Attribute)
        return v

    def optional_attr(self) -> Attribute | None:
        at = self.pos
        v = self.varint()
        if not v & 1:
            if v:
                raise self.error("absent optional attribute with a non-zero index", at)
            return None
        a = self._entry(ATTR, v >> 1, at)
        assert isinstance(a, Attribute)
        return a

    def type(self) -> Type:
        v = self._ref(TYPE)
        assert isinstance(v, Type)
        return v

    def string(self) -> bytes:
        at = self.pos
        idx = self.varint()
        strings = self.table.strings
        if idx >= len(strings):
            raise self.error(f"string index {idx} out of range ({len(strings)} strings)", at)
        return strings[idx]

    def sparse_array(self) -> list[int]:
        at = self.pos
        n, sparse = self.varint_flag()
        if not sparse:
            if n > self.remaining:
                raise self.error(f"dense array of {n} values is longer than the data", at)
            return [self.varint() for _ in range(n)]
        if n > self.remaining:
            raise self.error(f"sparse array of {n} values is longer than the data", at)
        if n == 0:
            return []
        bits = self.varint()
        if bits > 63:
            raise self.error(f"sparse array index width {bits} is too large", at)
        pairs = [self.varint() for _ in range(n)]
        mask = (1 << bits) - 1
        size = max(p & mask for p in pairs) + 1
        out = [0] * size
        for p in pairs:
            out[p & mask] = p >> bits
        return out

    def resource_key(self, handle: int) -> str:
        keys = self.table.resource_keys
        if handle >= len(keys):
            raise ValueError(f"resource handle {handle} out of range ({len(keys)} dialect resources)")
        return keys[handle]


class AttrTypeTable:
    def __init__(self, data: memoryview, version: int, strings: list[bytes],
                 dialects: list[DialectEntry], registry: Registry, resource_keys: list[str],
                 offsets: Section, entries: Section, producer: str = "") -> None:
        self.data = data
        self.version = version
        self.strings = strings
        self.dialects = dialects
        self.registry = registry
        self.resource_keys = resource_keys
        self.entries_section = entries
        r = offsets.data
        parsed = _parse_offsets_fast(r, entries.data.pos, entries.data.end, len(dialects))
        if parsed is None:
            parsed = _parse_offsets(r, entries.data.pos, entries.data.end, len(dialects))
        # Per kind, parallel compact arrays instead of an object per entry: `offsets` has one more item
        # than there are entries (entry i spans offsets[i]:offsets[i + 1]).
        self.entry_dialects: list[array[int]] = parsed[0]
        self.offsets: list[array[int]] = parsed[1]
        self.custom: list[bytearray] = parsed[2]
        n_attrs = len(self.custom[ATTR])
        n_types = len(self.custom[TYPE])
        self.producer = producer
        self.newer_producer = producer_may_be_newer(producer)
        self.values: list[list[Value | None]] = [[None] * n_attrs, [None] * n_types]
        self.models: list[list[str]] = [[""] * n_attrs, [""] * n_types]
        self.reasons: list[list[str]] = [[""] * n_attrs, [""] * n_types]
        self._distinct = 0

    # -- public --------------------------------------------------------------------------------
    def attr(self, idx: int) -> Attribute:
        v = self.resolve(ATTR, idx)
        assert isinstance(v, Attribute)
        return v

    def type(self, idx: int) -> Type:
        v = self.resolve(TYPE, idx)
        assert isinstance(v, Type)
        return v

    def count(self, kind: int) -> int:
        return len(self.values[kind])

    def decode_builtin(self) -> None:
        """Decode the common builtin entries in one fast batch (`builtin_batch`); the rest, and any
        error, are left to first use."""
        decode_builtin_entries(self)

    def decode_all(self) -> None:
        """Decode every entry (for `info` and template mode); errors propagate."""
        for kind in (ATTR, TYPE):
            for i in range(len(self.values[kind])):
                self.resolve(kind, i)

    def table_entries(self, kind: int) -> Sequence[TableEntry]:
        """The entries of one kind as stored, when every one is decoded (else empty: a partial table
        cannot serve as a template).  Each `TableEntry` is made on access: a large file has as many
        entries as ops, and most users (the writer's template) read each once."""
        if None in self.values[kind]:
            return []
        return TableEntries(self, kind)

    def entry(self, kind: int, idx: int) -> TableEntry:
        """Entry `idx` of a decoded table as stored."""
        e = self._raw(kind, idx)
        v = self.values[kind][idx]
        assert v is not None
        return TableEntry(v, e.dialect, e.custom, e.offset, e.size, self.models[kind][idx],
                          self.reasons[kind][idx])

    def _raw(self, kind: int, idx: int) -> _RawEntry:
        offsets = self.offsets[kind]
        return _RawEntry(self.entry_dialects[kind][idx], offsets[idx], offsets[idx + 1] - offsets[idx],
                         bool(self.custom[kind][idx]))

    def reader(self, pos: int, end: int, section: str) -> EntryDecoder:
        """A reader for a properties payload that resolves references (decoding them on demand)."""
        return _ResolvingDecoder(self, self.data, pos, end, section)

    # -- resolution ------------------------------------------------------------------------------
    def resolve(self, kind: int, idx: int) -> Value:
        values = self.values[kind]
        v = values[idx]
        if v is not None:
            return v
        # The stack holds (kind, index, is_hint).  Non-hint entries form a chain in which each one is
        # the strict dependency of the one below, so a repeat inside that chain is a real cycle.  Hint
        # entries come from scanning an entry for all its references at once (cheaper than one retry per
        # reference); a scan may misread after a placeholder, so a hint that cannot resolve is dropped.
        stack: list[tuple[int, int, bool]] = [(kind, idx, False)]
        chain = {(kind, idx)}
        budget = 16 * (len(self.values[ATTR]) + len(self.values[TYPE])) + 1024
        while stack:
            budget -= 1
            k, i, hint = stack[-1]
            if self.values[k][i] is not None:
                stack.pop()
                if not hint:
                    chain.discard((k, i))
                continue
            if budget < 0:
                e = self._raw(k, i)
                raise DecodeError(f"{_KIND[k]} #{i}: references between entries do not resolve "
                                  "(a reference cycle)", e.offset, "AttrType")
            try:
                self.values[k][i] = self._decode(k, i)
            except _Pending as p:
                if p.dep in chain:
                    if hint:
                        stack.pop()
                        continue
                    e = self._raw(k, i)
                    raise DecodeError(f"{_KIND[k]} #{i} refers to itself through "
                                      f"{_KIND[p.dep[0]]} #{p.dep[1]} (a reference cycle)",
                                      e.offset, "AttrType") from None
                if not hint:
                    for dep in sorted(self._scan(k, i) - {p.dep}, reverse=True):
                        if self.values[dep[0]][dep[1]] is None and dep not in chain:
                            stack.append((dep[0], dep[1], True))
                stack.append((p.dep[0], p.dep[1], hint))
                if not hint:
                    chain.add(p.dep)
                continue
            stack.pop()
            if not hint:
                chain.discard((k, i))
        v = values[idx]
        assert v is not None
        return v

    def _scan(self, kind: int, idx: int) -> set[tuple[int, int]]:
        e = self._raw(kind, idx)
        r = EntryDecoder(self, self.data, e.offset, e.offset + e.size, "AttrType", scan=True)
        try:
            self._decode_with(kind, e, r)
        except Exception:  # the scan is best effort: whatever it found so far is queued
            pass
        return r.deps

    def _decode(self, kind: int, idx: int) -> Value:
        e = self._raw(kind, idx)
        r = EntryDecoder(self, self.data, e.offset, e.offset + e.size, "AttrType")
        if kind == ATTR:
            r.distinct_ident = idx
        dialect = self.dialects[e.dialect].name
        if not e.custom:
            return self._textual(kind, idx, e, dialect)
        try:
            value, model = self._decode_with(kind, e, r)
            if not r.at_end():
                raise ValueError(f"{r.remaining} trailing bytes after the encoding")
            if kind == TYPE and dialect == "builtin":
                opaque = _opaque_required_attr(value, self.registry)
                if opaque:
                    return self._fallback(kind, idx, e, dialect, opaque)
            self.models[kind][idx] = model
            return value
        except _Pending:
            raise
        except _NewerCodecFailed as exc:
            return self._fallback(kind, idx, e, dialect,
                                  f"{exc} (written by {self.producer}, newer than MLIR 22)")
        except builtin_codec.UnknownCode as exc:
            if not self.newer_producer:
                raise DecodeError(f"builtin {_KIND[kind]} #{idx}: {exc}, which the producer "
                                  f"'{self.producer}' does not write", e.offset, "AttrType") from None
            return self._fallback(kind, idx, e, dialect,
                                  f"{exc} (written by {self.producer}, newer than MLIR 22)")
        except (ModelError, ValueError, DecodeError) as exc:
            if dialect == "builtin":
                msg = exc.message if isinstance(exc, DecodeError) else str(exc)
                raise DecodeError(f"malformed builtin {_KIND[kind]} #{idx}: {msg}", e.offset,
                                  "AttrType") from None
            codec = (self.registry.attr_codec if kind == ATTR else self.registry.type_codec)(dialect)[0]
            return self._fallback(kind, idx, e, dialect,
                                  f"the '{dialect}' model failed at byte {r.pos - e.offset}: {exc}"
                                  + producer_note(codec, self.producer))
        except _NoModel as exc:
            return self._fallback(kind, idx, e, dialect, str(exc))
        except Exception as exc:  # a plugin's bug must not break the file
            return self._fallback(kind, idx, e, dialect,
                                  f"the '{dialect}' model raised {type(exc).__name__}: {exc}")

    def _decode_with(self, kind: int, e: _RawEntry, r: EntryDecoder) -> tuple[Value, str]:
        dialect = self.dialects[e.dialect].name
        if dialect == "builtin":
            start = r.pos
            try:
                if kind == ATTR:
                    return builtin_codec.decode_attribute(r), ""
                return builtin_codec.decode_type(r), ""
            except builtin_codec.UnknownCode as exc:
                return self._newer_builtin(kind, r, start, exc)
        if kind == ATTR:
            codec, origin = self.registry.attr_codec(dialect)
            if codec is None:
                raise _NoModel(f"no model decodes '{dialect}' attributes")
            self._check_producer(codec, origin, dialect)
            return codec.decode_attribute(r), origin
        codec, origin = self.registry.type_codec(dialect)
        if codec is None:
            raise _NoModel(f"no model decodes '{dialect}' types")
        self._check_producer(codec, origin, dialect)
        return codec.decode_type(r), origin

    def _check_producer(self, codec: object, origin: str, dialect: str) -> None:
        if not accepts_producer(codec, self.producer):
            raise _NoModel(f"the '{dialect}' model ({origin}) does not read files of producer "
                           f"'{self.producer}' (their encoding may differ from the one it knows)")

    def _newer_builtin(self, kind: int, r: EntryDecoder, start: int,
                       unknown: builtin_codec.UnknownCode) -> tuple[Value, str]:
        """Hook for builtin codes newer than MLIR 22 (`UnknownCode` from the builtin codec).

        Only when the producer may be newer, the registry's `attr:builtin` / `type:builtin` codec (an
        `AttrTypeCodec`; `models/builtin_newer.py` ships one) decodes the entry from its start, code included.
        Without such a codec `unknown` propagates (fallback, or damage for an MLIR <= 22 producer); if the
        codec fails or leaves bytes over, `_NewerCodecFailed` makes the entry a fallback saying why.
        """
        if not self.newer_producer:
            raise unknown
        codec, origin = (self.registry.attr_codec("builtin") if kind == ATTR
                         else self.registry.type_codec("builtin"))
        if codec is None:
            raise unknown
        r.pos = start
        try:
            value: Value = codec.decode_attribute(r) if kind == ATTR else codec.decode_type(r)
            if not r.at_end():
                raise ModelError(f"{r.remaining} trailing bytes after the encoding")
        except _Pending:
            raise
        except Exception as exc:  # any failure of a model, plugins included, keeps the entry opaque
            msg = exc.message if isinstance(exc, DecodeError) else str(exc)
            raise _NewerCodecFailed(f"{unknown}; the newer-builtin model ({origin}) failed at byte "
                                    f"{r.pos - start}: {msg}") from None
        return value, origin

    def _fallback(self, kind: int, idx: int, e: _RawEntry, dialect: str, reason: str) -> Value:
        self.reasons[kind][idx] = reason
        data = self.data[e.offset:e.offset + e.size]  # kept as a view when large (frozen)
        return FallbackAttr.get(dialect, data) if kind == ATTR else FallbackType.get(dialect, data)

    def _textual(self, kind: int, idx: int, e: _RawEntry, dialect: str) -> Value:
        raw = bytes(self.data[e.offset:e.offset + e.size])
        if not raw or raw[-1] != 0:
            raise DecodeError(f"textual {_KIND[kind]} #{idx} is not NUL-terminated", e.offset,
                              "AttrType")
        text = raw[:-1].decode("utf-8", "surrogateescape")
        # Parsing the text checks it the way upstream does (it parses textual entries) and gives the
        # same object the view's parser will produce: a structured one for builtin text (a StringAttr
        # stored as text), a DialectAttr/DialectType keyed by its exact text otherwise.
        from ..syntax.attr_parser import parse_attribute_text, parse_type_text

        try:
            if kind == TYPE:
                return parse_type_text(text, self.registry.syntax)
            return parse_attribute_text(text, self.registry.syntax)
        except TextError as exc:
            raise DecodeError(f"textual {_KIND[kind]} #{idx} ({dialect}) does not parse: "
                              f"{exc.message} at column {exc.span.start_col + 1} of {text!r}",
                              e.offset, "AttrType") from None
        except RecursionError:
            raise DecodeError(f"textual {_KIND[kind]} #{idx} ({dialect}) is nested too deeply",
                              e.offset, "AttrType") from None


_Parsed = tuple[list["array[int]"], list["array[int]"], list[bytearray]]


def _parse_offsets(r: ByteReader, pos: int, end: int, n_dialects: int) -> _Parsed:
    """The offset section, read with every check and its located error (the fast reader's fallback)."""
    n_attrs = r.count("attribute", 0)
    n_types = r.count("type", 0)
    if n_attrs + n_types > r.remaining * 128 + 1:
        raise r.error(f"{n_attrs} attributes and {n_types} types cannot fit in the offset section")
    out: _Parsed = ([array("I"), array("I")], [array("q", [pos]), array("q")], [bytearray(), bytearray()])
    for kind, total in ((ATTR, n_attrs), (TYPE, n_types)):
        dia, offs, custom = out[0][kind], out[1][kind], out[2][kind]
        if kind == TYPE:
            offs.append(pos)
        while len(custom) < total:
            at = r.pos
            d = r.varint()
            if d >= n_dialects:
                raise r.error(f"{_KIND[kind]} group names dialect #{d} but there are "
                              f"{n_dialects}", at)
            count = r.count(f"{_KIND[kind]} group entry", 1)
            if len(custom) + count > total:
                raise r.error(f"{_KIND[kind]} groups hold more than the declared {total} "
                              "entries", at)
            for _ in range(count):
                eat = r.pos
                size, flag = r.varint_flag()
                if size > end - pos:
                    raise r.error(f"{_KIND[kind]} #{len(custom)} of {size} bytes runs past the "
                                  f"end of the AttrType section", eat)
                dia.append(d)
                custom.append(flag)
                pos += size
                offs.append(pos)
    if not r.at_end():
        raise r.error("trailing bytes after the last attribute/type group")
    return out


def _parse_offsets_fast(r: ByteReader, pos: int, end: int, n_dialects: int) -> _Parsed | None:
    """The offset section of a well-formed file, in one pass over its bytes with one-byte varints inline;
    None for anything unusual (then `_parse_offsets` reads it again and says what is wrong).  `r` only
    moves when the result is returned."""
    data = r.data
    p = r.pos
    stop = r.end
    vals: list[int] = []
    append = vals.append
    try:
        while p < stop:
            b = data[p]
            if b & 1:
                append(b >> 1)
                p += 1
            else:
                v, p = _varint_at(data, p)
                append(v)
    except IndexError:
        return None
    if p != stop or len(vals) < 2:
        return None
    n_attrs, n_types = vals[0], vals[1]
    if n_attrs + n_types > len(vals):
        return None
    out: _Parsed = ([array("I"), array("I")], [array("q"), array("q")], [bytearray(), bytearray()])
    i = 2
    nv = len(vals)
    for kind, total in ((ATTR, n_attrs), (TYPE, n_types)):
        dia, custom = out[0][kind], out[2][kind]
        offs = [pos]
        oappend = offs.append
        cappend = custom.append
        while len(custom) < total:
            if i + 2 > nv:
                return None
            d, count = vals[i], vals[i + 1]
            i += 2
            if d >= n_dialects or count == 0 or len(custom) + count > total or i + count > nv:
                return None
            for v in vals[i:i + count]:
                pos += v >> 1
                oappend(pos)
                cappend(v & 1)
            dia.extend([d] * count)
            i += count
        if pos > end:
            return None
        out[1][kind] = array("q", offs)
    if i != nv:
        return None
    r.pos = p
    return out


def _varint_at(data: memoryview | bytes, pos: int) -> tuple[int, int]:
    """A varint that is longer than one byte: (value, position after it); IndexError when truncated."""
    b = data[pos]
    if b == 0:
        if pos + 9 > len(data):
            raise IndexError(pos)
        return int.from_bytes(data[pos + 1:pos + 9], "little"), pos + 9
    n = (b & -b).bit_length() - 1
    if pos + 1 + n > len(data):
        raise IndexError(pos)
    return int.from_bytes(data[pos:pos + 1 + n], "little") >> (n + 1), pos + 1 + n


class TableEntries(Sequence[TableEntry]):
    """The decoded entries of one kind of a table, as a read-only sequence of `TableEntry`."""

    __slots__ = ("_table", "_kind", "_n")

    def __init__(self, table: AttrTypeTable, kind: int) -> None:
        self._table = table
        self._kind = kind
        self._n = table.count(kind)

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> TableEntry: ...
    @overload
    def __getitem__(self, i: slice) -> list[TableEntry]: ...

    def __getitem__(self, i: int | slice) -> TableEntry | list[TableEntry]:
        if isinstance(i, slice):
            return [self._table.entry(self._kind, k) for k in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        return self._table.entry(self._kind, i)

    def stored(self) -> Iterator[tuple[Value, int, bool, int, int]]:
        """(value, dialect, custom, offset, size) of each entry, without a `TableEntry` per entry (a
        writer seeding its numbering from 100,000 entries)."""
        t, k = self._table, self._kind
        offsets = t.offsets[k]
        for v, d, c, lo, hi in zip(t.values[k], t.entry_dialects[k], t.custom[k], offsets,
                                   offsets[1:], strict=False):
            assert v is not None  # (a table with undecoded entries has no TableEntries)
            yield v, d, bool(c), lo, hi - lo

    def sized(self, min_size: int) -> Iterator[tuple[int, Value, int]]:
        """(index, value, size) of the entries of `min_size` bytes or more, found from the offsets alone
        (a writer looking for the few large payloads among 100,000 entries)."""
        t, k = self._table, self._kind
        offsets = t.offsets[k]
        values = t.values[k]
        for i in range(len(offsets) - 1):
            size = offsets[i + 1] - offsets[i]
            if size >= min_size:
                v = values[i]
                assert v is not None
                yield i, v, size

    def __iter__(self) -> Iterator[TableEntry]:
        entry = self._table.entry
        kind = self._kind
        for k in range(self._n):
            yield entry(kind, k)

    # What code written for the list this used to be does with it: concatenation.
    def __add__(self, other: Sequence[TableEntry]) -> list[TableEntry]:
        return [*self, *other]

    def __radd__(self, other: Sequence[TableEntry]) -> list[TableEntry]:
        return [*other, *self]


def producer_may_be_newer(producer: str) -> bool:
    """Whether a producer may write builtin codes MLIR 22 does not know.

    Upstream MLIR up to 22 never writes an unknown code, so in their files one is damage; a newer MLIR
    (IREE's `MLIR24.0.0git`) or another producer (`StableHLO_v1.15.0`) may have newer codes.
    """
    m = re.match(r"MLIR(\d+)", producer)
    return m is None or int(m.group(1)) > 22


class _NoModel(Exception):
    pass


class _NewerCodecFailed(Exception):
    """The newer-builtin codec could not decode an entry with an unknown builtin code."""


def _opaque_required_attr(t: Value, registry: Registry) -> str:
    """Why a decoded builtin type must stay opaque ("" if it need not): an attribute in a position that
    needs a specific kind, which the view could not print in a form mlir-opt 22 accepts there.

    * memref layout: mlir-opt takes the attribute after the element type as the layout only when it is
      one (affine map, strided); an opaque `#mlirbc.fallback<...>` reads as a memory space ("multiple
      memory spaces specified") or fails an affine-map cast;
    * memory space: MLIR accepts integer, string and dictionary attributes, or an attribute of a
      non-builtin dialect it has loaded; one of a dialect the reading tool does not know (the `mlirbc` of
      a fallback, or `#hal...` for mlir-opt) is parsed as a builtin opaque attribute: "unsupported memory
      space".  A dialect with registered models (IREE's `hal` through the IREE plugin) is one the tool
      that wrote the file knows (`iree-opt` reads `#hal.descriptor_type<...>` there), so it is decoded.
    """
    if isinstance(t, MemRefType) and isinstance(t.layout, FallbackAttr):
        return ("its memref layout is an attribute no model decodes, which the text form cannot carry in "
                "a layout position")
    if isinstance(t, (MemRefType, UnrankedMemRefType)) and t.memory_space is not None:
        space = t.memory_space
        if isinstance(space, (IntegerAttr, StringAttr, DictionaryAttr)):
            return ""
        if isinstance(space, FallbackAttr):
            return ("its memory space is an attribute no model decodes; mlir-opt rejects the opaque "
                    "form as a memory space")
        dialect = space.dialect_name if isinstance(space, DialectAttr) else "builtin"
        if dialect == "builtin":
            return "its memory space is a builtin attribute of a kind MLIR does not accept there"
        from ..models.ods import mlir_opt_dialects  # the model data loads on first use

        if dialect not in mlir_opt_dialects() and not registry.has_dialect(dialect):
            return (f"its memory space is a '{dialect}' attribute, which mlir-opt 22 (not knowing that "
                    "dialect) rejects as a memory space in the text form")
    return ""


class _ResolvingDecoder(EntryDecoder):
    """An entry reader for op properties: references are resolved (decoded) on demand."""

    __slots__ = ()

    def _entry(self, kind: int, idx: int, at: int) -> Value:
        values = self.table.values[kind]
        if idx >= len(values):
            raise self.error(f"{_KIND[kind]} index {idx} out of range ({len(values)} entries)", at)
        v = values[idx]
        return v if v is not None else self.table.resolve(kind, idx)


Encoding = bytes | memoryview | FileRange | Chunks
"""An entry's bytes: a template entry's original bytes may be a view of the mapped file, a new entry
holding a large payload is `Chunks` (see `chunks`)."""


def encode_entry_groups(entries: Sequence[tuple[int, bool, Encoding]], fixed: list[int] | None = None
                        ) -> tuple[bytes, Chunks]:
    """The offset-section groups and the data of one kind's entries, given as (dialect#, custom,
    encoding) in final order: each maximal run of one dialect is a group (format 11.4), except that the
    first entries follow `fixed` (a template's group sizes), when given.  Large encodings are kept by
    reference in the data (`Chunks`)."""
    off = ByteWriter()
    data = Chunks()
    sizes = list(fixed or ())
    n = len(entries)
    i = 0
    while i < n:
        dialect = entries[i][0]
        j = i + 1
        if sizes:
            j = min(n, i + sizes.pop(0))
        else:
            while j < n and entries[j][0] == dialect:
                j += 1
        off.varint(dialect)
        off.varint(j - i)
        for k in range(i, j, 1024):
            checkpoint()  # a server readies a template's entries in the background (see yielding)
            for _, custom, payload in entries[k:min(j, k + 1024)]:
                off.varint_flag(len(payload), custom)
                data.write(payload)
        i = j
    return bytes(off.buf), data


def encode_attr_types(attrs: Sequence[tuple[int, bool, Encoding]],
                      types: Sequence[tuple[int, bool, Encoding]],
                      groups: tuple[list[int], list[int]] | None = None) -> tuple[bytes, Chunks]:
    """(offset section, data section) for entries given as (dialect#, custom, encoding) in final order
    (see `encode_entry_groups`; `groups`: a template's group sizes for attributes and types)."""
    parts = [encode_entry_groups(entries, groups[kind] if groups is not None else None)
             for kind, entries in enumerate((attrs, types))]
    return join_attr_types(len(attrs), len(types), parts)


def join_attr_types(n_attrs: int, n_types: int, parts: Sequence[tuple[bytes, bytes | Chunks]]
                    ) -> tuple[bytes, Chunks]:
    """The two sections from each kind's groups and data (which may come in pieces: a template's
    entries, then new ones)."""
    off = ByteWriter()
    off.varint(n_attrs)
    off.varint(n_types)
    data = Chunks()
    for groups_part, d in parts:
        off.raw(groups_part)
        data.write(d)
    return bytes(off.buf), data


def template_group_layout(offsets: ByteReader
                          ) -> tuple[tuple[list[int], list[int]], tuple[tuple[int, int], tuple[int, int]]]:
    """The group sizes of a template's offset section (attributes, types: producers may split groups)
    and where each kind's groups lie in the file: (start, end) byte offsets."""
    r = offsets
    out: tuple[list[int], list[int]] = ([], [])
    spans: list[tuple[int, int]] = []
    totals = (r.varint(), r.varint())
    for kind in (ATTR, TYPE):
        start = r.pos
        seen = 0
        while seen < totals[kind]:
            r.varint()
            count = r.varint()
            for k in range(count):
                if not k & 1023:
                    checkpoint()
                r.varint()
            out[kind].append(count)
            seen += count
        spans.append((start, r.pos))
    return out, (spans[0], spans[1])
