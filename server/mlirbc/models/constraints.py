"""What an op must be, per ODS: the generated constraint data of a model set, read lazily per dialect.

A dataset's folder (`models/data/`, `data_mlir24/`, a plugin's `data/`) holds `constraints/<dialect>.json.gz`
beside its op data (written by `server/tools/gen_constraints.py`, format in `models.ods_constraints`).  A
dialect's file is read the first time one of its ops is verified; opening and decoding files never reads
it.  An op model made from ODS data carries a way to its constraints (`LayoutOpModel.op_constraints`), so
an op replaced by a plugin or by `--ods-json` is verified by what its own source says.
"""

from __future__ import annotations

import gzip
import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SUBDIR = "constraints"


@dataclass(frozen=True)
class Constraint:
    """An ODS constraint: the summary MLIR's messages quote, and its predicate (`models.ods_constraints`)."""

    summary: str
    pred: Any


@dataclass(frozen=True)
class ValueGroup:
    """One ODS operand or result declaration."""

    name: str
    quantifier: str
    """`1` (exactly one value), `?` (optional), `*` (variadic), `**` (variadic of variadic)."""
    constraint: Constraint | None
    segment_attr: str = ""
    """For `**`: the attribute holding the sizes of the inner groups."""

    @property
    def variadic(self) -> bool:
        return self.quantifier != "1"


@dataclass(frozen=True)
class AttrSpec:
    name: str
    presence: str
    """`req` (required), `opt` (optional) or `def` (default-valued: absent means the default)."""
    constraint: Constraint | None


@dataclass(frozen=True)
class RegionSpec:
    name: str
    variadic: bool
    blocks: tuple[str, str, int] | None
    """(summary, `eq`/`ge`/`le`, count) of a block-count constraint (`SizedRegion<1>`), None when any."""


@dataclass(frozen=True)
class OpConstraints:
    """Everything ODS says about one op that `verifier` checks, in the order upstream checks it."""

    name: str
    operands: tuple[ValueGroup, ...]
    results: tuple[ValueGroup, ...]
    attrs: tuple[AttrSpec, ...]
    props: tuple[str, ...]
    regions: tuple[RegionSpec, ...]
    successors: tuple[tuple[str, bool], ...]
    traits: tuple[tuple[Any, ...], ...]
    """(name, structural, *args) in declaration order; `unchecked` entries name what is not modelled."""
    cpp: tuple[str, ...]
    """C++ verifiers this data cannot express (`verify`, `verifyRegions`, interfaces with a verifier)."""
    origin: str = ""

    def has_trait(self, name: str) -> bool:
        return any(t[0] == name for t in self.traits)


def op_constraints_from_data(full_name: str, data: dict[str, Any], table: list[list[Any]],
                             origin: str = "") -> OpConstraints:
    """One op's constraints from its generated data and its dialect's table."""
    made: dict[int, Constraint] = {}

    def con(i: int | None) -> Constraint | None:
        if i is None:
            return None
        hit = made.get(i)
        if hit is None:
            summary, pred = table[i]
            hit = made[i] = Constraint(str(summary), pred)
        return hit

    def groups(key: str) -> tuple[ValueGroup, ...]:
        return tuple(ValueGroup(str(e[0]), str(e[1]), con(e[2]), str(e[3]) if len(e) > 3 else "")
                     for e in data.get(key, []))

    return OpConstraints(
        full_name,
        operands=groups("operands"),
        results=groups("results"),
        attrs=tuple(AttrSpec(str(e[0]), str(e[1]), con(e[2])) for e in data.get("attrs", [])),
        props=tuple(str(p) for p in data.get("props", [])),
        regions=tuple(RegionSpec(str(e[0]), bool(e[1]), (str(e[2][0]), str(e[2][1]),
                                                         int(e[2][2])) if e[2] else None)
                      for e in data.get("regions", [])),
        successors=tuple((str(e[0]), bool(e[1])) for e in data.get("successors", [])),
        traits=tuple(tuple(t) for t in data.get("traits", [])),
        cpp=tuple(str(c) for c in data.get("cpp", [])),
        origin=origin,
    )


class ConstraintFiles:
    """The constraint data of one dataset folder; each dialect's file is read once, on first use."""

    def __init__(self, data_dir: Path, origin: str = "") -> None:
        self.folder = data_dir / SUBDIR
        self.origin = origin
        self._dialects: dict[str, dict[str, Any] | None] = {}
        self._ops: dict[str, OpConstraints | None] = {}
        self._lock = threading.Lock()
        self.files_read: list[str] = []

    def _dialect(self, dialect: str) -> dict[str, Any] | None:
        if dialect not in self._dialects:
            path = self.folder / f"{dialect}.json.gz"
            data: dict[str, Any] | None = None
            if path.is_file():
                with gzip.open(path, "rt", encoding="utf-8") as f:
                    data = json.load(f)
                self.files_read.append(dialect)
            self._dialects[dialect] = data
        return self._dialects[dialect]

    def get(self, full_name: str) -> OpConstraints | None:
        """The constraints of one op (None: this dataset has none for it)."""
        with self._lock:
            if full_name in self._ops:
                return self._ops[full_name]
            dialect, _, name = full_name.partition(".")
            data = self._dialect(dialect)
            found = None
            if data is not None and name in data["ops"]:
                found = op_constraints_from_data(full_name, data["ops"][name], data["table"],
                                                 self.origin or str(self.folder))
            self._ops[full_name] = found
            return found
