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

from ..ir.attributes import ArrayAttr, Attribute, DenseArrayAttr, IntegerAttr, UnitAttr
from ..ir.types import IntegerType
from .api import EntryReader, EntryWriter, ModelError, OpInfo

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


# Native property codecs: name -> (decode, encode).  Values are shown as the attributes mlir-opt prints.
NativeDecode = Callable[[EntryReader], Attribute | None]
NativeEncode = Callable[[Attribute | None, EntryWriter], None]

_I64 = IntegerType.get(64)
_I32 = IntegerType.get(32)
_I1 = IntegerType.get(1)


def _dec_unit(r: EntryReader) -> Attribute | None:
    b = r.byte()
    if b > 1:
        raise ModelError(f"unit property byte must be 0 or 1, got {b}")
    return UnitAttr.get() if b else IntegerAttr.get(_I1, 0)


def _enc_unit(a: Attribute | None, w: EntryWriter) -> None:
    w.byte(1 if isinstance(a, UnitAttr) or (isinstance(a, IntegerAttr) and a.bits) else 0)


def _dec_opt_int(r: EntryReader) -> Attribute | None:
    present = r.byte()
    if present > 1:
        raise ModelError(f"optional property presence byte must be 0 or 1, got {present}")
    if not present:
        return ArrayAttr.get(())
    return ArrayAttr.get((IntegerAttr.get(_I64, r.varint() & ((1 << 64) - 1)),))


def _enc_opt_int(a: Attribute | None, w: EntryWriter) -> None:
    if not isinstance(a, ArrayAttr) or len(a.elements) > 1:
        raise ModelError("optional integer property must print as [] or [N]")
    if not a.elements:
        w.byte(0)
        return
    v = a.elements[0]
    if not isinstance(v, IntegerAttr):
        raise ModelError("optional integer property must hold an integer")
    w.byte(1)
    w.varint(v.bits)


def _dec_enum(r: EntryReader) -> Attribute | None:
    return IntegerAttr.get(_I32, r.varint() & 0xFFFFFFFF)


def _enc_int(a: Attribute | None, w: EntryWriter) -> None:
    if not isinstance(a, IntegerAttr):
        raise ModelError("integer property must hold an integer")
    w.varint(a.bits)


def _dec_int64(r: EntryReader) -> Attribute | None:
    return IntegerAttr.get(_I64, r.varint() & ((1 << 64) - 1))


NATIVE_CODECS: dict[str, tuple[NativeDecode, NativeEncode]] = {
    "unit": (_dec_unit, _enc_unit),
    "opt_int": (_dec_opt_int, _enc_opt_int),
    "enum": (_dec_enum, _enc_int),
    "int": (_dec_int64, _enc_int),
}


@dataclass
class Field:
    name: str
    kind: str  # ATTR_REQUIRED, ATTR_FLAGGED, SEGMENTS, or "native:<codec>"


@dataclass
class LayoutOpModel:
    """An op model driven by a property layout; `info` feeds hover."""

    name: str
    attributes: list[Field] = field(default_factory=list)
    """Inherent attributes, already sorted by name (segment-size fields included, kind SEGMENTS)."""
    natives: list[Field] = field(default_factory=list)
    """Native properties in declaration order."""
    op_info: OpInfo | None = None

    def info(self) -> OpInfo:
        return self.op_info or OpInfo(self.name)

    def has_properties(self) -> bool:
        return bool(self.attributes or self.natives)

    def _segments(self) -> list[Field]:
        return [f for f in self.attributes if f.kind == SEGMENTS]

    def decode_properties(self, r: EntryReader) -> dict[str, Attribute]:
        values: dict[str, Attribute] = {}
        v6 = r.version >= 6
        for f in self.attributes:
            if f.kind == ATTR_REQUIRED:
                values[f.name] = r.attr()
            elif f.kind == ATTR_FLAGGED:
                a = r.optional_attr()
                if a is not None:
                    values[f.name] = a
            elif f.kind == SEGMENTS:
                if not v6:
                    values[f.name] = r.attr()
            else:
                raise ModelError(f"unknown field kind {f.kind}")
        for f in self.natives:
            codec = NATIVE_CODECS.get(f.kind.removeprefix("native:"))
            if codec is None:
                raise ModelError(f"no codec for native property {f.name} ({f.kind})")
            a = codec[0](r)
            if a is not None:
                values[f.name] = a
        if v6:
            for f in self._segments():
                values[f.name] = segment_attr(r.sparse_array())
        if not r.at_end():
            raise ModelError("properties payload has trailing bytes the layout does not account for")
        return dict(sorted(values.items()))

    def encode_properties(self, values: dict[str, Attribute], w: EntryWriter) -> None:
        v6 = w.version >= 6
        known = {f.name for f in self.attributes} | {f.name for f in self.natives}
        extra = set(values) - known
        if extra:
            raise ModelError(f"{self.name} has no property named {', '.join(sorted(extra))}")
        for f in self.attributes:
            a = values.get(f.name)
            if f.kind == ATTR_REQUIRED or (f.kind == SEGMENTS and not v6):
                if a is None:
                    raise ModelError(f"{self.name} requires property {f.name}")
                w.attr(a)
            elif f.kind == ATTR_FLAGGED:
                w.optional_attr(a)
        for f in self.natives:
            codec = NATIVE_CODECS.get(f.kind.removeprefix("native:"))
            if codec is None:
                raise ModelError(f"no codec for native property {f.name} ({f.kind})")
            codec[1](values.get(f.name), w)
        if v6:
            for f in self._segments():
                a = values.get(f.name)
                if a is None:
                    raise ModelError(f"{self.name} requires {f.name}")
                w.sparse_array(segment_sizes(a))
