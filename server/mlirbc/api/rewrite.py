"""Pattern rewriting as MLIR's and xDSL's users know it: `RewritePattern.match_and_rewrite(op, rewriter)`,
a `PatternRewriter` (`replace_op`, `erase_op`, `insert_op_before/after`, `replace_all_uses_with`) and
`apply_patterns_greedily(module, patterns)`.

The driver offers the ops under the root (not the root itself) to the patterns whose `root` names them
(or that name no root), highest `benefit` first; the first pattern that rewrites wins.  A pass takes
the ops last to first (users before definers), and offers again, in the same pass, the ops a rewrite
through the rewriter concerns; erased ops are skipped.  Passes repeat until one changes nothing (a fixed
point: the function returns True) or `max_iterations` passes ran (it returns False); each pass offers at
most a bounded number of ops.  So the driver always terminates, even with patterns that undo each
other.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..ir.operation import Operation as IROp
from ..ir.operation import OpResult as IROpResult
from ..ir.operation import Value as IRValue
from . import _state as S
from .errors import IRError
from .insertion import InsertionPoint
from .module import Module
from .operations import Operation, Value, erase, ir_op, ir_value, op_face, place, replace_uses, walk_ir


class RewritePattern:
    """A rewrite: override `match_and_rewrite(op, rewriter)`, which returns True when it rewrote (or
    None and uses the rewriter, which then knows).  `root`: the op name it applies to (None: every op),
    as a class attribute or given to `__init__`; `benefit`: higher ones are tried first."""

    root: str | None = None
    benefit: int = 1

    def __init__(self, root: str | None = None, benefit: int | None = None) -> None:
        if root is not None:
            self.root = root
        if benefit is not None:
            self.benefit = benefit

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool | None:
        raise NotImplementedError(f"{type(self).__name__} must define match_and_rewrite(op, rewriter)")


class PatternRewriter:
    """What a pattern changes the IR with: every change through it is seen by the driver (the pattern
    counts as having rewritten, and the ops the change concerns are offered to the patterns again).
    `ip` (default: before the matched op) is where new ops go."""

    def __init__(self, current_operation: Operation) -> None:
        self.current_operation = current_operation
        self.has_done_action = False
        self._ip: InsertionPoint | None = None
        self._changed: list[IROp] = []
        """Ops the driver offers to the patterns again (new, modified, or newly without users)."""

    @property
    def ip(self) -> InsertionPoint | None:
        if self._ip is None and self.current_operation.attached:
            self._ip = InsertionPoint(self.current_operation)
        return self._ip

    @ip.setter
    def ip(self, point: InsertionPoint | None) -> None:
        self._ip = point

    def _done(self, *ops: IROp) -> None:
        self.has_done_action = True
        self._changed.extend(ops)

    def _definers(self, o: IROp) -> list[IROp]:
        """The ops defining `o`'s operands (they may have lost their last use)."""
        return [v.owner for v in o.operands if isinstance(v, IROpResult)]

    def _users(self, values: Iterable[IRValue]) -> list[IROp]:
        return [u for v in values for u in S.uses_of(v)]

    # -- inserting ---------------------------------------------------------------------------------
    def insert_op(self, ops: Operation | Sequence[Operation], ip: InsertionPoint | None = None) -> None:
        """Insert `ops` (in order) at `ip` (default: the rewriter's insertion point)."""
        point = ip if ip is not None else self.ip
        if point is None:
            raise IRError("the rewriter has no insertion point (its op is not in a block)")
        for op in _ops(ops):
            point.insert(op)
            self._done(op._o)

    def insert_op_before(self, ops: Operation | Sequence[Operation], target: Operation | None = None) -> None:
        """Insert `ops` (in order) right before `target` (default: the matched op)."""
        ref = target if target is not None else self.current_operation
        for op in _ops(ops):
            op.move_before(ref)
            self._done(op._o)

    def insert_op_after(self, ops: Operation | Sequence[Operation], target: Operation | None = None) -> None:
        """Insert `ops` (in order) right after `target` (default: the matched op)."""
        ref = target if target is not None else self.current_operation
        for op in _ops(ops):
            op.move_after(ref)
            ref = op
            self._done(op._o)

    # -- replacing and erasing ----------------------------------------------------------------------
    def replace_all_uses_with(self, from_: Value, to: Value) -> None:
        old = ir_value(from_)
        users = list(S.uses_of(old))
        replace_uses(old, ir_value(to), None)
        self._done(*users)

    def replace_op(self, op: Operation, new: Operation | Sequence[Operation] | Sequence[Value],
                   new_results: Sequence[Value | None] | None = None) -> None:
        """Replace `op` by new ops or by values: new ops not yet in a block are inserted before `op`;
        each result of `op` is replaced by the matching one of `new_results` (default: the results of
        the last new op, or the values given); then `op` is erased."""
        target = ir_op(op)
        items = [new] if isinstance(new, Operation) else list(new)
        new_ops = [x for x in items if isinstance(x, Operation)]
        if new_ops and len(new_ops) != len(items):
            raise IRError("replace_op takes new ops or values, not both")
        values: list[IRValue | None]
        if new_results is not None:
            values = [ir_value(v) if v is not None else None for v in new_results]
        elif new_ops:
            values = list(new_ops[-1]._o.results)
        else:
            values = [ir_value(v) for v in items]
        if len(values) != len(target.results):
            raise IRError(f"replace_op: '{target.name}' has {len(target.results)} results, "
                          f"{len(values)} replacements given")
        for x in new_ops:
            if not x.attached:
                x.move_before(op)
        users = self._users(target.results)
        for res, v in zip(target.results, values, strict=True):
            if v is not None:
                replace_uses(res, v, None)
        definers = self._definers(target)
        erase(target)
        self._done(*(x._o for x in new_ops), *users, *definers)

    def replace_matched_op(self, new: Operation | Sequence[Operation] | Sequence[Value],
                           new_results: Sequence[Value | None] | None = None) -> None:
        self.replace_op(self.current_operation, new, new_results)

    def erase_op(self, op: Operation) -> None:
        """Erase `op` (IRError while its results are used)."""
        o = ir_op(op)
        definers = self._definers(o)
        erase(o)
        self._done(*definers)

    def erase_matched_op(self) -> None:
        self.erase_op(self.current_operation)

    def notify_op_modified(self, op: Operation) -> None:
        """Tell the driver an op was changed in place (attributes, operands)."""
        self._done(ir_op(op))

    modify_op = notify_op_modified

    def move_op_before(self, op: Operation, target: Operation) -> None:
        ref = ir_op(target)
        if ref.parent is None:
            raise IRError(f"cannot move before '{ref.name}': it is not in a block")
        place(ir_op(op), ref.parent, ref)
        self._done(ir_op(op))


