"""Builtin float formats: the semantics of every builtin float type, their bit codecs, LLVM's decimal
formatting (`APFloat::toString`, including its early truncation of surplus digits before rounding), the
text `mlir-opt` prints for a float, and correctly rounded decimal -> bits conversion.

Shared by the attribute printer and parser and by models whose canonical text holds floats (quant).
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass

# ================================================================================================
# Float semantics
# ================================================================================================

IEEE = 0
"""Infinities and NaNs encoded the IEEE way (exponent all ones)."""
NAN_ONLY = 1
"""No infinities; NaN is either the all-ones pattern or the negative-zero pattern (FNUZ types)."""
FINITE_ONLY = 2
"""No infinities and no NaNs (f6/f4 types): overflow saturates."""

ZERO, FINITE, INF, NAN = 0, 1, 2, 3


@dataclass(frozen=True, slots=True)
class FloatSemantics:
    """An APFloat format: `precision` significand bits (integer bit included), exponents, width."""

    name: str
    precision: int
    max_exp: int
    min_exp: int
    width: int
    nonfinite: int = IEEE
    nan_is_neg_zero: bool = False
    has_zero: bool = True
    signed: bool = True
    explicit_int_bit: bool = False

    @property
    def storage_bytes(self) -> int:
        """Bytes one element takes in a dense elements blob."""
        return (self.width + 7) // 8


SEMANTICS: dict[str, FloatSemantics] = {
    s.name: s
    for s in (
        FloatSemantics("bf16", 8, 127, -126, 16),
        FloatSemantics("f16", 11, 15, -14, 16),
        FloatSemantics("f32", 24, 127, -126, 32),
        FloatSemantics("f64", 53, 1023, -1022, 64),
        FloatSemantics("f80", 64, 16383, -16382, 80, explicit_int_bit=True),
        FloatSemantics("f128", 113, 16383, -16382, 128),
        FloatSemantics("tf32", 11, 127, -126, 19),
        FloatSemantics("f8E5M2", 3, 15, -14, 8),
        FloatSemantics("f8E4M3", 4, 7, -6, 8),
        FloatSemantics("f8E3M4", 5, 3, -2, 8),
        FloatSemantics("f8E4M3FN", 4, 8, -6, 8, NAN_ONLY),
        FloatSemantics("f8E5M2FNUZ", 3, 15, -15, 8, NAN_ONLY, nan_is_neg_zero=True),
        FloatSemantics("f8E4M3FNUZ", 4, 7, -7, 8, NAN_ONLY, nan_is_neg_zero=True),
        FloatSemantics("f8E4M3B11FNUZ", 4, 4, -10, 8, NAN_ONLY, nan_is_neg_zero=True),
        FloatSemantics("f8E8M0FNU", 1, 127, -127, 8, NAN_ONLY, has_zero=False, signed=False),
        FloatSemantics("f6E3M2FN", 3, 4, -2, 6, FINITE_ONLY),
        FloatSemantics("f6E2M3FN", 4, 2, 0, 6, FINITE_ONLY),
        FloatSemantics("f4E2M1FN", 2, 2, 0, 4, FINITE_ONLY),
    )
}
"""Every builtin float type's semantics by MLIR name (the keys of `types.FLOAT_WIDTHS`)."""


def decode_float(bits: int, sem: FloatSemantics) -> tuple[int, int, int, int]:
    """(category, sign, m, q): a finite value is (-1)**sign * m * 2**q."""
    width = sem.width
    if not sem.signed:  # f8E8M0FNU: a bare biased exponent, 0xFF is NaN
        if bits == 0xFF:
            return NAN, 0, 0, 0
        return FINITE, 0, 1, bits - 127
    sign = (bits >> (width - 1)) & 1
    if sem.explicit_int_bit:
        exp_field = (bits >> 64) & 0x7FFF
        mant = bits & 0xFFFF_FFFF_FFFF_FFFF
        if exp_field == 0 and mant == 0:
            return ZERO, sign, 0, 0
        if exp_field == 0x7FFF and mant == 1 << 63:
            return INF, sign, 0, 0
        if exp_field == 0x7FFF or (exp_field != 0 and not mant >> 63):
            return NAN, sign, 0, 0
        return FINITE, sign, mant, max(exp_field, 1) - 16383 - 63
    mbits = sem.precision - 1
    ebits = width - 1 - mbits
    exp_field = (bits >> mbits) & ((1 << ebits) - 1)
    frac = bits & ((1 << mbits) - 1)
    all_ones = (1 << ebits) - 1
    if sem.nonfinite == IEEE:
        if exp_field == all_ones:
            return (INF if frac == 0 else NAN), sign, 0, 0
    elif sem.nonfinite == NAN_ONLY:
        if sem.nan_is_neg_zero:
            if sign and exp_field == 0 and frac == 0:
                return NAN, sign, 0, 0
        elif exp_field == all_ones and frac == (1 << mbits) - 1:
            return NAN, sign, 0, 0
    if exp_field == 0:
        if frac == 0:
            return ZERO, sign, 0, 0
        return FINITE, sign, frac, sem.min_exp - mbits
    return FINITE, sign, frac | (1 << mbits), exp_field - (1 - sem.min_exp) - mbits


