"""Reading an op's text by its declarative format (the parser mlir-tblgen generates, interpreted)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .api import AsmParser, OpState

if TYPE_CHECKING:
    from .declarative import DeclarativeSyntax


def parse_declarative(model: DeclarativeSyntax, p: AsmParser, state: OpState) -> None:
    raise p.error(f"reading '{model.name}' in its custom form is not supported yet")