def _ops(ops: Operation | Sequence[Operation]) -> list[Operation]:
    return [ops] if isinstance(ops, Operation) else list(ops)


def apply_patterns_greedily(target: Module | Operation, patterns: RewritePattern | Iterable[RewritePattern],
                            *, max_iterations: int = 10) -> bool:
    """Apply `patterns` to the ops under `target` (a module, or an op: the ops in its regions) until none
    applies (returns True) or `max_iterations` passes ran (returns False).

    A pass offers every op to the patterns, the last op first (users before the ops defining their
    operands, so a chain of dead ops goes in one pass); the ops a rewrite through the rewriter concerns
    (new ones, modified ones, the users of replaced values, the definers of erased ops' operands) are
    offered again in the same pass, up to a bound proportional to the ops there are, so that a pass
    always ends."""
    root = target._state.module.root if isinstance(target, Module) else ir_op(target)
    if root is None:
        return True
    pats = [patterns] if isinstance(patterns, RewritePattern) else list(patterns)
    for p in pats:
        if not isinstance(p, RewritePattern):
            raise TypeError(f"patterns must be RewritePatterns, not {type(p).__name__}")
    ordered = sorted(pats, key=lambda p: -p.benefit)
    by_name: dict[str, list[RewritePattern]] = {}
    keep: Any = S.state_of(root)

    def candidates(name: str) -> list[RewritePattern]:
        found = by_name.get(name)
        if found is None:
            found = by_name[name] = [p for p in ordered if p.root is None or p.root == name]
        return found

    for _ in range(max(1, max_iterations)):
        changed = False
        work: list[IROp] = list(walk_ir(root))[1:]
        queued = {id(o) for o in work}
        budget = 4 * len(work) + 1000
        while work and budget > 0:
            budget -= 1
            o = work.pop()
            queued.discard(id(o))
            if o.parent is None:
                continue  # erased (or taken out) by an earlier rewrite
            pats_here = candidates(o.op_name.full)
            if not pats_here:
                continue
            face = op_face(o, keep)
            for pat in pats_here:
                rewriter = PatternRewriter(face)
                result = pat.match_and_rewrite(face, rewriter)
                if result is True or (result is None and rewriter.has_done_action):
                    changed = True
                    for x in rewriter._changed:
                        if id(x) not in queued and x.parent is not None and x is not root and \
                                S.within(x, root):
                            queued.add(id(x))
                            work.append(x)
                    break
                if o.parent is None:
                    break
        if not changed:
            return True
    return False


__all__ = ["RewritePattern", "PatternRewriter", "apply_patterns_greedily"]
