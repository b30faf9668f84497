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

from ..ir.operation import PROPS_DECODED, Block, Operation, OpName, OpResult
from ..ir.structured import StructuredType
from ..ir.types import Type
from ..models.constraints import OpConstraints
from ..models.registry import Registry
from .core import ERROR, INFORMATION, REGIONS, SYMBOLS, VERIFY, Finding, OpContext, OpVerifier
from .dialects import builtin_verifiers, dialect_verifiers, interface_verifiers
from .ods import check_counts, check_invariants, check_segments
from .predicates import CompiledPredicates
from .symbols import SymbolTables, table_problems
from .traits import check_implicit_terminator, check_trait

SWITCHED_OFF = Path(__file__).with_name("switched_off.json")

User = tuple[Operation, "OpVerifier", tuple[Operation, ...]]
"""A symbol user awaiting its check: the op, its symbol-use verifier, its ancestors (outermost first)."""


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
    legal: tuple[str, OpConstraints] | None = None
    """The op this one is legalized to and its constraints (a VHLO op's StableHLO op), checked too."""
    modelled: bool = False
    """Whether a model knows the op (a registered op without one is not judged at all)."""

    @property
    def checked(self) -> bool:
        return self.modelled and (self.constraints is not None or bool(self.checks))

    def trait(self, name: str) -> bool:
        return self.constraints is not None and self.constraints.has_trait(name)


