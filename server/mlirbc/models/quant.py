"""The `quant` dialect's types: their binary encoding (QuantDialectBytecode.td) and their exact text.

A decoded quant type becomes `DialectType("quant", text)` where `text` is what `mlir-opt` 22 prints, so the
text view and the text parser meet on the same object; encoding parses that text back.  Encoding (first
varint = kind):

1. any, no expressed type: flags, storage type, storage min, storage max
2. any with expressed type: flags, storage, expressed, min, max
3. calibrated: expressed, min (f64), max (f64)
4. uniform per tensor: flags, storage, expressed, scale (f64), zero point, min, max
5. uniform per axis: flags, storage, expressed, axis, min, max, scales (f64 list), zero points
6. uniform sub-channel: flags, storage, expressed, min, max, quantized dims, block sizes,
   scales (dense elements attr), zero points (dense elements attr)

Flags bit 0 means signed storage (`i8` vs `u8`).  Integers are signed varints except flags, the axis
and list counts; f64 values are their bit patterns as signed varints.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..ir.attributes import Attribute, DenseElementsAttr
from ..ir.types import DialectType, FloatType, IntegerType, RankedTensorType, Type, num_elements
from ..syntax.floats import SEMANTICS, format_float, parse_float_literal
from ..syntax.floats import FloatSemantics as Semantics
from .api import EntryReader, EntryWriter, ModelError

ANY, ANY_EXPRESSED, CALIBRATED, UNIFORM, PER_AXIS, SUB_CHANNEL = 1, 2, 3, 4, 5, 6
SIGNED = 1
_MASK64 = (1 << 64) - 1


def _to_signed64(bits: int) -> int:
    bits &= _MASK64
    return bits - (1 << 64) if bits >> 63 else bits


@dataclass
class QuantType:
    """One quant type's parameters, as stored in bytecode (floats as bit patterns)."""

    kind: int
    flags: int = 0
    storage: IntegerType | None = None
    expressed: Type | None = None
    storage_min: int = 0
    storage_max: int = 0
    scale: int = 0
    zero_point: int = 0
    axis: int = 0
    scales: list[int] = field(default_factory=list)
    zero_points: list[int] = field(default_factory=list)
    calibrated_min: int = 0
    calibrated_max: int = 0
    quantized_dims: list[int] = field(default_factory=list)
    block_sizes: list[int] = field(default_factory=list)
    scales_attr: DenseElementsAttr | None = None
    zero_points_attr: DenseElementsAttr | None = None


# -- dense elements helpers -----------------------------------------------------------------------------
def _element_bits(t: Type) -> int:
    if isinstance(t, IntegerType):
        return t.width
    if isinstance(t, FloatType) and t.name in SEMANTICS:
        return SEMANTICS[t.name].width
    raise ModelError("quant sub-channel parameters must be integers or IEEE floats")


