"""The VHLO op version table: every version of every op, with the range of targets it exists in, its
StableHLO name and its attributes (generated from StableHLO's VhloOps.td, `models/data/stablehlo/`).

`vhlo.exponential_v1` (0.9.0-1.9.x) and `vhlo.exponential_v2` (1.10.0-current) are two versions of the op
family `exponential`, shown as `stablehlo.exponential`; `func_v1`, `call_v1` and `return_v1` are
`func.func`, `func.call` and `func.return` (`return_v1` in a region of another op is `stablehlo.return`).
"""

from __future__ import annotations

from functools import cached_property
from typing import NamedTuple

from .ops import VhloOps
from .versions import KNOWN_VERSION, Version, parse_version


def _split(full: str) -> tuple[str, int] | None:
    """`vhlo.exponential_v2` -> (`exponential`, 2) (string operations: the table is built at the view's
    first open, a regular expression compiled then costs more than its 145 matches)."""
    if not full.startswith("vhlo."):
        return None
    base, sep, number = full[5:].rpartition("_v")
    if not sep or not base or not number.isdigit() or not number.isascii():
        return None
    return base, int(number)


_UNSEEN = object()


class OpVersion(NamedTuple):
    """One VHLO op version."""

    name: str
    """`vhlo.exponential_v2`."""
    base: str
    """`exponential`."""
    number: int
    since: Version
    until: Version | None
    """The last version it exists in (None: still current)."""
    view_name: str
    """Its StableHLO (or func) name."""
    attributes: tuple[str, ...]
    """Its inherent attributes (ODS arguments)."""

    def exists_at(self, target: Version) -> bool:
        return self.since <= target and (self.until is None or target <= self.until)


class OpTable:
    """Every VHLO op version of the model's data (see module docstring)."""

    def __init__(self, ops: VhloOps) -> None:
        self.ops = ops
        self._one: dict[str, OpVersion | None] = {}
        self._families: dict[str, list[OpVersion]] = {}
        """Op versions looked up one by one: a view's first open converts a few ops of the 145."""

    def _version_of(self, full: str) -> OpVersion | None:
        m = _split(full)
        data = self.ops.dataset.op_data(full) if m is not None else None
        if m is None or data is None or "min_version" not in data:
            return None
        top = data.get("max_version", "current")
        attrs = tuple(a if isinstance(a, str) else str(a.get("name")) for a in data.get("attributes", []))
        base, number = m
        return OpVersion(full, base, number, parse_version(data["min_version"]),
                         None if top == "current" else parse_version(top),
                         str(data.get("stablehlo") or f"stablehlo.{base}"), attrs)

    @cached_property
    def _names(self) -> list[str]:
        return self.ops.op_names()

    @cached_property
    def _family_names(self) -> dict[str, list[str]]:
        """family -> the names of its versions (from the names alone: no op's data read)."""
        out: dict[str, list[str]] = {}
        for full in self._names:
            m = _split(full)
            if m is not None:
                out.setdefault(m[0], []).append(full)
        return out

    def _family(self, base: str) -> list[OpVersion]:
        found = self._families.get(base)
        if found is None:
            found = [v for v in map(self.get, self._family_names.get(base, ())) if v is not None]
            found.sort(key=lambda v: v.number)
            self._families[base] = found
        return found

    @cached_property
    def _by_view(self) -> dict[str, str]:
        out = {self.current(base).view_name: base for base in self._family_names if self._family(base)}
        out["stablehlo.return"] = "return"
        return out

    def get(self, name: str) -> OpVersion | None:
        found = self._one.get(name, _UNSEEN)
        if found is _UNSEEN:
            found = self._one[name] = self._version_of(name)
        return found  # type: ignore[return-value]

    def family(self, base: str) -> list[OpVersion]:
        return self._family(base)

    def current(self, base: str) -> OpVersion:
        """The newest version of a family (the one the view converts to and from)."""
        return self._family(base)[-1]

    def base_of_view(self, view_name: str) -> str | None:
        """The op family a StableHLO (or func) op name stands for, None when VHLO has none."""
        return self._by_view.get(view_name)

    def view_names(self) -> list[str]:
        """The StableHLO and func op names the view can hold."""
        return sorted(self._by_view)

    def at(self, base: str, target: Version) -> OpVersion | None:
        """The version of a family that exists at `target` (None: none does)."""
        for v in self._family(base):
            if v.exists_at(target):
                return v
        return None

    def newest_at(self, base: str, version: Version) -> OpVersion | None:
        """The newest version of a family that StableHLO `version` knows (its current one)."""
        out = None
        for v in self._family(base):
            if v.since <= version:
                out = v
        return out

    @staticmethod
    def known(target: Version) -> bool:
        return target <= KNOWN_VERSION
