"""Writing a value as a NumPy `.npy` file (format version 1.0), streamed, without NumPy.

The format: the magic `\\x93NUMPY`, version bytes 1 0, a little-endian u16 header length, a Python-literal
dict `{'descr': ..., 'fortran_order': False, 'shape': (...), }` padded with spaces and ended by a newline
so that the data starts at a multiple of 64, then the elements in C order.

Element types NumPy has are written as they are stored (the bytes of the mapped file, slice by slice);
the others are widened exactly where they can be: bf16 and tf32 to float32, the 8-bit and smaller
floats to float32, f80 and f128 to float64 (rounded, the one lossy case), i1 to bool, integers of other
widths up to 64 bits to the next wider NumPy integer.  Splats are expanded.  Dense strings become a
fixed-width bytes array (`|S<longest>`).
"""

from __future__ import annotations

import array
import os
import struct
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .files.access import atomic_write
from .ir.types import ComplexType, FloatType, IndexType, IntegerType, Type
from .syntax.elements import CHUNK, Elements

MAGIC = b"\x93NUMPY"


class NpyError(Exception):
    """The value has no .npy representation (an element type NumPy cannot hold)."""


@dataclass
class NpyPlan:
    descr: str
    shape: tuple[int, ...]
    itemsize: int
    note: str = ""
    """How the elements were converted, when they were ("" when written as stored)."""


def header(descr: str, shape: tuple[int, ...]) -> bytes:
    dims = f"{shape[0]}," if len(shape) == 1 else ", ".join(str(d) for d in shape)
    text = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': ({dims}), }}"
    pad = (-(len(MAGIC) + 2 + 2 + len(text) + 1)) % 64
    body = (text + " " * pad + "\n").encode("latin-1")
    if len(body) > 0xFFFF:
        raise NpyError("the .npy header is too long")
    return MAGIC + b"\x01\x00" + struct.pack("<H", len(body)) + body


_FLOAT_DESCR = {"f16": ("<f2", 2), "f32": ("<f4", 4), "f64": ("<f8", 8)}


def _scalar(element: Type) -> tuple[str, int, str]:
    """(descr, itemsize, conversion) of one scalar element type; conversion "" means as stored."""
    if isinstance(element, IndexType):
        return "<i8", 8, ""
    if isinstance(element, IntegerType):
        w = element.width
        kind = "u" if element.signedness == 2 else "i"
        if w == 1:
            return "|b1", 1, "bool"
        if w in (8, 16, 32, 64):
            return (f"|{kind}1" if w == 8 else f"<{kind}{w // 8}"), w // 8, ""
        if w < 64:
            size = next(s for s in (1, 2, 4, 8) if s * 8 >= w)
            return (f"|{kind}1" if size == 1 else f"<{kind}{size}"), size, "int"
        raise NpyError(f"NumPy has no integer type of {w} bits")
    if isinstance(element, FloatType):
        got = _FLOAT_DESCR.get(element.name)
        if got is not None:
            return got[0], got[1], ""
        if element.name in ("f80", "f128"):
            return "<f8", 8, "float"
        return "<f4", 4, "float"
    raise NpyError(f"NumPy has no type for {element}")


def plan(ev: Elements) -> NpyPlan:
    """How `ev` is written (raises NpyError when it cannot be)."""
    if ev.strings is not None:
        width = max((len(s) for s in ev.strings), default=0) or 1
        return NpyPlan(f"|S{width}", ev.shape, width, "strings padded with NUL bytes")
    element = ev.element
    if element is None:
        return NpyPlan("|u1", ev.shape, 1)
    if isinstance(element, ComplexType):
        inner, size, conv = _scalar(element.element)
        if conv or inner not in ("<f4", "<f8"):
            raise NpyError(f"NumPy has no complex type of {element.element}")
        return NpyPlan("<c8" if inner == "<f4" else "<c16", ev.shape, 2 * size)
    descr, size, conv = _scalar(element)
    note = {"": "", "bool": "i1 written one byte per element",
            "int": f"{element} widened to {descr}",
            "float": f"{element} converted to {'float64' if descr == '<f8' else 'float32'}"}[conv]
    return NpyPlan(descr, ev.shape, size, note)


def _data(ev: Elements, p: NpyPlan) -> Iterator[bytes | memoryview]:
    if ev.strings is not None:
        width = p.itemsize
        if ev.splat:
            one = ev.strings[0].ljust(width, b"\0")
            for start in range(0, ev.count, CHUNK):
                yield one * (min(ev.count, start + CHUNK) - start)
            return
        for start in range(0, len(ev.strings), CHUNK):
            yield b"".join(s.ljust(width, b"\0") for s in ev.strings[start:start + CHUNK])
        return
    assert ev.codec is not None
    as_stored = not p.note and not ev.packed
    if ev.splat:
        one = bytes(ev.data[:ev.codec.size]) if as_stored else _convert(ev, p, ev.stored_numbers(0, 1))
        for start in range(0, ev.count, CHUNK):
            yield one * (min(ev.count, start + CHUNK) - start)
        return
    for start in range(0, ev.stored, CHUNK):
        stop = min(ev.stored, start + CHUNK)
        if as_stored:
            yield ev.data[start * ev.codec.size:stop * ev.codec.size]
        else:
            yield _convert(ev, p, ev.stored_numbers(start, stop))


_CODES = {"|b1": "B", "|i1": "b", "|u1": "B", "<i2": "h", "<u2": "H", "<i4": "i", "<u4": "I",
          "<i8": "q", "<u8": "Q", "<f4": "f", "<f8": "d"}


def _convert(ev: Elements, p: NpyPlan, nums: Sequence[int | float]) -> bytes:
    a: array.array[Any] = array.array(_CODES[p.descr], nums)
    if sys.byteorder != "little":
        a.byteswap()
    return a.tobytes()


def write_npy(path: str | os.PathLike[str], ev: Elements) -> NpyPlan:
    """Write `ev` to `path` as .npy, atomically and streamed chunk by chunk; returns what was written."""
    p = plan(ev)

    def pieces() -> Iterator[bytes | memoryview]:
        yield header(p.descr, p.shape)
        yield from _data(ev, p)

    atomic_write(path, pieces())
    return p
