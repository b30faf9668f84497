"""Registers the models that ship with mlirbc: the builtin dialect's ops, ODS-derived upstream dialects,
and codecs for upstream dialects with custom attribute/type encodings."""

from __future__ import annotations

from .api import OpInfo
from .layout import ATTR_FLAGGED, Field, LayoutOpModel
from .registry import Registry

BUILTIN_ORIGIN = "builtin (mlirbc)"


def _builtin_ops(full_name: str) -> LayoutOpModel | None:
    if full_name == "builtin.module":
        return LayoutOpModel(
            "builtin.module",
            attributes=[Field("sym_name", ATTR_FLAGGED), Field("sym_visibility", ATTR_FLAGGED)],
            op_info=OpInfo("builtin.module", summary="A top level container operation",
                           isolated_from_above=True),
        )
    if full_name == "builtin.unrealized_conversion_cast":
        return LayoutOpModel("builtin.unrealized_conversion_cast",
                             op_info=OpInfo("builtin.unrealized_conversion_cast",
                                            summary="An unrealized conversion from one set of types to another"))
    return None


def register_builtin_models(reg: Registry) -> None:
    reg.register_dialect("builtin", _builtin_ops, BUILTIN_ORIGIN)
