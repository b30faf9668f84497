"""Model sets: which models decode a file, chosen from its producer string and dialect versions.

* `mlir21`: MLIR 22 plus the layouts MLIR 21.1.2 had otherwise (`models/data_mlir21/`, from MLIR 21's own
  `.td` files: `gen_older_models.py`), for files of MLIR 21 and older;
* `mlir22`: the upstream MLIR 22.1.8 models (`models/data/`), registered for every set;
* `mlir23`: MLIR 22 plus the layouts that changed by MLIR 23 (`models/data_mlir23/`, from jaxlib 0.10.2's op
  bindings: the writer of `MLIR23.0.0git` files), for the upstream dialects jaxlib ships;
* `mlir24`: MLIR 22 plus the layouts that changed by MLIR 24 (`models/data_mlir24/`, an overlay registered
  for this set only), as IREE 3.13's compiler (producer `MLIR24.0.0git`) writes them.

Dialects only one producer has (IREE's, StableHLO's) are registered for every set: their names are unique.

A producer `MLIR<N>...` names its MLIR major version: the set of that version, else the nearest older set
(and the choice says so); older than every set gets the oldest.  Other producer strings (a tool's own
name, `--emit-bytecode-producer`) name no version: a builtin dialect version (which MLIR 22 never writes)
means a newer MLIR, else the base set (MLIR 22's) is used; either way the choice says so.  A user can force a
set.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

MLIR21 = "mlir21"
MLIR22 = "mlir22"
MLIR23 = "mlir23"
MLIR24 = "mlir24"

SETS: dict[str, int] = {MLIR21: 21, MLIR22: 22, MLIR23: 23, MLIR24: 24}
"""Set name -> the MLIR major version whose writer it models."""
PRODUCERS: dict[str, str] = {MLIR21: "MLIR21.1.2", MLIR22: "MLIR22.1.8", MLIR23: "MLIR23.0.0git",
                             MLIR24: "MLIR24.0.0git"}
"""Set name -> the producer string of the writer it models (a new file written with a forced set and no
producer of its own gets it: its bytes are that writer's, and a reader chooses the set by it)."""

_MLIR = re.compile(r"MLIR(\d+)")


@dataclass(frozen=True)
class SetChoice:
    name: str
    note: str
    """Why: `producer MLIR24.0.0git`, `nearest older set for MLIR 25 (...)`, `forced (--models mlir24)`."""

    def __str__(self) -> str:
        return f"{self.name} ({self.note})"


def _for_version(major: int, producer: str) -> SetChoice:
    known = sorted(SETS.items(), key=lambda kv: kv[1])
    older = [name for name, v in known if v <= major]
    if not older:
        return SetChoice(known[0][0], f"producer {producer} is older than every model set; "
                                      f"using the oldest")
    name = older[-1]
    if SETS[name] == major:
        return SetChoice(name, f"producer {producer}")
    return SetChoice(name, f"producer {producer}: no model set for MLIR {major}, using the nearest older")


def choose_set(producer: str, dialect_versions: Mapping[str, bytes | None] | None = None,
               forced: str | None = None) -> SetChoice:
    """The model set for a file with this producer and these dialect version payloads."""
    if forced is not None:
        if forced not in SETS:
            raise ValueError(f"unknown model set '{forced}' (known: {', '.join(SETS)})")
        return SetChoice(forced, "forced")
    m = _MLIR.match(producer)
    if m is not None:
        return _for_version(int(m.group(1)), producer)
    versions = dialect_versions or {}
    newest = max(SETS, key=lambda n: SETS[n])
    if versions.get("builtin") is not None:
        return SetChoice(newest, f"producer '{producer}' names no MLIR version; the file has a builtin "
                                 f"dialect version (MLIR 22 writes none): using the newest")
    return SetChoice(MLIR22, f"producer '{producer}' names no MLIR version; using the base set (MLIR 22)")


def parse_set_name(name: str) -> str:
    """A `--models` value, checked; raises ValueError naming the known sets."""
    s = name.strip().lower()
    if s not in SETS:
        raise ValueError(f"unknown model set '{name}' (known: {', '.join(SETS)})")
    return s
