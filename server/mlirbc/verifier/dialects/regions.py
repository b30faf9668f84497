"""What control-flow verifiers share: the values flowing along an edge (RegionBranchOpInterface's
`verifyTypesAlongControlFlowEdges`), a branch's operands against its target block
(BranchOpInterface's `verifyBranchSuccessorOperands`), and the terminator of a region."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...ir.operation import Block, Operation, Region, Value
from ...ir.types import Type
from ..core import Finding, OpContext, type_text


def terminator(region: Region, name: str | tuple[str, ...]) -> Operation | None:
    """The last op of the region's single block, when it is one of `name`."""
    if len(region.blocks) != 1 or not region.blocks[0].operations:
        return None
    last = region.blocks[0].operations[-1]
    names = (name,) if isinstance(name, str) else name
    return last if last.name in names else None


def entry_args(region: Region) -> list[Value] | None:
    return list(region.blocks[0].arguments) if region.blocks else None


def types(values: Sequence[Value]) -> list[Type]:
    return [v.type for v in values]


def edge(ctx: OpContext, source: str, operands: Sequence[Type], target: str, inputs: Sequence[Type],
         compatible: Callable[[Type, Type], bool] | None = None) -> Finding | None:
    """One control-flow edge's values against what its successor takes, as upstream words it
    (`compatible`: the op's `areTypesCompatible`, by default identity)."""
    where = f"along control flow edge from {source} to {target}"
    if len(operands) != len(inputs):
        return ctx.fail(f"{where}: region branch point has {len(operands)} operands, but region successor "
                        f"needs {len(inputs)} inputs", check="RegionBranchOpInterface")
    for i, (a, b) in enumerate(zip(operands, inputs, strict=True)):
        if a is not b and (compatible is None or not compatible(a, b)):
            return ctx.fail(f"{where}: successor operand type #{i} '{type_text(a)}' should match successor "
                            f"input type #{i} '{type_text(b)}'", check="RegionBranchOpInterface")
    return None


def branch(ctx: OpContext, index: int, operands: Sequence[Value], dest: Block) -> Finding | None:
    """A branch's operands for successor `index` against the target block's arguments."""
    args = dest.arguments
    if len(operands) != len(args):
        return ctx.error(f"branch has {len(operands)} operands for successor #{index}, but target block has "
                         f"{len(args)}", check="BranchOpInterface")
    for i, (v, a) in enumerate(zip(operands, args, strict=True)):
        if v.type is not a.type:
            return ctx.error(f"type mismatch for bb argument #{i} of successor #{index}",
                             check="BranchOpInterface")
    return None
