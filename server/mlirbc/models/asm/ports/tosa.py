"""TOSA ops with C++ forms (TosaOps.cpp `printWithNanPropagationHandling` / `printWithEnumHandling` and
`parseWithEnumHandling`): `tosa.clamp %x {max_val = ..., min_val = ...} : (T) -> T`, every attribute in
one sorted brace list, enum values bare (`rounding_mode = DOUBLE_ROUND`), a `nan_mode` of PROPAGATE left
out."""

from __future__ import annotations

from ....ir.attributes import Attribute, DialectAttr, StringAttr
from ....ir.operation import Operation
from ....ir.types import FunctionType
from ....syntax.attr_parser import parse_attribute_text
from ....syntax.attr_printer import plain_attribute_text
from ..api import AsmParser, AsmPrinter, OpState, OpSyntax, SyntaxModelError
from .base import Port

_ENUMS = {"#tosa.nan_mode": "nan_mode", "#tosa.rounding_mode": "rounding_mode",
          "#tosa.resize_mode": "mode"}
"""Enum attributes printed bare (printNamedAttr), by their mnemonic; value: the attribute name the parser
reads bare for that enum."""


def _enum_parts(a: Attribute) -> tuple[str, str] | None:
    """(`#tosa.mnemonic`, case) of a TOSA enum attribute the printer writes bare."""
    if not isinstance(a, DialectAttr):
        return None
    text = plain_attribute_text(a)
    head, lt, rest = text.partition("<")
    if head in _ENUMS and lt and rest.endswith(">"):
        return head, rest[:-1]
    return None


class EnumHandlingOp(Port):
    """`printWithEnumHandling`; `elide_nan`: `printWithNanPropagationHandling`."""

    def __init__(self, name: str, enum: str, elide_nan: bool) -> None:
        super().__init__(name)
        self.enum = enum
        """The enum whose values the parser reads bare (`parseWithEnumHandling<EnumType>`)."""
        self.elide_nan = elide_nan

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if len(op.results) != 1:
            raise SyntaxModelError(f"{self.name} has one result")
        p.write(" ")
        for i, operand in enumerate(op.operands):
            if i:
                p.write(", ")
            p.operand(operand)
        entries = self.view(op).all_attrs()
        if self.elide_nan:
            for i, (k, a) in enumerate(entries):
                parts = _enum_parts(a)
                if parts is not None and parts[0] == "#tosa.nan_mode":
                    if parts[1] == "PROPAGATE":
                        del entries[i]
                    break
                if k == "nan_mode" and isinstance(a, StringAttr) and a.value == b"PROPAGATE":
                    del entries[i]  # MLIR 21's nan_mode: a string whose default the attr-dict leaves out
                    break
        if entries:
            p.write(" {")
            for i, (k, a) in enumerate(entries):
                if i:
                    p.write(", ")
                if not k or not all(c.isalnum() or c in "_$." for c in k):
                    raise SyntaxModelError(f"attribute name {k!r} would not read back")
                p.write(f"{k} = ")
                parts = _enum_parts(a)
                if parts is not None:
                    p.write(parts[1])
                else:
                    p.attribute(a)
            p.write("}")
        p.write(" : (")
        for i, operand in enumerate(op.operands):
            if i:
                p.write(", ")
            p.type(operand.type)
        p.write(") -> ")
        result = op.results[0].type
        if isinstance(result, FunctionType):
            p.write("(")
            p.type(result)
            p.write(")")
        else:
            p.type(result)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        refs = [p.parse_operand()]
        while p.parse_optional_punct(","):
            refs.append(p.parse_operand())
        if p.parse_optional_punct("{") and not p.parse_optional_punct("}"):
            while True:
                name = p.parse_keyword_or_string().decode("utf-8", "surrogateescape")
                p.parse_punct("=")
                value: Attribute | None = None
                if _ENUMS.get(self.enum) == name:
                    word = p.parse_optional_any_keyword()
                    if word is not None:
                        value = parse_attribute_text(f"{self.enum}<{word}>")
                if value is None:
                    value = p.parse_attribute()
                state.attributes[name] = value
                if not p.parse_optional_punct(","):
                    break
            p.parse_punct("}")
        p.parse_punct(":")
        fn = p.parse_type()
        if not isinstance(fn, FunctionType) or not fn.results:
            raise p.error("expected a function type with a result")
        p.resolve_operands(refs, list(fn.inputs), state)
        state.result_types.append(fn.results[0])


_NAN = "#tosa.nan_mode"
MODELS: list[OpSyntax] = [
    EnumHandlingOp("tosa.rescale", "#tosa.rounding_mode", False),
    EnumHandlingOp("tosa.apply_scale", "#tosa.rounding_mode", False),
    EnumHandlingOp("tosa.resize", "#tosa.resize_mode", False),
    *(EnumHandlingOp(f"tosa.{n}", _NAN, True)
      for n in ("argmax", "max_pool2d", "clamp", "maximum", "minimum", "reduce_max", "reduce_min")),
]
