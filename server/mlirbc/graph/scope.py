"""Which op a graph shows: the function around an op, any region's owner, paths and the function list.

A *function* is an op with regions that defines a symbol (`sym_name`), or any op with regions placed
directly in a module-like op (the root module, `gpu.module`, IREE's executables...): that covers
`func.func`, `llvm.func`, `gpu.func` and also StableHLO's `vhlo.func_v1`, whose properties (and so its
name) may be kept verbatim.  A *path* names an op by its position from the module root: one
(region, block, op) index triple per level; it survives edits elsewhere in the text.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..ir.attributes import Attribute, DictionaryAttr, StringAttr
from ..ir.operation import PROPS_ATTRIBUTE, PROPS_DECODED, Operation

KIND_MODULE = "module"
KIND_FUNCTION = "function"
KIND_REGION = "region"

_MODULE_LIKE = ("executable", "variant")


def symbol_name(op: Operation) -> str | None:
    """The op's `sym_name`, from decoded properties, an unregistered op's properties or its attributes."""
    found: Attribute | None = None
    p = op.properties
    if p is not None:
        if p.kind == PROPS_DECODED:
            found = p.values.get("sym_name")
        elif p.kind == PROPS_ATTRIBUTE and isinstance(p.attribute, DictionaryAttr):
            found = p.attribute.lookup("sym_name")
    if found is None and op.attributes is not None:
        found = op.attributes.lookup("sym_name")
    if isinstance(found, StringAttr):
        return found.text
    return None


def parent_op(op: Operation) -> Operation | None:
    block = op.parent
    region = block.parent if block is not None else None
    return region.parent if region is not None else None


def is_module_like(op: Operation) -> bool:
    short = op.op_name.name
    return op.name == "builtin.module" or short in _MODULE_LIKE or short.endswith("module")


def is_function(op: Operation) -> bool:
    if not op.regions:
        return False
    if is_module_like(op) and parent_op(op) is None:
        return False  # the root module
    owner = parent_op(op)
    return symbol_name(op) is not None or owner is None or is_module_like(owner)


def enclosing_function(op: Operation) -> Operation:
    """The innermost function containing `op` (itself included), else the outermost op (the module)."""
    cur: Operation | None = op
    last = op
    while cur is not None:
        if is_function(cur):
            return cur
        last = cur
        cur = parent_op(cur)
    return last


def enclosing_region_owner(op: Operation) -> Operation:
    """The innermost op with regions containing `op` (itself if it has regions)."""
    cur: Operation | None = op
    last = op
    while cur is not None:
        if cur.regions:
            return cur
        last = cur
        cur = parent_op(cur)
    return last


def scope_kind(op: Operation) -> str:
    if parent_op(op) is None:
        return KIND_MODULE
    return KIND_FUNCTION if is_function(op) else KIND_REGION


def path_of(op: Operation) -> list[int]:
    """(region, block, op) index triples from the outermost op down to `op`, flattened."""
    out: list[int] = []
    cur = op
    while True:
        block = cur.parent
        region = block.parent if block is not None else None
        owner = region.parent if region is not None else None
        if block is None or region is None or owner is None:
            break
        out[:0] = [_index(owner.regions, region), _index(region.blocks, block),
                   _index(block.operations, cur)]
        cur = owner
    return out


def _index(items: Sequence[object], item: object) -> int:
    for i, x in enumerate(items):
        if x is item:
            return i
    raise ValueError("broken parent link")


def resolve_path(root: Operation, path: list[int]) -> Operation | None:
    if len(path) % 3:
        return None
    cur = root
    for k in range(0, len(path), 3):
        r, b, o = path[k:k + 3]
        if not (0 <= r < len(cur.regions)):
            return None
        blocks = cur.regions[r].blocks
        if not (0 <= b < len(blocks)):
            return None
        ops = blocks[b].operations
        if not (0 <= o < len(ops)):
            return None
        cur = ops[o]
    return cur


@dataclass
class FunctionEntry:
    op: Operation
    symbol: str | None
    path: list[int]


def functions(root: Operation, limit: int = 10_000) -> Iterator[FunctionEntry]:
    """The functions of a module in text order, looking inside module-like ops (not inside functions)."""

    def children(op: Operation, path: list[int]) -> Iterator[tuple[Operation, list[int]]]:
        for ri, region in enumerate(op.regions):
            for bi, block in enumerate(region.blocks):
                for oi, child in enumerate(block.operations):
                    yield child, path + [ri, bi, oi]

    stack = [children(root, [])]
    count = 0
    while stack:
        nxt = next(stack[-1], None)
        if nxt is None:
            stack.pop()
            continue
        child, p = nxt
        if child.regions and is_module_like(child):
            stack.append(children(child, p))
        elif is_function(child):
            yield FunctionEntry(child, symbol_name(child), p)
            count += 1
            if count >= limit:
                return


def find_function(root: Operation, name: str) -> Operation | None:
    """By symbol (`main`, `@main`) or by position in the function list (`#0`, `#3`)."""
    if name.startswith("#") and name[1:].isdigit():
        want = int(name[1:])
        for i, f in enumerate(functions(root)):
            if i == want:
                return f.op
        return None
    sym = name[1:] if name.startswith("@") else name
    for f in functions(root):
        if f.symbol == sym:
            return f.op
    return None
