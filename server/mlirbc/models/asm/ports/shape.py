"""`shape.const_shape` (ConstShapeOp::print/parse: the extents as a bracketed list of integers, stored as a
`tensor<Nxindex>` elements attribute)."""

from __future__ import annotations

import struct

from ....ir.attributes import ArrayAttr, DenseElementsAttr, IntegerAttr
from ....ir.operation import Operation
from ....ir.types import IndexType, RankedTensorType
from ..api import AsmParser, AsmPrinter, OpState, OpSyntax, SyntaxModelError
from .base import Port, attr_entries


def _extents(a: object) -> list[int]:
    if not isinstance(a, DenseElementsAttr) or not isinstance(a.type, RankedTensorType) or \
            len(a.type.shape) != 1 or not isinstance(a.type.element, IndexType):
        raise SyntaxModelError("the shape is not a tensor<Nxindex> elements attribute")
    n = a.type.shape[0]
    data = bytes(a.data)
    if n < 0 or len(data) not in (8, 8 * n) or (n == 0 and data):
        raise SyntaxModelError("the shape's data does not fit its type")
    values = list(struct.unpack(f"<{len(data) // 8}q", data))
    return values * n if len(values) == 1 and n != 1 else values


def extents_attr(values: list[int]) -> DenseElementsAttr:
    """`getIndexTensorAttr`: equal extents are stored once (a splat), as MLIR's storage uniques them."""
    t = RankedTensorType.get((len(values),), IndexType.get())
    stored = values[:1] if values and all(v == values[0] for v in values) else values
    return DenseElementsAttr.get(t, struct.pack(f"<{len(stored)}q", *stored))


class ConstShapeOp(Port):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        values = _extents(view.attr("shape"))
        if len(op.results) != 1:
            raise SyntaxModelError("shape.const_shape has one result")
        p.write(" ")
        p.optional_attr_dict(attr_entries(view, {"shape"}))
        p.write("[" + ", ".join(str(v) for v in values) + "] : ")
        p.type(op.results[0].type)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        extents = p.parse_attribute()
        if not isinstance(extents, ArrayAttr) or \
                not all(isinstance(e, IntegerAttr) for e in extents.elements):
            raise p.error("expected an array of integers for the extents")
        values = []
        for e in extents.elements:
            assert isinstance(e, IntegerAttr)
            bits = e.bits
            values.append(bits - (1 << 64) if bits >> 63 else bits)
        state.attributes["shape"] = extents_attr(values)
        p.parse_punct(":")
        state.result_types.append(p.parse_type())


MODELS: list[OpSyntax] = [ConstShapeOp("shape.const_shape")]