def _encode_finite(sign: int, m: int, q: int, sem: FloatSemantics) -> int:
    """Bits of a value already rounded to the format (m normalised, or subnormal at minimum q)."""
    if not sem.signed:
        return q + 127
    if sem.explicit_int_bit:
        exp_field = q + 63 + 16383 if m >> 63 else 0
        return sign << 79 | exp_field << 64 | m
    mbits = sem.precision - 1
    if m >> mbits:
        exp_field = q + mbits + (1 - sem.min_exp)
        m -= 1 << mbits
    else:
        exp_field = 0
    return sign << (sem.width - 1) | exp_field << mbits | m


def float_zero(sign: int, sem: FloatSemantics) -> int:
    if not sem.has_zero:
        return 0  # APFloat's "zero" of f8E8M0FNU is its smallest value, 2**-127
    if sem.nan_is_neg_zero:
        return 0
    return sign << (sem.width - 1)


def float_inf(sign: int, sem: FloatSemantics) -> int:
    """+-infinity where it exists; NaN for NaN-only formats, the largest finite for finite-only."""
    if sem.nonfinite == NAN_ONLY:
        return float_nan(sign, sem)
    if sem.nonfinite == FINITE_ONLY:
        return float_largest(sign, sem)
    if sem.explicit_int_bit:
        return sign << 79 | 0x7FFF << 64 | 1 << 63
    mbits = sem.precision - 1
    return sign << (sem.width - 1) | ((1 << (sem.width - 1 - mbits)) - 1) << mbits


def float_nan(sign: int, sem: FloatSemantics) -> int:
    if not sem.signed:
        return 0xFF
    if sem.nan_is_neg_zero:
        return 1 << (sem.width - 1)
    if sem.nonfinite == NAN_ONLY:
        return sign << (sem.width - 1) | ((1 << (sem.width - 1)) - 1)
    if sem.explicit_int_bit:
        return sign << 79 | 0x7FFF << 64 | 0xC000_0000_0000_0000
    mbits = sem.precision - 1
    return float_inf(sign, sem) | 1 << (mbits - 1)


def float_largest(sign: int, sem: FloatSemantics) -> int:
    if sem.nonfinite == FINITE_ONLY:
        return sign << (sem.width - 1) | ((1 << (sem.width - 1)) - 1)
    p = sem.precision
    m = (1 << p) - 1
    if sem.nonfinite == NAN_ONLY and not sem.nan_is_neg_zero and p > 1:
        m -= 1  # the all-ones pattern is NaN
    return _encode_finite(sign, m, sem.max_exp - (p - 1), sem)


def round_to_float(sign: int, num: int, den: int, sem: FloatSemantics) -> int:
    """Bits of (-1)**sign * num/den rounded to nearest, ties to even (rmNearestTiesToEven)."""
    return _round(sign, num, den, sem)[0]


