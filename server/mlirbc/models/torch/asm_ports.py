"""torch-mlir's C++ op forms: `printDefaultTorchOp` / `parseDefaultTorchOp` (most torch ops:
`%2 = torch.aten.linear %arg0, %0, %1 : !torch.vtensor<...>, ... -> !torch.vtensor<...>`),
`torch.constant.int` (`%int-1 = torch.constant.int -1`), `torch.prim.If`, `torch.bind_symbolic_shape`,
`torch.onnx.rotary_embedding` and `torch.initialize.global_slots`; and the dialect's syntax provider, which
gives the first to every op the generator marked `torch_default` and declarative formats to the rest."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...ir.attributes import ArrayAttr, Attribute, FlatSymbolRefAttr, IntegerAttr, StringAttr
from ...ir.operation import Operation
from ...ir.types import IntegerType, Type
from ...syntax.attr_parser import parse_type_text
from ...syntax.attr_printer import plain_attribute_text
from ..asm.adaptor import OpView
from ..asm.api import (
    AsmParser,
    AsmPrinter,
    OperandRef,
    OpState,
    OpSyntax,
    SyntaxBase,
    SyntaxModelError,
    comma_list,
)
from ..asm.data import DataSyntaxProvider, SyntaxDataset
from ..asm.declarative import ods_result_names
from ..asm.directives import parse_type_list, parse_value_list, print_values
from ..asm.names import NamesFn, int_value
from ..asm.ports.base import print_types
from ..asm.ports.scf import parse_arrow_types


class DefaultTorchOp(SyntaxBase):
    """`printDefaultTorchOp(printer, op, N, M)`: ` operands {attrs} : operand types -> result types`, for
    an op of exactly N operands and M results (the parser requires that many)."""

    kind = "hand-written (torch.asm_ports.DefaultTorchOp: printDefaultTorchOp)"

    def __init__(self, name: str, data: Mapping[str, Any], operands: int, results: int) -> None:
        self.name = name
        self.data = dict(data)
        self.operands = operands
        self.results = results

    def __repr__(self) -> str:
        return f"DefaultTorchOp({self.name!r}, {self.operands}, {self.results})"

    def ods_result_names(self, op: Operation) -> list[tuple[int, str]]:
        # mlir-tblgen names the results of an op of several result declarations (`%values, %indices`)
        return ods_result_names(self.data, op)

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        n, m = self.operands, self.results
        if len(op.operands) != n or len(op.results) != m:
            raise SyntaxModelError(f"{self.name}: {len(op.operands)} operands and {len(op.results)} results "
                                   f"where its form reads {n} and {m}")
        if n:
            p.write(" ")
            print_values(p, list(op.operands))
        p.optional_attr_dict(OpView(op, self.data).all_attrs())
        p.write(" : ")
        if n:
            print_types(p, [v.type for v in op.operands])
        if n and m:
            p.write(" -> ")
        if m:
            print_types(p, [r.type for r in op.results])

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        n, m = self.operands, self.results
        refs: list[OperandRef] = []
        if n:
            refs = comma_list(p, p.parse_operand(), p.parse_operand)
            if len(refs) != n:
                raise p.error(f"expected {n} operands")
        _attrs_into(p, state)
        p.parse_punct(":")
        types: list[Type] = []
        if n:
            types = parse_type_list(p)
            if len(types) != n:
                raise p.error(f"{n} operands and {len(types)} types")
        if n and m:
            p.parse_punct("->")
        if m:
            state.result_types.extend(parse_type_list(p))
        p.resolve_operands(refs, types, state)


_VALUE_DATA: dict[str, Any] = {"attrs": {"value": {}}}
"""What `torch.constant.int`'s form reads of its syntax data: one inherent attribute, `value`."""


