"""An mlirbc model plugin: replaces the built-in model of `arith.constant` with its own.

The layout is the same as upstream's (one required attribute, `value`), so files decode as before; the
replacement shows in the op's hover summary and in the registry (origin and `replaced` chain).
"""

from __future__ import annotations

from typing import Any

SUMMARY = "integer or floating point constant (from mlirbc-test-plugin)"


def register(registry: Any, origin: str) -> None:
    from mlirbc.models.api import OpInfo
    from mlirbc.models.layout import ATTR_REQUIRED, Field, LayoutOpModel

    model = LayoutOpModel(
        "arith.constant",
        attributes=[Field("value", ATTR_REQUIRED)],
        op_info=OpInfo("arith.constant", summary=SUMMARY, operands=[], results=["result"],
                       attributes=["value"]),
    )
    registry.register_op(model, origin)
