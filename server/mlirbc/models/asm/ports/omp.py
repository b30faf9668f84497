"""`omp.loop_nest` (a port of OpenMPDialect.cpp's LoopNestOp print/parse):
`(%i, %j) : index = (%lb0, %lb1) to (%ub0, %ub1) inclusive step (%s0, %s1) collapse(2) tiles(4, 8) {...}`.

Upstream's printer writes no attribute dictionary, `collapse(n)` only for n > 1 (a stored 1, the
default the builders store, reads back absent, as mlir-opt's parser leaves it; the view's reconcile keeps
the original's) and `tiles(...)` even when empty (which its parser cannot read); an op whose text would not
read back to it (other attributes, empty tiles, bounds or induction variables of differing types) prints
generic."""

from __future__ import annotations

import struct
from collections.abc import Sequence

from ....ir.attributes import Attribute, DenseArrayAttr, IntegerAttr, UnitAttr
from ....ir.operation import Operation, Value
from ....ir.types import IntegerType
from ..api import AsmParser, AsmPrinter, OperandRef, OpState, OpSyntax, SyntaxModelError
from .base import Port

_KNOWN = {"collapse_num_loops", "loop_inclusive", "tile_sizes"}
_I64 = IntegerType.get(64)


def _i64_array(a: Attribute) -> list[int] | None:
    """The values of an `array<i64: ...>` (None for any other attribute)."""
    if not isinstance(a, DenseArrayAttr) or a.element_type != _I64 or len(a.data) != 8 * a.count:
        return None
    return [v for (v,) in struct.iter_unpack("<q", bytes(a.data))]


def _values(p: AsmPrinter, values: Sequence[Value]) -> None:
    for i, v in enumerate(values):
        if i:
            p.write(", ")
        p.operand(v)


def _operand_list(p: AsmParser, count: int | None) -> list[OperandRef]:
    """`(%a, %b)` with `count` operands when given."""
    p.parse_punct("(")
    out: list[OperandRef] = []
    if not p.parse_optional_punct(")"):
        out.append(p.parse_operand())
        while p.parse_optional_punct(","):
            out.append(p.parse_operand())
        p.parse_punct(")")
    if count is not None and len(out) != count:
        raise p.error(f"expected {count} operands")
    return out


class LoopNestOp(Port):
    keywords_list = ("to", "inclusive", "step", "collapse", "tiles")

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        if len(op.regions) != 1 or not op.regions[0].blocks:
            raise SyntaxModelError("omp.loop_nest needs a body")
        args = list(op.regions[0].blocks[0].arguments)
        lbs = list(view.operands("loop_lower_bounds"))
        ubs = list(view.operands("loop_upper_bounds"))
        steps = list(view.operands("loop_steps"))
        if not args or not len(args) == len(lbs) == len(ubs) == len(steps):
            raise SyntaxModelError("omp.loop_nest's bounds do not match its induction variables")
        t = args[0].type
        if any(v.type != t for v in [*args, *lbs, *ubs, *steps]):
            raise SyntaxModelError("omp.loop_nest's values differ in type")
        names = {k for k, _ in view.all_attrs()}
        if names - _KNOWN:
            raise SyntaxModelError("omp.loop_nest prints no attribute dictionary")
        collapse = view.attr("collapse_num_loops")
        if collapse is not None and not (isinstance(collapse, IntegerAttr) and collapse.type == _I64
                                         and 0 < collapse.bits < 2**63):
            raise SyntaxModelError("a collapse_num_loops upstream's verifier refuses")
        tiles = view.attr("tile_sizes")
        sizes = _i64_array(tiles) if tiles is not None else None
        if tiles is not None and not sizes:
            raise SyntaxModelError("tile sizes upstream cannot read back")
        p.write(" (")
        _values(p, args)
        p.write(") : ")
        p.type(t)
        p.write(" = (")
        _values(p, lbs)
        p.write(") to (")
        _values(p, ubs)
        p.write(") ")
        if view.attr("loop_inclusive") is not None:
            p.write("inclusive ")
        p.write("step (")
        _values(p, steps)
        p.write(") ")
        if isinstance(collapse, IntegerAttr) and collapse.bits > 1:
            p.write(f"collapse({collapse.bits}) ")
        if sizes:
            p.write("tiles(" + ", ".join(str(v) for v in sizes) + ") ")
        p.region(op.regions[0], False)

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        p.parse_punct("(")
        ivs = [p.parse_argument(allow_type=False)]
        while p.parse_optional_punct(","):
            ivs.append(p.parse_argument(allow_type=False))
        p.parse_punct(")")
        p.parse_punct(":")
        t = p.parse_type()
        p.parse_punct("=")
        lbs = _operand_list(p, len(ivs))
        p.parse_keyword("to")
        ubs = _operand_list(p, len(ivs))
        for iv in ivs:
            iv.type = t
        if p.parse_optional_keyword("inclusive"):
            state.attributes["loop_inclusive"] = UnitAttr.get()
        p.parse_keyword("step")
        steps = _operand_list(p, len(ivs))
        if p.parse_optional_keyword("collapse"):
            p.parse_punct("(")
            n = p.parse_integer()
            p.parse_punct(")")
            if n > 1:
                state.attributes["collapse_num_loops"] = IntegerAttr.get(_I64, n)
        if p.parse_optional_keyword("tiles"):
            p.parse_punct("(")
            sizes = [p.parse_integer()]
            while p.parse_optional_punct(","):
                sizes.append(p.parse_integer())
            p.parse_punct(")")
            state.attributes["tile_sizes"] = DenseArrayAttr.get(
                _I64, len(sizes), b"".join(struct.pack("<q", s) for s in sizes))
        state.regions.append(p.parse_region(ivs))
        p.resolve_operands([*lbs, *ubs, *steps], [t] * (3 * len(ivs)), state)
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)


MODELS: list[OpSyntax] = [LoopNestOp("omp.loop_nest")]
