"""`arith.constant`: a signless integer type, and a value that is an integer, a float or elements."""

from __future__ import annotations

from ...ir.attributes import (
    DenseElementsAttr,
    DenseResourceElementsAttr,
    DenseStringElementsAttr,
    FloatAttr,
    IntegerAttr,
    SparseElementsAttr,
)
from ...ir.types import IntegerType
from ..core import Finding, OpContext, OpVerifier
from ..predicates import opaque


def verify_constant(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if len(op.results) != 1:
        return None
    t = op.results[0].type
    if isinstance(t, IntegerType) and t.signedness != 0:
        return ctx.fail("integer return type must be signless", check="arith.constant")
    value = ctx.attr("value")
    if value is None or opaque(value):
        return None
    if not isinstance(value, IntegerAttr | FloatAttr | DenseElementsAttr | DenseStringElementsAttr
                      | DenseResourceElementsAttr | SparseElementsAttr):
        if value.dialect == "builtin":
            return ctx.fail("value must be an integer, float, or elements attribute", check="arith.constant")
    return None


VERIFIERS = {
    "arith.constant": OpVerifier(verify_constant,
                                 label="a signless type and an integer, float or elements value"),
}
