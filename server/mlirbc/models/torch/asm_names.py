"""Result names torch-mlir's constants give themselves (ports of their `getAsmResultNames`): `%int-1`,
`%float5.000000e-01`, `%true`, `%none`, `%str`, and a device constant's device (`%cpu`)."""

from __future__ import annotations

from ...ir.attributes import FloatAttr, IntegerAttr, StringAttr
from ..asm.adaptor import OpView
from ..asm.names import NamesFn, int_value


def _first(name: str | None) -> list[tuple[int, str]]:
    return [(0, name)] if name is not None else []


def _int(v: OpView) -> list[tuple[int, str]]:
    value = v.attr("value")
    return _first(f"int{int_value(value)}" if isinstance(value, IntegerAttr) else None)


def float_name(bits: int) -> str:
    """`float` and the f64 of bit pattern `bits` as `APFloat::toString(buf, 6, 0, false)` writes it, without
    what is not an identifier character (the exponent's `+`): `float5.000000e-01`, `float1.234570e08`,
    `float-0.000000e00`, `floatInf`, `floatNaN`."""
    bits &= (1 << 64) - 1
    negative = bits >> 63
    biased = (bits >> 52) & 0x7FF
    fraction = bits & ((1 << 52) - 1)
    if biased == 0x7FF:
        text = "NaN" if fraction else ("-Inf" if negative else "+Inf")
    elif biased == 0 and fraction == 0:
        text = ("-" if negative else "") + "0." + "0" * _PRECISION + "e+00"
    else:
        significand = fraction | (1 << 52) if biased else fraction
        exp = (biased if biased else 1) - 1075
        text = ("-" if negative else "") + _scientific(significand, exp)
    return "float" + "".join(c for c in text if c.isalnum() or c in "_$.-")


_PRECISION = 6
"""The digits torch-mlir asks for."""


def _scientific(significand: int, exp: int) -> str:
    """APFloat's decimal digits of `significand * 2**exp` (positive): the significand cut to about
    `_PRECISION` digits by truncation first, then rounded half up to `_PRECISION` digits, written
    `d.dddddde+XX` with zeros up to `_PRECISION` digits after the point."""
    trailing = (significand & -significand).bit_length() - 1
    significand >>= trailing
    exp += trailing
    if exp > 0:
        significand <<= exp
        exp = 0
    elif exp < 0:
        significand *= 5 ** -exp  # N * 2^-e == N * 5^e * 10^-e
    required = (_PRECISION * 196 + 58) // 59  # 196/59: a slight overestimate of log2(10)
    active = significand.bit_length()
    if active > required:
        removable = (active - required) * 59 // 196
        if removable:
            exp += removable
            significand //= 10 ** removable
    digits = str(significand)
    stripped = digits.rstrip("0")
    exp += len(digits) - len(stripped)
    digits = stripped
    if len(digits) > _PRECISION:
        cut = len(digits) - _PRECISION
        head = digits[:_PRECISION]
        if digits[_PRECISION] >= "5":  # half up, as APFloat rounds its digits
            rounded = str(int(head) + 1)
            if len(rounded) > _PRECISION:  # carried through: one digit
                rounded = rounded[:_PRECISION]
                cut += 1
            head = rounded
        exp += cut
        digits = head.rstrip("0") or "0"
        exp += len(head) - len(digits)
    exp += len(digits) - 1
    mantissa = digits[0] + "." + digits[1:] + "0" * (_PRECISION - len(digits) + 1)
    return f"{mantissa}e{'+' if exp >= 0 else '-'}{abs(exp):02d}"


def _float(v: OpView) -> list[tuple[int, str]]:
    value = v.attr("value")
    return _first(float_name(value.bits) if isinstance(value, FloatAttr) else None)


def _bool(v: OpView) -> list[tuple[int, str]]:
    value = v.attr("value")
    if isinstance(value, IntegerAttr):
        return _first("true" if value.bits else "false")
    return []


def _device(v: OpView) -> list[tuple[int, str]]:
    value = v.attr("value")
    return _first(value.value.decode("utf-8", "surrogateescape") if isinstance(value, StringAttr) else None)


RESULT_NAMES: dict[str, NamesFn] = {
    "torch.constant.int": _int,
    "torch.constant.float": _float,
    "torch.constant.bool": _bool,
    "torch.constant.none": lambda v: _first("none"),
    "torch.constant.str": lambda v: _first("str"),
    "torch.constant.device": _device,
}
