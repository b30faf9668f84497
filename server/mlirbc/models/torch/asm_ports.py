"""torch-mlir's C++ op forms: `printDefaultTorchOp` / `parseDefaultTorchOp` (most torch ops:
`%2 = torch.aten.linear %arg0, %0, %1 : !torch.vtensor<...>, ... -> !torch.vtensor<...>`) and
`torch.constant.int` (`%int-1 = torch.constant.int -1`), and the dialect's syntax provider, which gives the
first to every op the generator marked `torch_default` and declarative formats to the rest."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...ir.attributes import IntegerAttr
from ...ir.operation import Operation
from ...ir.types import IntegerType, Type
from ...syntax.attr_parser import parse_type_text
from ..asm.adaptor import OpView
from ..asm.api import AsmParser, AsmPrinter, OperandRef, OpState, OpSyntax, SyntaxBase, SyntaxModelError
from ..asm.data import DataSyntaxProvider, SyntaxDataset
from ..asm.declarative import ods_result_names
from ..asm.names import NamesFn, int_value
from ..asm.ports.base import print_types


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
            for i, v in enumerate(op.operands):
                if i:
                    p.write(", ")
                p.operand(v)
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
            refs.append(p.parse_operand())
            while p.parse_optional_punct(","):
                refs.append(p.parse_operand())
            if len(refs) != n:
                raise p.error(f"expected {n} operands")
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        p.parse_punct(":")
        types: list[Type] = []
        if n:
            types = _type_list(p)
            if len(types) != n:
                raise p.error(f"{n} operands and {len(types)} types")
        if n and m:
            p.parse_punct("->")
        if m:
            state.result_types.extend(_type_list(p))
        p.resolve_operands(refs, types, state)


def _type_list(p: AsmParser) -> list[Type]:
    types = [p.parse_type()]
    while p.parse_optional_punct(","):
        types.append(p.parse_type())
    return types


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
                or op.operands or op.results[0].type != _int_type():
            raise SyntaxModelError(f"{self.name}: not an i64 value of type !torch.int")
        p.write(f" {int_value(value)}")
        p.optional_attr_dict(view.all_attrs(), ("value",))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        value = p.parse_integer()
        if not -(1 << 63) <= value < (1 << 63):
            raise p.error(f"{value} does not fit a 64-bit integer")
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        state.attributes["value"] = IntegerAttr.get(self._I64, value & ((1 << 64) - 1))
        state.result_types.append(_int_type())


_INT_TYPE: list[Type] = []


def _int_type() -> Type:
    """`!torch.int`, made once."""
    if not _INT_TYPE:
        _INT_TYPE.append(parse_type_text("!torch.int"))
    return _INT_TYPE[0]


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


MODELS: list[OpSyntax] = [ConstantIntOp()]
