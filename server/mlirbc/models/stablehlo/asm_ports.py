"""The StableHLO ops whose custom form StableHLO writes in C++: `stablehlo.constant`, `stablehlo.reduce`,
`stablehlo.while` (ports of its StablehloOps.cpp and AssemblyFormat.cpp printers and parsers), with the
names they give their values (`%cst`, `%c`, `%iterArg`).

* `constant`: ` dense<...> : tensor<...>` (the generic form when the value's type is not the result's);
* `reduce`: `(%x init: %i), ... applies stablehlo.add across dimensions = [1] : (...) -> ...` when the body
  is one commutative binary op of StableHLO forwarding the block's arguments, else
  `... across dimensions = [1] : (...) -> ...\\n reducer(%a: T, %b: T) ... { ... }`;
* `while`: `(%iterArg = %x, ...) : T, ...\\n cond { ... } do { ... }`.

What a compact reduce does not say (its body's locations) is made up when read, and marked so: an
unchanged view takes the original's back (`view.reconcile`).
"""

from __future__ import annotations

import struct
from pathlib import Path

from ...ir.attributes import Attribute, DenseArrayAttr, DenseElementsAttr, DenseResourceElementsAttr
from ...ir.operation import BlockArgument, Operation, Region
from ...ir.types import FunctionType, IntegerType, RankedTensorType, ShapedType, Type
from ..asm.api import Argument, AsmParser, AsmPrinter, OpState, OpSyntax, SyntaxModelError
from ..asm.declarative import print_functional_type
from ..asm.ports.base import Port, attr_entries

ASM_DATA_DIR = Path(__file__).with_name("asm_data")
COMMUTATIVE = frozenset({"stablehlo.add", "stablehlo.and", "stablehlo.maximum", "stablehlo.minimum",
                         "stablehlo.multiply", "stablehlo.or", "stablehlo.xor"})
"""StableHLO's binary ops with the `HLO_Commutative` trait (StablehloOps.td): what a compact reduce may
apply."""
_I64 = IntegerType.get(64)


class StablehloPort(Port):
    data_dir = ASM_DATA_DIR


def _types(p: AsmPrinter, types: list[Type]) -> None:
    for i, t in enumerate(types):
        if i:
            p.write(", ")
        p.type(t)


# -- constant --------------------------------------------------------------------------------------------

class ConstantOp(StablehloPort):
    def result_names(self, op: Operation) -> list[tuple[int, str]]:
        if len(op.results) != 1:
            return []
        t = op.results[0].type
        element = t.element if isinstance(t, ShapedType) else None
        return [(0, "c" if isinstance(element, IntegerType) else "cst")]

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        value = view.attr("value")
        if len(op.results) != 1 or value is None or getattr(value, "type", None) is not op.results[0].type:
            raise SyntaxModelError("the value's type is not the result's: generic form")
        p.optional_attr_dict(attr_entries(view, {"value"}))
        p.write(" ")
        p.attribute(value, "value")

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        if p.parse_optional_punct("("):  # the generic form after the custom op name
            p.parse_punct(")")
            if p.parse_optional_punct("<"):
                props = p.parse_attribute()
                p.parse_punct(">")
                from ...ir.attributes import DictionaryAttr

                if not isinstance(props, DictionaryAttr):
                    raise p.error("expected a properties dictionary")
                state.attributes.update((k.text, v) for k, v in props.entries)
            d = p.parse_optional_attr_dict()
            if d is not None:
                state.attributes.update((k.text, v) for k, v in d.entries)
            p.parse_punct(":")
            p.parse_punct("(")
            p.parse_punct(")")
            p.parse_punct("->")
            state.result_types.append(p.parse_type())
            return
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        value = p.parse_attribute()
        t = getattr(value, "type", None)
        if not isinstance(value, DenseElementsAttr | DenseResourceElementsAttr) or not isinstance(t, Type):
            from ...ir.attributes import DenseStringElementsAttr, SparseElementsAttr

            if not isinstance(value, DenseStringElementsAttr | SparseElementsAttr) or not isinstance(t, Type):
                raise p.error("expected an elements attribute (dense<...> : tensor<...>)")
        state.attributes["value"] = value
        state.result_types.append(t)


