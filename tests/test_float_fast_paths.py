"""The fast paths of float conversion (through Python's correctly rounded double, and the filter that
skips LLVM's 6-digit form when it cannot read back) agree with the exact algorithms bit for bit: on random
bit patterns and decimal literals of every format they cover, and on the hard cases (halfway points,
boundaries of overflow and underflow, subnormals, powers of two)."""

from __future__ import annotations

import random
import struct

import pytest

from mlirbc.syntax import floats
from mlirbc.syntax.floats import SEMANTICS, FloatSemantics, decimal_to_float_exact, format_float

COVERED = [n for n, s in SEMANTICS.items() if floats._through_double(s)]


def _exact(text: str, sem: FloatSemantics) -> int:
    old = floats._FAST_TEXT
    floats._FAST_TEXT = -1  # the exact way only
    try:
        return decimal_to_float_exact(text, sem)
    finally:
        floats._FAST_TEXT = old


def _format_exact(bits: int, sem: FloatSemantics) -> str:
    old = floats._FAST_TEXT
    floats._FAST_TEXT = -1
    try:
        saved = floats._short_may_round_trip
        floats._short_may_round_trip = lambda *a: True  # type: ignore[assignment]
        try:
            return format_float(bits, sem)
        finally:
            floats._short_may_round_trip = saved  # type: ignore[assignment]
    finally:
        floats._FAST_TEXT = old


def test_the_fast_paths_cover_the_common_formats() -> None:
    assert {"f16", "bf16", "f32", "f64", "tf32", "f8E4M3FN", "f8E5M2"} <= set(COVERED)
    assert "f80" not in COVERED and "f128" not in COVERED and "f8E8M0FNU" not in COVERED


def _hard_literals(sem: FloatSemantics) -> list[str]:
    """Halfway points between neighbours, and the values just beside them, as exact decimals."""
    from decimal import Decimal, getcontext

    getcontext().prec = 400
    rnd = random.Random(sem.name)
    out = []
    p = sem.precision
    for _ in range(150):
        e = rnd.randint(sem.min_exp - p, sem.max_exp + 1)
        m = rnd.randint(1 << (p - 1), (1 << p) - 1)
        for num in (2 * m + 1, 2 * m, 2 * m - 1):
            half = Decimal(num) * Decimal(2) ** (e - p)
            out.append(f"{half:.60e}")
            out.append(f"{half:.{rnd.randint(1, 25)}e}")
            out.append(f"{half.next_plus():.60e}")
    top = Decimal(2) ** (sem.max_exp + 1) - Decimal(2) ** (sem.max_exp - p)
    low = Decimal(2) ** (sem.min_exp - p)
    for v in (top, top.next_plus(), top.next_minus(), low, low.next_plus(), low.next_minus(),
              Decimal(2) ** sem.min_exp):
        out.append(f"{v:.70e}")
    return out


@pytest.mark.parametrize("name", COVERED)
def test_decimal_literals_round_as_the_exact_conversion(name: str) -> None:
    sem = SEMANTICS[name]
    rnd = random.Random(name)
    texts = _hard_literals(sem)
    for _ in range(3000):
        digits = "".join(rnd.choice("0123456789") for _ in range(rnd.randint(1, 20)))
        cut = rnd.randint(0, len(digits))
        texts.append(f"{rnd.choice(['', '-', '+'])}{digits[:cut]}.{digits[cut:]}e{rnd.randint(-60, 60)}")
    for sign in ("", "-"):
        for t in texts:
            t = sign + t.lstrip("+-") if sign else t
            assert decimal_to_float_exact(t, sem) == _exact(t, sem), (name, t)


@pytest.mark.parametrize("name", COVERED)
def test_printed_floats_are_those_of_the_exact_algorithm(name: str) -> None:
    sem = SEMANTICS[name]
    rnd = random.Random(name + "print")
    n = 2000 if sem.width > 16 else 1 << sem.width
    patterns = range(1 << sem.width) if sem.width <= 12 else [rnd.getrandbits(sem.width) for _ in range(n)]
    for bits in patterns:
        assert format_float(bits, sem) == _format_exact(bits, sem), (name, hex(bits))
    if name == "f32":
        for v in (1.0, 0.1, 3.14159274, 1e-45, 2.0 ** -126, 2.0 ** 127, 16777216.0, 1.5e-39):
            b = struct.unpack("<I", struct.pack("<f", v))[0]
            assert format_float(b, sem) == _format_exact(b, sem), v