def _legalized_of(model: object) -> tuple[str, OpConstraints] | None:
    seen = 0
    while model is not None and seen < 8:
        get = getattr(model, "legalized", None)
        if callable(get):
            try:
                found = get()
            except Exception:  # a plugin's model that cannot say: nothing more to check
                return None
            if isinstance(found, tuple) and len(found) == 2 and isinstance(found[1], OpConstraints):
                return str(found[0]), found[1]
            return None
        model = getattr(model, "inner", None)
        seen += 1
    return None


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
        self.registry = registry
        self.preds = CompiledPredicates()
        self._kinds: dict[str, OpKind] = {}
        self._builtin = builtin_verifiers()
        self._interfaces = interface_verifiers()
        self._dialects = dialect_verifiers()
        self._off = switched_off(registry.model_set)
        self._failed: dict[int, Operation] = {}
        self._errors = 0
        """Errors recorded so far (an op whose regions hold one skips its own region checks, as upstream
        stops at the first failure)."""
        """Ops whose own checks failed (kept by identity: ids of dead ops may be reused)."""
        self.symbols = SymbolTables(self.is_symbol_table)
        self.noted_off: set[str] = set()
        self._twins: dict[Type, Type] = {}
        self._by_op_name: dict[int, tuple[OpName, OpKind]] = {}
        self._ods_memo: dict[tuple[object, ...], tuple[str, tuple[str, int | str] | None, str] | None] = {}

    # -- per op kind -------------------------------------------------------------------------------------
    def kind(self, name: str) -> OpKind:
        hit = self._kinds.get(name)
        if hit is not None:
            return hit
        lookup = self.registry.op(name)
        constraints = _constraints_of(lookup.model) if lookup.model is not None else None
        kind = OpKind(name, constraints, modelled=lookup.model is not None, off=self._off.get(name, ""),
                      legal=_legalized_of(lookup.model) if lookup.model is not None else None)
        checks: dict[str, list[OpVerifier]] = {}
        if constraints is not None:
            # interfaces with a verifier, and the traits ODS cannot express (a dialect's C++ trait)
            unchecked = (t[2] for t in constraints.traits if t[0] == "unchecked" and len(t) > 2)
            for iface in (*constraints.cpp, *unchecked):
                found = self._interfaces.get(iface)
                if found is not None:
                    checks.setdefault(found.phase, []).append(found)
        whole = self._dialects.get(name.split(".", 1)[0]) if kind.modelled else None
        if whole is not None:
            checks.setdefault(whole.phase, []).append(whole)
        for phase, found_list in self.own_verifiers(name).items():
            checks.setdefault(phase, []).extend(found_list)
        kind.checks = checks
        self._kinds[name] = kind
        return kind

    def canon(self, t: Type) -> Type:
        """A type as a legalized op sees it: a dialect type whose kind has a builtin twin (a VHLO
        tensor's is a builtin tensor) is that twin; any other type is itself."""
        if not isinstance(t, StructuredType):
            return t
        hit = self._twins.get(t)
        if hit is None:
            twin = getattr(t.kind, "builtin_twin", None)
            found = twin(t) if callable(twin) else None
            hit = found if isinstance(found, Type) else t
            self._twins[t] = hit
        return hit

    def own_verifiers(self, name: str) -> dict[str, list[OpVerifier]]:
        """Phase -> the hand-written verifiers of an op name: a plugin's registration, else the built-in."""
        reg = self.registry.verifier_registration(name)
        own: object = reg.model if reg is not None else self._builtin.get(name)
        out: dict[str, list[OpVerifier]] = {}
        for item in own if isinstance(own, list | tuple) else [own]:
            if isinstance(item, OpVerifier):
                out.setdefault(item.phase, []).append(item)
            elif callable(item):  # a plugin's plain function: the op's own verify()
                out.setdefault(VERIFY, []).append(OpVerifier(item))
        return out

    def handled_cpp(self) -> list[str]:
        """The C++ interface verifiers with a Python counterpart here."""
        return list(self._interfaces)

    def constraints_of(self, op: Operation) -> OpConstraints | None:
        return self.kind(op.name).constraints if op.op_name.registered else None

    def is_symbol_table(self, op: Operation) -> bool:
        return op.op_name.registered and self.kind(op.name).trait("SymbolTable")

    def failed(self, op: Operation) -> bool:
        return self._failed.get(id(op)) is op

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
        """Every fault found in `root` and everything nested in it, in walk (text) order.  `parent` and
        `ancestors` (outermost first) say where `root` stands when it is not the module's root; symbol
        users whose table lies outside `root` are not checked here (see `walk`)."""
        return self.walk(root, parent, ancestors)[0]

    def walk(self, root: Operation, parent: Operation | None = None,
             ancestors: list[Operation] | None = None) -> tuple[list[Finding], list[User]]:
        """The faults of `root`'s subtree, and the symbol users in it whose nearest symbol table encloses
        `root` (their checks need the whole table: `check_users`)."""
        out: list[Finding] = []
        chain: list[Operation] = list(ancestors or ([] if parent is None else [parent]))
        users: list[list[User]] = [[]]
        # events: (leaving?, op, parent, block, errors before its regions)
        stack: list[tuple[bool, Operation, Operation | None, Block | None, int]] = [
            (False, root, parent, None, 0)]
        while stack:
            leaving, op, par, block, before = stack.pop()
            if leaving:
                chain.pop()
                self._leave(op, out, users, inner_failed=self._errors > before)
                continue
            self._enter(op, par, block, chain, out, users)
            if not op.regions:
                continue
            chain.append(op)
            stack.append((True, op, par, block, self._errors))
            if self.is_symbol_table(op):
                users.append([])
            for region in reversed(op.regions):
                for b in reversed(region.blocks):
                    self._block_entrance(op, b, region.blocks, out)
                    for child in reversed(b.operations):
                        stack.append((False, child, op, b, 0))
        return out, users[0]

    def enter_root(self, root: Operation) -> list[Finding]:
        """The root op's own entrance checks and its blocks' (the top-level ops are walked apart)."""
        out: list[Finding] = []
        self._enter(root, None, None, [], out, [[]])
        for region in root.regions:
            for b in region.blocks:
                self._block_entrance(root, b, region.blocks, out)
        return out

    def leave_root(self, root: Operation) -> list[Finding]:
        """The root op's exit checks (terminators, region traits, its symbol table's names), without
        the symbol users inside it (`check_users`)."""
        out: list[Finding] = []
        self._leave(root, out, [[], []] if self.is_symbol_table(root) else [[]])
        return out

    def check_users(self, users: list[User]) -> list[Finding]:
        """The symbol-use checks of `users` (their table complete)."""
        out: list[Finding] = []
        for user, v, chain in users:
            found = self.check_user(user, v, chain)
            if found is not None:
                out.append(found)
        return out

    def check_user(self, user: Operation, v: OpVerifier, chain: tuple[Operation, ...]) -> Finding | None:
        ukind = self.kind(user.name)
        uctx = OpContext(user, chain[-1] if chain else None, None, self, ukind.constraints, chain)
        try:
            found = v.check(uctx)
        except Exception:  # a verifier's bug must never break the view: not checked
            found = None
        if found is None:
            return None
        self._failed[id(user)] = user
        return self._shaped(found, ukind)

    def _record(self, finding: Finding, out: list[Finding], kind: OpKind | None) -> None:
        shaped = self._shaped(finding, kind)
        if shaped is not None:
            out.append(shaped)
            if shaped.severity == ERROR:
                self._errors += 1

    def _shaped(self, finding: Finding, kind: OpKind | None) -> Finding | None:
        """The finding as reported: an op kind switched off turns it into an Information note (once per
        kind and walk)."""
        if kind is None or not kind.off:
            return finding
        if kind.name in self.noted_off:
            return None
        self.noted_off.add(kind.name)
        return Finding(finding.op, f"'{kind.name}' is not verified: {kind.off} (it would say: "
                                   f"{finding.message})", severity=INFORMATION, part=finding.part,
                       check="switched-off")

    def _enter(self, op: Operation, parent: Operation | None, block: Block | None, chain: list[Operation],
               out: list[Finding], users: list[list[User]]
               ) -> None:
        op_name = op.op_name
        if not op_name.registered:
            return
        # op names are shared objects (one per name in a module): looked up by identity, no string built
        named = self._by_op_name.get(id(op_name))
        if named is None or named[0] is not op_name:
            named = (op_name, self.kind(op_name.full))
            self._by_op_name[id(op_name)] = named
        kind = named[1]
        if not kind.checked:
            return
        ctx = OpContext(op, parent, block, self, kind.constraints, chain, name=kind.name)
        found = self._entrance(ctx, kind)
        if found is not None:
            self._failed[id(op)] = op
            self._record(found, out, kind)
            return
        for v in kind.checks.get(SYMBOLS, ()):
            users[-1].append((op, v, tuple(chain)))
        if op.successors and block is not None and block.operations and block.operations[-1] is not op:
            self._record(Finding(op, "operation with block successors must terminate its parent block",
                                 check="structure"), out, kind)

    def _entrance(self, ctx: OpContext, kind: OpKind) -> Finding | None:
        found = self._entrance_checks(ctx, kind)
        if found is not None and self._uses_failed_value(ctx.op):
            # a value it uses comes from an op that failed (its type, most likely): said there, not again
            self._failed[id(ctx.op)] = ctx.op
            return None
        return found

    def _uses_failed_value(self, op: Operation) -> bool:
        if not self._failed:
            return False
        return any(isinstance(v, OpResult) and self.failed(v.owner) for v in op.operands)

    def _entrance_checks(self, ctx: OpContext, kind: OpKind) -> Finding | None:
        c = kind.constraints
        if c is not None:
            found = self._ods(ctx, kind, c)
            if found is not None:
                return found
        for v in kind.checks.get(VERIFY, ()):
            try:
                found = v.check(ctx)
            except Exception:  # a verifier's bug (or a plugin's) must never break the view: not checked
                found = None
            if found is not None:
                return found
        if kind.legal is not None:
            return self._legalized(ctx, *kind.legal)
        return None

    def _ods(self, ctx: OpContext, kind: OpKind, c: OpConstraints) -> Finding | None:
        """What ODS says of the op, remembered per signature: ops without regions or successors whose
        name, types, properties, attributes, parent and place at the block's end are the same get the same
        answer (a large module holds many such; types and attributes are uniqued)."""
        op = ctx.op
        key: tuple[object, ...] | None = None
        if not op.regions and not op.successors:
            block = ctx.block
            props = op.properties
            # decoded properties by content (their values are uniqued): a re-read op's fresh record is the
            # same key; other forms by identity, held in the key so that it stays theirs
            pkey: object = None if props is None else tuple(props.values.items()) \
                if props.kind == PROPS_DECODED else props
            key = (kind.name, tuple(v.type for v in op.operands), tuple(r.type for r in op.results),
                   pkey, op.attributes, ctx.parent.name if ctx.parent is not None else None,
                   block is not None and bool(block.operations) and block.operations[-1] is op)
            try:
                answer = self._ods_memo[key]
            except KeyError:
                pass
            except TypeError:  # an unhashable value somewhere: no memo for this op
                key = None
            else:
                return None if answer is None else Finding(op, answer[0], part=answer[1], check=answer[2])
        found = self._ods_checks(ctx, c)
        if key is not None and len(self._ods_memo) < 100_000:
            self._ods_memo[key] = None if found is None else (found.message, found.part, found.check)
        return found

    def _ods_checks(self, ctx: OpContext, c: OpConstraints) -> Finding | None:
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
        return None

    def _legalized(self, ctx: OpContext, name: str, c: OpConstraints) -> Finding | None:
        """The checks of the op it becomes when its dialect is legalized (a VHLO op as StableHLO op), on
        the builtin twins of its types; its attributes are the dialect's own (checked above), and its
        parent is not legalized here (no parent-op traits)."""
        lctx = OpContext(ctx.op, ctx.parent, ctx.block, self, c, ctx.ancestors, name=name, legalized=True)
        found = check_counts(lctx, c)
        if found is not None:
            return found
        for t in c.traits:
            if t[1] and t[0] not in ("HasParent", "SingleBlockImplicitTerminator"):
                found = check_trait(lctx, c, t)
                if found is not None:
                    return found
        found = check_invariants(lctx, c, attributes=False)
        if found is not None:
            return found
        for t in c.traits:
            if not t[1]:
                found = check_trait(lctx, c, t)
                if found is not None:
                    return found
        for v in self.own_verifiers(name).get(VERIFY, ()):
            try:
                found = v.check(lctx)
            except Exception:  # a verifier's bug must never break the view: not checked
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

    def _leave(self, op: Operation, out: list[Finding], users: list[list[User]],
               inner_failed: bool = False) -> None:
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
                # upstream stops here: the op's own region checks would only say it again
                self._failed[id(op)] = op
        table = self.is_symbol_table(op)
        pending = users.pop() if table else []
        if not op.op_name.registered or self.failed(op):
            return
        kind = self.kind(op.name)
        if not kind.checked:
            return
        ctx = OpContext(op, None, None, self, kind.constraints)
        c = kind.constraints
        if c is not None and not inner_failed:
            for t in c.traits:
                if t[0] == "SingleBlockImplicitTerminator" and t[2]:
                    found = check_implicit_terminator(ctx, str(t[2]), c.has_trait("NoTerminator"))
                    if found is not None:
                        self._failed[id(op)] = op
                        self._record(found, out, kind)
                        return
        if table:
            problems = list(table_problems(op, self.symbols))
            for p in problems:
                self._record(p, out, self.kind(p.op.name) if p.op.op_name.registered else kind)
            out.extend(self.check_users(pending))
        if inner_failed:
            return
        for v in kind.checks.get(REGIONS, ()):
            try:
                found = v.check(ctx)
            except Exception:
                found = None
            if found is not None:
                self._failed[id(op)] = op
                self._record(found, out, kind)
                return


def verify_module_root(root: Operation, registry: Registry) -> list[Finding]:
    """Every fault of the IR under `root` (a module's root op), in text order."""
    return Verifier(registry).verify(root)


__all__ = ["ERROR", "INFORMATION", "Verifier", "verify_module_root"]
