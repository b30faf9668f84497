"""Property layouts of ODS-defined ops (see docs: properties-from-ods) and the model that decodes them.

A layout is the ordered list of fields an op's generated `writeProperties` emits: inherent attributes
sorted by name (required: `varint attr#`; optional or default-valued: flagged), native properties in
declaration order, then at version 6 the operand/result segment sizes as sparse arrays (at version 5 the
segment sizes are a required attribute among the sorted ones).
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass, field

from ..ir.attributes import (
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    IntegerAttr,
    StringAttr,
    UnitAttr,
)
from ..ir.types import IntegerType
from .api import EntryReader, EntryWriter, ModelError, OpInfo
from .constraints import OpConstraints
from .storage import storage_problem

ATTR_REQUIRED = "required"
ATTR_FLAGGED = "flagged"
SEGMENTS = "segments"


def segment_attr(sizes: list[int]) -> DenseArrayAttr:
    return DenseArrayAttr.get(IntegerType.get(32), len(sizes),
                              struct.pack(f"<{len(sizes)}i", *sizes))


def segment_sizes(a: Attribute) -> list[int]:
    if not isinstance(a, DenseArrayAttr) or a.element_type is not IntegerType.get(32):
        raise ModelError("segment sizes must be array<i32: ...>")
    return list(struct.unpack(f"<{a.count}i", a.data))


# Native property codecs.  A codec is named by a small grammar (what the data files store): a scalar name
# (`unit`, `bool`, `enum`, `int8`..`int64`, `uint8`..`uint64`, `string`, `attr`; legacy `int` = `int64`,
# `opt_int` = `opt(int64)`), `opt(X)` (presence byte, then X), `array(X)` (varint count, then X each) or
# `intarray(intN)` (like array, shown as a dense array).  Values are the attributes `mlir-opt` prints for the
# property (its `convertToAttribute`); decoding is as strict as upstream's reader so that encoding the decoded
# value reproduces the bytes, and anything else raises ModelError (the op then stays a fallback).
NativeDecode = Callable[[EntryReader], Attribute | None]
NativeEncode = Callable[[Attribute | None, EntryWriter], None]

_MASK64 = (1 << 64) - 1
_I64 = IntegerType.get(64)
_I32 = IntegerType.get(32)
_I1 = IntegerType.get(1)


def _dec_unit(r: EntryReader) -> Attribute | None:
    b = r.byte()
    if b > 1:
        raise ModelError(f"unit property byte must be 0 or 1, got {b}")
    return UnitAttr.get() if b else IntegerAttr.get(_I1, 0)


def _enc_unit(a: Attribute | None, w: EntryWriter) -> None:
    if a is not None and not isinstance(a, UnitAttr) and not (
            isinstance(a, IntegerAttr) and a.type is _I1):
        raise ModelError("unit property must be a unit attribute or a boolean")
    w.byte(1 if isinstance(a, UnitAttr) or (isinstance(a, IntegerAttr) and a.bits) else 0)


def _dec_bool(r: EntryReader) -> Attribute | None:
    b = r.byte()
    if b > 1:
        raise ModelError(f"boolean property byte must be 0 or 1, got {b}")
    return IntegerAttr.get(_I1, b)


def _enc_bool(a: Attribute | None, w: EntryWriter) -> None:
    if not isinstance(a, IntegerAttr) or a.type is not _I1:
        raise ModelError("boolean property must be true or false")
    w.byte(a.bits & 1)


def _int_codec(width: int, signed: bool, limit: int | None = None) -> tuple[NativeDecode, NativeEncode]:
    """A varint-encoded integer property shown as `N : iW`.

    Signed storage is written sign-extended to 64 bits (C++ integer conversion); `limit` is the largest raw
    value upstream's reader accepts (enums check their underlying range).
    """
    itype = IntegerType.get(width)
    mask = (1 << width) - 1

    def dec(r: EntryReader) -> Attribute | None:
        v = r.varint()
        if limit is not None and v > limit:
            raise ModelError(f"property value {v} exceeds {limit}")
        bits = v & mask
        if _enc_value(bits) != v:
            raise ModelError(f"property value {v:#x} is not a canonical {width}-bit value")
        return IntegerAttr.get(itype, bits)

    def _enc_value(bits: int) -> int:
        if signed and width < 64 and bits >> (width - 1):
            return (bits - (1 << width)) & _MASK64
        return bits

    def enc(a: Attribute | None, w: EntryWriter) -> None:
        if not isinstance(a, IntegerAttr):
            raise ModelError("integer property must hold an integer")
        if a.bits > mask:
            raise ModelError(f"integer property does not fit {width} bits")
        w.varint(_enc_value(a.bits))

    return dec, enc


def _dec_string(r: EntryReader) -> Attribute | None:
    return StringAttr.get(r.string())


def _enc_string(a: Attribute | None, w: EntryWriter) -> None:
    if not isinstance(a, StringAttr):
        raise ModelError("string property must hold a string")
    w.string(a.value)


def _dec_attr(r: EntryReader) -> Attribute | None:
    return r.attr()


def _enc_attr(a: Attribute | None, w: EntryWriter) -> None:
    if a is None:
        raise ModelError("attribute-encoded property is missing")
    w.attr(a)


def _required(a: Attribute | None) -> Attribute:
    if a is None:
        raise ModelError("property value is missing")
    return a


def _opt_codec(inner: tuple[NativeDecode, NativeEncode]) -> tuple[NativeDecode, NativeEncode]:
    def dec(r: EntryReader) -> Attribute | None:
        present = r.byte()
        if present > 1:
            raise ModelError(f"optional property presence byte must be 0 or 1, got {present}")
        if not present:
            return ArrayAttr.get(())
        return ArrayAttr.get((_required(inner[0](r)),))

    def enc(a: Attribute | None, w: EntryWriter) -> None:
        if a is None:
            w.byte(0)
            return
        if not isinstance(a, ArrayAttr) or len(a.elements) > 1:
            raise ModelError("optional property must print as [] or [value]")
        if not a.elements:
            w.byte(0)
            return
        w.byte(1)
        inner[1](a.elements[0], w)

    return dec, enc


def _array_codec(inner: tuple[NativeDecode, NativeEncode]) -> tuple[NativeDecode, NativeEncode]:
    def dec(r: EntryReader) -> Attribute | None:
        n = r.varint()
        return ArrayAttr.get(tuple(_required(inner[0](r)) for _ in range(n)))

    def enc(a: Attribute | None, w: EntryWriter) -> None:
        if not isinstance(a, ArrayAttr):
            raise ModelError("array property must hold an array")
        w.varint(len(a.elements))
        for e in a.elements:
            inner[1](e, w)

    return dec, enc


def _intarray_codec(width: int) -> tuple[NativeDecode, NativeEncode]:
    dec_e, enc_e = _int_codec(width, True)
    etype = IntegerType.get(width)
    fmt = {8: "b", 16: "h", 32: "i", 64: "q"}[width]

    def dec(r: EntryReader) -> Attribute | None:
        n = r.varint()
        values = []
        for _ in range(n):
            a = dec_e(r)
            values.append(a.bits if isinstance(a, IntegerAttr) else 0)
        return DenseArrayAttr.get(etype, n, b"".join(v.to_bytes(width // 8, "little") for v in values))

    def enc(a: Attribute | None, w: EntryWriter) -> None:
        if not isinstance(a, DenseArrayAttr) or a.element_type is not etype:
            raise ModelError(f"integer array property must be array<i{width}: ...>")
        w.varint(a.count)
        for v in struct.unpack(f"<{a.count}{fmt}", a.data):
            enc_e(IntegerAttr.get(etype, v & ((1 << width) - 1)), w)

    return dec, enc


_SCALARS: dict[str, tuple[NativeDecode, NativeEncode]] = {
    "unit": (_dec_unit, _enc_unit),
    "bool": (_dec_bool, _enc_bool),
    "enum": _int_codec(32, False, 0xFFFFFFFF),
    "string": (_dec_string, _enc_string),
    "attr": (_dec_attr, _enc_attr),
}
for _w in (8, 16, 32, 64):
    _SCALARS[f"int{_w}"] = _int_codec(_w, True)
    _SCALARS[f"uint{_w}"] = _int_codec(_w, False, (1 << _w) - 1)
_SCALARS["int"] = _SCALARS["int64"]

_codec_cache: dict[str, tuple[NativeDecode, NativeEncode]] = {}


def native_codec(spec: str) -> tuple[NativeDecode, NativeEncode] | None:
    """The (decode, encode) pair for a codec name (see above), or None when mlirbc has no such codec."""
    hit = _codec_cache.get(spec)
    if hit is not None:
        return hit
    codec: tuple[NativeDecode, NativeEncode] | None
    if spec == "opt_int":
        return native_codec("opt(int64)")
    if spec in _SCALARS:
        codec = _SCALARS[spec]
    elif spec.endswith(")") and "(" in spec:
        head, inner_spec = spec[:-1].split("(", 1)
        if head == "intarray" and inner_spec in ("int8", "int16", "int32", "int64"):
            codec = _intarray_codec(int(inner_spec[3:]))
        else:
            inner = native_codec(inner_spec)
            if inner is None or head not in ("opt", "array"):
                return None
            codec = _opt_codec(inner) if head == "opt" else _array_codec(inner)
    else:
        return None
    _codec_cache[spec] = codec
    return codec


NATIVE_CODECS: dict[str, tuple[NativeDecode, NativeEncode]] = {
    name: c for name in ("unit", "opt_int", "enum", "int") if (c := native_codec(name)) is not None
}
"""The original fixed codec table (kept for callers that index it); `native_codec` knows them all."""


@dataclass
class Field:
    name: str
    kind: str  # ATTR_REQUIRED, ATTR_FLAGGED, SEGMENTS, or "native:<codec>"
    default: str | None = None
    """For flagged attributes: the MLIR text of the ODS default value, when known (information only)."""
    count: int | None = None
    """For segment sizes: the number of segments (ODS operand/result declarations), when known."""
    storage: str | None = None
    """For inherent attributes: the kind of attribute the op stores (`models.storage`), when known."""


def _checked(f: Field, a: Attribute) -> Attribute:
    problem = storage_problem(f.name, f.storage, a)
    if problem is not None:
        raise ModelError(problem)
    return a


def _sized(sizes: list[int], f: Field) -> list[int]:
    # The sparse form leaves out trailing zero segments; the op knows how many there are.
    if f.count is None:
        return sizes
    if len(sizes) > f.count:
        raise ModelError(f"{f.name} has {len(sizes)} entries, the op declares {f.count}")
    return sizes + [0] * (f.count - len(sizes))


@dataclass
class LayoutOpModel:
    """An op model driven by a property layout; `info` feeds hover."""

    name: str
    attributes: list[Field] = field(default_factory=list)
    """Inherent attributes, already sorted by name (segment-size fields included, kind SEGMENTS)."""
    natives: list[Field] = field(default_factory=list)
    """Native properties in declaration order."""
    op_info: OpInfo | None = None
    custom_encoding: bool = False
    """The op writes its properties with hand-written C++ (ODS `useCustomPropertiesEncoding`): the layout
    above does not describe the bytes, so decoding refuses (the op stays a fallback, bytes kept)."""
    count_source: Callable[[], list[int] | None] | None = field(default=None, repr=False, compare=False)
    """Where `fixed_counts` comes from (the model set's counts, read on first need)."""

    def fixed_counts(self) -> dict[str, int]:
        """How many results, operands, regions and successors the op has, for those ODS fixes."""
        found = self.count_source() if self.count_source is not None else None
        if not found:
            return {}
        return {kind: n for kind, n in zip(("results", "operands", "regions", "successors"), found,
                                           strict=False) if n >= 0}

    constraint_source: Callable[[], OpConstraints | None] | None = field(default=None, repr=False,
                                                                         compare=False)
    """Where the op's ODS constraints come from (read on first use; see `models.constraints`)."""

    legalized_source: Callable[[], tuple[str, OpConstraints | None]] | None = field(
        default=None, repr=False, compare=False)
    """The op this one becomes when its dialect is legalized (a VHLO op's StableHLO op) and where its
    constraints come from: they hold too (see `verifier`)."""

    def op_constraints(self) -> OpConstraints | None:
        """What ODS says the op must be (None: nothing known), for the verifier."""
        return self.constraint_source() if self.constraint_source is not None else None

    def legalized(self) -> tuple[str, OpConstraints | None] | None:
        """(name, constraints) of the op this one is legalized to, if any."""
        return self.legalized_source() if self.legalized_source is not None else None

    def info(self) -> OpInfo:
        return self.op_info or OpInfo(self.name)

    def has_properties(self) -> bool:
        return bool(self.attributes or self.natives)

    def _segments(self) -> list[Field]:
        return [f for f in self.attributes if f.kind == SEGMENTS]

    @staticmethod
    def _codec(f: Field) -> tuple[NativeDecode, NativeEncode]:
        codec = native_codec(f.kind.removeprefix("native:"))
        if codec is None:
            raise ModelError(f"no codec for native property {f.name} ({f.kind})")
        return codec

    def _check_layout(self) -> None:
        if self.custom_encoding:
            raise ModelError(f"{self.name} uses a custom (hand-written) property encoding")

    def decode_properties(self, r: EntryReader) -> dict[str, Attribute]:
        self._check_layout()
        values: dict[str, Attribute] = {}
        v6 = r.version >= 6
        for f in self.attributes:
            if f.kind == ATTR_REQUIRED:
                values[f.name] = _checked(f, r.attr())
            elif f.kind == ATTR_FLAGGED:
                a = r.optional_attr()
                if a is not None:
                    values[f.name] = _checked(f, a)
            elif f.kind == SEGMENTS:
                if not v6:
                    values[f.name] = r.attr()
            else:
                raise ModelError(f"unknown field kind {f.kind}")
        for f in self.natives:
            a = self._codec(f)[0](r)
            if a is not None:
                values[f.name] = a
        if v6:
            for f in self._segments():
                values[f.name] = segment_attr(_sized(r.sparse_array(), f))
        if not r.at_end():
            raise ModelError("properties payload has trailing bytes the layout does not account for")
        return dict(sorted(values.items()))

    def encode_properties(self, values: dict[str, Attribute], w: EntryWriter) -> None:
        self._check_layout()
        v6 = w.version >= 6
        extra = set(values) - {f.name for f in self.attributes} - {f.name for f in self.natives}
        if extra:
            raise ModelError(f"{self.name} has no property named {', '.join(sorted(extra))}")
        for f in self.attributes:
            a = values.get(f.name)
            if f.kind == ATTR_REQUIRED or (f.kind == SEGMENTS and not v6):
                if a is None:
                    raise ModelError(f"{self.name} requires property {f.name}")
                w.attr(_checked(f, a))
            elif f.kind == ATTR_FLAGGED:
                w.optional_attr(None if a is None else _checked(f, a))
        for f in self.natives:
            self._codec(f)[1](values.get(f.name), w)
        if v6:
            for f in self._segments():
                a = values.get(f.name)
                if a is None:
                    raise ModelError(f"{self.name} requires {f.name}")
                sizes = segment_sizes(a)
                if f.count is not None and len(sizes) != f.count:
                    raise ModelError(f"{f.name} must have {f.count} entries, not {len(sizes)}")
                w.sparse_array(sizes)
