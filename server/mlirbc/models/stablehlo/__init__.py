"""StableHLO portable artifacts (what `jax.export` writes): the VHLO and Shardy models, shipped as a plugin.

mlirbc registers these through the same entry-point group a third party uses (`mlirbc.models`, entry
`stablehlo = mlirbc.models.stablehlo:register` in pyproject.toml), so `mlirbc info` names them as a plugin,
`--disable-model vhlo` (or `sdy`) turns them off, and a user plugin can replace one op or one attribute/type
kind of them, or extend them with hooks (`models.hooks`).

What `register` adds:

* `vhlo`: every attribute and type kind (`vhlo_attrs`, `vhlo_types`) as codec and syntax, the 145 op versions
  (generated from StableHLO's VhloOps.td, `models/data/stablehlo/`), a write check refusing ops, attributes
  and types that do not exist at the file's target, and notes for hover/inlay hints/outline (`notes`);
* the `stablehlo` view (`view`): a portable artifact shown as StableHLO (what jaxlib's deserializer gives),
  saved back to VHLO at the file's target (a `models.views.DialectView`);
* `sdy`: Shardy's ops (generated from its ops.td) and attributes (its bytecode DSL file, interpreted by
  `models.dsl`, printed in Shardy's own syntax by `sdy_syntax`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..kinds import KindDialect, LazyKindDialect, register_lazy_kind_dialect
from ..ods import DATA_DIR, OdsDataset
from .ops import SET_DIR, VhloOps, target_problems

if TYPE_CHECKING:
    from ...ir.module import Module
    from ...ir.operation import Operation
    from ..hooks import OpNote
    from ..registry import Registry
    from ..views import ViewConversion
    from .view import StablehloView

ASM_DATA_DIR = Path(__file__).with_name("asm_data")
ORIGIN = "plugin mlirbc:stablehlo"
"""The origin the registry shows when the package's own entry point registers these models."""


def register(registry: Registry, origin: str = ORIGIN) -> None:
    """Register the VHLO and Shardy models (the `mlirbc.models` entry point of mlirbc itself).

    The attribute/type kinds and the note hook are loaded the first time they are needed, so that building
    a registry costs little for files without StableHLO."""
    dataset = OdsDataset(SET_DIR)
    vhlo_ops = VhloOps(dataset)
    register_lazy_kind_dialect(registry, "vhlo", _vhlo, origin)
    registry.register_dialect("vhlo", vhlo_ops, origin)
    registry.register_dialect("sdy", dataset.provider("sdy"), origin)
    # StableHLO's and CHLO's own ops (generated from their ODS): what the StableHLO view shows.
    registry.register_dialect("stablehlo", dataset.provider("stablehlo"), origin)
    registry.register_dialect("chlo", dataset.provider("chlo"), origin)
    register_lazy_kind_dialect(registry, "sdy", _sdy, origin)

    def check(module: Module, producer: str, version: int) -> list[str]:
        return target_problems(module, vhlo_ops, producer)

    notes: list[object] = []

    def note(op: Operation) -> OpNote | None:
        if not notes:
            from .notes import VhloNotes

            notes.append(VhloNotes(vhlo_ops))
        hook = notes[0]
        assert callable(hook)
        result: OpNote | None = hook(op)
        return result

    registry.add_write_check("vhlo", check, origin)
    registry.add_note_hook("vhlo", note, origin)
    registry.register_view(LazyStablehloView(vhlo_ops, registry), origin)
    # StableHLO's own attributes and types are text only (the view converts them to VHLO to save them):
    # their syntax is registered, no codec.
    registry.register_syntax("stablehlo", LazyKindDialect("stablehlo", _stablehlo, registry), origin)
    # The custom assembly forms of StableHLO's and CHLO's ops (the view prints and reads them): their
    # declarative formats (generated data), the `custom<...>` directives and the C++ forms ported.
    from ..asm.data import register_syntax_data
    from ..asm.directives import add_directive_module

    register_syntax_data(registry, origin, ASM_DATA_DIR)
    add_directive_module("mlirbc.models.stablehlo.directives")
    from .asm_ports import MODELS

    for model in MODELS:
        registry.register_op_syntax(model, origin)


class LazyStablehloView:
    """The `stablehlo` view (`view.StablehloView`), built the first time a module is converted: telling
    whether it applies is cheap (the producer string), so building a registry stays cheap."""

    name = "stablehlo"
    stored_dialect = "vhlo"

    def __init__(self, ops: VhloOps, registry: Registry) -> None:
        self.ops = ops
        self.registry = registry
        self._view: StablehloView | None = None

    def get(self) -> StablehloView:
        if self._view is None:
            from .optable import OpTable
            from .view import StablehloView

            self._view = StablehloView(OpTable(self.ops), self.registry)
        return self._view

    def applies(self, module: Module) -> bool:
        from .versions import target_of

        return module.view is None and module.root is not None and target_of(module.producer) is not None

    def convert(self, module: Module) -> ViewConversion:
        return self.get().convert(module)

    def fresh(self, view: Module, target: str | None) -> Module:
        return self.get().fresh(view, target)

    def describe(self, conversion: ViewConversion, op: Operation) -> list[str]:
        return self.get().describe(conversion, op)


def _vhlo() -> KindDialect:
    from .vhlo import VhloDialect

    return VhloDialect()


def _stablehlo() -> KindDialect:
    from .shlo_syntax import shlo_dialect

    return shlo_dialect()


_SDY: list[KindDialect] = []


def sdy_dialect() -> KindDialect:
    """One sdy kind dialect of this process (what text builds values with when nothing else says which)."""
    if not _SDY:
        _SDY.append(_sdy())
    return _SDY[0]


def _sdy() -> KindDialect:
    from ..dsl import dsl_dialect, load_records
    from .sdy_syntax import SdySyntax

    return dsl_dialect(load_records(DATA_DIR / "dsl" / "sdy.json.gz"), dialect="sdy", cpp_dialect="sdy",
                       syntax=SdySyntax())
