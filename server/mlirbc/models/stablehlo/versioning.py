"""VHLO op versions: the upgrade of an op to the newest version this model knows and its downgrade to a
target's version, by the steps of `rules.STEPS`; and what a target cannot hold.

A downgrade that would lose a feature (a non-default attribute of the newer version, several operands of a
once single-operand op, regions) is refused with a `TargetError` naming the op, the feature and the oldest
target that has it; so is an op, attribute or type that does not exist at the target, or an op version
constraint (`rules.CONSTRAINTS`).  Targets with a non-zero patch use the `X.Y.0` op set, as StableHLO does.
"""

from __future__ import annotations

from ...ir.attributes import Attribute
from ...ir.types import Type
from ..api import ModelError
from .ops import _children, _since
from .optable import OpTable, OpVersion
from .rules import CONSTRAINTS, STEPS_BY_BASE, Step
from .versions import KNOWN_VERSION, Version, version_text


class TargetError(Exception):
    """An op the target cannot hold: `op` (its StableHLO name), `feature`, `since` (the oldest target that
    has the feature; None when no known target has it)."""

    def __init__(self, op: str, feature: str, target: Version, since: Version | None) -> None:
        self.op = op
        self.feature = feature
        self.target = target
        self.since = since
        oldest = f" (the oldest target that has it is {version_text(since)})" if since is not None else ""
        super().__init__(f"{op}: {feature} is not in StableHLO {version_text(target)}{oldest}")


def opset(target: Version) -> Version:
    """The op set a target uses: its minor release's (`1.13.7` uses 1.13.0's)."""
    return (target[0], target[1], 0)


class OpState:
    """A VHLO op being moved between versions: its name and inherent attributes, and what the version
    rules look at (operand and result types, region count)."""

    __slots__ = ("name", "attrs", "operands", "results", "regions", "notes")

    def __init__(self, name: str, attrs: dict[str, Attribute], operands: list[Type], results: list[Type],
                 regions: int = 0, notes: list[str] | None = None) -> None:
        self.name = name
        self.attrs = attrs
        self.operands = operands
        self.results = results
        self.regions = regions
        self.notes: list[str] = [] if notes is None else notes


def _step(base: str, old: int) -> Step | None:
    for s in STEPS_BY_BASE.get(base, ()):
        if s.old == old:
            return s
    return None


def upgrade(state: OpState, version: OpVersion, table: OpTable) -> OpVersion:
    """Bring `state` (an op of `version`) to the newest version of its family; returns that version."""
    current = table.current(version.base)
    while version.number < current.number:
        step = _step(version.base, version.number)
        nxt = table.get(f"vhlo.{version.base}_v{version.number + 1}")
        if nxt is None:
            raise TargetError(version.view_name, f"an upgrade of {version.name}", KNOWN_VERSION, None)
        if step is not None:
            for name, (make, _) in step.added.items():
                state.attrs.setdefault(name, make())
            for name in step.dropped:
                state.attrs.pop(name, None)
        state.name = nxt.name
        version = nxt
    return version


def downgrade(state: OpState, version: OpVersion, table: OpTable, target: Version) -> OpVersion:
    """Bring `state` (an op of `version`, the newest) down to the version that exists at `target`;
    raises `TargetError` when that loses something (see module docstring)."""
    t = opset(target)
    family = table.family(version.base)
    if target > KNOWN_VERSION:
        raise TargetError(version.view_name, "any op", target, None)
    if not any(v.exists_at(t) for v in family):
        raise TargetError(version.view_name, "the op", target, family[0].since if family else None)
    while not version.exists_at(t):
        older = table.get(f"vhlo.{version.base}_v{version.number - 1}")
        if older is None:
            raise TargetError(version.view_name, "the op", target, version.since)
        step = _step(version.base, older.number)
        if step is not None:
            _check_down(state, step, version, target)
            for name in step.added:
                state.attrs.pop(name, None)
            for name, make in step.dropped.items():
                state.attrs[name] = make(state.operands)
        state.name = older.name
        version = older
    return version


def _check_down(state: OpState, step: Step, newer: OpVersion, target: Version) -> None:
    for name, (_, is_default) in step.added.items():
        value = state.attrs.get(name)
        if value is not None and not is_default(value):
            raise TargetError(newer.view_name, f"{step.feature} ({_view_text(name, value)})", target,
                              newer.since)
    if step.variadic and (len(state.operands) != 1 or len(state.results) != 1):
        raise TargetError(newer.view_name, f"{step.feature} ({len(state.operands)} operands)", target,
                          newer.since)
    if step.regions and state.regions:
        raise TargetError(newer.view_name, step.feature, target, newer.since)


def check_target(state: OpState, version: OpVersion, target: Version,
                 discardable: dict[str, Attribute]) -> None:
    """Refuse what `target` cannot hold in an op of `version`: a constraint of the version, or an attribute
    or type newer than the target."""
    t = opset(target)
    for c in CONSTRAINTS:
        if version.name in c.ops and t < c.since and c.applies(state.attrs, state.operands, state.results):
            raise TargetError(version.view_name, c.feature, target, c.since)
    seen: set[int] = set()
    stack: list[object] = [*state.attrs.values(), *discardable.values(), *state.operands, *state.results]
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        since = _since(x)
        if since is not None and t < since[0]:
            raise TargetError(version.view_name, _spelled(x, since[1]), target, since[0])
        stack.extend(_children(x))


def _spelled(value: object, vhlo: str) -> str:
    """A VHLO attribute or type as the StableHLO view shows it, with its VHLO name."""
    from ...syntax.attr_printer import print_type
    from .shlo_types import Unconvertible, to_view_type

    if isinstance(value, Type):
        try:
            return f"the type {print_type(to_view_type(value))} ({vhlo})"
        except (Unconvertible, ValueError):
            return f"the type {vhlo}"
    return f"the attribute {vhlo}"


def _view_text(name: str, value: Attribute) -> str:
    """`name = value` as the StableHLO view spells the value (shortened)."""
    from ...syntax.attr_printer import print_attribute
    from .legalize import view_attr

    try:
        text = print_attribute(view_attr(value))
    except (ModelError, ValueError):
        text = print_attribute(value)
    text = f"{name} = {text}"
    return text if len(text) <= 120 else text[:119] + "…"