class ConstantIntOp(SyntaxBase):
    """`torch.constant.int -1 {attrs}`: the value as a signed 64-bit integer, then the other attributes."""

    name = "torch.constant.int"
    kind = "hand-written (torch.asm_ports.ConstantIntOp)"
    _I64 = IntegerType.get(64)

    def result_names(self, op: Operation) -> list[tuple[int, str]]:
        value = OpView(op, _VALUE_DATA).attr("value")
        return [(0, f"int{int_value(value)}")] if isinstance(value, IntegerAttr) and op.results else []

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = OpView(op, _VALUE_DATA)
        value = view.attr("value")
        if not isinstance(value, IntegerAttr) or value.type != self._I64 or len(op.results) != 1 \
                or op.operands or op.results[0].type != _torch_type("!torch.int"):
            raise SyntaxModelError(f"{self.name}: not an i64 value of type !torch.int")
        p.write(f" {int_value(value)}")
        p.optional_attr_dict(view.all_attrs(), ("value",))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        value = p.parse_integer()
        if not -(1 << 63) <= value < (1 << 63):
            raise p.error(f"{value} does not fit a 64-bit integer")
        _attrs_into(p, state)
        state.attributes["value"] = IntegerAttr.get(self._I64, value & ((1 << 64) - 1))
        state.result_types.append(_torch_type("!torch.int"))


def _attrs_into(p: AsmParser, state: OpState) -> None:
    """An optional `{...}` into the attributes of the op being read."""
    d = p.parse_optional_attr_dict()
    if d is not None:
        state.attributes.update((k.text, v) for k, v in d.entries)


class PrimIfOp(SyntaxBase):
    """`torch.prim.If %cond -> (types) {then} else {else} {attrs}` (the result list always in parentheses,
    the regions with their terminators)."""

    name = "torch.prim.If"
    kind = "hand-written (torch.asm_ports.PrimIfOp)"

    def keywords(self) -> list[str]:
        return ["else"]

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if len(op.operands) != 1 or len(op.regions) != 2 or op.successors:
            raise SyntaxModelError(f"{self.name} needs one condition and two regions")
        p.write(" ")
        p.operand(op.operands[0])
        p.write(" -> (")
        print_types(p, [r.type for r in op.results])
        p.write(") ")
        p.region(op.regions[0], False)
        p.write(" else ")
        p.region(op.regions[1], False)
        p.optional_attr_dict(OpView(op, _NO_DATA).all_attrs())

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        cond = p.parse_operand()
        p.parse_punct("->")
        state.result_types.extend(parse_arrow_types(p))
        state.regions.append(p.parse_region())
        p.parse_keyword("else")
        state.regions.append(p.parse_region())
        _attrs_into(p, state)
        p.resolve_operands([cond], [_torch_type("!torch.bool")], state)


class BindSymbolicShapeOp(SyntaxBase):
    """`torch.bind_symbolic_shape %x, [%s0, ...], affine_map<...> {attrs} : type`: the map always inline
    (torch-mlir prints the map itself, so it never gets an alias)."""

    name = "torch.bind_symbolic_shape"
    kind = "hand-written (torch.asm_ports.BindSymbolicShapeOp)"
    _DATA: dict[str, Any] = {"attrs": {"shape_expressions": {}}}

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = OpView(op, self._DATA)
        shape = view.attr("shape_expressions")
        text = plain_attribute_text(shape) if shape is not None else ""
        if not op.operands or op.results or not text.startswith("affine_map<"):
            raise SyntaxModelError(f"{self.name}: an operand and an affine map are needed")
        p.write(" ")
        p.operand(op.operands[0])
        p.write(", [")
        print_values(p, list(op.operands[1:]))
        p.write("], " + text)
        p.optional_attr_dict(view.all_attrs(), ("shape_expressions",))
        p.write(" : ")
        p.type(op.operands[0].type)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        operand = p.parse_operand()
        p.parse_punct(",")
        p.parse_punct("[")
        symbols = parse_value_list(p)
        p.parse_punct("]")
        p.parse_punct(",")
        shape: Attribute = p.parse_attribute()
        if not plain_attribute_text(shape).startswith("affine_map<"):
            raise p.error("expected an affine map")
        state.attributes["shape_expressions"] = shape
        _attrs_into(p, state)
        p.parse_punct(":")
        t = p.parse_type()
        p.resolve_operands([operand, *symbols], [t, *[_torch_type("!torch.int")] * len(symbols)], state)


