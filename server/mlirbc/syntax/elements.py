"""The elements of a large value, read in bounded chunks: statistics, first and last elements, text.

An elided value (a dense tensor, a dense array, a resource blob with the type of the `dense_resource` that
uses it) is read straight from its bytes, which for a file opened by the server are a view of the mapped
file: every function here walks the payload chunk by chunk (`CHUNK` elements at a time, each chunk decoded
into a bounded Python array) and never makes a copy of the whole tensor.

Element types: integers of any width (signless printed signed, as MLIR does), `index`, every builtin float
type (f16, f32, f64 natively; bf16 by widening; the 8-bit and smaller formats through a 256-entry table;
tf32, f80 and f128 one element at a time), complex numbers (statistics over both parts), i1 (bit-packed,
or one byte per element as older writers stored it), and dense strings (no statistics).
"""

from __future__ import annotations

import array
import math
import struct
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ..ir.attributes import (
    DenseArrayAttr,
    DenseElementsAttr,
    DenseStringElementsAttr,
)
from ..ir.digest import Bytes
from ..ir.structured import StructuredAttr
from ..ir.types import ComplexType, FloatType, IndexType, IntegerType, Type, num_elements
from .attr_printer import dense_is_splat, print_type, quote_bytes, static_shape
from .floats import INF, NAN, SEMANTICS, ZERO, decode_float, float_hex

CHUNK = 1 << 18
"""Elements decoded at a time (a bounded working set whatever the tensor's size)."""

Number = int | float
Decode = Callable[[Bytes], Sequence[Number]]


@dataclass(frozen=True)
class ElementCodec:
    """How the stored elements of one element type read: `size` bytes each, `parts` numbers each (2 for
    complex), decoded chunk-wise by `decode` into numbers; `kind` is 'int', 'float' or 'bool'."""

    size: int
    parts: int
    kind: str
    decode: Decode
    text: Callable[[Number], str]


_ARRAY_CODES = {(8, False): "b", (16, False): "h", (32, False): "i", (64, False): "q",
                (8, True): "B", (16, True): "H", (32, True): "I", (64, True): "Q"}


def _array_decoder(code: str) -> Decode:
    swap = sys.byteorder != "little"

    def decode(data: Bytes) -> Sequence[Number]:
        a = array.array(code)
        a.frombytes(data)
        if swap:
            a.byteswap()
        return a

    return decode


