"""A module's verification kept per top-level op, so that an edit re-verifies only what it touches.

`ModuleVerification.of(root, registry)` verifies a whole module; `replaced(new_root, old_op, new_op)` is the
verification of the same module with one top-level op replaced (what the view's in-place re-read makes):
the new op is verified, the root's own checks run again (they are few: its symbol table's names), and of
the symbol uses only those that may resolve differently are checked again: the new op's own, and every use
naming a symbol the old or the new op defines.  Everything else is shared with the state it came from.

`changed_faults(root, registry, changed, names, op_names)` is the same reasoning without a verification to
start from (a program's save: the module as read was not verified, and need not be): the changed top-level
ops are verified in full, the root's own checks run, and the symbol uses elsewhere that name one of the
changed definitions are found by a scan of the other ops that stops at nothing but the ops of a kind that
uses symbols (and does not enter nested symbol tables, whose uses resolve inside them).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from ..ir.attributes import Attribute, FlatSymbolRefAttr, SymbolRefAttr
from ..ir.operation import PROPS_DECODED, Operation, OpName
from ..models.registry import Registry
from .core import SYMBOLS, Finding, OpVerifier
from .engine import User, Verifier
from .symbols import symbol_name


@dataclass
class _Top:
    op: Operation
    findings: list[Finding]
    users: list[User]
    defines: str | None
    refs: list[frozenset[str] | None]
    """What each user names (`_refs`), in the order of `users`."""


def _refs(op: Operation) -> frozenset[str] | None:
    """The root names of the symbol references among an op's attributes (None: it names none we can see,
    so any change may concern it)."""
    values: list[Attribute] = []
    if op.properties is not None and op.properties.kind == PROPS_DECODED:
        values.extend(op.properties.values.values())
    if op.attributes is not None:
        values.extend(v for _, v in op.attributes.entries)
    names = {v.root.text for v in values if isinstance(v, FlatSymbolRefAttr | SymbolRefAttr)}
    return frozenset(names) if names else None


def _may_name(op: Operation, names: set[str]) -> bool:
    """Whether a symbol reference among the op's attributes names one of `names`, or it has none we can
    see (`_refs` without building the set: a save asks it of every symbol user it did not touch)."""
    seen = False
    p = op.properties
    if p is not None and p.kind == PROPS_DECODED:
        for v in p.values.values():
            if isinstance(v, FlatSymbolRefAttr | SymbolRefAttr):
                if v.root.text in names:
                    return True
                seen = True
    if op.attributes is not None:
        for _, v in op.attributes.entries:
            if isinstance(v, FlatSymbolRefAttr | SymbolRefAttr):
                if v.root.text in names:
                    return True
                seen = True
    return not seen


class ModuleVerification:
    """The faults of one module: the root's own, each top-level op's, and each symbol use's."""

    def __init__(self, verifier: Verifier, root: Operation, tops: list[_Top], head: list[Finding],
                 tail: list[Finding], uses: dict[int, tuple[Operation, Finding | None]]) -> None:
        self.verifier = verifier
        self.root = root
        self.tops = tops
        self.head = head
        """The root's entrance findings."""
        self.tail = tail
        """The root's exit findings (its symbol table's names)."""
        self.uses = uses
        """id(user) -> (user, its finding) for the symbol users whose table is the root."""

    @classmethod
    def of(cls, root: Operation, registry: Registry, verifier: Verifier | None = None) -> ModuleVerification:
        v = verifier if verifier is not None else Verifier(registry)
        head = v.enter_root(root)
        tops = [cls._top(v, op, root) for op in _top_level(root)]
        tail = v.leave_root(root)
        uses: dict[int, tuple[Operation, Finding | None]] = {}
        if v.is_symbol_table(root):
            for top in tops:
                for user, check, chain in top.users:
                    uses[id(user)] = (user, v.check_user(user, check, chain))
        return cls(v, root, tops, head, tail, uses)

    @staticmethod
    def _top(v: Verifier, op: Operation, root: Operation) -> _Top:
        findings, users = v.walk(op, root, [root])
        return _Top(op, findings, users, symbol_name(op), [_refs(u) for u, _, _ in users])

    def replaced(self, new_root: Operation, old_op: Operation, new_op: Operation) -> ModuleVerification:
        """The verification of `new_root`, which holds the same top-level ops as this one's root except
        `old_op`, replaced by `new_op`."""
        v = self.verifier
        fresh = self._top(v, new_op, new_root)
        tops: list[_Top] = []
        old: _Top | None = None
        for t in self.tops:
            if t.op is old_op:
                old = t
                tops.append(fresh)
            else:
                tops.append(t)
        if old is None:
            return ModuleVerification.of(new_root, v.registry, v)
        head = v.enter_root(new_root)
        tail = v.leave_root(new_root)
        uses: dict[int, tuple[Operation, Finding | None]] = {}
        if v.is_symbol_table(new_root):
            changed = {n for n in (old.defines, fresh.defines) if n is not None}
            gone = {id(u) for u, _, _ in old.users}
            for t in tops:
                for (user, check, chain), refs in zip(t.users, t.refs, strict=True):
                    key = id(user)
                    previous = self.uses.get(key)
                    if t is not fresh and previous is not None and previous[0] is user and key not in gone:
                        if refs is not None and not (refs & changed):
                            uses[key] = previous
                            continue
                    # a top-level op's users were recorded under the root of their day: the table now is
                    # the new root
                    moved = (new_root, *chain[1:]) if chain else chain
                    uses[key] = (user, v.check_user(user, check, moved))
        return ModuleVerification(v, new_root, tops, head, tail, uses)

    def findings(self) -> list[Finding]:
        """Every fault, the root's first, then each top-level op's (its own, then its symbol uses')."""
        out = list(self.head)
        for t in self.tops:
            out.extend(t.findings)
            for user, _, _ in t.users:
                hit = self.uses.get(id(user))
                if hit is not None and hit[0] is user and hit[1] is not None:
                    out.append(hit[1])
        out.extend(self.tail)
        return out


