"""Notes on vhlo ops for the editor (placeholder)."""

from __future__ import annotations

from ...ir.operation import Operation
from ..hooks import OpNote
from .vhlo import VhloOps


class VhloNotes:
    def __init__(self, ops: VhloOps) -> None:
        self.ops = ops

    def __call__(self, op: Operation) -> OpNote | None:
        return None
