"""`InsertionPoint`: where `Operation.create` (and `clone`) put new ops, as in MLIR's bindings.

`InsertionPoint(block)` inserts at the end of the block, `InsertionPoint(op)` before the op; both are
context managers (`with InsertionPoint(module.body): Operation.create(...)`), the innermost being
`InsertionPoint.current`.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

from .context import _pop, _push, _top
from .errors import IRError
from .operations import Block, Operation, block_face, ir_op, op_face, place


class InsertionPoint:
    """A place in a block: before an op (`ref_operation`), or at the end (`ref_operation` None)."""

    __slots__ = ("block", "_ref")

    def __init__(self, block_or_op: Block | Operation) -> None:
        if isinstance(block_or_op, Block):
            self.block: Block = block_or_op
            self._ref: Operation | None = None
            return
        o = ir_op(block_or_op, "insertion point")
        if o.parent is None:
            raise IRError(f"cannot insert before '{o.name}': it is not in a block")
        self.block = block_face(o.parent)
        self._ref = op_face(o)

    @staticmethod
    def at_block_begin(block: Block) -> InsertionPoint:
        ops = block._o.operations
        return InsertionPoint(op_face(ops[0])) if ops else InsertionPoint(block)

    @staticmethod
    def at_block_terminator(block: Block) -> InsertionPoint:
        """Before the block's last op (its terminator); ValueError for an empty block."""
        ops = block._o.operations
        if not ops:
            raise ValueError("the block has no terminator")
        return InsertionPoint(op_face(ops[-1]))

    @staticmethod
    def after(operation: Operation) -> InsertionPoint:
        o = ir_op(operation)
        b = o.parent
        if b is None:
            raise IRError(f"cannot insert after '{o.name}': it is not in a block")
        i = b.operations.index(o) + 1
        return InsertionPoint(op_face(b.operations[i])) if i < len(b.operations) else \
            InsertionPoint(block_face(b))

    @property
    def ref_operation(self) -> Operation | None:
        return self._ref

    def insert(self, operation: Operation) -> None:
        """Put `operation` here (moving it from where it was)."""
        place(ir_op(operation), self.block._o, self._ref._o if self._ref is not None else None)

    def __enter__(self) -> InsertionPoint:
        _push("insertion point", self)
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        _pop("insertion point", self)

    def __repr__(self) -> str:
        where = f"before '{self._ref.name}'" if self._ref is not None else "at the end"
        return f"<mlirbc.InsertionPoint {where} of a block>"


class _Current:
    def __get__(self, obj: object, owner: type | None = None) -> InsertionPoint:
        found = _top("insertion point")
        if not isinstance(found, InsertionPoint):
            raise ValueError("no current InsertionPoint: enter one with `with InsertionPoint(...)`")
        return found


InsertionPoint.current = _Current()  # type: ignore[attr-defined]


def resolve(ip: Any) -> InsertionPoint | None:
    """The insertion point an `ip=` argument means: given, False (none) or None (the current one)."""
    if ip is False:
        return None
    if ip is None:
        found = _top("insertion point")
        return found if isinstance(found, InsertionPoint) else None
    if isinstance(ip, InsertionPoint):
        return ip
    raise TypeError(f"ip must be an InsertionPoint, False or None, not {type(ip).__name__}")


__all__ = ["InsertionPoint"]
