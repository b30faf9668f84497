"""A model plugin for the tests: replaces one op of mlirbc's StableHLO models (`vhlo.constant_v1`, same
layout, its own summary) and extends another with a note hook, the way a third party would."""

from __future__ import annotations

from mlirbc.ir.operation import Operation
from mlirbc.models.api import OpInfo
from mlirbc.models.hooks import OpNote
from mlirbc.models.layout import ATTR_REQUIRED, Field, LayoutOpModel
from mlirbc.models.registry import Registry

SUMMARY = "a constant (from stablehlo_test_plugin)"


def register(registry: Registry, origin: str) -> None:
    registry.register_op(LayoutOpModel("vhlo.constant_v1", attributes=[Field("value", ATTR_REQUIRED)],
                                       op_info=OpInfo("vhlo.constant_v1", summary=SUMMARY)), origin)

    def note(op: Operation) -> OpNote | None:
        return OpNote(lines=[f"{len(op.operands)} operands (from stablehlo_test_plugin)"])

    registry.add_note_hook("vhlo.add_v1", note, origin)