def _round(sign: int, num: int, den: int, sem: FloatSemantics) -> tuple[int, bool]:
    """`round_to_float`, and whether num/den lay exactly halfway between two values of `sem` (or on
    its underflow or overflow boundary, which are such halfway points too)."""
    if num == 0:
        return float_zero(sign, sem), False
    p = sem.precision
    e = num.bit_length() - den.bit_length()
    if e >= 0:
        if num < den << e:
            e -= 1
    elif num << -e < den:
        e -= 1
    q = max(e, sem.min_exp) - (p - 1)
    if q >= 0:
        n, d = num, den << q
    else:
        n, d = num << -q, den
    m, r = divmod(n, d)
    r2 = r << 1
    tie = r2 == d
    if r2 > d or (tie and m & 1):
        m += 1
    if m >> p:
        m >>= 1
        q += 1
    if m == 0:
        return float_zero(sign, sem), tie
    exp = q + p - 1 if m >> (p - 1) else sem.min_exp
    if exp > sem.max_exp or (
        sem.nonfinite == NAN_ONLY
        and not sem.nan_is_neg_zero
        and p > 1
        and exp == sem.max_exp
        and m == (1 << p) - 1
    ):
        return float_inf(sign, sem), tie
    return _encode_finite(sign, m, q, sem), tie


_DECIMAL_RE = re.compile(r"([-+]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([-+]?[0-9]+))?")


_EXACT_DIGITS = 12_000


def _decimal_int(digits: str) -> int:
    """int(digits) past Python's per-conversion digit limit (chunks of 4000 digits)."""
    if len(digits) <= 4000:
        return int(digits)
    value = 0
    for i in range(0, len(digits), 4000):
        chunk = digits[i:i + 4000]
        value = value * 10 ** len(chunk) + int(chunk)
    return value


def decimal_to_float_exact(text: str, sem: FloatSemantics) -> int:
    """A decimal literal correctly rounded straight into `sem` (APFloat's string constructor)."""
    m = _DECIMAL_RE.fullmatch(text)
    if m is None:
        raise ValueError(f"not a decimal number: {text!r}")
    sign = 1 if m.group(1) == "-" else 0
    int_part, frac_part = m.group(2), m.group(3) or ""
    digits = (int_part + frac_part).lstrip("0")
    if not digits:
        return float_zero(sign, sem)
    if len(text) <= _FAST_TEXT and _through_double(sem):
        fast = _via_double(text, sign, sem)
        if fast is not None:
            return fast
    exp_text = (m.group(4) or "0").lstrip("+")
    exp_digits = exp_text.lstrip("-").lstrip("0")
    if len(exp_digits) > 7:  # beyond any format's range either way: no huge int() conversion
        exp_text = ("-" if exp_text.startswith("-") else "") + "9999999"
    exp10 = int(exp_text) - len(frac_part)
    # Clamp absurd exponents before building huge powers of ten: beyond these the result is decided.
    magnitude = exp10 + len(digits)
    if magnitude > 5000:
        return float_inf(sign, sem)
    if magnitude < -5100:
        return float_zero(sign, sem)
    if len(digits) > _EXACT_DIGITS:
        # More significant digits than any binary midpoint of these formats has (f80/f128 subnormal
        # midpoints: under 11,600): the rest cannot change the rounding, a nonzero tail only breaks
        # ties, which a sticky last digit keeps doing.
        sticky = "1" if digits[_EXACT_DIGITS:].strip("0") else "0"
        exp10 += len(digits) - _EXACT_DIGITS - 1
        digits = digits[:_EXACT_DIGITS] + sticky
    num = _decimal_int(digits)
    if exp10 >= 0:
        return round_to_float(sign, num * 10**exp10, 1, sem)
    return round_to_float(sign, num, 10**-exp10, sem)


_FAST_TEXT = 64
"""Literals up to this length may take the fast path of `decimal_to_float_exact` (printed floats have
at most ~25 characters; a longer literal goes the exact way, which bounds its cost itself)."""

_F64 = SEMANTICS["f64"]


def _through_double(sem: FloatSemantics) -> bool:
    """Whether `_via_double` may convert into `sem`: f64 itself, and formats whose every halfway point
    and boundary is a double (precision <= 52 bits, exponents within the double's)."""
    return sem is _F64 or (sem.precision <= 52 and sem.signed and sem.has_zero and
                           not sem.explicit_int_bit and sem.max_exp <= 1023 and sem.min_exp >= -1022)


