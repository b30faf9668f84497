"""`linalg.transpose` and `linalg.broadcast` (LinalgOps.cpp's print/parse): ` ins(...) outs(...)
permutation = [...] ` / `dimensions = [...] `, the attributes, and no body: the parser builds the identity
body (`buildIdentityRegion`), so an op whose body is anything else prints generic."""

from __future__ import annotations

from ....ir.operation import Operation, Region
from ....ir.types import RankedTensorType
from ..api import AsmParser, AsmPrinter, OpState, OpSyntax, SyntaxModelError
from .base import Port
from .linalg import (
    _element,
    _fill_body,
    parse_i64_list_attr,
    parse_ins_outs,
    print_i64_list_attr,
    print_ins_outs,
)


def _identity_body(op: Operation) -> bool:
    """Whether the body is the one the parser builds: one block with an argument of each operand's
    element type, yielding the first."""
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        return False
    block = op.regions[0].blocks[0]
    args = block.arguments
    if len(args) != len(op.operands) or any(a.type is not _element(v.type) for a, v in zip(
            args, op.operands, strict=True)):
        return False
    ops = block.operations
    return len(ops) == 1 and ops[0].name == "linalg.yield" and len(args) > 0 and \
        list(ops[0].operands) == [args[0]] and not ops[0].results and not ops[0].regions and \
        (ops[0].attributes is None or not ops[0].attributes.entries)


class _DstStyleOp(Port):
    keywords_list = ("ins", "outs")
    list_attr = ""
    """The dense i64 list the form prints after `outs(...)` (`permutation`, `dimensions`)."""
    result_name = ""

    def result_names(self, op: Operation) -> list[tuple[int, str]]:
        return [(0, self.result_name)] if op.results else []

    def print_op(self, op: Operation, p: AsmPrinter) -> None:
        view = self.view(op)
        groups = view.operand_groups()
        values = view.attr(self.list_attr)
        if len(op.operands) != 2 or values is None or not _identity_body(op):
            raise SyntaxModelError(f"{self.name}'s form implies its body: it prints the op generic when the "
                                   "body is not the identity the parser builds")
        print_ins_outs(p, list(groups["input"]), list(groups["init"]))
        print_i64_list_attr(p, self.list_attr, values)
        p.optional_attr_dict([(k, v) for k, v in view.all_attrs() if k != self.list_attr])

    def parse_op(self, p: AsmParser, state: OpState) -> None:
        inputs, outputs = parse_ins_outs(p, state)
        state.attributes.pop("operandSegmentSizes", None)  # (parseDstStyleOp adds none)
        state.result_types.extend(t for t in outputs if isinstance(t, RankedTensorType))
        parse_i64_list_attr(p, state, self.list_attr)
        d = p.parse_optional_attr_dict()
        if d is not None:
            state.attributes.update((k.text, v) for k, v in d.entries)
        region = Region(None)
        _fill_body(region, [*inputs, *outputs], [])
        # The text says nothing of the body's locations: with the original at hand, its body stands.
        p.elided_body(region)
        state.regions.append(region)


class TransposeOp(_DstStyleOp):
    list_attr = "permutation"
    result_name = "transposed"


class BroadcastOp(_DstStyleOp):
    list_attr = "dimensions"
    result_name = "broadcasted"


MODELS: list[OpSyntax] = [TransposeOp("linalg.transpose"), BroadcastOp("linalg.broadcast")]
