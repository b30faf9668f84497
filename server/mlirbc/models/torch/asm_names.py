"""Result names torch-mlir's constants give themselves (ports of their `getAsmResultNames`): `%int-1`,
`%float5.000000e-01`, `%true`, `%none`, `%str`, and a device constant's device (`%cpu`)."""

from __future__ import annotations

from ...ir.attributes import FloatAttr, IntegerAttr, StringAttr
from ...syntax.floats import INF, NAN, SEMANTICS, ZERO, apfloat_to_string, decode_float
from ..asm.adaptor import OpView
from ..asm.names import NamesFn, int_value

_F64 = SEMANTICS["f64"]


def _first(name: str | None) -> list[tuple[int, str]]:
    return [(0, name)] if name is not None else []


def _int(v: OpView) -> list[tuple[int, str]]:
    value = v.attr("value")
    return _first(f"int{int_value(value)}" if isinstance(value, IntegerAttr) else None)


def float_name(bits: int) -> str:
    """`float` and the f64 of bit pattern `bits` as `APFloat::toString(buf, 6, 0, false)` writes it, without
    what is not an identifier character (the exponent's `+`): `float5.000000e-01`, `float1.234570e08`,
    `float-0.000000e00`, `floatInf`, `floatNaN`."""
    category, sign, m, q = decode_float(bits & (1 << 64) - 1, _F64)
    if category == NAN:
        text = "NaN"
    elif category == INF:
        text = "-Inf" if sign else "+Inf"
    elif category == ZERO:  # APFloat's zero with six digits and no padding
        text = ("-" if sign else "") + "0.000000e+00"
    else:
        text = apfloat_to_string(sign, m, q, _F64.precision, 6, 0, False)
    return "float" + "".join(c for c in text if c.isalnum() or c in "_$.-")


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