# -- reduce -------------------------------------------------------------------------------------------------

def _dims(a: Attribute | None) -> list[int]:
    if not isinstance(a, DenseArrayAttr) or a.element_type is not _I64:
        raise SyntaxModelError("dimensions is an array<i64: ...>")
    return list(struct.unpack(f"<{a.count}q", bytes(a.data)))


def _element(t: Type) -> Type | None:
    return t.element if isinstance(t, ShapedType) else None


def _compact_inner(op: Operation) -> Operation | None:
    """The body's one op when the reduce prints compact (StableHLO's E1-E5), else None."""
    if len(op.regions) != 1 or not op.regions[0].blocks:
        return None
    block = op.regions[0].blocks[0]
    if len(block.operations) != 2 or not op.operands:
        return None
    inner, ret = block.operations
    if inner.name not in COMMUTATIVE or len(inner.operands) != 2 or len(inner.results) != 1 or inner.regions:
        return None
    expected = inner.results[0].type
    if any(v.type is not expected for v in inner.operands):
        return None
    element = _element(op.operands[0].type)
    if element is None or inner.operands[0].type is not RankedTensorType.get((), element):
        return None
    if list(block.arguments) != list(inner.operands):
        return None
    if ret.op_name.name != "return" or list(ret.operands) != list(inner.results):
        return None
    return inner


class ReduceOp(StablehloPort):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        dims = _dims(view.attr("dimensions"))
        n = len(op.operands) // 2
        if len(op.operands) % 2 or len(op.regions) != 1 or not op.regions[0].blocks:
            raise SyntaxModelError("reduce needs input/init pairs and one body")
        p.write("(")
        for i in range(n):
            if i:
                p.write(", (")
            p.operand(op.operands[i])
            p.write(" init: ")
            p.operand(op.operands[i + n])
            p.write(")")
        inner = _compact_inner(op)
        if inner is not None:
            p.write(" applies ")
            p.keyword_or_string(inner.name.encode("utf-8"))
        p.write(" across dimensions = [" + ", ".join(str(d) for d in dims) + "]")
        p.optional_attr_dict(attr_entries(view, {"dimensions"}))
        p.write(" : ")
        print_functional_type(p, [v.type for v in op.operands], [r.type for r in op.results])
        if inner is None:
            block = op.regions[0].blocks[0]
            if len(block.arguments) != 2 * n:
                raise SyntaxModelError("the reducer's arguments do not pair with the inputs")
            p.newline()
            p.write(" reducer")
            for i in range(n):
                p.write("(")
                p.region_argument(block.arguments[i])
                p.write(", ")
                p.region_argument(block.arguments[i + n])
                p.write(") ")
            p.write(" ")
            p.region(op.regions[0], False)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        inputs, inits = [], []
        while p.parse_optional_punct("("):
            inputs.append(p.parse_operand())
            p.parse_keyword("init")
            p.parse_punct(":")
            inits.append(p.parse_operand())
            p.parse_punct(")")
            if not p.parse_optional_punct(","):
                break
        compact = p.parse_optional_keyword("applies")
        inner_name = ""
        if compact:
            word = p.parse_optional_any_keyword()
            if word is None:
                inner_name = p.parse_keyword_or_string().decode("utf-8", "surrogateescape")
            else:
                inner_name = word
            if inner_name not in COMMUTATIVE:
                raise p.error("expected the inner-op to be a commutative binary-op from the stablehlo "
                              "dialect, with zero region, producing single result")
        p.parse_keyword("across")
        p.parse_keyword("dimensions")
        p.parse_punct("=")
        p.parse_punct("[")
        dims: list[int] = []
        if not p.parse_optional_punct("]"):
            while True:
                dims.append(p.parse_integer())
                if p.parse_optional_punct("]"):
                    break
                p.parse_punct(",")
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        p.parse_punct(":")
        fn = p.parse_type()
        if not isinstance(fn, FunctionType) or not fn.inputs:
            raise p.error("expected function type with the reduce's input types")
        state.attributes["dimensions"] = DenseArrayAttr.get(_I64, len(dims),
                                                            struct.pack(f"<{len(dims)}q", *dims))
        state.result_types.extend(fn.results)
        p.resolve_operands([*inputs, *inits], list(fn.inputs), state)
        if compact:
            state.regions.append(self._compact_body(p, inner_name, fn))
            return
        p.parse_keyword("reducer")
        elts: list[Argument] = []
        accs: list[Argument] = []
        while p.parse_optional_punct("("):
            elts.append(p.parse_argument())
            p.parse_punct(",")
            accs.append(p.parse_argument())
            p.parse_punct(")")
        state.regions.append(p.parse_region([*elts, *accs]))

    @staticmethod
    def _compact_body(p: AsmParser, inner_name: str, fn: FunctionType) -> Region:
        """The body a compact reduce stands for (its locations are the text's to say: made up here)."""
        from ...ir.attributes import UnknownLoc
        from ...ir.operation import OpName

        element = _element(fn.inputs[0])
        if element is None:
            raise p.error("the reduce's input is not shaped")
        t = RankedTensorType.get((), element)
        region = Region(None)
        block = region.add_block()
        loc = UnknownLoc.get()
        lhs, rhs = block.add_argument(t, loc), block.add_argument(t, loc)
        inner = Operation(OpName("stablehlo", inner_name.partition(".")[2]), loc, (t,), [lhs, rhs])
        block.append(inner)
        ret = Operation(OpName("stablehlo", "return"), loc, (), list(inner.results))
        block.append(ret)
        for x in (lhs, rhs, inner, ret):
            p.mark_implicit(x)
        return region


