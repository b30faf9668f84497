"""The writer's pre-order analysis (format 6.5): which ops with regions are written as isolated, how many
uses each value has (for use-list orders, 6.4), and whether every operand is visible where it is used.

Isolation is computed, not just taken from the trait: an op with regions counts as isolated unless some op
nested in it uses a value defined outside it.  The walk copies upstream's algorithm step by step (a stack of
ops with regions, each with an isolation state and an "unresolved" flag), because the bytes depend on it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from ..errors import EncodeError
from ..ir.operation import (
    Block,
    BlockArgument,
    Operation,
    OpName,
    OpResult,
    Properties,
    Region,
    Value,
)


class _Frame:
    __slots__ = ("op", "isolated", "unresolved")

    def __init__(self, op: Operation, isolated: bool | None) -> None:
        self.op = op
        self.isolated = isolated
        self.unresolved = isolated is None


def value_region(v: Value) -> Region | None:
    """The region a value is defined in (None for a value outside any region, e.g. the root op's results)."""
    if isinstance(v, OpResult):
        block = v.owner.parent
        return None if block is None else block.parent
    if isinstance(v, BlockArgument):
        return v.owner.parent
    return None


class Analysis:
    """`isolated[op]` for every op with regions; `use_counts[value]` for every used value."""

    def __init__(self) -> None:
        self.isolated: dict[Operation, bool] = {}
        self.use_counts: dict[Value, int] = {}


def analyze(root: Operation, has_trait: Callable[[Operation], bool],
            skip: Collection[Operation] = (), inside: bool = False) -> Analysis:
    """Walk the IR once in pre-order; raise EncodeError for operands that are not in scope.

    The regions of the ops in `skip` (isolated, and copied from the template by the writer) are not
    entered.  With `inside`, only what is inside `root`'s regions is analysed (an op of `skip` whose
    regions the writer must encode after all): `root` itself was analysed with its parent.
    """
    result = Analysis()
    counts = result.use_counts
    isolated = result.isolated
    stack: list[_Frame] = []
    # Work items: an Operation to enter, or a _Frame whose op's regions are all done.
    work: list[Operation | _Frame] = [root]
    while work:
        item = work.pop()
        if isinstance(item, _Frame):
            stack.pop()
            isolated[item.op] = True if item.isolated is None else item.isolated
            continue
        op = item
        _check_structure(op)
        parent_block = op.parent
        parent_region = None if parent_block is None else parent_block.parent
        for operand in (op.operands if not (inside and op is root) else ()):
            counts[operand] = counts.get(operand, 0) + 1
            region = value_region(operand)
            if region is parent_region and region is not None:
                continue
            _check_visible(op, operand, region, has_trait)
            if not stack or not stack[-1].unresolved:
                continue
            # A use from outside the current region: every enclosing op up to the one that owns the
            # value's region (or up to the first one already resolved) is not isolated.
            container = region.parent if region is not None else None
            i = len(stack) - 1
            while i >= 0 and stack[i].unresolved and stack[i].op is not container:
                i -= 1
            if i < 0:
                raise EncodeError(f"op '{op.name}' uses a value defined outside the root op")
            stop_flag = stack[i].unresolved
            for j in range(len(stack) - 1, i, -1):
                stack[j].unresolved = stop_flag
                stack[j].isolated = False
        if op.regions and op in skip and op is not root:
            isolated[op] = True
        elif op.regions:
            frame = _Frame(op, True if has_trait(op) else None)
            stack.append(frame)
            work.append(frame)
            for region in reversed(op.regions):
                if region.parent is not op:
                    raise EncodeError(f"a region of op '{op.name}' records another op as its parent")
                for block in reversed(region.blocks):
                    if block.parent is not region:
                        raise EncodeError(f"a block in a region of op '{op.name}' records another "
                                          "region as its parent")
                    for nested in reversed(block.operations):
                        if nested.parent is not block:
                            raise EncodeError(f"op '{nested.name}' is listed in a block but records "
                                              "another block as its parent")
                        work.append(nested)
    return result


def _check_structure(op: Operation) -> None:
    """The parts of an op hold the kinds of objects the IR model allows (clear errors for edited IR)."""
    if not isinstance(op, Operation):
        raise EncodeError(f"a block holds {type(op).__name__} where an operation is expected")
    name = op.op_name
    if not isinstance(name, OpName):
        raise EncodeError(f"an op has a name of type {type(name).__name__}, not OpName")
    for i, res in enumerate(op.results):
        if not isinstance(res, OpResult) or res.owner is not op:
            raise EncodeError(f"result #{i} of op '{name.full}' is not a result of that op")
    for i, v in enumerate(op.operands):
        if not isinstance(v, Value):
            raise EncodeError(f"operand #{i} of op '{name.full}' is a {type(v).__name__}, not a value")
    for i, b in enumerate(op.successors):
        if not isinstance(b, Block):
            raise EncodeError(f"successor #{i} of op '{name.full}' is a {type(b).__name__}, not a block")
    for i, r in enumerate(op.regions):
        if not isinstance(r, Region):
            raise EncodeError(f"region #{i} of op '{name.full}' is a {type(r).__name__}, not a region")
        for b in r.blocks:
            if not isinstance(b, Block):
                raise EncodeError(f"region #{i} of op '{name.full}' holds a {type(b).__name__}, "
                                  "not a block")
            for j, arg in enumerate(b.arguments):
                if not isinstance(arg, BlockArgument) or arg.owner is not b:
                    raise EncodeError(f"block argument #{j} in a region of op '{name.full}' is not "
                                      "an argument of that block")
    if op.properties is not None and not isinstance(op.properties, Properties):
        raise EncodeError(f"op '{name.full}' has properties of type {type(op.properties).__name__}")


def _check_visible(op: Operation, value: Value, region: Region | None,
                   has_trait: Callable[[Operation], bool]) -> None:
    """The value's region must enclose `op` without an IsolatedFromAbove op in between."""
    what = _describe(value)
    if region is None:
        raise EncodeError(f"op '{op.name}' uses {what}, which is not defined in any region of the module")
    isolated_owner: Operation | None = None  # the innermost IsolatedFromAbove op crossed so far
    block = op.parent
    while block is not None:
        r = block.parent
        if r is None:
            break
        if r is region:
            if isolated_owner is not None:
                raise EncodeError(f"op '{op.name}' uses {what} from outside the IsolatedFromAbove op "
                                  f"'{isolated_owner.name}' that contains it")
            return
        owner = r.parent
        if owner is None:
            break
        if isolated_owner is None and has_trait(owner):
            isolated_owner = owner
        block = owner.parent
    raise EncodeError(f"op '{op.name}' uses {what}, which is defined in a region that does not "
                      "enclose the op")


def _describe(value: Value) -> str:
    if isinstance(value, OpResult):
        return f"result #{value.index} of '{value.owner.name}'"
    if isinstance(value, BlockArgument):
        return f"block argument #{value.index}"
    return "a value"
