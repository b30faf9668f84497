"""The walk that verifies a module, op by op in upstream's order, and what it needs per op kind.

For each registered op with a model, on entering it: ODS's count traits, the structural traits, the
invariants (attributes, operand and result types, region constraints), the other traits, the interfaces'
and the op's own hand-written verifiers; then the block rules of its regions (a block ends with a
terminator unless its op may go without one); on leaving it (its regions verified): the region traits
(implicit terminators, symbol tables and the symbol uses inside them) and the hand-written region
verifiers.  An op reports at most one fault of its own checks (the first, as upstream); checks that
compare an op with its parent stay silent when the parent failed.

Unregistered ops and ops without a model are not checked: upstream knows nothing of the first, and of the
second this verifier knows nothing.  An op kind whose checks disagree with the oracle on valid input is
switched off (`switched_off.json`): its faults become an Information note saying so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..ir.operation import Block, Operation
from ..models.constraints import OpConstraints
from ..models.registry import Registry
from .core import ERROR, INFORMATION, REGIONS, SYMBOLS, VERIFY, Finding, OpContext, OpVerifier
from .ods import check_counts, check_invariants, check_segments
from .predicates import CompiledPredicates
from .symbols import SymbolTables, table_problems
from .traits import check_implicit_terminator, check_trait

SWITCHED_OFF = Path(__file__).with_name("switched_off.json")


def _load_switched_off() -> dict[str, dict[str, str]]:
    try:
        with open(SWITCHED_OFF, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


_SWITCHED_OFF: dict[str, dict[str, str]] | None = None


def switched_off(model_set: str | None) -> dict[str, str]:
    """Op name -> why its checks are off (for the registry's model set, and for every set)."""
    global _SWITCHED_OFF
    if _SWITCHED_OFF is None:
        _SWITCHED_OFF = _load_switched_off()
    out = dict(_SWITCHED_OFF.get("*", {}))
    if model_set is not None:
        out.update(_SWITCHED_OFF.get(model_set, {}))
    return out


@dataclass
class OpKind:
    """What the verifier knows about one op name (looked up once per verification)."""

    name: str
    constraints: OpConstraints | None
    checks: dict[str, list[OpVerifier]] = field(default_factory=dict)
    """Phase -> hand-written verifiers (interfaces' first, then the op's own)."""
    off: str = ""
    """Why this op kind's checks are switched off ("" when they are on)."""
    modelled: bool = False
    """Whether a model knows the op (a registered op without one is not judged at all)."""

    @property
    def checked(self) -> bool:
        return self.modelled and (self.constraints is not None or bool(self.checks))

    def trait(self, name: str) -> bool:
        return self.constraints is not None and self.constraints.has_trait(name)


def _constraints_of(model: object) -> OpConstraints | None:
    seen = 0
    while model is not None and seen < 8:
        get = getattr(model, "op_constraints", None)
        if callable(get):
            try:
                found = get()
            except Exception:  # a plugin's model that cannot say: nothing to check
                return None
            return found if isinstance(found, OpConstraints) else None
        model = getattr(model, "inner", None)
        seen += 1
    return None


class Verifier:
    """Verifies modules against one registry (its model set); reusable, caches per op name."""

    def __init__(self, registry: Registry) -> None:
        from .dialects import builtin_verifiers, interface_verifiers

        self.registry = registry
        self.preds = CompiledPredicates()
        self._kinds: dict[str, OpKind] = {}
        self._builtin = builtin_verifiers()
        self._interfaces = interface_verifiers()
        self._off = switched_off(registry.model_set)
        self._failed: set[int] = set()
        self.symbols = SymbolTables(self.is_symbol_table)
        self.noted_off: set[str] = set()

    # -- per op kind -------------------------------------------------------------------------------------
    def kind(self, name: str) -> OpKind:
        hit = self._kinds.get(name)
        if hit is not None:
            return hit
        lookup = self.registry.op(name)
        constraints = _constraints_of(lookup.model) if lookup.model is not None else None
        kind = OpKind(name, constraints, modelled=lookup.model is not None, off=self._off.get(name, ""))
        checks: dict[str, list[OpVerifier]] = {}
        if constraints is not None:
            for iface in constraints.cpp:
                v = self._interfaces.get(iface)
                if v is not None:
                    checks.setdefault(v.phase, []).append(v)
        reg = self.registry.verifier_registration(name)
        own: object = reg.model if reg is not None else self._builtin.get(name)
        if isinstance(own, OpVerifier):
            checks.setdefault(own.phase, []).append(own)
        elif callable(own):  # a plugin's plain function: the op's own verify()
            checks.setdefault(VERIFY, []).append(OpVerifier(own))
        kind.checks = checks
        self._kinds[name] = kind
        return kind

    def constraints_of(self, op: Operation) -> OpConstraints | None:
        return self.kind(op.name).constraints if op.op_name.registered else None

    def is_symbol_table(self, op: Operation) -> bool:
        return op.op_name.registered and self.kind(op.name).trait("SymbolTable")

    def failed(self, op: Operation) -> bool:
        return id(op) in self._failed

    def _might_be_terminator(self, op: Operation) -> bool:
        if not op.op_name.registered:
            return True
        kind = self.kind(op.name)
        return kind.constraints is None or kind.trait("IsTerminator") or bool(kind.off)

    def _might_have_no_terminator(self, op: Operation) -> bool:
        if not op.op_name.registered:
            return True
        kind = self.kind(op.name)
        return kind.constraints is None or kind.trait("NoTerminator") or bool(kind.off)

    # -- the walk ----------------------------------------------------------------------------------------
    def verify(self, root: Operation, parent: Operation | None = None,
               ancestors: list[Operation] | None = None) -> list[Finding]:
        """Every fault found in `root` and everything nested in it, in text order.  `parent` and
        `ancestors` (outermost first) say where `root` stands when it is not the module's root."""
        out: list[Finding] = []
        chain: list[Operation] = list(ancestors or ([] if parent is None else [parent]))
        users: list[list[tuple[Operation, OpVerifier, tuple[Operation, ...]]]] = [[]]
        # events: (op, parent, block) to enter, or (op, None, None) with exit=True
        stack: list[tuple[bool, Operation, Operation | None, Block | None]] = [(False, root, parent, None)]
        while stack:
            leaving, op, par, block = stack.pop()
            if leaving:
                chain.pop()
                self._leave(op, out, users)
                continue
            self._enter(op, par, block, chain, out, users)
            if not op.regions:
                continue
            chain.append(op)
            stack.append((True, op, par, block))
            if self.is_symbol_table(op):
                users.append([])
            for region in reversed(op.regions):
                for b in reversed(region.blocks):
                    self._block_entrance(op, b, region.blocks, out)
                    for child in reversed(b.operations):
                        stack.append((False, child, op, b))
        if root.regions == [] and self.is_symbol_table(root):
            pass
        out.sort(key=_order_key(root))
        return out

    def _record(self, finding: Finding, out: list[Finding], kind: OpKind | None) -> None:
        if kind is not None and kind.off:
            if kind.name in self.noted_off:
                return
            self.noted_off.add(kind.name)
            finding = Finding(finding.op, f"'{kind.name}' is not verified: {kind.off} (it would say: "
                                          f"{finding.message})", severity=INFORMATION, part=finding.part,
                              check="switched-off")
        out.append(finding)

    def _enter(self, op: Operation, parent: Operation | None, block: Block | None, chain: list[Operation],
               out: list[Finding], users: list[list[tuple[Operation, OpVerifier, tuple[Operation, ...]]]]
               ) -> None:
        if not op.op_name.registered:
            return
        kind = self.kind(op.name)
        if not kind.checked:
            return
        ctx = OpContext(op, parent, block, self, kind.constraints, chain)
        found = self._entrance(ctx, kind)
        if found is not None:
            self._failed.add(id(op))
            self._record(found, out, kind)
            return
        for v in kind.checks.get(SYMBOLS, ()):
            users[-1].append((op, v, tuple(chain)))
        if op.successors and block is not None and block.operations and block.operations[-1] is not op:
            self._record(Finding(op, "operation with block successors must terminate its parent block",
                                 check="structure"), out, kind)

    def _entrance(self, ctx: OpContext, kind: OpKind) -> Finding | None:
        c = kind.constraints
        if c is not None:
            found = check_counts(ctx, c)
            if found is not None:
                return found
            for t in c.traits:
                if not t[1]:
                    continue
                if t[0] == "AttrSizedOperandSegments":
                    found = check_segments(ctx, c, "operand")
                elif t[0] == "AttrSizedResultSegments":
                    found = check_segments(ctx, c, "result")
                else:
                    found = check_trait(ctx, c, t)
                if found is not None:
                    return found
            found = check_invariants(ctx, c)
            if found is not None:
                return found
            for t in c.traits:
                if t[1]:
                    continue
                found = check_trait(ctx, c, t)
                if found is not None:
                    return found
        for v in kind.checks.get(VERIFY, ()):
            try:
                found = v.check(ctx)
            except Exception:  # a verifier's bug (or a plugin's) must never break the view: not checked
                found = None
            if found is not None:
                return found
        return None

    def _block_entrance(self, op: Operation, block: Block, blocks: list[Block], out: list[Finding]) -> None:
        if block.operations or (len(blocks) == 1 and self._might_have_no_terminator(op)):
            return
        if not op.op_name.registered or not self.kind(op.name).checked:
            return
        self._record(Finding(op, "empty block: expect at least a terminator", check="structure"), out,
                     self.kind(op.name))

    def _leave(self, op: Operation, out: list[Finding],
               users: list[list[tuple[Operation, OpVerifier, tuple[Operation, ...]]]]) -> None:
        for region in op.regions:
            single = len(region.blocks) == 1
            for block in region.blocks:
                if not block.operations or (single and self._might_have_no_terminator(op)):
                    continue
                last = block.operations[-1]
                if self._might_be_terminator(last):
                    continue
                self._record(Finding(last, f"block with no terminator, has '{last.name}'", check="structure"),
                             out, self.kind(last.name))
        table = self.is_symbol_table(op)
        pending = users.pop() if table else []
        if not op.op_name.registered or self.failed(op):
            return
        kind = self.kind(op.name)
        if not kind.checked:
            return
        ctx = OpContext(op, None, None, self, kind.constraints)
        c = kind.constraints
        if c is not None:
            for t in c.traits:
                if t[0] == "SingleBlockImplicitTerminator" and t[2]:
                    found = check_implicit_terminator(ctx, str(t[2]), c.has_trait("NoTerminator"))
                    if found is not None:
                        self._failed.add(id(op))
                        self._record(found, out, kind)
                        return
        if table:
            problems = list(table_problems(op, self.symbols))
            for p in problems:
                self._record(p, out, self.kind(p.op.name) if p.op.op_name.registered else kind)
            for user, v, chain in pending:
                ukind = self.kind(user.name)
                uctx = OpContext(user, chain[-1] if chain else None, None, self, ukind.constraints, chain)
                try:
                    found = v.check(uctx)
                except Exception:
                    found = None
                if found is not None:
                    self._failed.add(id(user))
                    self._record(found, out, ukind)
        for v in kind.checks.get(REGIONS, ()):
            try:
                found = v.check(ctx)
            except Exception:
                found = None
            if found is not None:
                self._failed.add(id(op))
                self._record(found, out, kind)
                return


def _order_key(root: Operation) -> Any:
    """Findings in text order: by the pre-order position of their op in `root`."""
    position: dict[int, int] = {}

    def key(f: Finding) -> int:
        if not position:
            for i, op in enumerate(root.walk()):
                position[id(op)] = i
        return position.get(id(f.op), -1)
    return key


def verify_module_root(root: Operation, registry: Registry) -> list[Finding]:
    """Every fault of the IR under `root` (a module's root op), in text order."""
    return Verifier(registry).verify(root)


__all__ = ["ERROR", "INFORMATION", "Verifier", "verify_module_root"]
