"""StableHLO portable artifacts (what `jax.export` writes): the VHLO and Shardy models, shipped as a plugin.

mlirbc registers these through the same entry-point group a third party uses (`mlirbc.models`, entry
`stablehlo = mlirbc.models.stablehlo:register` in pyproject.toml), so `mlirbc info` names them as a plugin,
`--disable-model vhlo` (or `sdy`) turns them off, and a user plugin can replace one op or one attribute/type
kind of them, or extend them with hooks (`models.hooks`).

What `register` adds:

* `vhlo`: every attribute and type kind (`vhlo_attrs`, `vhlo_types`) as codec and syntax, the 145 op versions
  (generated from StableHLO's VhloOps.td, `models/data/stablehlo/`), a write check refusing ops, attributes
  and types that do not exist at the file's target, and notes for hover/inlay hints/outline (`notes`);
* `sdy`: Shardy's ops (generated from its ops.td) and attributes (its bytecode DSL file, interpreted by
  `models.dsl`, printed in Shardy's own syntax by `sdy_syntax`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..dsl import load_records, register_dsl
from ..kinds import register_kind_dialect
from ..ods import DATA_DIR, OdsDataset
from .vhlo import SET_DIR, VhloDialect, VhloOps, target_problems

if TYPE_CHECKING:
    from ...ir.module import Module
    from ..registry import Registry

ORIGIN = "plugin mlirbc:stablehlo"
"""The origin the registry shows when the package's own entry point registers these models."""


def register(registry: Registry, origin: str = ORIGIN) -> None:
    """Register the VHLO and Shardy models (the `mlirbc.models` entry point of mlirbc itself)."""
    from .notes import VhloNotes
    from .sdy_syntax import SdySyntax

    dataset = OdsDataset(SET_DIR)
    vhlo_ops = VhloOps(dataset)
    register_kind_dialect(registry, VhloDialect(), origin)
    registry.register_dialect("vhlo", vhlo_ops, origin)
    registry.register_dialect("sdy", dataset.provider("sdy"), origin)
    register_dsl(registry, load_records(DATA_DIR / "dsl" / "sdy.json.gz"), origin, dialect="sdy",
                 cpp_dialect="sdy", syntax=SdySyntax())

    def check(module: Module, producer: str, version: int) -> list[str]:
        return target_problems(module, vhlo_ops, producer)

    registry.add_write_check("vhlo", check, origin)
    registry.add_note_hook("vhlo", VhloNotes(vhlo_ops), origin)
