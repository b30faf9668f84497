"""Deep copies of IR: a region with its blocks and ops, values remapped inside the copy.

Used where a new op takes what an old one holds without sharing it (IR is never changed in place once
read, and an op, block or region has one parent): a value defined inside the copied region is replaced
by its copy; one defined outside stays the same object.
"""

from __future__ import annotations

from .operation import Block, Operation, Region, Value


def clone_region(src: Region, parent: Operation) -> Region:
    """A copy of `src` owned by `parent` (its ops keep their names, attributes, properties, locations
    and use-list orders)."""
    mapping: dict[int, Value] = {}
    out = Region(parent)
    _copy_blocks(src, out, mapping)
    # Successors and operands name values and blocks of the copy: patch them once all are made.
    blocks: dict[int, Block] = {}
    for old, new in zip(_all_blocks(src), _all_blocks(out), strict=True):
        blocks[id(old)] = new
    for old_op, new_op in zip(_all_ops(src), _all_ops(out), strict=True):
        new_op.operands = [mapping.get(id(v), v) for v in old_op.operands]
        if old_op.successors:
            new_op.successors = [blocks.get(id(b), b) for b in old_op.successors]
    return out


def _copy_blocks(src: Region, out: Region, mapping: dict[int, Value]) -> None:
    for block in src.blocks:
        nb = out.add_block()
        for arg in block.arguments:
            na = nb.add_argument(arg.type, arg.location)
            na.use_order = arg.use_order
            mapping[id(arg)] = na
        for op in block.operations:
            nop = Operation(op.op_name, op.location, tuple(r.type for r in op.results), [], op.attributes,
                            op.properties)
            for r, nr in zip(op.results, nop.results, strict=True):
                nr.use_order = r.use_order
                mapping[id(r)] = nr
            nb.append(nop)
            for region in op.regions:
                _copy_blocks(region, nop.add_region(), mapping)


def _all_blocks(region: Region) -> list[Block]:
    out: list[Block] = []
    stack = [region]
    while stack:
        r = stack.pop(0)
        for b in r.blocks:
            out.append(b)
            for op in b.operations:
                stack.extend(op.regions)
    return out


def _all_ops(region: Region) -> list[Operation]:
    out: list[Operation] = []
    for b in _all_blocks(region):
        out.extend(b.operations)
    return out
