"""The affine dialect's memory and arithmetic ops (ports of AffineOps.cpp's print/parse): `affine.apply`,
`affine.min`/`affine.max` (`map(dims)[symbols]`), `affine.load`/`affine.store` and their vector forms,
`affine.prefetch` (`%m[%i + 1, symbol(%n)]`)."""

from __future__ import annotations

from collections.abc import Sequence

from ....ir.attributes import Attribute, IntegerAttr
from ....ir.operation import Operation, Value
from ....ir.types import IndexType, IntegerType, MemRefType, Type, VectorType
from ..api import AsmParser, AsmPrinter, OperandRef, OpState, OpSyntax, SyntaxModelError
from .affine_ssa import SsaNames, check_readable, map_of, parse_ssa_list, print_ssa_map
from .base import Port, attr_entries


def print_operand_list(p: AsmPrinter, values: Sequence[Value]) -> None:
    for i, v in enumerate(values):
        if i:
            p.write(", ")
        p.operand(v)


def print_dims_and_symbols(p: AsmPrinter, operands: Sequence[Value], dims: int) -> None:
    """printDimAndSymbolList: `(dims)`, then `[symbols]` when there are any."""
    p.write("(")
    print_operand_list(p, operands[:dims])
    p.write(")")
    if len(operands) > dims:
        p.write("[")
        print_operand_list(p, operands[dims:])
        p.write("]")


def parse_operand_list(p: AsmParser, close: str) -> list[OperandRef]:
    out: list[OperandRef] = []
    if p.parse_optional_punct(close):
        return out
    while True:
        out.append(p.parse_operand())
        if not p.parse_optional_punct(","):
            break
    p.parse_punct(close)
    return out


def parse_dims_and_symbols(p: AsmParser) -> tuple[list[OperandRef], list[OperandRef]]:
    p.parse_punct("(")
    dims = parse_operand_list(p, ")")
    syms = parse_operand_list(p, "]") if p.parse_optional_punct("[") else []
    return dims, syms


def parse_attr_dict(p: AsmParser, state: OpState) -> None:
    d = p.parse_optional_attr_dict()
    if d is not None:
        state.attributes.update((k.text, v) for k, v in d.entries)


class AffinePort(Port):
    """What the affine ports share: the op's inherent attributes never print in its dictionary."""

    def inherent_names(self) -> set[str]:
        return set(self.data.get("attrs", {})) | {"operandSegmentSizes"}

    def discardable(self, op: Operation) -> list[tuple[str, Attribute]]:
        return attr_entries(self.view(op), self.inherent_names())


class MapOp(AffinePort):
    """`affine.apply`, `affine.min`, `affine.max`: ` map(dims)[symbols] {attrs}`, an index result."""

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        a = view.attr("map")
        m = map_of(a)
        if len(op.results) != 1 or not isinstance(op.results[0].type, IndexType):
            raise SyntaxModelError(f"{self.name} has one index result")
        if any(not isinstance(v.type, IndexType) for v in op.operands):
            raise SyntaxModelError("an operand is not an index")
        if self.name == "affine.apply" and len(op.operands) != m.dims + m.syms:
            raise SyntaxModelError("the operands do not match the map")
        if len(op.operands) < m.dims:
            raise SyntaxModelError("fewer operands than the map has dimensions")
        p.write(" ")
        assert a is not None
        p.attribute(a, "map")
        print_dims_and_symbols(p, list(op.operands), m.dims)
        p.optional_attr_dict(attr_entries(view, {"map"}))

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        index = IndexType.get()
        state.attributes["map"] = p.parse_attribute(index)
        dims, syms = parse_dims_and_symbols(p)
        parse_attr_dict(p, state)
        if self.name == "affine.apply":
            try:
                m = map_of(state.attributes["map"])
            except SyntaxModelError:
                raise p.error("expected an affine map") from None
            if m.dims + m.syms != len(dims) + len(syms):
                raise p.error("dimension or symbol index mismatch")
        p.resolve_operands([*dims, *syms], [index] * (len(dims) + len(syms)), state)
        state.result_types.append(index)


def _print_subscript(p: AsmPrinter, map_attr: Attribute | None, memref: Value,
                     indices: Sequence[Value]) -> None:
    """`%memref[%i + 1, symbol(%n)]` (the map's results over its operands)."""
    m = map_of(map_attr)
    check_readable(m, indices)
    if any(not isinstance(v.type, IndexType) for v in indices):
        raise SyntaxModelError("an index is not of type index")
    p.operand(memref)
    p.write("[")
    print_ssa_map(p, m, indices)
    p.write("]")


def _parse_subscript(p: AsmParser, state: OpState) -> tuple[OperandRef, list[OperandRef]]:
    memref = p.parse_operand()
    names = SsaNames()
    p.parse_punct("[")
    state.attributes["map"] = names.attr(p, parse_ssa_list(p, names, "]"))
    return memref, names.operands()


def _memref(p: AsmParser, t: Type) -> MemRefType:
    if not isinstance(t, MemRefType):
        raise p.error("expected a memref type")
    return t


