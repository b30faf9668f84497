"""The use-list orders StableHLO's serializer leaves behind when it downgrades ops.

MLIR keeps each value's uses in a list, newest first; a file stores the order of a value whose list is not
the one reading the file rebuilds (the uses in reverse program order).  Converting a whole module to VHLO
recreates every use in program order, which gives exactly that order; the downgrade to a target
(`VhloToVersion`) replaces only some ops, in program order: each new op's uses go to the front of its
operands' lists, and when the replacements are committed each old op's results' uses move, one by one from
the front, to the front of its replacement's results (reversing them) before the old op is erased.  This
module replays that on the final IR and sets `Value.use_order` where the result is not the natural order.
(Before the replacements are committed, the new ops use the old values: every use of a replaced op's
result is moved, the new ops' too.)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from ...ir.operation import Operation, Value

Token = tuple[int, Operation, int]
"""A use: (0 = the op before its downgrade / 1 = the new op, the op, operand index)."""
OLD, NEW = 0, 1


def replay_downgrades(root: Operation, downgraded: Iterable[Operation], moved: Iterable[Value] = (),
                      keep: Collection[Value] = ()) -> None:
    """Set the use-list orders left by downgrading `downgraded` (final ops, in program order); `moved` are
    values whose uses were all moved once before (the casts of a mixed serialization: the conversion
    makes each as a placeholder that it replaces by the cast when it finishes); `keep` are values whose
    order is already known (a file's own)."""
    replaced = list(downgraded)
    reversed_once = list(moved)
    if not replaced and not reversed_once:
        return
    is_replaced = set(map(id, replaced))
    program: dict[Value, list[Token]] = {}
    for op in root.walk():
        tag = OLD if id(op) in is_replaced else NEW
        for i, v in enumerate(op.operands):
            program.setdefault(v, []).append((tag, op, i))
    lists: dict[Value, list[Token]] = {}

    def uses(v: Value) -> list[Token]:
        hit = lists.get(v)
        if hit is None:
            hit = lists[v] = program.get(v, [])[::-1]
        return hit

    for v in reversed_once:
        uses(v).reverse()
    # Each new op is made on the values its old op used (the replacements are not mapped in yet)...
    for op in replaced:
        for i, v in enumerate(op.operands):
            uses(v).insert(0, (NEW, op, i))
    # ...and the replacements are committed in order: every use of an old result moves, one by one from
    # the front, to the front of the new result's (empty) list, then the old op and its uses go.
    for op in replaced:
        for r in op.results:
            uses(r).reverse()
        for i, v in enumerate(op.operands):
            uses(v).remove((OLD, op, i))
    for v, final_uses in lists.items():
        if v in keep:
            continue
        order = program.get(v, [])
        if len(order) < 2:
            continue
        ids = {(op, i): n for n, (_, op, i) in enumerate(order)}
        final = [ids[(op, i)] for _, op, i in final_uses]
        if final == sorted(final, reverse=True):
            v.use_order = None
            continue
        position = {u: p for p, u in enumerate(final)}
        v.use_order = (False, tuple(position[len(order) - 1 - k] for k in range(len(order))))
