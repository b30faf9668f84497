"""`linalg.map` and `linalg.reduce` (LinalgOps.cpp's print/parse): the short form when the body is one
payload op applied to the block arguments (`printShortForm`: `{ arith.addf }`), else the long form: after
the attributes, on a new line one indent deeper, the body's arguments in parentheses and the body."""

from __future__ import annotations

from ....ir.attributes import Attribute, DenseArrayAttr, DictionaryAttr
from ....ir.operation import BlockArgument, Operation, Region
from ....ir.types import RankedTensorType, Type
from ....syntax.attr_printer import plain_attribute_text
from ..api import AsmParser, AsmPrinter, OpState, OpSyntax, SyntaxModelError
from .base import Port
from .linalg import (
    _FASTMATH_NONE,
    _FASTMATH_OPS,
    _body_block,
    _op,
    parse_i64_list_attr,
    parse_ins_outs,
    print_i64_list_attr,
    print_ins_outs,
)


def _payload(op: Operation, init_first: bool) -> Operation | None:
    """findPayloadOp: the body's only op before `linalg.yield`, applied to the block arguments in order
    (`init_first`: the init argument last among its operands, the others first); a map's init argument
    is not an operand of its payload."""
    if not op.regions or len(op.regions[0].blocks) != 1:
        return None
    block = op.regions[0].blocks[0]
    ops = block.operations
    if len(ops) != 2 or ops[1].name != "linalg.yield":
        return None
    payload = ops[0]
    args: list[object] = list(block.arguments)
    operands = list(payload.operands)
    if init_first:
        expected: list[object] = [*args[1:], args[0]] if args else []
    else:
        expected = args[:-1]
    if not operands or len(operands) != len(expected) or any(a is not b for a, b in zip(operands, expected,
                                                                                          strict=True)):
        return None
    if len(payload.results) != 1 or list(ops[1].operands) != [payload.results[0]] or payload.regions or \
            payload.successors:
        return None
    return payload


def _payload_attrs(payload: Operation) -> list[tuple[str, Attribute]]:
    """The payload op's attributes as `getAttrs` lists them (inherent and discardable, sorted)."""
    merged: dict[str, Attribute] = {}
    props = payload.properties
    values = getattr(props, "values", None)
    if props is not None and values is None:
        raise SyntaxModelError("the payload op's properties are not decoded")
    if values:
        merged.update(values)
    if payload.attributes is not None:
        for k, v in payload.attributes.entries:
            merged.setdefault(k.text, v)
    return sorted(merged.items(), key=lambda kv: kv[0].encode("utf-8", "surrogateescape"))


def print_short_form(p: AsmPrinter, payload: Operation) -> None:
    """printShortForm: ` { name {attrs} }`, a `none` fast-math flag left out."""
    entries = _payload_attrs(payload)
    for i, (_, v) in enumerate(entries):
        if plain_attribute_text(v) == _FASTMATH_NONE:
            del entries[i]
            break
    p.write(f" {{ {payload.name}")
    p.optional_attr_dict(entries)
    p.write(" }")


def _parse_short_form(p: AsmParser) -> tuple[str, DictionaryAttr | None] | None:
    if not p.parse_optional_punct("{"):
        return None
    name = p.parse_optional_any_keyword()
    if name is None or "." not in name:
        raise p.error("expected an operation name")
    attrs = p.parse_optional_attr_dict()
    p.parse_punct("}")
    return name, attrs


def _add_body(p: AsmParser, state: OpState, types: list[Type], name: str, attrs: DictionaryAttr | None,
              init_first: bool) -> None:
    """addBodyWithPayloadOp: block arguments of the operands' element types, the payload op on them,
    `linalg.yield` of its result."""
    region = Region(None)
    block = _body_block(region, types, [])
    args: list[object] = list(block.arguments)
    operands = [*args[1:], args[0]] if init_first else args[:-1]
    result = getattr(types[-1], "element", types[-1])
    props: dict[str, Attribute] = {}
    if attrs is not None:
        props.update((k.text, v) for k, v in attrs.entries)
    if name in _FASTMATH_OPS and "fastmath" not in props:
        from ....ir.attributes import DialectAttr

        props["fastmath"] = DialectAttr.get("arith", _FASTMATH_NONE)
    payload = _op(name, operands, (result,), props or None)
    block.append(payload)
    block.append(_op("linalg.yield", [payload.results[0]]))
    # The text says nothing of the body's locations: with the original at hand, its body stands.
    p.elided_body(region)
    state.regions.append(region)


