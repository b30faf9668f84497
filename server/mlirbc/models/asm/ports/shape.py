"""Shape ops whose form ShapeOps.cpp writes:

* `shape.const_shape` (the extents as a bracketed list of integers, stored as a `tensor<Nxindex>`
  elements attribute);
* `shape.reduce(%shape, %init...) : shape-type -> result-types {body} {attrs}?` (the initial values have
  the result types);
* `shape.assuming %witness -> (types)? {body} {attrs}?` (the body's terminator printed only when it yields
  results; a missing one is `shape.assuming_yield`)."""

from __future__ import annotations

import struct

from ....ir.attributes import ArrayAttr, DenseElementsAttr, IntegerAttr
from ....ir.operation import Operation
from ....ir.types import FunctionType, IndexType, RankedTensorType, Type
from ....syntax.attr_parser import parse_type_text
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


def _arrow_types(p: AsmPrinter, types: list[Type]) -> None:
    """printOptionalArrowTypeList: nothing, ` -> t`, or ` -> (t, u)`."""
    if not types:
        return
    p.write(" -> ")
    paren = len(types) > 1 or isinstance(types[0], FunctionType)
    if paren:
        p.write("(")
    for i, t in enumerate(types):
        if i:
            p.write(", ")
        p.type(t)
    if paren:
        p.write(")")


def _parse_arrow_types(p: AsmParser) -> list[Type]:
    if not p.parse_optional_punct("->"):
        return []
    if not p.parse_optional_punct("("):
        return [p.parse_type()]
    types = [p.parse_type()]
    while p.parse_optional_punct(","):
        types.append(p.parse_type())
    p.parse_punct(")")
    return types


class ReduceOp(Port):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if len(op.operands) < 2 or len(op.regions) != 1:
            raise SyntaxModelError("shape.reduce prints a shape and at least one initial value")
        shape, inits = op.operands[0], op.operands[1:]
        if [v.type for v in inits] != [r.type for r in op.results]:
            raise SyntaxModelError("shape.reduce: the initial values are not of the result types")
        p.write("(")
        for i, v in enumerate(op.operands):
            if i:
                p.write(", ")
            p.operand(v)
        p.write(") : ")
        p.type(shape.type)
        _arrow_types(p, [r.type for r in op.results])
        p.write(" ")
        p.region(op.regions[0])
        p.optional_attr_dict(attr_entries(self.view(op), set()))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        p.parse_punct("(")
        refs = [p.parse_operand()]
        while p.parse_optional_punct(","):
            refs.append(p.parse_operand())
        p.parse_punct(")")
        p.parse_punct(":")
        shape_type = p.parse_type()
        results = _parse_arrow_types(p)
        if len(results) != len(refs) - 1:
            raise p.error(f"{len(refs) - 1} initial values present, but expected {len(results)}")
        p.resolve_operands(refs, [shape_type, *results], state)
        state.result_types.extend(results)
        state.regions.append(p.parse_region())
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)


class AssumingOp(Port):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if len(op.operands) != 1 or len(op.regions) != 1:
            raise SyntaxModelError("shape.assuming has a witness and a body")
        results = [r.type for r in op.results]
        blocks = op.regions[0].blocks
        if not results and blocks:
            ops = blocks[-1].operations
            term = ops[-1] if ops else None
            if term is None or term.name != "shape.assuming_yield" or term.operands:
                raise SyntaxModelError("shape.assuming: the terminator it leaves out is not a plain "
                                       "shape.assuming_yield")
        p.write(" ")
        p.operand(op.operands[0])
        if results:
            p.write(" -> (")
            for i, t in enumerate(results):
                if i:
                    p.write(", ")
                p.type(t)
            p.write(")")
        p.write(" ")
        p.region(op.regions[0], False, bool(results))
        p.optional_attr_dict(attr_entries(self.view(op), set()))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        witness = p.parse_operand()
        p.resolve_operands([witness], [parse_type_text("!shape.witness")], state)
        state.result_types.extend(_parse_arrow_types(p))
        body = p.parse_region()
        p.ensure_terminator(body, "shape.assuming_yield")
        state.regions.append(body)
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)


MODELS: list[OpSyntax] = [ConstShapeOp("shape.const_shape"), ReduceOp("shape.reduce"),
                          AssumingOp("shape.assuming")]