class LoadOp(AffinePort):
    """`affine.load %m[...] : memref<...>` and `affine.vector_load ... : memref<...>, vector<...>`."""

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        vector = self.name == "affine.vector_load"
        if not op.operands or len(op.results) != 1 or not isinstance(op.operands[0].type, MemRefType):
            raise SyntaxModelError(f"{self.name} reads one memref")
        memref = op.operands[0]
        assert isinstance(memref.type, MemRefType)
        element = memref.type.element
        if vector != isinstance(op.results[0].type, VectorType) or \
                (not vector and op.results[0].type is not element):
            raise SyntaxModelError("the result is not what the memref holds")
        p.write(" ")
        _print_subscript(p, self.view(op).attr("map"), memref, list(op.operands[1:]))
        p.optional_attr_dict(self.discardable(op))
        p.write(" : ")
        p.type(memref.type)
        if vector:
            p.write(", ")
            p.type(op.results[0].type)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        memref, indices = _parse_subscript(p, state)
        parse_attr_dict(p, state)
        p.parse_punct(":")
        t = _memref(p, p.parse_type())
        result: Type = t.element
        if self.name == "affine.vector_load":
            p.parse_punct(",")
            result = p.parse_type()
        p.resolve_operands([memref, *indices], [t, *[IndexType.get()] * len(indices)], state)
        state.result_types.append(result)


class StoreOp(AffinePort):
    """`affine.store %v, %m[...] : memref<...>` and `affine.vector_store ... : memref<...>, vector<...>`."""

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        vector = self.name == "affine.vector_store"
        if len(op.operands) < 2 or op.results or not isinstance(op.operands[1].type, MemRefType):
            raise SyntaxModelError(f"{self.name} writes one memref")
        value, memref = op.operands[0], op.operands[1]
        assert isinstance(memref.type, MemRefType)
        element = memref.type.element
        if vector != isinstance(value.type, VectorType) or (not vector and value.type is not element):
            raise SyntaxModelError("the value is not what the memref holds")
        p.write(" ")
        p.operand(value)
        p.write(", ")
        _print_subscript(p, self.view(op).attr("map"), memref, list(op.operands[2:]))
        p.optional_attr_dict(self.discardable(op))
        p.write(" : ")
        p.type(memref.type)
        if vector:
            p.write(", ")
            p.type(value.type)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        value = p.parse_operand()
        p.parse_punct(",")
        memref, indices = _parse_subscript(p, state)
        parse_attr_dict(p, state)
        p.parse_punct(":")
        t = _memref(p, p.parse_type())
        value_type: Type = t.element
        if self.name == "affine.vector_store":
            p.parse_punct(",")
            value_type = p.parse_type()
        p.resolve_operands([value, memref, *indices], [value_type, t, *[IndexType.get()] * len(indices)],
                           state)


def _is_bool(a: Attribute | None) -> bool:
    return isinstance(a, IntegerAttr) and a.type is IntegerType.get(1)


def _bool(value: bool) -> Attribute:
    return IntegerAttr.get(IntegerType.get(1), int(value))


class PrefetchOp(AffinePort):
    """`affine.prefetch %m[...], read, locality<3>, data : memref<...>`."""

    keywords_list = ("read", "write", "locality", "data", "instr")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        write, hint, data = view.attr("isWrite"), view.attr("localityHint"), view.attr("isDataCache")
        if not _is_bool(write) or not _is_bool(data) or not isinstance(hint, IntegerAttr) or \
                hint.type is not IntegerType.get(32) or hint.bits >= 1 << 31:
            raise SyntaxModelError("affine.prefetch's flags are not what its form says")
        assert isinstance(write, IntegerAttr) and isinstance(data, IntegerAttr)
        if not op.operands or not isinstance(op.operands[0].type, MemRefType):
            raise SyntaxModelError("affine.prefetch reads one memref")
        p.write(" ")
        _print_subscript(p, view.attr("map"), op.operands[0], list(op.operands[1:]))
        p.write(f", {'write' if write.bits else 'read'}, locality<{hint.bits}>, "
                f"{'data' if data.bits else 'instr'}")
        p.optional_attr_dict(self.discardable(op))
        p.write(" : ")
        p.type(op.operands[0].type)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        memref, indices = _parse_subscript(p, state)
        p.parse_punct(",")
        access = p.parse_optional_any_keyword()
        if access not in ("read", "write"):
            raise p.error("rw specifier has to be 'read' or 'write'")
        p.parse_punct(",")
        p.parse_keyword("locality")
        p.parse_punct("<")
        state.attributes["localityHint"] = p.parse_attribute(IntegerType.get(32))
        p.parse_punct(">")
        p.parse_punct(",")
        cache = p.parse_optional_any_keyword()
        if cache not in ("data", "instr"):
            raise p.error("cache type has to be 'data' or 'instr'")
        parse_attr_dict(p, state)
        p.parse_punct(":")
        t = _memref(p, p.parse_type())
        p.resolve_operands([memref, *indices], [t, *[IndexType.get()] * len(indices)], state)
        state.attributes["isWrite"] = _bool(access == "write")
        state.attributes["isDataCache"] = _bool(cache == "data")


MODELS: list[OpSyntax] = [
    MapOp("affine.apply"), MapOp("affine.min"), MapOp("affine.max"),
    LoadOp("affine.load"), LoadOp("affine.vector_load"),
    StoreOp("affine.store"), StoreOp("affine.vector_store"),
    PrefetchOp("affine.prefetch"),
]