def _int_decoder(width: int, unsigned: bool) -> Decode:
    size = max(1, (width + 7) // 8)
    mask = (1 << width) - 1
    top = 1 << (width - 1) if width else 0

    def decode(data: Bytes) -> Sequence[Number]:
        out = []
        for i in range(0, len(data), size):
            v = int.from_bytes(data[i:i + size], "little") & mask
            out.append(v if unsigned or not v & top else v - (1 << width))
        return out

    return decode


def float_value(bits: int, name: str) -> float:
    """The value of a float bit pattern as a Python float (overflowing f80/f128 values become inf)."""
    kind, sign, m, q = decode_float(bits, SEMANTICS[name])
    if kind == NAN:
        return math.nan
    if kind == INF:
        return -math.inf if sign else math.inf
    if kind == ZERO:
        return -0.0 if sign else 0.0
    try:
        v = math.ldexp(m, q)
    except OverflowError:
        v = math.inf
    return -v if sign else v


def _table_decoder(name: str) -> Decode:
    table = [float_value(b, name) for b in range(256)]

    def decode(data: Bytes) -> Sequence[Number]:
        return [table[b] for b in bytes(data)]

    return decode


def _bf16_decoder() -> Decode:
    f32 = _array_decoder("f")

    def decode(data: Bytes) -> Sequence[Number]:
        wide = bytearray(2 * len(data))  # each bf16 is the upper half of an f32
        wide[2::4] = data[0::2]
        wide[3::4] = data[1::2]
        return f32(memoryview(wide))

    return decode


def _generic_float_decoder(name: str, size: int) -> Decode:
    def decode(data: Bytes) -> Sequence[Number]:
        return [float_value(int.from_bytes(data[i:i + size], "little"), name)
                for i in range(0, len(data), size)]

    return decode


def _float_text(name: str) -> Callable[[Number], str]:
    """Finite floats with enough digits to read back exactly (shortest for f64); non-finite values
    are printed from their bits by `Elements.element_text`."""
    if name == "f64" or SEMANTICS[name].width <= 8:
        return lambda v: repr(float(v))
    digits = math.ceil(1 + SEMANTICS[name].precision * math.log10(2))
    return lambda v: format(float(v), f".{digits}g")


def element_codec(element: Type) -> ElementCodec | None:
    """The codec of a dense element type, None for types without a numeric reading."""
    if isinstance(element, IndexType):
        return ElementCodec(8, 1, "int", _array_decoder("q"), str)
    if isinstance(element, IntegerType):
        if element.width == 1:
            return ElementCodec(1, 1, "bool", lambda d: [b & 1 for b in bytes(d)],
                                lambda v: "true" if v else "false")
        unsigned = element.signedness == 2
        code = _ARRAY_CODES.get((element.width, unsigned))
        size = max(1, (element.width + 7) // 8)
        decode = _array_decoder(code) if code is not None else _int_decoder(element.width, unsigned)
        return ElementCodec(size, 1, "int", decode, str)
    if isinstance(element, FloatType):
        name = element.name
        sem = SEMANTICS.get(name)
        if sem is None:
            return None
        size = sem.storage_bytes
        if name == "f32":
            decode = _array_decoder("f")
        elif name == "f64":
            decode = _array_decoder("d")
        elif name == "f16":
            decode = lambda d: struct.unpack(f"<{len(d) // 2}e", d)  # noqa: E731
        elif name == "bf16":
            decode = _bf16_decoder()
        elif size == 1:
            decode = _table_decoder(name)
        else:
            decode = _generic_float_decoder(name, size)
        return ElementCodec(size, 1, "float", decode, _float_text(name))
    if isinstance(element, ComplexType):
        inner = element_codec(element.element)
        if inner is None or inner.parts != 1:
            return None
        return ElementCodec(2 * inner.size, 2, inner.kind, inner.decode, inner.text)
    return None


# ================================================================================================
# A value as elements
# ================================================================================================

@dataclass
class Elements:
    """A dense payload read as elements.

    `count` is the logical number of elements (the shape's product), `stored` how many the payload holds
    (1 for a splat); `packed` marks i1 data stored one bit per element.  `strings` holds the elements of a
    dense string attribute instead of `data`.
    """

    type: Type | None
    element: Type | None
    shape: tuple[int, ...]
    count: int
    stored: int
    data: Bytes
    codec: ElementCodec | None
    packed: bool = False
    strings: tuple[bytes, ...] | None = None

    @property
    def splat(self) -> bool:
        return self.stored == 1 and self.count != 1

    @property
    def type_text(self) -> str:
        if self.type is not None:
            return print_type(self.type)
        if self.element is not None:
            return f"array<{print_type(self.element)} x {self.count}>"
        return f"{len(self.data)} bytes"

    def stored_numbers(self, start: int, stop: int) -> Sequence[Number]:
        """Stored elements [start, stop) as numbers (complex: two per element)."""
        assert self.codec is not None
        if self.packed:
            bits = int.from_bytes(self.data[start // 8:(stop + 7) // 8], "little")
            return [(bits >> (i - (start // 8) * 8)) & 1 for i in range(start, stop)]
        size = self.codec.size
        return self.codec.decode(self.data[start * size:stop * size])

    def numbers(self, start: int, stop: int) -> Sequence[Number]:
        """Logical elements [start, stop) as numbers (a splat repeats its one element)."""
        if self.stored == 1 and self.count != 1:
            one = self.stored_numbers(0, 1)
            return list(one) * (stop - start)
        return self.stored_numbers(start, stop)

    def element_text(self, index: int) -> str:
        """Element `index` as MLIR prints it in a dense literal."""
        if self.strings is not None:
            s = self.strings[0 if len(self.strings) == 1 else index]
            return quote_bytes(s)
        assert self.codec is not None
        nums = self.numbers(index, index + 1)
        texts = [self._number_text(index, part, v) for part, v in enumerate(nums)]
        return f"({texts[0]},{texts[1]})" if self.codec.parts == 2 else texts[0]

    def _number_text(self, index: int, part: int, v: Number) -> str:
        assert self.codec is not None
        scalar = self.element.element if isinstance(self.element, ComplexType) else self.element
        if isinstance(v, float) and not math.isfinite(v) and isinstance(scalar, FloatType):
            # MLIR writes NaN and infinity as the hex bit pattern of the element.
            stored = 0 if self.stored == 1 else index
            size = self.codec.size // self.codec.parts
            at = (stored * self.codec.parts + part) * size
            return float_hex(int.from_bytes(self.data[at:at + size], "little"), SEMANTICS[scalar.name])
        return self.codec.text(v)


def elements_of(value: object, type_hint: Type | None = None) -> Elements | None:
    """`value` read as elements: a dense (string) elements or dense array attribute, or raw bytes (a
    resource blob) with the type of the `dense_resource` that uses it (`type_hint`)."""
    for adapter in _ADAPTERS:
        adapted = adapter(value)
        if adapted is not None:
            value, type_hint = adapted
    if isinstance(value, StructuredAttr):  # a dialect's tensor constant (`#vhlo.tensor_v1`): its data
        try:
            payload = value.payload()
        except Exception:  # a model that cannot describe this value's data
            payload = None
        if payload is None:
            return None
        return _shaped(payload.shaped_type, payload.data)
    if isinstance(value, DenseStringElementsAttr):
        shape = static_shape(value.type) or (len(value.strings),)
        count = num_elements(shape)
        return Elements(value.type, getattr(value.type, "element", None), shape, count,
                        len(value.strings), b"", None, strings=value.strings)
    if isinstance(value, DenseArrayAttr):
        codec = element_codec(value.element_type)
        if codec is None:
            return None
        return Elements(None, value.element_type, (value.count,), value.count, value.count,
                        value.data, codec)
    if isinstance(value, DenseElementsAttr):
        return _shaped(value.type, value.data)
    if isinstance(value, bytes | memoryview):
        if type_hint is not None:
            got = _shaped(type_hint, value)
            if got is not None:
                return got
        u8 = IntegerType.get(8, 2)
        return Elements(None, None, (len(value),), len(value), len(value), value, element_codec(u8))
    return None


def _shaped(t: Type, data: Bytes) -> Elements | None:
    shape = static_shape(t)
    element = getattr(t, "element", None)
    if shape is None or not isinstance(element, Type):
        return None
    codec = element_codec(element)
    if codec is None:
        return None
    count = num_elements(shape)
    if isinstance(element, IntegerType) and element.width == 1:
        if dense_is_splat(data, element, count) or (count == 1 and len(data) == 1):
            return Elements(t, element, shape, count, 1, data, codec, packed=False)
        if len(data) == (count + 7) // 8 and count != len(data):
            return Elements(t, element, shape, count, count, data, codec, packed=True)
        if len(data) == count:
            return Elements(t, element, shape, count, count, data, codec)
        return None
    if len(data) == codec.size and count != 1:
        return Elements(t, element, shape, count, 1, data, codec)
    if len(data) != codec.size * count:
        return None
    return Elements(t, element, shape, count, count, data, codec)


Adapter = Callable[[object], tuple[object, Type | None] | None]
_ADAPTERS: list[Adapter] = []


def register_elements_adapter(adapter: Adapter) -> None:
    """Let a dialect model show its own tensor attributes as elements (hover statistics, Show Full
    Value, Export): `adapter(value)` returns (a DenseElementsAttr or raw bytes, its type) for a value it
    knows, None otherwise."""
    _ADAPTERS.append(adapter)


# ================================================================================================
# Statistics
# ================================================================================================

@dataclass
class Stats:
    """Streaming statistics of a numeric value (complex: over both parts).  `min`, `max`, `mean` and
    `std` (population) are over the finite numbers; NaNs and infinities are counted apart."""

    count: int = 0
    finite: int = 0
    zeros: int = 0
    nans: int = 0
    infs: int = 0
    min: Number | None = None
    max: Number | None = None
    mean: float = math.nan
    m2: float = 0.0
    trues: int = 0
    """i1 only: how many elements are true."""

    @property
    def std(self) -> float:
        return math.sqrt(self.m2 / self.finite) if self.finite else math.nan

    def add(self, nums: Sequence[Number], is_float: bool) -> None:
        """Fold one chunk in: counts, then the chunk's own mean and squared deviations merged with
        Chan et al.'s parallel update (each chunk is bounded, so its cancellation error stays small)."""
        values = nums.tolist() if isinstance(nums, array.array) else list(nums)
        n = len(values)
        self.count += n
        if not n:
            return
        self.zeros += values.count(0)
        total = sum(values)
        finite = values
        if is_float and not math.isfinite(total):  # only then can there be NaNs or infinities
            self.nans += sum(map(math.isnan, values))
            self.infs += values.count(math.inf) + values.count(-math.inf)
            finite = [x for x in values if math.isfinite(x)]
            total = sum(finite)
        k = len(finite)
        if not k:
            return
        mean = total / k
        sumsq = math.hypot(*finite) ** 2  # a C loop over the chunk, scaled against overflow
        m2 = max(sumsq - float(total) * mean, 0.0)
        counts = (self.count, self.zeros, self.nans, self.infs)
        _merge(self, Stats(finite=k, min=min(finite), max=max(finite), mean=mean, m2=m2))
        self.count, self.zeros, self.nans, self.infs = counts


def statistics(ev: Elements, progress: Callable[[int, int], None] | None = None) -> Stats | None:
    """Statistics of a numeric value, streamed over its stored bytes; None for strings."""
    if ev.codec is None or ev.strings is not None:
        return None
    st = Stats()
    is_float = ev.codec.kind == "float"
    if ev.stored == 1 and ev.count != 1:  # a splat: its one element stands for all of them
        for v in ev.stored_numbers(0, 1):
            part = Stats()
            part.add([v], is_float)
            _repeat(part, ev.count)
            _merge(st, part)
    else:
        for start in range(0, ev.stored, CHUNK):
            stop = min(ev.stored, start + CHUNK)
            st.add(ev.stored_numbers(start, stop), is_float)
            if progress is not None:
                progress(stop, ev.stored)
    if ev.codec.kind == "bool":
        st.trues = st.count - st.zeros
    return st


def _repeat(st: Stats, times: int) -> None:
    """The statistics of one number repeated `times` times."""
    st.count *= times
    st.finite *= times
    st.zeros *= times
    st.nans *= times
    st.infs *= times


def _merge(st: Stats, other: Stats) -> None:
    st.count += other.count
    st.zeros += other.zeros
    st.nans += other.nans
    st.infs += other.infs
    if not other.finite:
        return
    st.min = other.min if st.min is None else min(st.min, other.min)  # type: ignore[type-var]
    st.max = other.max if st.max is None else max(st.max, other.max)  # type: ignore[type-var]
    if not st.finite:
        st.mean, st.m2, st.finite = other.mean, other.m2, other.finite
        return
    n = st.finite + other.finite
    delta = other.mean - st.mean
    st.m2 += other.m2 + delta * delta * st.finite * other.finite / n
    st.mean += delta * other.finite / n
    st.finite = n


def edge_elements(ev: Elements, n: int = 5) -> tuple[list[str], list[str]]:
    """The first and last `n` elements as text (all of them when there are at most 2n)."""
    if ev.count <= 2 * n:
        return [ev.element_text(i) for i in range(ev.count)], []
    return ([ev.element_text(i) for i in range(n)],
            [ev.element_text(i) for i in range(ev.count - n, ev.count)])


def format_number(v: Number | None) -> str:
    if v is None:
        return "-"
    if isinstance(v, int):
        return str(v)
    return format(v, ".7g")


# ================================================================================================
# Full text, row by row
# ================================================================================================

ARRAY_ROW = 16
"""Elements per line of a flat list (dense arrays, blobs without a type)."""


def rows(ev: Elements) -> int:
    """How many text lines the full literal has (one per innermost row)."""
    if not ev.shape or ev.splat or ev.count == 0:
        return 1
    if ev.type is None:
        return (ev.count + ARRAY_ROW - 1) // ARRAY_ROW
    return ev.count // ev.shape[-1] if ev.shape[-1] else 1


def literal_lines(ev: Elements, first_row: int, max_rows: int) -> Iterator[str]:
    """Lines `first_row`.. of the value as a `dense<...> : T` literal, one innermost row per line
    (valid MLIR: pasted over a placeholder it saves as the literal)."""
    suffix = f"> : {ev.type_text}"
    head = f"array<{print_type(ev.element)}: " if ev.element is not None else "array<ui8: "
    if ev.type is not None and (ev.splat or not ev.shape or ev.count == 0):
        if first_row == 0:
            yield "dense<" + (ev.element_text(0) if ev.count else "") + suffix
        return
    if ev.type is None:  # a dense array or raw bytes: a flat list, ARRAY_ROW elements a line
        lines = rows(ev)
        for r in range(first_row, min(lines, first_row + max_rows)):
            items = ", ".join(ev.element_text(i)
                              for i in range(r * ARRAY_ROW, min(ev.count, (r + 1) * ARRAY_ROW)))
            yield (head if r == 0 else "  ") + items + (">" if r == lines - 1 else ",")
        return
    dims = ev.shape[:-1]
    inner = ev.shape[-1]
    total = rows(ev)
    for r in range(first_row, min(total, first_row + max_rows)):
        digits = _unravel(r, dims)
        opens = 1 + _trailing(digits, [0] * len(dims))
        closes = 1 + _trailing(digits, [d - 1 for d in dims])
        items = ", ".join(ev.element_text(i) for i in range(r * inner, (r + 1) * inner))
        line = ("dense<" if r == 0 else " " * (6 + len(dims) - opens + 1)) + "[" * opens + items + \
            "]" * closes
        yield line + (suffix if r == total - 1 else ",")


def _unravel(r: int, dims: tuple[int, ...]) -> list[int]:
    out = [0] * len(dims)
    for i in range(len(dims) - 1, -1, -1):
        r, out[i] = divmod(r, dims[i]) if dims[i] else (r, 0)
    return out


def _trailing(digits: list[int], target: list[int]) -> int:
    n = 0
    for d, t in zip(reversed(digits), reversed(target), strict=True):
        if d != t:
            break
        n += 1
    return n




