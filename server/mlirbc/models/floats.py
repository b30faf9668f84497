"""Float values as MLIR 22 prints and parses them, for models that print floats inside their own text.

A dialect type such as `!quant.uniform<i8:f32, 9.987200e-01>` is known by its exact text, so a model that
prints it must produce the digits `mlir-opt` produces.  MLIR prints a float in 6-digit scientific form when
that form reads back to the same bits, else in the shortest-round-trip plain form when that has a `.`, else as
the hex bit pattern.  The digit generation below reproduces LLVM's (including its early truncation of
surplus digits before rounding, which is why `0.998` does not print as `9.980000e-01`), checked against the
oracle on random values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Semantics:
    """An IEEE-style binary format: `precision` significand bits (implicit bit included), total `width`."""

    name: str
    precision: int
    width: int

    @property
    def exponent_bits(self) -> int:
        return self.width - self.precision

    @property
    def bias(self) -> int:
        return (1 << (self.exponent_bits - 1)) - 1

    @property
    def min_exponent(self) -> int:
        return 1 - self.bias


SEMANTICS: dict[str, Semantics] = {
    s.name: s
    for s in (
        Semantics("f16", 11, 16),
        Semantics("bf16", 8, 16),
        Semantics("tf32", 11, 19),
        Semantics("f32", 24, 32),
        Semantics("f64", 53, 64),
        Semantics("f128", 113, 128),
    )
}
"""The formats handled here: all have IEEE infinities/NaNs and subnormals."""

F64 = SEMANTICS["f64"]


def _split(bits: int, sem: Semantics) -> tuple[bool, str, int, int]:
    """(negative, kind, significand, exponent) with value = significand * 2**exponent."""
    mant_bits = sem.precision - 1
    neg = bool(bits >> (sem.width - 1) & 1)
    biased = (bits >> mant_bits) & ((1 << sem.exponent_bits) - 1)
    mant = bits & ((1 << mant_bits) - 1)
    if biased == (1 << sem.exponent_bits) - 1:
        return neg, ("inf" if mant == 0 else "nan"), 0, 0
    if biased == 0:
        if mant == 0:
            return neg, "zero", 0, 0
        return neg, "normal", mant, sem.min_exponent - mant_bits
    return neg, "normal", mant | (1 << mant_bits), biased - sem.bias - mant_bits


def _trim_integer(sig: int, exp: int, precision: int) -> tuple[int, int]:
    # LLVM drops whole surplus decimal digits by truncating division before it rounds the digit string;
    # the count is estimated from the bit length (196/59 approximates log2(10)).
    bits = sig.bit_length()
    required = (precision * 196 + 58) // 59
    if bits <= required:
        return sig, exp
    tens = (bits - required) * 59 // 196
    if not tens:
        return sig, exp
    return sig // 10**tens, exp + tens


def _round_digits(digits: list[int], exp: int, precision: int) -> tuple[list[int], int]:
    """Round a least-significant-first digit list to `precision` digits (round half up)."""
    n = len(digits)
    if n <= precision:
        return digits, exp
    first = n - precision
    if digits[first - 1] < 5:
        while first < n and digits[first] == 0:
            first += 1
        return digits[first:], exp + first
    for i in range(first, n):
        if digits[i] == 9:
            first += 1
        else:
            digits[i] += 1
            break
    if first == n:
        return [1], exp + first
    return digits[first:], exp + first


def to_string(bits: int, sem: Semantics, precision: int = 0, max_padding: int = 3,
              truncate_zero: bool = True) -> str:
    """LLVM's APFloat::toString for a finite value (its defaults give the shortest round-trip form)."""
    neg, kind, sig, exp = _split(bits, sem)
    sign = "-" if neg else ""
    if kind == "inf":
        return sign + "Inf" if neg else "+Inf"
    if kind == "nan":
        return "NaN"
    if kind == "zero":
        if max_padding:
            return sign + "0"
        if truncate_zero:
            return sign + "0.0E+0"
        return sign + "0." + "0" * max(precision, 1) + "e+00"
    if not precision:
        precision = 2 + sem.precision * 59 // 196
    tz = (sig & -sig).bit_length() - 1
    sig >>= tz
    exp += tz
    if exp > 0:
        sig <<= exp
        exp = 0
    elif exp < 0:
        sig *= 5 ** (-exp)
    sig, exp = _trim_integer(sig, exp, precision)
    digits: list[int] = []
    trailing = True
    while sig:
        sig, d = divmod(sig, 10)
        if trailing and d == 0:
            exp += 1
        else:
            digits.append(d)
            trailing = False
    digits, exp = _round_digits(digits, exp, precision)
    nd = len(digits)
    text = "".join(chr(48 + d) for d in reversed(digits))  # most significant first
    if not max_padding:
        scientific = True
    elif exp >= 0:
        scientific = exp > max_padding or nd + exp > precision
    else:
        msd = exp + nd - 1
        scientific = msd < 0 and -msd > max_padding
    if scientific:
        e10 = exp + nd - 1
        out = text[0] + "."
        if nd == 1 and truncate_zero:
            out += "0"
        else:
            out += text[1:]
        if not truncate_zero and precision > nd - 1:
            out += "0" * (precision - nd + 1)
        out += "E" if truncate_zero else "e"
        out += "+" if e10 >= 0 else "-"
        edigits = str(abs(e10))
        if not truncate_zero and len(edigits) < 2:
            edigits = "0" + edigits
        return sign + out + edigits
    if exp >= 0:
        return sign + text + "0" * exp
    whole = exp + nd
    if whole > 0:
        return sign + text[:whole] + "." + text[whole:]
    return sign + "0." + "0" * (-whole) + text


