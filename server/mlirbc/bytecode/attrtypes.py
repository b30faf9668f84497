"""Attribute and type tables (format 5): the offset section (id 3) and the data section (id 2), read and
written (`compile_attr_types`).

Entries are decoded on first use, like upstream does, so a damaged entry nobody references does not fail
the file.  References between entries may point forwards and chains may be long (call-site locations in
JAX/IREE files), so resolution uses an explicit work stack, never recursion over the chain.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ..errors import DecodeError, TextError
from ..ir.attributes import (
    Attribute,
    DialectAttr,
    DictionaryAttr,
    FallbackAttr,
    IntegerAttr,
    StringAttr,
)
from ..ir.module import DialectEntry, TableEntry
from ..ir.types import FallbackType, MemRefType, Type, UnrankedMemRefType
from ..models.api import ModelError
from ..models.registry import Registry
from . import builtin_codec
from .chunks import Chunks, FileRange
from .sections import Section
from .stream import ByteReader, ByteWriter

ATTR = 0
TYPE = 1
_KIND = ("attribute", "type")

Value = Attribute | Type


class _Pending(Exception):
    """Raised while decoding an entry that needs another entry not decoded yet."""

    def __init__(self, kind: int, index: int) -> None:
        self.dep = (kind, index)


@dataclass
class _RawEntry:
    dialect: int
    offset: int
    size: int
    custom: bool


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
        n_attrs = r.count("attribute", 0)
        n_types = r.count("type", 0)
        if n_attrs + n_types > r.remaining * 128 + 1:
            raise r.error(f"{n_attrs} attributes and {n_types} types cannot fit in the offset section")
        raw: list[list[_RawEntry]] = [[], []]
        pos = entries.data.pos
        end = entries.data.end
        for kind, total in ((ATTR, n_attrs), (TYPE, n_types)):
            lst = raw[kind]
            while len(lst) < total:
                at = r.pos
                d = r.varint()
                if d >= len(dialects):
                    raise r.error(f"{_KIND[kind]} group names dialect #{d} but there are "
                                  f"{len(dialects)}", at)
                count = r.count(f"{_KIND[kind]} group entry", 1)
                if len(lst) + count > total:
                    raise r.error(f"{_KIND[kind]} groups hold more than the declared {total} "
                                  "entries", at)
                for _ in range(count):
                    eat = r.pos
                    size, custom = r.varint_flag()
                    if size > end - pos:
                        raise r.error(f"{_KIND[kind]} #{len(lst)} of {size} bytes runs past the "
                                      f"end of the AttrType section", eat)
                    lst.append(_RawEntry(d, pos, size, custom))
                    pos += size
        if not r.at_end():
            raise r.error("trailing bytes after the last attribute/type group")
        self.raw = raw
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

    def decode_all(self) -> None:
        """Decode every entry (for `info` and template mode); errors propagate."""
        for kind in (ATTR, TYPE):
            for i in range(len(self.values[kind])):
                self.resolve(kind, i)

    def table_entries(self, kind: int) -> list[TableEntry]:
        out = []
        for i, e in enumerate(self.raw[kind]):
            v = self.values[kind][i]
            if v is None:
                continue
            out.append(TableEntry(v, e.dialect, e.custom, e.offset, e.size, self.models[kind][i],
                                  self.reasons[kind][i]))
        return out

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
                e = self.raw[k][i]
                raise DecodeError(f"{_KIND[k]} #{i}: references between entries do not resolve "
                                  "(a reference cycle)", e.offset, "AttrType")
            try:
                self.values[k][i] = self._decode(k, i)
            except _Pending as p:
                if p.dep in chain:
                    if hint:
                        stack.pop()
                        continue
                    e = self.raw[k][i]
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
        e = self.raw[kind][idx]
        r = EntryDecoder(self, self.data, e.offset, e.offset + e.size, "AttrType", scan=True)
        try:
            self._decode_with(kind, e, r)
        except Exception:  # the scan is best effort: whatever it found so far is queued
            pass
        return r.deps

    def _decode(self, kind: int, idx: int) -> Value:
        e = self.raw[kind][idx]
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
            model = self.models[kind][idx]
            return self._fallback(kind, idx, e, dialect,
                                  f"the '{dialect}' model failed at byte {r.pos - e.offset}: {exc}")
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
            return codec.decode_attribute(r), origin
        codec, origin = self.registry.type_codec(dialect)
        if codec is None:
            raise _NoModel(f"no model decodes '{dialect}' types")
        return codec.decode_type(r), origin

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
                return parse_type_text(text)
            return parse_attribute_text(text)
        except TextError as exc:
            raise DecodeError(f"textual {_KIND[kind]} #{idx} ({dialect}) does not parse: "
                              f"{exc.message} at column {exc.span.start_col + 1} of {text!r}",
                              e.offset, "AttrType") from None
        except RecursionError:
            raise DecodeError(f"textual {_KIND[kind]} #{idx} ({dialect}) is nested too deeply",
                              e.offset, "AttrType") from None


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
        if dialect not in _mlir_opt_dialects() and not registry.has_dialect(dialect):
            return (f"its memory space is a '{dialect}' attribute, which mlir-opt 22 (not knowing that "
                    "dialect) rejects as a memory space in the text form")
    return ""


@functools.cache
def _mlir_opt_dialects() -> frozenset[str]:
    """The dialects mlir-opt 22.1.8 registers (`--show-dialects`): those of the ODS data it registers,
    and `dlti`, which has attributes but no ops."""
    from ..models.ods import read_index

    dialects = read_index()["dialects"]
    return frozenset({"dlti", *(name for name, entry in dialects.items()
                                if entry.get("registered_by_mlir_opt", True))})


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


def compile_attr_types(attrs: list[tuple[int, bool, Encoding]], types: list[tuple[int, bool, Encoding]],
                       groups: tuple[list[int], list[int]] | None = None) -> tuple[bytes, Chunks]:
    """(offset section, data section) for entries given as (dialect#, custom, encoding) in final order.

    Each maximal run of entries of one dialect becomes one group (format 11.4), except that the first
    entries follow `groups` (a template's group sizes for attributes and types), when given.  Large
    encodings are kept by reference in the data section (`Chunks`).
    """
    off = ByteWriter()
    data = Chunks()
    off.varint(len(attrs))
    off.varint(len(types))
    for kind, entries in enumerate((attrs, types)):
        n = len(entries)
        fixed = list(groups[kind]) if groups is not None else []
        i = 0
        while i < n:
            dialect = entries[i][0]
            j = i + 1
            if fixed:
                j = min(n, i + fixed.pop(0))
            else:
                while j < n and entries[j][0] == dialect:
                    j += 1
            off.varint(dialect)
            off.varint(j - i)
            for _, custom, payload in entries[i:j]:
                off.varint_flag(len(payload), custom)
                data.write(payload)
            i = j
    return bytes(off.buf), data


def template_groups(offsets: ByteReader) -> tuple[list[int], list[int]]:
    """The group sizes of a template's offset section (attributes, types): producers may split groups."""
    r = offsets
    out: tuple[list[int], list[int]] = ([], [])
    totals = (r.varint(), r.varint())
    for kind in (ATTR, TYPE):
        seen = 0
        while seen < totals[kind]:
            r.varint()
            count = r.varint()
            for _ in range(count):
                r.varint()
            out[kind].append(count)
            seen += count
    return out