def changed_faults(root: Operation, registry: Registry, changed: Collection[Operation],
                   names: Collection[str], op_names: Iterable[OpName]) -> list[Finding]:
    """The faults a change of the module under `root` can have made, when its other top-level ops are as
    they were (and so were their faults): those of the `changed` top-level ops (verified in full, their
    symbol uses included), the root's own (its symbol table's names), and those of the symbol uses in the
    other top-level ops that may resolve differently: the uses naming one of `names` (the symbols whose
    definitions changed: renamed, added, removed or edited), and the uses whose names cannot be seen.  The
    unchanged ops' uses are found among the ops whose name is one of `op_names` (the op names of the
    file they were read from).  The root's findings first, then each changed top-level op's, the other
    symbol uses', the root's symbol table's."""
    v = Verifier(registry)
    changed = set(changed)
    out = v.enter_root(root)
    walked = [v.walk(op, root, [root]) for op in _top_level(root) if op in changed]
    tail = v.leave_root(root)
    table = v.is_symbol_table(root)
    for findings, users in walked:
        out.extend(findings)
        if table:
            out.extend(v.check_users(users))
    if table and names:
        wanted = set(names)
        for user, chain, checks in _users_elsewhere(v, root, changed, op_names):
            if _may_name(user, wanted):
                for check in checks:
                    found = v.check_user(user, check, chain)
                    if found is not None:
                        out.append(found)
    out.extend(tail)
    return out


def _users_elsewhere(v: Verifier, root: Operation, changed: Collection[Operation], op_names: Iterable[OpName]
                     ) -> list[tuple[Operation, tuple[Operation, ...], list[OpVerifier]]]:
    """The symbol users under `root` outside the `changed` top-level ops whose table is the root: each
    with the ops enclosing it (outermost first) and its symbol-use checks."""
    checks: dict[int, tuple[OpName, list[OpVerifier]]] = {}
    for name in op_names:
        if name.registered:
            kind = v.kind(name.full)
            found = kind.checks.get(SYMBOLS) if kind.checked else None
            if found:
                checks[id(name)] = (name, found)
    if not checks:
        return []
    tables: dict[int, bool] = {}
    hits: list[tuple[Operation, tuple[Operation, ...]]] = []
    top: tuple[Operation, ...] = (root,)
    pending = [([op for op in _top_level(root) if op not in changed], top)]
    # (the hot loop of a save after an edit: one pass over every op the program did not touch)
    while pending:
        ops, chain = pending.pop()
        for op in ops:
            if op.regions:
                key = id(op.op_name)
                nested_table = tables.get(key)
                if nested_table is None:
                    nested_table = tables[key] = v.is_symbol_table(op)
                if not nested_table:  # the uses inside a nested table resolve in it
                    inner = (*chain, op)
                    pending.extend((b.operations, inner) for r in op.regions for b in r.blocks)
                if key in checks:
                    hits.append((op, chain))
            elif id(op.op_name) in checks:
                hits.append((op, chain))
    out = []
    for op, chain in hits:
        name, found = checks[id(op.op_name)]
        if name is op.op_name:
            out.append((op, chain, found))
    return out


def _top_level(root: Operation) -> list[Operation]:
    return [op for region in root.regions for block in region.blocks for op in block.operations]