def _via_double(text: str, sign: int, sem: FloatSemantics) -> int | None:
    """A decimal literal correctly rounded into `sem` through Python's correctly rounded `float()`,
    or None when that cannot be trusted (the exact way then decides).

    Rounding twice (decimal -> double -> `sem`) gives the correctly rounded result unless the double
    lands exactly on a halfway point of `sem`: every such point is a double, and rounding is monotonic,
    so the literal and its double lie strictly between the same two halfway points of `sem` otherwise.
    That is checked exactly (`_round`'s tie flag); zero and infinity (under- and overflow of the double
    itself) go the exact way."""
    try:
        d = float(text)
    except ValueError:
        return None
    if sem is _F64:
        return struct.unpack("<Q", struct.pack("<d", d))[0]  # type: ignore[no-any-return]
    if d == 0.0 or d in (_INF, -_INF):
        return None
    if sem is _F32 and _F32_NORMAL <= abs(d) < _F32_TOP:
        # The C conversion rounds to nearest even; a double is halfway between two normal f32 values
        # exactly when the 29 significand bits f32 lacks are 1 followed by zeros.
        if struct.unpack("<Q", struct.pack("<d", d))[0] & _F32_LOST == _F32_HALF:
            return None
        return struct.unpack("<I", struct.pack("<f", d))[0]  # type: ignore[no-any-return]
    num, den = abs(d).as_integer_ratio()
    bits, tie = _round(sign, num, den, sem)
    return None if tie else bits


_INF = float("inf")
_F32 = SEMANTICS["f32"]
_F32_NORMAL = 2.0 ** -126
_F32_TOP = 2.0 ** 128 - 2.0 ** 104
"""Below this every double converts to a finite f32 (the halfway point to overflow is excluded)."""
_F32_LOST = (1 << 29) - 1
_F32_HALF = 1 << 28


def double_to_float(value: float, sem: FloatSemantics) -> int:
    """An IEEE double converted to `sem`, rounding to nearest-even (APFloat::convert)."""
    if sem.name == "f64":
        return struct.unpack("<Q", struct.pack("<d", value))[0]  # type: ignore[no-any-return]
    sign = 1 if struct.pack("<d", value)[7] & 0x80 else 0
    if value != value:
        return float_nan(sign, sem)
    if value in (float("inf"), float("-inf")):
        return float_inf(sign, sem)
    num, den = abs(value).as_integer_ratio()
    return round_to_float(sign, num, den, sem)


# -- APFloat::toString ---------------------------------------------------------------------------


def apfloat_to_string(
    sign: int,
    m: int,
    q: int,
    precision: int,
    format_precision: int,
    max_padding: int,
    truncate_zero: bool,
) -> str:
    """LLVM's decimal rendering of the finite non-zero value (-1)**sign * m * 2**q.

    Reproduces its quirks: the digit string is first cut (not rounded) to about `format_precision`
    digits by a bit-count estimate, then rounded half-up to exactly that many.
    """
    if not format_precision:
        format_precision = 2 + precision * 59 // 196
    tz = (m & -m).bit_length() - 1
    m >>= tz
    exp = q + tz
    if exp > 0:
        m <<= exp
        exp = 0
    elif exp < 0:
        m *= 5 ** (-exp)
    bits = m.bit_length()
    bits_required = (format_precision * 196 + 58) // 59
    if bits > bits_required:
        tens = (bits - bits_required) * 59 // 196
        if tens:
            exp += tens
            m //= 10**tens
    digits = str(m)
    stripped = digits.rstrip("0")
    exp += len(digits) - len(stripped)
    digits = stripped
    n = len(digits)
    if n > format_precision:
        round_up = digits[format_precision] >= "5"
        exp += n - format_precision
        digits = digits[:format_precision]
        if round_up:
            kept = digits.rstrip("9")
            exp += len(digits) - len(kept)
            digits = kept[:-1] + chr(ord(kept[-1]) + 1) if kept else "1"
        else:
            kept = digits.rstrip("0")
            exp += len(digits) - len(kept)
            digits = kept
    n = len(digits)
    out = "-" if sign else ""
    if not max_padding:
        scientific = True
    elif exp >= 0:
        scientific = exp > max_padding or n + exp > format_precision
    else:
        msd = exp + n - 1
        scientific = msd < 0 and -msd > max_padding
    if scientific:
        exp10 = exp + n - 1
        out += digits[0] + "."
        if n == 1 and truncate_zero:
            out += "0"
        else:
            out += digits[1:]
        if not truncate_zero and format_precision > n - 1:
            out += "0" * (format_precision - n + 1)
        out += "E" if truncate_zero else "e"
        out += "-" if exp10 < 0 else "+"
        e_digits = str(abs(exp10))
        if not truncate_zero and len(e_digits) < 2:
            e_digits = "0" + e_digits
        return out + e_digits
    if exp >= 0:
        return out + digits + "0" * exp
    whole = exp + n
    if whole > 0:
        return out + digits[:whole] + "." + digits[whole:]
    return out + "0." + "0" * (-whole) + digits