class _ShortForm(Port):
    keywords_list = ("ins", "outs")
    init_first = False
    result_name = ""
    init_group = ""

    def _io(self, op: Operation) -> tuple[list[object], list[object]]:
        groups = self.view(op).operand_groups()
        return list(groups["inputs"]), list(groups[self.init_group])

    def result_names(self, op: Operation) -> list[tuple[int, str]]:
        return [(i, self.result_name) for i in range(len(op.results))][:1]

    def block_arg_names(self, op: Operation, region: Region) -> list[tuple[BlockArgument, str]]:
        if not region.blocks:
            return []
        try:
            inputs, _ = self._io(op)
        except SyntaxModelError:
            return []
        return [(a, "in" if i < len(inputs) else "init") for i, a in enumerate(region.blocks[0].arguments)]

    def _print_long_body(self, op: Operation, p: AsmPrinter) -> None:
        """The body the short form does not cover: `\n  (%in: f32, %init: f32) {...}`."""
        if len(op.regions) != 1 or not op.regions[0].blocks:
            raise SyntaxModelError(f"{self.name} has one body")
        p.indent()
        p.newline()
        p.write("(")
        for i, arg in enumerate(op.regions[0].blocks[0].arguments):
            if i:
                p.write(", ")
            p.region_argument(arg)
        p.write(") ")
        p.region(op.regions[0], False)
        p.dedent()

    def _parse_long_body(self, p: AsmParser, state: OpState) -> None:
        p.parse_punct("(")
        args = []
        if not p.parse_optional_punct(")"):
            args.append(p.parse_argument(allow_type=True, allow_attrs=True))
            while p.parse_optional_punct(","):
                args.append(p.parse_argument(allow_type=True, allow_attrs=True))
            p.parse_punct(")")
        state.regions.append(p.parse_region(args))

    def _results(self, state: OpState, outputs: list[Type]) -> None:
        state.result_types.extend(t for t in outputs if isinstance(t, RankedTensorType))


class MapOp(_ShortForm):
    result_name = "mapped"
    init_group = "init"

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        payload = _payload(op, self.init_first)
        view = self.view(op)
        inputs, outputs = self._io(op)
        if payload is not None:
            print_short_form(p, payload)
        print_ins_outs(p, inputs, outputs)
        p.optional_attr_dict([(k, v) for k, v in view.all_attrs() if k != "operandSegmentSizes"])
        if payload is None:
            self._print_long_body(op, p)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        short = _parse_short_form(p)
        inputs, outputs = parse_ins_outs(p, state)
        state.attributes.pop("operandSegmentSizes", None)
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        if not outputs:
            raise p.error("expected an init operand")
        if short is None:
            self._parse_long_body(p, state)
        else:
            _add_body(p, state, [*inputs, *outputs], short[0], short[1], False)
        self._results(state, outputs)


class ReduceOp(_ShortForm):
    result_name = "reduced"
    init_first = True
    init_group = "inits"

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        payload = _payload(op, self.init_first)
        view = self.view(op)
        inputs, outputs = self._io(op)
        dims = view.attr("dimensions")
        if not isinstance(dims, DenseArrayAttr):
            raise SyntaxModelError("linalg.reduce has dimensions")
        if payload is not None:
            print_short_form(p, payload)
        print_ins_outs(p, inputs, outputs)
        print_i64_list_attr(p, "dimensions", dims)
        p.optional_attr_dict([(k, v) for k, v in view.all_attrs()
                              if k not in ("dimensions", "operandSegmentSizes")])
        if payload is None:
            self._print_long_body(op, p)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        short = _parse_short_form(p)
        inputs, outputs = parse_ins_outs(p, state)
        state.attributes.pop("operandSegmentSizes", None)
        parse_i64_list_attr(p, state, "dimensions")
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        if not outputs:
            raise p.error("expected an init operand")
        if short is None:
            self._parse_long_body(p, state)
        else:
            _add_body(p, state, [*inputs, *outputs], short[0], short[1], True)
        self._results(state, outputs)


MODELS: list[OpSyntax] = [MapOp("linalg.map"), ReduceOp("linalg.reduce")]