class RotaryEmbeddingOp(SyntaxBase):
    """`torch.onnx.rotary_embedding` (9 operands): ` operands : operand types -> result type`, no
    attribute dictionary (an op holding attributes prints generic)."""

    name = "torch.onnx.rotary_embedding"
    kind = "hand-written (torch.asm_ports.RotaryEmbeddingOp)"

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if len(op.operands) != 9 or len(op.results) != 1 or OpView(op, _NO_DATA).all_attrs():
            raise SyntaxModelError(f"{self.name}: 9 operands, one result and no attributes are needed")
        p.write(" ")
        print_values(p, list(op.operands))
        p.write(" : ")
        print_types(p, [v.type for v in op.operands])
        p.write(" -> ")
        p.type(op.results[0].type)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        refs = comma_list(p, p.parse_operand(), p.parse_operand)
        if len(refs) != 9:
            raise p.error("expected 9 operands")
        p.parse_punct(":")
        types = parse_type_list(p)
        p.parse_punct("->")
        state.result_types.extend(parse_arrow_types(p))
        if len(types) != len(refs):
            raise p.error(f"{len(refs)} operands and {len(types)} types")
        p.resolve_operands(refs, types, state)


class InitializeGlobalSlotsOp(SyntaxBase):
    """`torch.initialize.global_slots {attrs} [` then `  @slot(%value : type)` on a line each, then `]`."""

    name = "torch.initialize.global_slots"
    kind = "hand-written (torch.asm_ports.InitializeGlobalSlotsOp)"
    _DATA: dict[str, Any] = {"attrs": {"slotSymNames": {}}}

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = OpView(op, self._DATA)
        names = view.attr("slotSymNames")
        if not isinstance(names, ArrayAttr) or len(names.elements) != len(op.operands) or op.results:
            raise SyntaxModelError(f"{self.name}: one slot name per initial value is needed")
        p.optional_attr_dict(view.all_attrs(), ("slotSymNames",))
        p.write(" [")
        p.newline()
        for name, value in zip(names.elements, op.operands, strict=True):
            p.write("  ")
            p.attribute(name)
            p.write("(")
            p.operand(value)
            p.write(" : ")
            p.type(value.type)
            p.write(")")
            p.newline()
        p.write("]")

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        _attrs_into(p, state)
        p.parse_punct("[")
        names: list[Attribute] = []
        refs: list[OperandRef] = []
        types: list[Type] = []
        while not p.parse_optional_punct("]"):
            names.append(FlatSymbolRefAttr.get(StringAttr.get(p.parse_symbol_name())))
            p.parse_punct("(")
            refs.append(p.parse_operand())
            p.parse_punct(":")
            types.append(p.parse_type())
            p.parse_punct(")")
        state.attributes["slotSymNames"] = ArrayAttr.get(tuple(names))
        p.resolve_operands(refs, types, state)


_NO_DATA: dict[str, Any] = {}
"""Syntax data of a form that reads no ODS facts (every attribute is printed as `getAttrs()` gives it)."""
_TYPES: dict[str, Type] = {}


def _torch_type(text: str) -> Type:
    """A torch type by its text (`!torch.bool`), made once."""
    t = _TYPES.get(text)
    if t is None:
        t = _TYPES[text] = parse_type_text(text)
    return t


class TorchSyntaxProvider(DataSyntaxProvider):
    """The `torch` dialect's syntax models from its generated data: `DefaultTorchOp` where the data says
    `torch_default`, a declarative format where it has one, none otherwise."""

    def __init__(self, dataset: SyntaxDataset, dialect: str, names: Mapping[str, NamesFn]) -> None:
        super().__init__(dataset, dialect, names)

    def __call__(self, full_name: str) -> OpSyntax | None:
        if full_name in self._models:
            return self._models[full_name]
        if full_name.startswith(self.dialect + "."):
            data = self.dataset.op_data(full_name)
            counts = data.get("torch_default") if data is not None else None
            if data is not None and isinstance(counts, list) and len(counts) == 2:
                model: OpSyntax = DefaultTorchOp(full_name, data, int(counts[0]), int(counts[1]))
                self._models[full_name] = model
                return model
        return super().__call__(full_name)


MODELS: list[OpSyntax] = [ConstantIntOp(), PrimIfOp(), BindSymbolicShapeOp(), RotaryEmbeddingOp(),
                          InitializeGlobalSlotsOp()]
