"""Dialect-level views: a stored dialect shown as the dialect its users read (VHLO as StableHLO).

A `DialectView` is a model like the others (registered by name, replaceable, with hooks): it says whether
it applies to a decoded module, converts the module to the view's IR and, for a save, converts a view back
to the stored dialect.  The conversion is IR to IR; the text of the view is printed and parsed as any
module's.  What a view needs to save back (the original ops, the file's target) is kept in its
`ViewConversion`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..ir.module import Module
    from ..ir.operation import Operation


class ViewError(Exception):
    """A view that cannot be saved: what it holds has no stored form (at the target), said with the op
    that holds it (`op`, a view op, when known)."""

    def __init__(self, message: str, op: Operation | None = None) -> None:
        super().__init__(message)
        self.op = op


class ViewConversion(Protocol):
    """One module shown in a view."""

    module: Module
    """The view's IR (what is printed)."""
    source: Module
    """The decoded module it shows."""

    def stored_op(self, op: Operation) -> Operation | None:
        """The stored op a view op shows (None: one the view made, or none)."""
        ...

    def notes(self) -> list[tuple[Operation, str]]:
        """View ops kept in their stored form, and why (a newer producer's op, say)."""
        ...

    def back(self, view: Module) -> Module:
        """`view` (this view's IR, possibly edited) as the stored dialect at the file's own target:
        unchanged parts are the decoded module's own objects.  Raises ViewError."""
        ...


class DialectView(Protocol):
    """A dialect-level view model (see module docstring)."""

    name: str
    """What `--form NAME` and the header call it (`stablehlo`)."""
    stored_dialect: str
    """The dialect it shows (`vhlo`): disabling that dialect's model disables the view."""

    def applies(self, module: Module) -> bool: ...

    def convert(self, module: Module) -> ViewConversion:
        """The view of a decoded module (raises ViewError when it cannot be shown)."""
        ...

    def fresh(self, view: Module, target: str | None) -> Module:
        """A view module (parsed without its original) in the stored dialect, at `target` (None: the
        view's own, from its producer).  Raises ViewError."""
        ...

    def describe(self, conversion: ViewConversion, op: Operation) -> list[str]:
        """Hover paragraphs for a view op: what it is in the view, and what is stored for it."""
        ...


ViewHook = Callable[["Operation", "Operation"], "Operation | None"]
"""`hook(source op, converted op)`, called after a view converts an op (either way): returns a replacement
of the converted op, or None to keep it."""
