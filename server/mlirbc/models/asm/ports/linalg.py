"""`linalg` structured ops: `linalg.generic`, the named ops (`fill`, `matmul`, convolutions, ...) and
`linalg.yield` (ports of LinalgOps.cpp's print/parse).

Named ops print no body: their region is what the op's region builder makes for its element types.  Read
back, a named op takes the body of the original op it stands for (`view.reconcile`); a new or edited
one gets the body its builder makes (`BODIES`: fill and the matmul family over one element type), else
the parse says it cannot build it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ....ir.attributes import ArrayAttr, Attribute, DialectAttr, DictionaryAttr, StringAttr
from ....ir.operation import Block, BlockArgument, Operation, Region
from ....ir.types import FloatType, IntegerType, Type, bit_width
from ....syntax.attr_parser import parse_attribute_text
from ....syntax.attr_printer import plain_attribute_text
from ..adaptor import OpView, dict_attr
from ..api import AsmParser, AsmPrinter, OpState, OpSyntax, SyntaxModelError
from ..directives_upstream import i64_array, i64s
from .base import Port, print_types
from .scf import parse_arrow_types, print_arrow_types

TRAIT_ATTRS = ("doc", "indexing_maps", "iterator_types", "library_call")
_ITERATOR = "#linalg.iterator_type<"


def _io(view: OpView) -> tuple[list[object], list[object]]:
    groups = view.operand_groups()
    return list(groups.get("inputs", [])), list(groups.get("outputs", []))


def print_ins_outs(p: AsmPrinter, inputs: list[object], outputs: list[object]) -> None:
    """printCommonStructuredOpParts: ` ins(%a, %b : T, U) outs(%c : V)`."""
    for word, values in (("ins", inputs), ("outs", outputs)):
        if not values:
            continue
        p.write(f" {word}(")
        for i, v in enumerate(values):
            if i:
                p.write(", ")
            p.operand(v)  # type: ignore[arg-type]
        p.write(" : ")
        print_types(p, [v.type for v in values])  # type: ignore[attr-defined]
        p.write(")")


def print_i64_list_attr(p: AsmPrinter, name: str, values: Attribute | None) -> None:
    """printDenseI64ArrayAttr: ` name = [1, 2] ` (the trailing space is upstream's)."""
    p.write(f" {name} = [" + ", ".join(str(d) for d in i64s(values)) + "] ")


def parse_i64_list_attr(p: AsmParser, state: OpState, name: str) -> None:
    """parseDenseI64ArrayAttr: `name = [1, 2]` into the attribute `name`."""
    p.parse_keyword(name)
    p.parse_punct("=")
    p.parse_punct("[")
    items: list[int] = []
    if not p.parse_optional_punct("]"):
        items.append(p.parse_integer())
        while p.parse_optional_punct(","):
            items.append(p.parse_integer())
        p.parse_punct("]")
    state.attributes[name] = i64_array(items)


def parse_ins_outs(p: AsmParser, state: OpState) -> tuple[list[Type], list[Type]]:
    """parseCommonStructuredOpParts (operands resolved, operandSegmentSizes set)."""
    from ..declarative_parse import i32_array

    sizes = []
    types_out: list[list[Type]] = []
    for word in ("ins", "outs"):
        refs: list[object] = []
        types: list[Type] = []
        if p.parse_optional_keyword(word):
            p.parse_punct("(")
            refs.append(p.parse_operand())
            while p.parse_optional_punct(","):
                refs.append(p.parse_operand())
            p.parse_punct(":")
            types.append(p.parse_type())
            while p.parse_optional_punct(","):
                types.append(p.parse_type())
            p.parse_punct(")")
        p.resolve_operands(refs, types, state)  # type: ignore[arg-type]
        sizes.append(len(refs))
        types_out.append(types)
    state.attributes["operandSegmentSizes"] = i32_array(sizes)
    return types_out[0], types_out[1]


def _tensor_results(p: AsmParser) -> list[Type]:
    return parse_arrow_types(p) if p.parse_optional_punct("->") else []


class _Structured(Port):
    """Block arguments of a structured op's body are `%in` and `%out` (getAsmBlockArgumentNames)."""

    keywords_list = ("ins", "outs")

    def block_arg_names(self, op: Operation, region: Region) -> list[tuple[BlockArgument, str]]:
        if not region.blocks:
            return []
        try:
            inputs, _ = _io(self.view(op))
        except SyntaxModelError:
            return []
        args = region.blocks[0].arguments
        return [(a, "in" if i < len(inputs) else "out") for i, a in enumerate(args)]


class GenericOp(_Structured):
    def __init__(self, name: str, data_dir: Path | None = None) -> None:
        super().__init__(name, data_dir)
        self._traits: dict[tuple[int, ...], tuple[tuple[Attribute, ...], DictionaryAttr | None]] = {}
        """ids of an op's trait attributes -> (those attributes, the dictionary printed for them): the
        ops of a module share a few traits, and the dictionary (with iterator types as strings) is a new
        value each time otherwise, made and printed again for each op."""

    def _trait(self, attrs: list[tuple[str, Attribute]]) -> DictionaryAttr | None:
        held = tuple(v for k, v in attrs if k in TRAIT_ATTRS)
        key = tuple(id(v) for v in held)
        found = self._traits.get(key)
        if found is not None and all(a is b for a, b in zip(found[0], held, strict=True)):
            return found[1]
        trait: list[tuple[str, Attribute]] = []
        for k, v in attrs:
            if k == "iterator_types":
                if not isinstance(v, ArrayAttr):
                    raise SyntaxModelError("iterator_types is not an array")
                names: list[Attribute] = []
                for e in v.elements:
                    if not isinstance(e, DialectAttr) or not e.text.startswith(_ITERATOR):
                        raise SyntaxModelError("an iterator type is not #linalg.iterator_type")
                    names.append(StringAttr.get(e.text[len(_ITERATOR):-1]))
                trait.append((k, ArrayAttr.get(tuple(names))))
            elif k in TRAIT_ATTRS:
                trait.append((k, v))
        made = dict_attr(trait) if trait else None
        if len(self._traits) > 256:
            self._traits.clear()  # bounded: the entries keep their attributes alive
        self._traits[key] = (held, made)
        return made

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        inputs, outputs = _io(view)
        attrs = view.all_attrs()
        trait = self._trait(attrs)
        p.write(" ")
        if trait is not None:
            p.attribute(trait)
        print_ins_outs(p, inputs, outputs)
        rest = [(k, v) for k, v in attrs if k not in TRAIT_ATTRS and k != "operandSegmentSizes"]
        if rest:
            p.write(" attrs = ")
            p.optional_attr_dict(rest)
        if op.regions and op.regions[0].blocks:
            p.write(" ")
            p.region(op.regions[0])
        if op.results:
            print_arrow_types(p, [r.type for r in op.results])

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        d = p.parse_attribute()
        if not isinstance(d, DictionaryAttr):
            raise p.error("expected the linalg.generic trait dictionary")
        for k, v in d.entries:
            state.attributes[k.text] = v
        iters = state.attributes.get("iterator_types")
        if not isinstance(iters, ArrayAttr):
            raise p.error("expected iterator_types array attribute")
        converted: list[Attribute] = []
        for e in iters.elements:
            if not isinstance(e, StringAttr) or e.text not in ("parallel", "reduction"):
                raise p.error("unexpected iterator_type")
            converted.append(parse_attribute_text(f"{_ITERATOR}{e.text}>"))
        state.attributes["iterator_types"] = ArrayAttr.get(tuple(converted))
        parse_ins_outs(p, state)
        if p.parse_optional_keyword("attrs"):
            p.parse_punct("=")
            extra = p.parse_optional_attr_dict()
            if extra is not None:
                state.attributes.update((k.text, v) for k, v in extra.entries)
        state.regions.append(p.parse_region())
        state.result_types.extend(_tensor_results(p))


class YieldOp(Port):
    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        if op.operands:
            p.write(" ")
            for i, v in enumerate(op.operands):
                if i:
                    p.write(", ")
                p.operand(v)
        p.optional_attr_dict(self.view(op).all_attrs())
        if op.operands:
            p.write(" : ")
            print_types(p, [v.type for v in op.operands])

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        refs: list[object] = []
        first = p.parse_optional_operand()
        if first is not None:
            refs.append(first)
            while p.parse_optional_punct(","):
                refs.append(p.parse_operand())
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        types: list[Type] = []
        if refs:
            p.parse_punct(":")
            types.append(p.parse_type())
            while p.parse_optional_punct(","):
                types.append(p.parse_type())
        p.resolve_operands(refs, types, state)  # type: ignore[arg-type]


# -- named ops ---------------------------------------------------------------------------------------------
DEFAULT_MAPS = {
    "linalg.matmul": ["(d0, d1, d2) -> (d0, d2)", "(d0, d1, d2) -> (d2, d1)", "(d0, d1, d2) -> (d0, d1)"],
    "linalg.batch_matmul": ["(d0, d1, d2, d3) -> (d0, d1, d3)", "(d0, d1, d2, d3) -> (d0, d3, d2)",
                            "(d0, d1, d2, d3) -> (d0, d1, d2)"],
}


def _text(a: Attribute) -> str:
    """An attribute's text without aliases or placeholders (what it is, whichever pass prints it)."""
    return plain_attribute_text(a)


def _maps_attr(texts: list[str]) -> ArrayAttr:
    return ArrayAttr.get(tuple(parse_attribute_text(f"affine_map<{t}>") for t in texts))


_DEFAULT_TEXT: dict[str, str] = {}


def _default_maps_text(name: str) -> str:
    """The text of a named op's default indexing maps (parsed once per process, not per op printed)."""
    text = _DEFAULT_TEXT.get(name)
    if text is None:
        text = _DEFAULT_TEXT[name] = _text(_maps_attr(DEFAULT_MAPS[name]))
    return text


class NamedOp(_Structured):
    """A named structured op (printNamedStructuredOp / parseNamedStructuredOp)."""

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        inputs, outputs = _io(view)
        elided = {"operandSegmentSizes", "linalg.memoized_indexing_maps"}
        default = DEFAULT_MAPS.get(self.name)
        maps = view.attr("indexing_maps")
        if default is not None:
            elided.add("indexing_maps")
            if maps is not None and _text(maps) != _default_maps_text(self.name):
                # MatmulOp::print: maps other than the default (a transposed operand) come first
                p.write(" indexing_maps = ")
                p.attribute(maps)
        elif self.name == "linalg.contract":
            elided.add("indexing_maps")
            if maps is None:
                raise SyntaxModelError("linalg.contract without indexing maps")
            p.write(" indexing_maps = ")
            p.attribute(maps)
        p.optional_attr_dict([(k, v) for k, v in view.all_attrs() if k not in elided])
        print_ins_outs(p, inputs, outputs)
        if op.results:
            print_arrow_types(p, [r.type for r in op.results])

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        if self.name == "linalg.contract":
            p.parse_keyword("indexing_maps")
            p.parse_punct("=")
            state.attributes["indexing_maps"] = p.parse_attribute()
        default = DEFAULT_MAPS.get(self.name)
        if default is not None:
            if p.parse_optional_keyword("indexing_maps"):
                p.parse_punct("=")
                state.attributes["indexing_maps"] = p.parse_attribute()
            else:
                state.attributes["indexing_maps"] = _maps_attr(default)
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        inputs, outputs = parse_ins_outs(p, state)
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        state.result_types.extend(_tensor_results(p))
        body = Region(None)
        builder = BODIES.get(self.name)
        if builder is not None:
            builder(body, inputs, outputs)
        mark = getattr(p, "elided_body", None)
        if callable(mark):
            mark(body)
        state.regions.append(body)


def _element(t: Type) -> Type:
    return getattr(t, "element", t)


def _body_block(region: Region, inputs: list[Type], outputs: list[Type]) -> Block:
    from ....ir.attributes import UnknownLoc

    block = region.add_block()
    for t in [*inputs, *outputs]:
        block.add_argument(_element(t), UnknownLoc.get())
    return block


def _op(name: str, operands: list[object], results: tuple[Type, ...] = (),
        props: dict[str, Attribute] | None = None) -> Operation:
    from ....ir.operation import PROPS_DECODED, OpName, Properties

    dialect, _, short = name.partition(".")
    op = Operation(OpName(dialect, short, True), None, results, list(operands))  # type: ignore[arg-type]
    if props is not None:
        op.properties = Properties(PROPS_DECODED, values=props)
    return op


def _fill_body(region: Region, inputs: list[Type], outputs: list[Type]) -> None:
    block = _body_block(region, inputs, outputs)
    block.append(_op("linalg.yield", [block.arguments[0]]))


_FASTMATH_NONE = "#arith.fastmath<none>"
_OVERFLOW_NONE = "#arith.overflow<none>"


class _Body:
    """Builds a named op's body as its region builder does: block arguments of the operands' element
    types, casts to the output's element type, the op's arithmetic, `linalg.yield`."""

    def __init__(self, region: Region, inputs: list[Type], outputs: list[Type]) -> None:
        self.block = _body_block(region, inputs, outputs)
        self.args = list(self.block.arguments)

    def emit(self, name: str, operands: list[object], result: Type) -> BlockArgument:
        props: dict[str, Attribute] = {}
        if name in _FASTMATH_OPS:
            props["fastmath"] = DialectAttr.get("arith", _FASTMATH_NONE)
        elif name in _OVERFLOW_OPS:
            props["overflowFlags"] = DialectAttr.get("arith", _OVERFLOW_NONE)
        op = _op(name, operands, (result,), props or None)
        self.block.append(op)
        return op.results[0]  # type: ignore[return-value]

    def cast(self, v: BlockArgument, to: Type) -> BlockArgument:
        """`linalg`'s `cast` (signed): nothing for the same type, else the arith conversion."""
        frm = v.type
        if frm is to:
            return v
        if isinstance(to, FloatType) and isinstance(frm, IntegerType):
            return self.emit("arith.sitofp", [v], to)
        if isinstance(to, IntegerType) and isinstance(frm, FloatType):
            return self.emit("arith.fptosi", [v], to)
        if isinstance(to, FloatType) and isinstance(frm, FloatType):
            wider = bit_width(to) > bit_width(frm)
            return self.emit("arith.extf" if wider else "arith.truncf", [v], to)
        if isinstance(to, IntegerType) and isinstance(frm, IntegerType):
            wider = to.width > frm.width
            return self.emit("arith.extsi" if wider else "arith.trunci", [v], to)
        raise _NoBody

    def binary(self, kind: str, a: BlockArgument, b: BlockArgument) -> BlockArgument:
        t = a.type
        if isinstance(t, FloatType):
            name = _FLOAT_BINARY[kind]
        elif isinstance(t, IntegerType):
            name = _INT_BINARY[kind]
        else:
            raise _NoBody
        return self.emit(name, [a, b], t)

    def done(self, v: BlockArgument) -> None:
        self.block.append(_op("linalg.yield", [v]))


class _NoBody(Exception):
    """Element types this port's region builders do not cover."""


_FLOAT_BINARY = {"add": "arith.addf", "sub": "arith.subf", "mul": "arith.mulf", "div": "arith.divf",
                 "max": "arith.maximumf", "min": "arith.minimumf"}
_INT_BINARY = {"add": "arith.addi", "sub": "arith.subi", "mul": "arith.muli", "div": "arith.divsi",
               "max": "arith.maxsi", "min": "arith.minsi"}
_FASTMATH_OPS = frozenset({"arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.maximumf",
                           "arith.minimumf", "arith.negf", "math.absf", "math.exp", "math.log",
                           "math.sqrt", "math.tanh"})
_OVERFLOW_OPS = frozenset({"arith.addi", "arith.subi", "arith.muli"})
_UNARY = {"abs": "math.absf", "exp": "math.exp", "log": "math.log", "negf": "arith.negf",
          "sqrt": "math.sqrt", "tanh": "math.tanh"}


def _built(build: Callable[[_Body], None]) -> Callable[[Region, list[Type], list[Type]], None]:
    def body(region: Region, inputs: list[Type], outputs: list[Type]) -> None:
        try:
            b = _Body(region, inputs, outputs)
            build(b)
        except _NoBody:
            region.blocks.clear()
    return body


def _mul_add(b: _Body) -> None:
    """`out + cast(a) * cast(b)` (matmul, conv, contraction families)."""
    if len(b.args) != 3:
        raise _NoBody
    x, y, out = b.args
    prod = b.binary("mul", b.cast(x, out.type), b.cast(y, out.type))
    b.done(b.binary("add", out, prod))


def _pool(kind: str) -> Callable[[_Body], None]:
    def build(b: _Body) -> None:
        if len(b.args) != 3:
            raise _NoBody
        x, _, out = b.args
        b.done(b.binary(kind, out, b.cast(x, out.type)))
    return build


def _unary(name: str) -> Callable[[_Body], None]:
    def build(b: _Body) -> None:
        if len(b.args) != 2 or not isinstance(b.args[1].type, FloatType):
            raise _NoBody
        x, out = b.args
        b.done(b.emit(name, [b.cast(x, out.type)], out.type))
    return build


def _binary(kind: str) -> Callable[[_Body], None]:
    def build(b: _Body) -> None:
        if len(b.args) != 3:
            raise _NoBody
        x, y, out = b.args
        b.done(b.binary(kind, b.cast(x, out.type), b.cast(y, out.type)))
    return build


def _copy(b: _Body) -> None:
    if len(b.args) != 2:
        raise _NoBody
    x, out = b.args
    b.done(b.cast(x, out.type))


_MUL_ADD = ["matmul", "batch_matmul", "matvec", "vecmat", "dot", "batch_matvec", "batch_vecmat",
            "batch_reduce_matmul", "conv_1d", "conv_2d", "conv_3d", "conv_1d_nwc_wcf", "conv_1d_ncw_fcw",
            "conv_2d_nhwc_hwcf", "conv_2d_nhwc_fhwc", "conv_2d_nchw_fchw", "conv_2d_ngchw_fgchw",
            "conv_2d_ngchw_gfchw", "conv_2d_nhwgc_gfhwc", "conv_3d_ndhwc_dhwcf", "conv_3d_ncdhw_fcdhw",
            "depthwise_conv_1d_nwc_wc", "depthwise_conv_1d_ncw_cw", "depthwise_conv_1d_nwc_wcm",
            "depthwise_conv_2d_nhwc_hwc", "depthwise_conv_2d_nchw_chw", "depthwise_conv_2d_nhwc_hwcm",
            "depthwise_conv_3d_ndhwc_dhwc", "depthwise_conv_3d_ncdhw_cdhw", "depthwise_conv_3d_ndhwc_dhwcm",
            "mmt4d", "batch_mmt4d", "contract"]
_POOLS = {"sum": "add", "max": "max", "min": "min"}

BODIES: dict[str, Callable[[Region, list[Type], list[Type]], None]] = {
    "linalg.fill": _fill_body,
    "linalg.copy": _built(_copy),
    **{f"linalg.{n}": _built(_mul_add) for n in _MUL_ADD},
    **{f"linalg.pooling_{layout}_{kind}": _built(_pool(fn)) for layout in
       ("nhwc", "nchw", "nwc", "ncw", "ndhwc") for kind, fn in _POOLS.items()},
    **{f"linalg.{n}": _built(_unary(name)) for n, name in _UNARY.items()},
    **{f"linalg.{n}": _built(_binary(n)) for n in ("add", "sub", "mul", "div", "max", "min")},
}

NAMED = ["fill", "matmul", "batch_matmul", "matvec", "vecmat", "dot", "batch_matvec", "batch_vecmat",
         "batch_reduce_matmul", "conv_1d", "conv_2d", "conv_3d", "conv_1d_nwc_wcf", "conv_1d_ncw_fcw",
         "conv_2d_nhwc_hwcf", "conv_2d_nhwc_fhwc", "conv_2d_nchw_fchw", "conv_2d_ngchw_fgchw",
         "conv_2d_ngchw_gfchw", "conv_2d_nhwgc_gfhwc", "conv_2d_nhwc_hwcf_q", "conv_2d_nchw_fchw_q",
         "conv_3d_ndhwc_dhwcf", "conv_3d_ncdhw_fcdhw", "depthwise_conv_1d_nwc_wc", "depthwise_conv_1d_ncw_cw",
         "depthwise_conv_1d_nwc_wcm", "depthwise_conv_2d_nhwc_hwc", "depthwise_conv_2d_nchw_chw",
         "depthwise_conv_2d_nhwc_hwcm", "depthwise_conv_3d_ndhwc_dhwc", "depthwise_conv_3d_ncdhw_cdhw",
         "depthwise_conv_3d_ndhwc_dhwcm", "pooling_nhwc_sum", "pooling_nchw_sum", "pooling_nhwc_max",
         "pooling_nhwc_max_unsigned", "pooling_nchw_max", "pooling_nhwc_min", "pooling_nhwc_min_unsigned",
         "pooling_nwc_sum", "pooling_ncw_sum", "pooling_nwc_max", "pooling_ncw_max", "pooling_nwc_min",
         "pooling_ndhwc_sum", "pooling_ndhwc_max", "pooling_ndhwc_min", "mmt4d", "batch_mmt4d", "contract",
         "copy", "abs", "add", "sub", "mul", "div", "exp", "log", "max", "min", "negf", "sqrt", "tanh"]

MODELS: list[OpSyntax] = [GenericOp("linalg.generic"), YieldOp("linalg.yield"),
                          *(NamedOp(f"linalg.{n}") for n in NAMED)]
