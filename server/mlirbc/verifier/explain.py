"""What the verifier checks, and does not, for each op kind of a module (`mlirbc check --explain`).

Per op kind: how many ops, whether a model knows it, and which of its definition's parts are checked
(counts, attributes, operand and result types, regions, traits, hand-written verifiers) and which are not
(constraints with parts this verifier cannot judge, traits and C++ verifiers without a Python counterpart).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..ir.operation import Operation
from ..models.constraints import Constraint, OpConstraints
from ..models.registry import Registry
from .core import OpVerifier
from .engine import Verifier
from .traits import MODELLED


@dataclass
class KindReport:
    name: str
    count: int
    status: str
    """`verified`, `partly verified`, `not verified` (with why in `unchecked`), or `unregistered`."""
    checked: list[str] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)

    def line(self) -> str:
        text = f"{self.name} ({self.count} op{'s' if self.count != 1 else ''}): {self.status}"
        if self.checked:
            text += "; checks " + ", ".join(self.checked)
        if self.unchecked:
            text += "; does not check " + ", ".join(self.unchecked)
        return text


def _unknown_parts(pred: Any, out: list[str]) -> None:
    head = pred[0]
    if head == "?":
        out.append(str(pred[1]))
    elif head in ("and", "or"):
        for p in pred[1:]:
            _unknown_parts(p, out)
    elif head == "not":
        _unknown_parts(pred[1], out)
    elif head == "all":
        _unknown_parts(pred[2], out)


def _partial(c: Constraint | None) -> list[str]:
    out: list[str] = []
    if c is not None:
        _unknown_parts(c.pred, out)
    return out


def describe(c: OpConstraints, checks: dict[str, list[OpVerifier]], handled: set[str]) -> tuple[list[str],
                                                                                                  list[str]]:
    """(what is checked, what is not) for one op kind."""
    checked = ["operand/result/region/successor counts"]
    unchecked: list[str] = []
    if c.attrs:
        checked.append("attributes (" + ", ".join(a.name for a in c.attrs) + ")")
        for a in c.attrs:
            unchecked += [f"attribute '{a.name}': {p}" for p in _partial(a.constraint)]
    for kind, groups in (("operand", c.operands), ("result", c.results)):
        typed = [g for g in groups if g.constraint is not None]
        if typed:
            checked.append(f"{kind} types ({', '.join(g.name for g in typed)})")
        for g in typed:
            unchecked += [f"{kind} '{g.name}': {p}" for p in _partial(g.constraint)]
    if any(r.blocks is not None for r in c.regions):
        checked.append("region block counts")
    for t in c.traits:
        if t[0] == "unchecked" and t[2] in handled:
            continue
        if t[0] == "unchecked":
            unchecked.append(f"trait {t[2]}")
        elif t[0] in MODELLED and t[0] not in ("ConstantLike", "ReturnLike", "Scalarizable", "Vectorizable",
                                               "Tensorizable", "AffineScope", "IsolatedFromAbove"):
            checked.append(f"trait {t[0]}" + (f" ({t[2]})" if t[0] in ("AllMatch", "TypesMatchWith") else ""))
    for phase in checks.values():
        for v in phase:
            checked.append(v.label or "hand-written verifier")
    for name in c.cpp:
        if name not in handled:
            unchecked.append(f"C++ {name}" + ("()" if name in ("verify", "verifyRegions") else ""))
    return checked, unchecked


def explain(root: Operation, registry: Registry) -> list[KindReport]:
    """One report per op kind of the module under `root`, by name."""
    v = Verifier(registry)
    counts: Counter[str] = Counter()
    registered: dict[str, bool] = {}
    for op in root.walk():
        counts[op.name] += 1
        registered[op.name] = registered.get(op.name, False) or op.op_name.registered
    out: list[KindReport] = []
    handled = set(v.handled_cpp())
    for name in sorted(counts):
        if not registered[name]:
            out.append(KindReport(name, counts[name], "unregistered (not verified: nothing defines it)"))
            continue
        kind = v.kind(name)
        if not kind.modelled:
            out.append(KindReport(name, counts[name], "not verified", unchecked=["no model knows this op"]))
            continue
        if kind.off:
            out.append(KindReport(name, counts[name], "not verified",
                                  unchecked=[f"switched off: {kind.off}"]))
            continue
        if kind.constraints is None:
            checks = [c.label or "hand-written verifier" for phase in kind.checks.values() for c in phase]
            status = "partly verified" if checks else "not verified"
            out.append(KindReport(name, counts[name], status, checks,
                                  ["its model has no constraint data"]))
            continue
        own_handled = handled | ({"verify"} if kind.checks.get("verify") else set()) | (
            {"verifyRegions"} if kind.checks.get("regions") else set())
        checked, unchecked = describe(kind.constraints, kind.checks, own_handled)
        out.append(KindReport(name, counts[name], "partly verified" if unchecked else "verified", checked,
                              unchecked))
    return out
