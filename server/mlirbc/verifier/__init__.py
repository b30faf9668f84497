"""Verification that knows the op definitions: ODS constraints, traits, symbol uses and the hand-written
verifiers of the ops real files use most, worded as MLIR words them.

`verify(root, registry)` returns every fault found (`Finding`: the op, the message, the part at fault,
related ops).  It imports the IR and the models (and the syntax to print types), never the view: the view
and the server call it.  What it can and cannot check per op kind: `explain`.
"""

from __future__ import annotations

from ..ir.module import Module
from ..ir.operation import Operation
from ..models.registry import Registry
from .core import ERROR, INFORMATION, Finding, OpContext, OpVerifier, Related
from .engine import Verifier


def verify(root: Operation, registry: Registry) -> list[Finding]:
    """Every fault of the IR under `root` (a module's root op), in text order."""
    return Verifier(registry).verify(root)


def bound(registry: Registry, module: Module) -> Registry:
    """`registry` bound to the model set the module was read with (unless one is bound already)."""
    if registry.model_set is None and module.model_set is not None:
        return registry.with_set(module.model_set, module.model_set_note)
    return registry


def verify_module(module: Module, registry: Registry) -> list[Finding]:
    """Every fault of a module, verified with the models of its model set."""
    if module.root is None:
        return []
    return Verifier(bound(registry, module)).verify(module.root)


__all__ = ["ERROR", "INFORMATION", "Finding", "OpContext", "OpVerifier", "Related", "Verifier", "bound",
           "verify", "verify_module"]
