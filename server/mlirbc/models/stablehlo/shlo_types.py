"""VHLO types and tensor data <-> the builtin (and StableHLO) types and dense elements of the StableHLO view.

Both directions of StableHLO's type converter (`VhloTypeConverter`, facts: vhlo-format.md section 7): scalar
VHLO types to their builtin twins (`!vhlo.i32_v1` <-> `i32`, `!vhlo.bool_v1` <-> `i1`), tensors, tuples,
functions and complex types element by element, `!vhlo.token_v1` <-> `!stablehlo.token`, `future_v1` <->
`!stablehlo.future<...>`, quantized types <-> `!quant.uniform<...>`, `buffer_v1` <-> `memref`,
`witness_v1` <-> `!shape.witness`, and the `type_extensions_v1` encoding <-> `#stablehlo.bounds<...>`.
Types are uniqued, so each conversion is cached by identity.

Tensor data: a VHLO tensor's blob is the builtin raw storage except for booleans (VHLO's wire packing,
`vhlo_attrs.bool_raw`/`bool_wire`); the builtin side keeps what upstream's storage keeps (a splat when
every element is equal, `dense_blob`).
"""

from __future__ import annotations

import functools
import re

from ...ir.attributes import Attribute, DenseElementsAttr, DialectAttr
from ...ir.digest import Bytes, frozen
from ...ir.structured import StructuredAttr, StructuredType
from ...ir.types import (
    ComplexType,
    DialectType,
    FunctionType,
    IntegerType,
    MemRefType,
    RankedTensorType,
    TupleType,
    Type,
    UnrankedTensorType,
    num_elements,
)
from ...syntax.attr_printer import identity_layout_text, is_identity_layout, print_type
from ..api import ModelError
from .shlo_syntax import BOUNDS, FUTURE, TOKEN
from .vhlo_attrs import ATTR_BY_NAME, bool_raw, bool_wire
from .vhlo_types import TYPE_BY_NAME, from_builtin, quant_text, vhlo_kind

WITNESS = DialectType.get("shape", "!shape.witness")
_TO_VIEW: dict[Type, Type] = {}
_TO_VHLO: dict[Type, Type] = {}


class Unconvertible(ModelError):
    """A type or attribute that has no counterpart on the other side."""


def to_view_type(t: Type) -> Type:
    """The StableHLO view's type of a VHLO type; other dialects' types (and builtin ones) stay."""
    hit = _TO_VIEW.get(t)
    if hit is None:
        hit = _TO_VIEW[t] = _to_view(t)
    return hit


def _to_view(t: Type) -> Type:
    kind = vhlo_kind(t)
    if kind is None:
        return t
    assert isinstance(t, StructuredType)
    if kind.builtin is not None:
        return kind.builtin
    name, f = kind.name, t.fields
    if name == "tensor_v1":
        enc = f[2]
        if isinstance(enc, StructuredAttr) and enc.kind is ATTR_BY_NAME["type_extensions_v1"]:
            enc = BOUNDS.get((enc.fields[0],))
        element = _field_type(f[1])
        return RankedTensorType.get(f[0], to_view_type(element), enc)  # type: ignore[arg-type]
    if name == "complex_v1":
        return ComplexType.get(to_view_type(_field_type(f[0])))
    if name == "unranked_tensor_v1":
        return UnrankedTensorType.get(to_view_type(_field_type(f[0])))
    if name == "tuple_v1":
        return TupleType.get(tuple(to_view_type(_field_type(x)) for x in f[0]))  # type: ignore[union-attr]
    if name == "func_v1":
        return FunctionType.get(tuple(to_view_type(_field_type(x)) for x in f[0]),  # type: ignore[union-attr]
                                tuple(to_view_type(_field_type(x)) for x in f[1]))  # type: ignore[union-attr]
    if name in ("quant_v1", "quant_per_axis_v1"):
        return DialectType.get("quant", view_quant_text(t))
    if name == "token_v1":
        return TOKEN.get()
    if name == "future_v1":
        return FUTURE.get((tuple(to_view_type(_field_type(x)) for x in f[0]),))  # type: ignore[union-attr]
    if name == "buffer_v1":
        shape = f[0]
        assert isinstance(shape, tuple)
        layout = DialectAttr.get("builtin", identity_layout_text(len(shape)))
        return MemRefType.get(shape, to_view_type(_field_type(f[1])), layout)  # type: ignore[arg-type]
    if name == "witness_v1":
        return WITNESS
    raise Unconvertible(f"!vhlo.{name} has no StableHLO counterpart")