_DECIMAL = re.compile(r"[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?")


def parse_decimal(text: str, sem: Semantics) -> int:
    """Bits of the decimal `text` correctly rounded (nearest, ties to even) into `sem`."""
    if not _DECIMAL.fullmatch(text):
        raise ValueError(f"not a decimal float literal: {text!r}")
    neg = text.startswith("-")
    value = abs(Fraction(text))
    sign_bit = (1 << (sem.width - 1)) if neg else 0
    if value == 0:
        return sign_bit
    mant_bits = sem.precision - 1
    e = value.numerator.bit_length() - value.denominator.bit_length()
    if Fraction(2) ** e > value:
        e -= 1
    e = max(e, sem.min_exponent)
    quantum = Fraction(2) ** (e - mant_bits)
    q = value / quantum
    n = q.numerator // q.denominator
    rem = q - n
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n & 1):
        n += 1
    if n >> sem.precision:  # rounding carried into a new binade
        n >>= 1
        e += 1
    if e > sem.bias:
        return sign_bit | (((1 << sem.exponent_bits) - 1) << mant_bits)
    if n >> mant_bits == 0:  # subnormal
        return sign_bit | n
    return sign_bit | ((e + sem.bias) << mant_bits) | (n & ((1 << mant_bits) - 1))


def format_float(bits: int, sem: Semantics) -> str:
    """The text `mlir-opt` prints for a float of these bits (no type suffix)."""
    _, kind, _, _ = _split(bits, sem)
    if kind not in ("inf", "nan"):
        short = to_string(bits, sem, 6, 0, False)
        if parse_decimal(short, sem) == bits:
            return short
        plain = to_string(bits, sem)
        if "." in plain:
            return plain
    return "0x" + format(bits, "X")


_HEX = re.compile(r"0x[0-9a-fA-F]+")


def parse_float(text: str, sem: Semantics) -> int:
    """Bits of a float literal as MLIR text writes it: decimal, or `0x...` giving the bit pattern."""
    if _HEX.fullmatch(text):
        bits = int(text, 16)
        if bits >> sem.width:
            raise ValueError(f"hex float {text} does not fit {sem.name}")
        return bits
    return parse_decimal(text, sem)


def double_bits(value: float) -> int:
    import struct

    return int.from_bytes(struct.pack("<d", value), "little")