def _value_key(sign: int, m: int, q: int) -> tuple[int, int, int]:
    tz = (m & -m).bit_length() - 1
    return sign, m >> tz, q + tz


def float_hex(bits: int, sem: FloatSemantics) -> str:
    """The `0x...` bit-pattern form (APInt in C-literal style: uppercase, no leading zeros)."""
    if sem.explicit_int_bit:
        exp_field = (bits >> 64) & 0x7FFF
        mant = bits & 0xFFFF_FFFF_FFFF_FFFF
        if exp_field not in (0, 0x7FFF) and not mant >> 63:
            # An x87 "unnormal" is a NaN to APFloat, which re-encodes NaNs with all-ones exponents.
            bits = (bits >> 79) << 79 | 0x7FFF << 64 | mant
    return f"0x{bits:X}"


def format_float(bits: int, sem: FloatSemantics) -> str:
    """A float value as MLIR prints it: 6-digit scientific when that reads back exactly, else the
    shortest round-tripping plain form when it contains a `.`, else the hex bit pattern."""
    kind, sign, m, q = decode_float(bits, sem)
    if kind == ZERO:
        return "-0.000000e+00" if sign else "0.000000e+00"
    if kind != FINITE:
        return float_hex(bits, sem)
    if _short_may_round_trip(bits, sign, m, q, sem):
        short = apfloat_to_string(sign, m, q, sem.precision, 6, 0, False)
        back_kind, back_sign, back_m, back_q = decode_float(decimal_to_float_exact(short, sem), sem)
        if back_kind == FINITE and _value_key(back_sign, back_m, back_q) == _value_key(sign, m, q):
            return short
    full = apfloat_to_string(sign, m, q, sem.precision, 0, 3, True)
    if "." in full:
        return full
    return float_hex(bits, sem)


def _short_may_round_trip(bits: int, sign: int, m: int, q: int, sem: FloatSemantics) -> bool:
    """False when no 6-digit decimal reads back as this value, decided by Python's correctly rounded
    formatting of the nearest one (most values of real tensors: the check then costs a fraction of
    LLVM's formatting and an exact read-back).

    The nearest 6-digit decimal is the one closest to the value; LLVM's (truncated, then rounded
    half-up) is that one or its neighbour on the other side, farther away.  A value reads back from
    every decimal inside its rounding interval, which is symmetric except when the significand is a
    power of two (the interval below is half as wide): there, and for formats `_via_double` does not
    cover, the full check runs."""
    if not _through_double(sem) or m & (m - 1) == 0:
        return True
    v = math.ldexp(-m if sign else m, q)
    return decimal_to_float_exact(f"{v:.5e}", sem) == bits


_FLOAT_CACHE: dict[tuple[int, str], str] = {}


def print_float_bits(bits: int, type_name: str) -> str:
    """`format_float` for a builtin float type name, memoised (constants repeat a lot)."""
    key = (bits, type_name)
    s = _FLOAT_CACHE.get(key)
    if s is None:
        s = format_float(bits, SEMANTICS[type_name])
        if len(_FLOAT_CACHE) > 65536:
            _FLOAT_CACHE.clear()
        _FLOAT_CACHE[key] = s
    return s


_HEX_LITERAL = re.compile(r"0x[0-9a-fA-F]+")


def parse_float_literal(text: str, sem: FloatSemantics) -> int:
    """Bits of a float literal as MLIR text writes it: decimal, or `0x...` giving the bit pattern."""
    if _HEX_LITERAL.fullmatch(text):
        bits = int(text, 16)
        if bits >> sem.width:
            raise ValueError(f"hex float {text} does not fit {sem.name}")
        return bits
    return decimal_to_float_exact(text, sem)
