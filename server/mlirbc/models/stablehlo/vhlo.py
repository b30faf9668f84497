"""The VHLO dialect's attributes and types: every kind (`vhlo_attrs`, `vhlo_types`) in one `KindDialect`."""

from __future__ import annotations

from ..kinds import KindDialect, KindModel
from .ops import newer_note
from .vhlo_attrs import ATTR_KINDS
from .vhlo_types import TYPE_KINDS


class VhloDialect(KindDialect):
    """Every VHLO attribute and type kind (strict: a `#vhlo...` that is none of them is an error)."""

    def __init__(self) -> None:
        kinds: list[KindModel] = [*TYPE_KINDS, *ATTR_KINDS]
        super().__init__("vhlo", kinds, strict=True)

    def producer_note(self, producer: str) -> str:
        return newer_note(producer)