def _field_type(v: object) -> Type:
    if not isinstance(v, Type):
        raise ModelError("a VHLO type field must be a type")
    return v


def to_vhlo_type(t: Type) -> Type:
    """The VHLO type of a view type; other dialects' types stay (mixed serialization, e.g. Shardy), builtin
    types without a VHLO twin raise `Unconvertible`."""
    hit = _TO_VHLO.get(t)
    if hit is None:
        hit = _TO_VHLO[t] = _to_vhlo(t)
    return hit


def _to_vhlo(t: Type) -> Type:
    if vhlo_kind(t) is not None:
        return t
    if isinstance(t, StructuredType):
        if t.kind is TOKEN:
            return TYPE_BY_NAME["token_v1"].get()
        if t.kind is FUTURE:
            return TYPE_BY_NAME["future_v1"].get((tuple(to_vhlo_type(_field_type(x))
                                                        for x in t.fields[0]),))  # type: ignore[union-attr]
        return t  # another dialect's (Shardy has no types; a plugin's may)
    if isinstance(t, RankedTensorType):
        enc = t.encoding
        if isinstance(enc, StructuredAttr) and enc.kind.dialect == "stablehlo" and enc.kind.name == "bounds":
            enc = ATTR_BY_NAME["type_extensions_v1"].get((enc.fields[0],))
        elif enc is not None and not (isinstance(enc, StructuredAttr) and enc.kind.dialect == "vhlo"):
            raise Unconvertible(f"{print_type(t)}: tensor encodings other than #stablehlo.bounds have no "
                                "VHLO form")
        return TYPE_BY_NAME["tensor_v1"].get((t.shape, to_vhlo_type(t.element), enc))
    if isinstance(t, ComplexType):
        return TYPE_BY_NAME["complex_v1"].get((to_vhlo_type(t.element),))
    if isinstance(t, UnrankedTensorType):
        return TYPE_BY_NAME["unranked_tensor_v1"].get((to_vhlo_type(t.element),))
    if isinstance(t, TupleType):
        return TYPE_BY_NAME["tuple_v1"].get((tuple(to_vhlo_type(x) for x in t.types),))
    if isinstance(t, FunctionType):
        return TYPE_BY_NAME["func_v1"].get((tuple(to_vhlo_type(x) for x in t.inputs),
                                            tuple(to_vhlo_type(x) for x in t.results)))
    if isinstance(t, MemRefType):
        if not is_identity_layout(t.layout, len(t.shape)) or t.memory_space is not None:
            raise Unconvertible(f"{print_type(t)}: only memrefs without layout and memory space have a VHLO "
                                "form (buffer_v1)")
        return TYPE_BY_NAME["buffer_v1"].get((t.shape, to_vhlo_type(t.element)))
    if t is WITNESS:
        return TYPE_BY_NAME["witness_v1"].get()
    if isinstance(t, IntegerType) and t.signedness == 1:
        raise Unconvertible(f"{print_type(t)}: signed integer types have no VHLO form (VHLO's are signless "
                            "or unsigned)")
    if isinstance(t, DialectType) and t.dialect_name == "quant":
        return vhlo_quant(t.text)
    if isinstance(t, DialectType):
        return t  # another dialect's type kept as text
    try:
        return from_builtin(t)
    except ModelError:
        raise Unconvertible(f"{print_type(t)} has no VHLO form") from None


# -- quantized types -----------------------------------------------------------------------------------------
# StableHLO keeps the VHLO storage type (`i8` from `!vhlo.i8_v1`, `ui8` from `!vhlo.ui8_v1`) in the quantized
# type, and prints it as newer MLIR does: a signless storage by the signedness flag (`i8`, `u8`), any other
# integer type by its own name (`ui8`).  Reading it back gives that storage type again.

@functools.cache
def _storage() -> re.Pattern[str]:
    return re.compile(r"!quant\.uniform<(si|ui|i|u)(\d+)")  # compiled on first use (quantized types)