def dense_values(a: Attribute) -> tuple[tuple[int, ...], Type, list[int]]:
    """Shape, element type and element bit patterns of a DenseIntOrFPElementsAttr (splats expanded)."""
    if not isinstance(a, DenseElementsAttr) or not isinstance(a.type, RankedTensorType):
        raise ModelError("quant sub-channel parameters must be dense tensor attributes")
    shape, etype = a.type.shape, a.type.element
    bits = _element_bits(etype)
    try:
        n = num_elements(shape)
    except ValueError:
        raise ModelError("quant sub-channel parameters must have a static shape") from None
    data = a.data
    if bits == 1:
        if len(data) == 1 and n != 1 and data[0] in (0, 0xFF) or n == 1 and len(data) == 1:
            return shape, etype, [data[0] & 1] * n
        if len(data) == (n + 7) // 8:
            return shape, etype, [(data[i // 8] >> (i % 8)) & 1 for i in range(n)]
        raise ModelError("unexpected i1 dense payload")
    size = (bits + 7) // 8
    if len(data) == size and n != 1:
        return shape, etype, [int.from_bytes(data, "little")] * n
    if len(data) != size * n:
        raise ModelError("dense payload size does not match its type")
    return shape, etype, [int.from_bytes(data[i * size:(i + 1) * size], "little") for i in range(n)]


def make_dense(shape: tuple[int, ...], etype: Type, values: list[int]) -> DenseElementsAttr:
    """The DenseElementsAttr MLIR builds for these values (one stored element when all are equal)."""
    bits = _element_bits(etype)
    ttype = RankedTensorType.get(shape, etype)
    splat = len(values) > 1 and all(v == values[0] for v in values)
    if bits == 1:
        if splat:
            return DenseElementsAttr.get(ttype, b"\xff" if values[0] else b"\x00")
        packed = bytearray((len(values) + 7) // 8)
        for i, v in enumerate(values):
            packed[i // 8] |= (v & 1) << (i % 8)
        return DenseElementsAttr.get(ttype, bytes(packed))
    size = (bits + 7) // 8
    stored = values[:1] if splat else values
    return DenseElementsAttr.get(ttype, b"".join(v.to_bytes(size, "little") for v in stored))


# -- printing -------------------------------------------------------------------------------------------
_QUANT_FLOATS = ("f16", "bf16", "tf32", "f32", "f64", "f128")
"""The expressed types quant parameters may have: IEEE formats with infinities, NaNs and subnormals."""
F64 = SEMANTICS["f64"]


def _float_sem(t: Type) -> Semantics:
    if isinstance(t, FloatType) and t.name in _QUANT_FLOATS:
        return SEMANTICS[t.name]
    raise ModelError("quant parameters must be IEEE floats")


def _expressed_text(t: Type | None) -> str:
    if isinstance(t, FloatType):
        return t.name
    raise ModelError("quant expressed type must be a builtin float type")


def _default_bounds(signed: bool, width: int) -> tuple[int, int]:
    if signed:
        return -(1 << (width - 1)), (1 << (width - 1)) - 1
    return 0, (1 << width) - 1


def _storage_text(q: QuantType) -> str:
    # The text shows signedness through the flags only: storage `ui8` (as in `!quant.uniform<ui8:...>`)
    # prints as `u8` and reads back as i8, as in mlir-opt.
    if q.storage is None or q.storage.width < 1:
        raise ModelError("quant storage type must be an integer type")
    if q.flags & ~SIGNED:
        raise ModelError(f"unknown quant flags {q.flags:#x}")
    signed = bool(q.flags & SIGNED)
    text = f"{'i' if signed else 'u'}{q.storage.width}"
    if (q.storage_min, q.storage_max) != _default_bounds(signed, q.storage.width):
        text += f"<{q.storage_min}:{q.storage_max}>"
    return text


def _param(scale_bits: int, sem: Semantics, zero_point: int) -> str:
    text = format_float(scale_bits, sem)
    return f"{text}:{zero_point}" if zero_point else text


def _nested(shape: tuple[int, ...], items: list[str]) -> str:
    if not shape:
        return items[0]
    if len(shape) == 1:
        return "{" + ", ".join(items) + "}"
    step = len(items) // shape[0] if shape[0] else 0
    return "{" + ", ".join(_nested(shape[1:], items[i * step:(i + 1) * step])
                           for i in range(shape[0])) + "}"


def print_quant(q: QuantType) -> str:
    """The text `mlir-opt` prints for this quant type."""
    if q.kind in (ANY, ANY_EXPRESSED):
        inner = _storage_text(q)
        if q.kind == ANY_EXPRESSED:
            inner += f":{_expressed_text(q.expressed)}"
        return f"!quant.any<{inner}>"
    if q.kind == CALIBRATED:
        return (f"!quant.calibrated<{_expressed_text(q.expressed)}<"
                f"{format_float(q.calibrated_min, F64)}:{format_float(q.calibrated_max, F64)}>>")
    head = f"!quant.uniform<{_storage_text(q)}:{_expressed_text(q.expressed)}"
    if q.kind == UNIFORM:
        return f"{head}, {_param(q.scale, F64, q.zero_point)}>"
    if q.kind == PER_AXIS:
        if len(q.scales) != len(q.zero_points):
            raise ModelError("per-axis scales and zero points differ in length")
        params = ",".join(_param(s, F64, z) for s, z in zip(q.scales, q.zero_points, strict=True))
        return f"{head}:{q.axis}, {{{params}}}>"
    if q.kind == SUB_CHANNEL:
        if len(q.quantized_dims) != len(q.block_sizes):
            raise ModelError("sub-channel dimensions and block sizes differ in length")
        if q.scales_attr is None or q.zero_points_attr is None:
            raise ModelError("sub-channel type without parameters")
        shape, stype, scales = dense_values(q.scales_attr)
        zshape, ztype, zps = dense_values(q.zero_points_attr)
        if zshape != shape or not isinstance(ztype, IntegerType) or stype is not q.expressed:
            raise ModelError("sub-channel scales and zero points do not match")
        # Zero points print as signed values of their width, even for unsigned storage (as mlir-opt).
        sign = 1 << (ztype.width - 1)
        zps = [(z ^ sign) - sign for z in zps]
        sem = _float_sem(stype)
        blocks = ", ".join(f"{d}:{b}" for d, b in zip(q.quantized_dims, q.block_sizes, strict=True))
        items = [_param(s, sem, z) for s, z in zip(scales, zps, strict=True)]
        return f"{head}:{{{blocks}}}, {_nested(shape, items)}>"
    raise ModelError(f"unknown quant type kind {q.kind}")


# -- bytecode -------------------------------------------------------------------------------------------
def _int_type(t: Type) -> IntegerType:
    if not isinstance(t, IntegerType):
        raise ModelError("quant storage type must be an integer type")
    return t


def read_quant(r: EntryReader) -> QuantType:
    kind = r.varint()
    q = QuantType(kind)
    if kind == CALIBRATED:
        q.expressed = r.type()
        q.calibrated_min = r.signed_varint() & _MASK64
        q.calibrated_max = r.signed_varint() & _MASK64
        return q
    if kind not in (ANY, ANY_EXPRESSED, UNIFORM, PER_AXIS, SUB_CHANNEL):
        raise ModelError(f"unknown quant type kind {kind}")
    q.flags = r.varint()
    q.storage = _int_type(r.type())
    if kind != ANY:
        q.expressed = r.type()
    if kind == UNIFORM:
        q.scale = r.signed_varint() & _MASK64
        q.zero_point = r.signed_varint()
    if kind == PER_AXIS:
        q.axis = r.varint()
    q.storage_min = r.signed_varint()
    q.storage_max = r.signed_varint()
    if kind == PER_AXIS:
        q.scales = [r.signed_varint() & _MASK64 for _ in range(_count(r))]
        q.zero_points = [r.signed_varint() for _ in range(_count(r))]
    elif kind == SUB_CHANNEL:
        q.quantized_dims = [r.signed_varint() for _ in range(_count(r))]
        q.block_sizes = [r.signed_varint() for _ in range(_count(r))]
        scales, zps = r.attr(), r.attr()
        if not isinstance(scales, DenseElementsAttr) or not isinstance(zps, DenseElementsAttr):
            raise ModelError("sub-channel parameters must be dense elements attributes")
        q.scales_attr, q.zero_points_attr = scales, zps
    return q


def _count(r: EntryReader) -> int:
    n = r.varint()
    if n > 1 << 24:
        raise ModelError(f"implausible quant list length {n}")
    return n


def write_quant(q: QuantType, w: EntryWriter) -> None:
    w.varint(q.kind)
    if q.kind == CALIBRATED:
        assert q.expressed is not None
        w.type(q.expressed)
        w.signed_varint(_to_signed64(q.calibrated_min))
        w.signed_varint(_to_signed64(q.calibrated_max))
        return
    assert q.storage is not None
    w.varint(q.flags)
    w.type(q.storage)
    if q.kind != ANY:
        assert q.expressed is not None
        w.type(q.expressed)
    if q.kind == UNIFORM:
        w.signed_varint(_to_signed64(q.scale))
        w.signed_varint(q.zero_point)
    if q.kind == PER_AXIS:
        w.varint(q.axis)
    w.signed_varint(q.storage_min)
    w.signed_varint(q.storage_max)
    if q.kind == PER_AXIS:
        w.varint(len(q.scales))
        for s in q.scales:
            w.signed_varint(_to_signed64(s))
        w.varint(len(q.zero_points))
        for z in q.zero_points:
            w.signed_varint(z)
    elif q.kind == SUB_CHANNEL:
        assert q.scales_attr is not None and q.zero_points_attr is not None
        for lst in (q.quantized_dims, q.block_sizes):
            w.varint(len(lst))
            for v in lst:
                w.signed_varint(v)
        w.attr(q.scales_attr)
        w.attr(q.zero_points_attr)


# -- parsing the text back ------------------------------------------------------------------------------
_TOKEN = re.compile(r"\s*(0x[0-9a-fA-F]+|[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|[A-Za-z_][\w.]*|\S)")
_FLOAT_TYPES = frozenset(("bf16", "f16", "f32", "f64", "f80", "f128", "tf32"))


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = _TOKEN.findall(text)
        if "".join(self.tokens) != re.sub(r"\s+", "", text):
            raise ModelError("unexpected characters in quant type text")
        self.i = 0

    def peek(self) -> str:
        return self.tokens[self.i] if self.i < len(self.tokens) else ""

    def next(self) -> str:
        tok = self.peek()
        if not tok:
            raise ModelError("quant type text ends early")
        self.i += 1
        return tok

    def expect(self, tok: str) -> None:
        got = self.next()
        if got != tok:
            raise ModelError(f"expected '{tok}' in quant type text, got '{got}'")

    def accept(self, tok: str) -> bool:
        if self.peek() == tok:
            self.i += 1
            return True
        return False

    def integer(self) -> int:
        tok = self.next()
        if not re.fullmatch(r"[-+]?\d+", tok):
            raise ModelError(f"expected an integer in quant type text, got '{tok}'")
        return int(tok)

    def float_bits(self, sem: Semantics) -> int:
        tok = self.next()
        try:
            return parse_float_literal(tok, sem)
        except ValueError:
            raise ModelError(f"expected a float in quant type text, got '{tok}'") from None

    def float_type(self) -> FloatType:
        tok = self.next()
        if tok not in _FLOAT_TYPES:
            raise ModelError(f"unsupported quant expressed type '{tok}'")
        return FloatType.get(tok)

    def storage(self, q: QuantType) -> None:
        tok = self.next()
        m = re.fullmatch(r"([iu])(\d+)", tok)
        if m is None:
            raise ModelError(f"expected a storage type like i8 or u8, got '{tok}'")
        signed = m.group(1) == "i"
        width = int(m.group(2))
        if width < 1:
            raise ModelError("quant storage width must be positive")
        q.flags = SIGNED if signed else 0
        q.storage = IntegerType.get(width)
        q.storage_min, q.storage_max = _default_bounds(signed, width)
        if self.accept("<"):
            q.storage_min = self.integer()
            self.expect(":")
            q.storage_max = self.integer()
            self.expect(">")

    def param(self, sem: Semantics) -> tuple[int, int]:
        scale = self.float_bits(sem)
        zp = self.integer() if self.accept(":") else 0
        return scale, zp

    def nested(self, sem: Semantics) -> list[object]:
        """A brace-nested list of `scale[:zp]` (leaves are (scale bits, zero point) tuples)."""
        self.expect("{")
        items: list[object] = []
        if not self.accept("}"):
            while True:
                items.append(self.nested(sem) if self.peek() == "{" else self.param(sem))
                if self.accept("}"):
                    break
                self.expect(",")
        return items


def _flatten(tree: list[object]) -> tuple[tuple[int, ...], list[tuple[int, int]]]:
    """Shape and row-major leaves of a rectangular nested list."""
    shape: list[int] = []
    node: object = tree
    while isinstance(node, list):
        shape.append(len(node))
        if not node:
            break
        node = node[0]
    leaves: list[tuple[int, int]] = []

    def walk(x: object, depth: int) -> None:
        if depth == len(shape):
            if not isinstance(x, tuple):
                raise ModelError("ragged quant sub-channel parameters")
            leaves.append(x)
            return
        if not isinstance(x, list) or len(x) != shape[depth]:
            raise ModelError("ragged quant sub-channel parameters")
        for child in x:
            walk(child, depth + 1)

    walk(tree, 0)
    return tuple(shape), leaves


def parse_quant(text: str) -> QuantType:
    """Parse a quant type's text (as printed, or as a user wrote it) into its parameters."""
    p = _Parser(text)
    p.expect("!")
    head = p.next()
    if head == "quant.any":
        p.expect("<")
        q = QuantType(ANY)
        p.storage(q)
        if p.accept(":"):
            q.kind = ANY_EXPRESSED
            q.expressed = p.float_type()
        p.expect(">")
    elif head == "quant.calibrated":
        p.expect("<")
        q = QuantType(CALIBRATED)
        q.expressed = p.float_type()
        p.expect("<")
        q.calibrated_min = p.float_bits(F64)
        p.expect(":")
        q.calibrated_max = p.float_bits(F64)
        p.expect(">")
        p.expect(">")
    elif head == "quant.uniform":
        p.expect("<")
        q = QuantType(UNIFORM)
        p.storage(q)
        p.expect(":")
        q.expressed = p.float_type()
        if p.accept(":"):
            if p.peek() == "{":
                _parse_sub_channel(p, q)
            else:
                q.kind = PER_AXIS
                q.axis = p.integer()
                p.expect(",")
                p.expect("{")
                if not p.accept("}"):
                    while True:
                        s, z = p.param(F64)
                        q.scales.append(s)
                        q.zero_points.append(z)
                        if p.accept("}"):
                            break
                        p.expect(",")
        else:
            p.expect(",")
            q.scale, q.zero_point = p.param(F64)
        p.expect(">")
    else:
        raise ModelError(f"unknown quant type '!{head}'")
    if p.peek():
        raise ModelError("trailing text after the quant type")
    return q


def _parse_sub_channel(p: _Parser, q: QuantType) -> None:
    q.kind = SUB_CHANNEL
    p.expect("{")
    if not p.accept("}"):
        while True:
            q.quantized_dims.append(p.integer())
            p.expect(":")
            q.block_sizes.append(p.integer())
            if p.accept("}"):
                break
            p.expect(",")
    p.expect(",")
    assert q.expressed is not None and q.storage is not None
    sem = _float_sem(q.expressed)
    shape, params = _flatten(p.nested(sem))
    zwidth = q.storage.width
    q.scales_attr = make_dense(shape, q.expressed, [s for s, _ in params])
    q.zero_points_attr = make_dense(shape, IntegerType.get(zwidth),
                                    [z & ((1 << zwidth) - 1) for _, z in params])


class QuantTypeCodec:
    """`AttrTypeCodec` for the quant dialect (types only: quant has no attributes)."""

    dialect = "quant"

    def decode_type(self, r: EntryReader) -> Type:
        return DialectType.get("quant", print_quant(read_quant(r)))

    def encode_type(self, t: Type, w: EntryWriter) -> bool:
        if not isinstance(t, DialectType) or t.dialect_name != "quant":
            return False
        try:
            q = parse_quant(t.text)
        except ModelError:
            return False  # not a quant type we understand: the writer keeps its text form
        write_quant(q, w)
        return True

    def decode_attribute(self, r: EntryReader) -> Attribute:
        raise ModelError("the quant dialect has no custom attribute encoding")

    def encode_attribute(self, a: Attribute, w: EntryWriter) -> bool:
        return False