# -- while -------------------------------------------------------------------------------------------------

class WhileOp(StablehloPort):
    def block_arg_names(self, op: Operation, region: Region) -> list[tuple[BlockArgument, str]]:
        return [(a, "iterArg") for b in region.blocks[:1] for a in b.arguments]

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if len(op.regions) != 2 or not op.regions[1].blocks or not op.regions[0].blocks:
            raise SyntaxModelError("while needs a cond and a body region")
        args = op.regions[1].blocks[0].arguments
        if len(args) != len(op.operands) or len(op.regions[0].blocks[0].arguments) != len(args):
            raise SyntaxModelError("the regions' arguments do not match the operands")
        if any(a is not b for a, b in zip(op.regions[0].blocks[0].arguments, args, strict=True)) and \
                any(a.type is not b.type for a, b in zip(op.regions[0].blocks[0].arguments, args,
                                                         strict=True)):
            raise SyntaxModelError("the regions' argument types differ")
        p.write("(")
        for i, (arg, v) in enumerate(zip(args, op.operands, strict=True)):
            if i:
                p.write(", ")
            p.operand(arg)
            p.write(" = ")
            p.operand(v)
        p.write(")")
        if op.operands:
            p.write(" : ")
            _types(p, [v.type for v in op.operands])
        p.optional_attr_dict(attr_entries(self.view(op), set()), with_keyword=True)
        p.newline()
        p.write("cond ")
        p.region(op.regions[0], False)
        p.write(" do ")
        p.region(op.regions[1], False)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        p.parse_punct("(")
        args: list[Argument] = []
        values = []
        if not p.parse_optional_punct(")"):
            while True:
                args.append(p.parse_argument(allow_type=False))
                p.parse_punct("=")
                values.append(p.parse_operand())
                if p.parse_optional_punct(")"):
                    break
                p.parse_punct(",")
        types: list[Type] = []
        if values:
            p.parse_punct(":")
            types.append(p.parse_type())
            while p.parse_optional_punct(","):
                types.append(p.parse_type())
        if len(types) != len(values):
            raise p.error(f"{len(values)} operands present, but {len(types)} types")
        state.result_types.extend(types)
        for a, t in zip(args, types, strict=True):
            a.type = t
        p.resolve_operands(values, types, state)
        d = p.parse_optional_attr_dict_with_keyword()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        p.parse_keyword("cond")
        state.regions.append(p.parse_region(args))
        p.parse_keyword("do")
        state.regions.append(p.parse_region(args, enable_name_shadowing=True))


MODELS: list[OpSyntax] = [ConstantOp("stablehlo.constant"), ReduceOp("stablehlo.reduce"),
                          WhileOp("stablehlo.while")]