def view_quant_text(t: StructuredType) -> str:
    """`!quant.uniform<...>` of a quant_v1 / quant_per_axis_v1 type, as StableHLO prints it."""
    from ..quant import _storage_text, parse_quant

    text = quant_text(t)  # the storage spelled by the flags only
    storage = vhlo_kind(t.fields[1])
    if storage is None or not storage.name.startswith("ui"):
        return text
    q = parse_quant(text)
    spelled = _storage_text(q)
    head = "!quant.uniform<"
    assert text.startswith(head + spelled)
    return head + "ui" + spelled[1:] + text[len(head) + len(spelled):]


def vhlo_quant(text: str) -> Type:
    """The VHLO type of `!quant.uniform<...>` text (see above); raises `Unconvertible`."""
    m = _storage().match(text)
    if m is None:
        raise Unconvertible(f"{text}: only uniform quantized types have a VHLO form")
    prefix, width = m.group(1), m.group(2)
    if prefix == "si":
        raise Unconvertible(f"{text}: a signed storage type has no VHLO form")
    plain = text[:m.start(1)] + {"ui": "u", "i": "i", "u": "u"}[prefix] + text[m.end(1):]
    try:
        q = from_builtin(DialectType.get("quant", plain))
    except ModelError as exc:
        raise Unconvertible(f"{text}: {exc}") from None
    assert isinstance(q, StructuredType)
    name = f"ui{width}_v1" if prefix == "ui" else f"i{width}_v1"
    if name not in TYPE_BY_NAME:
        raise Unconvertible(f"{text}: no VHLO storage type {name}")
    return q.with_field(1, TYPE_BY_NAME[name].get())


# -- tensor data ----------------------------------------------------------------------------------------

def _is_bool(t: Type) -> bool:
    return isinstance(t, IntegerType) and t.width == 1 and t.signedness == 0


def tensor_to_dense(a: StructuredAttr) -> Attribute:
    """`#vhlo.tensor_v1<...>` -> the builtin dense elements StableHLO keeps in it."""
    from ...syntax.attr_printer import dense_blob

    vt, blob = a.fields
    assert isinstance(vt, StructuredType) and isinstance(blob, bytes | memoryview)
    bt = to_view_type(vt)
    if not isinstance(bt, RankedTensorType):
        raise Unconvertible("tensor_v1 data needs a ranked tensor type")
    if vhlo_kind(vt.fields[1]) is not None and vhlo_kind(vt.fields[1]).name in (  # type: ignore[union-attr]
            "quant_v1", "quant_per_axis_v1"):
        raise Unconvertible("tensor_v1 data of a quantized element type has no dense elements form")
    data: Bytes = blob
    if _is_bool(bt.element):
        n = num_elements(bt.shape)
        raw = bool_raw(blob, n)
        if len(raw) == 1 and n != 1:
            data = b"\xff" if raw[0] else b"\x00"  # the builtin splat of i1
        else:
            data = _pack(raw, n)
    try:
        return DenseElementsAttr.get(bt, dense_blob(bt, frozen(data)))
    except ValueError as exc:
        raise Unconvertible(str(exc)) from None


def _pack(raw: Bytes, n: int) -> bytes:
    out = bytearray((n + 7) // 8)
    for i in range(min(n, len(raw))):
        if raw[i]:
            out[i // 8] |= 1 << (i % 8)
    return bytes(out)


def dense_to_tensor(a: DenseElementsAttr) -> StructuredAttr:
    """Builtin dense elements -> `#vhlo.tensor_v1<...>` (what StableHLO's writer stores)."""
    vt = to_vhlo_type(a.type)
    data: Bytes = a.data
    if isinstance(a.type, RankedTensorType) and _is_bool(a.type.element):
        n = num_elements(a.type.shape)
        if len(data) == 1 and n != 1 and data[0] in (0, 0xFF):
            raw: bytes = b"\x01" if data[0] else b"\x00"
        else:
            raw = bytes((data[i // 8] >> (i % 8)) & 1 for i in range(n))
            if raw and all(b == raw[0] for b in raw):
                raw = raw[:1]
        data = bool_wire(raw, n)
    return ATTR_BY_NAME["tensor_v1"].get((vt, data))
