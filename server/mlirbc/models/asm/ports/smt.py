"""SMT ops whose form SMTOps.cpp writes:

    smt.eq %a, %b, %c {attrs}? : !smt.bv<32>            (smt.distinct alike)
    smt.bv.repeat 2 times %x {attrs}? : !smt.bv<32>
    smt.int.constant -3 {attrs}?                        (named `%c-3`)

`smt.eq` and `smt.distinct` compare operands of the one printed type and give a `!smt.bool`;
`smt.bv.repeat`'s count is the result's width over the input's, and its result is as wide as the count
times the input.  `smt.int.constant`'s value is an unsigned integer attribute as wide as `parseInteger`
makes the literal (four bits a digit, one more when the top one is set, 64 for zero), printed as the
signed value of its bits; a value of another width would read back as another attribute, so it prints
generic.
"""

from __future__ import annotations

from ....ir.attributes import IntegerAttr
from ....ir.operation import Operation
from ....ir.types import IntegerType, Type
from ....syntax.attr_parser import parse_type_text
from ....syntax.attr_printer import plain_type_text
from ..api import AsmParser, AsmPrinter, OperandRef, OpState, OpSyntax, SyntaxModelError
from .base import Port, attr_entries

_MAX_WIDTH = 1 << 63
"""A bit vector's width is an int64_t parameter."""


def bv_width(t: Type) -> int | None:
    text = plain_type_text(t)
    if text.startswith("!smt.bv<") and text.endswith(">") and text[8:-1].isdigit():
        return int(text[8:-1])
    return None


class SameTypeToBoolOp(Port):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if not op.operands or len(op.results) != 1 or plain_type_text(op.results[0].type) != "!smt.bool":
            raise SyntaxModelError(f"{self.name} compares operands to one !smt.bool")
        t = op.operands[0].type
        if any(v.type is not t for v in op.operands):
            raise SyntaxModelError(f"{self.name}: the operands are not of one type")
        p.write(" ")
        for i, v in enumerate(op.operands):
            if i:
                p.write(", ")
            p.operand(v)
        p.optional_attr_dict(attr_entries(self.view(op), set()))
        p.write(" : ")
        p.type(t)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        refs: list[OperandRef] = []
        first = p.parse_optional_operand()
        if first is not None:
            refs.append(first)
            while p.parse_optional_punct(","):
                refs.append(p.parse_operand())
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        p.parse_punct(":")
        t = p.parse_type()
        state.result_types.append(parse_type_text("!smt.bool"))
        p.resolve_operands(refs, [t] * len(refs), state)


class RepeatOp(Port):
    keywords_list = ("times",)

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if len(op.operands) != 1 or len(op.results) != 1:
            raise SyntaxModelError("smt.bv.repeat has one input and one result")
        w_in, w_out = bv_width(op.operands[0].type), bv_width(op.results[0].type)
        if not w_in or w_out is None or w_out % w_in or not w_out:
            raise SyntaxModelError("smt.bv.repeat: the result is not a whole number of inputs wide")
        p.write(f" {w_out // w_in} times ")
        p.operand(op.operands[0])
        p.optional_attr_dict(attr_entries(self.view(op), set()))
        p.write(" : ")
        p.type(op.operands[0].type)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        count = p.parse_integer()
        p.parse_keyword("times")
        if count <= 0:
            raise p.error("integer must be positive")
        ref = p.parse_operand()
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        p.parse_punct(":")
        t = p.parse_type()
        p.resolve_operands([ref], [t], state)
        width = bv_width(t)
        if width is None:
            raise p.error("input must have bit-vector type")
        if count * width >= _MAX_WIDTH:
            raise p.error("result bit-width (provided integer times bit-width of the input type) must fit "
                          "into 63 bits")
        state.result_types.append(parse_type_text(f"!smt.bv<{count * width}>"))


def literal_width(magnitude: int, digits: int) -> int:
    """The width of the APInt `parseInteger` reads from a literal of `digits` significant digits (decimal
    or hex) of this magnitude: 64 for zero, else four bits a digit and one more when the top one is set
    (the sign is applied after)."""
    if magnitude == 0:
        return 64
    width = 4 * digits
    return width + 1 if magnitude >> (width - 1) else width


def _signed_value(op: Operation, data_op: IntConstantOp) -> tuple[int, IntegerType]:
    """(the signed value of smt.int.constant's bits, as `APInt`'s print shows it; the value's type)."""
    value = data_op.view(op).attr("value")
    if not isinstance(value, IntegerAttr) or not isinstance(value.type, IntegerType) or not value.type.width:
        raise SyntaxModelError("smt.int.constant's value is not an integer attribute")
    width = value.type.width
    return (value.bits - (1 << width) if value.bits >> (width - 1) else value.bits), value.type


def _int_constant_value(op: Operation, data_op: IntConstantOp) -> int:
    """The value `smt.int.constant` prints, checked to read back as the attribute it has."""
    signed, t = _signed_value(op, data_op)
    if t.signedness != 2:
        raise SyntaxModelError("smt.int.constant's value is not an unsigned integer attribute")
    if literal_width(abs(signed), len(str(abs(signed)).lstrip("0"))) != t.width:
        raise SyntaxModelError(f"smt.int.constant: a {t.width}-bit value reads back with another width")
    return signed


class IntConstantOp(Port):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if len(op.results) != 1 or plain_type_text(op.results[0].type) != "!smt.int" or op.operands:
            raise SyntaxModelError("smt.int.constant has no operands and one !smt.int result")
        p.write(f" {_int_constant_value(op, self)}")
        p.optional_attr_dict(attr_entries(self.view(op), {"value"}))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        negative = p.parse_optional_punct("-")
        text = p.peek_text()
        magnitude = p.parse_integer()
        if magnitude < 0:
            raise p.error("expected an integer")
        digits = text[2:] if text[:2].lower() == "0x" else text
        width = literal_width(magnitude, len(digits.lstrip("0")))
        bits = (-magnitude if negative else magnitude) % (1 << width)
        state.attributes["value"] = IntegerAttr.get(IntegerType.get(width, 2), bits)
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        state.result_types.append(parse_type_text("!smt.int"))

    def result_names(self, op: Operation) -> list[tuple[int, str]]:
        try:
            return [(0, f"c{_signed_value(op, self)[0]}")] if op.results else []
        except SyntaxModelError:
            return []


MODELS: list[OpSyntax] = [SameTypeToBoolOp("smt.eq"), SameTypeToBoolOp("smt.distinct"),
                          RepeatOp("smt.bv.repeat"), IntConstantOp("smt.int.constant")]
