"""Hand-written syntax models of `builtin` ops (none yet: `builtin.module` is declarative)."""

from __future__ import annotations

from ..api import OpSyntax

MODELS: list[OpSyntax] = []
