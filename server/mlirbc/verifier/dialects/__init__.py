"""The hand-written verifiers of the ops real files use most, one module per dialect group, and the
verifiers of the interfaces those ops share.

Each module's `VERIFIERS` (and `REGION_VERIFIERS`, `SYMBOL_VERIFIERS`) maps an op name to an `OpVerifier`;
`LEGALIZED_VERIFIERS` the name of an op others are legalized to (StableHLO's, for VHLO ops); `INTERFACES`
an interface name (as the op's constraint data lists it) to one; `DIALECT_VERIFIERS` a dialect to one.  A
plugin replaces one op's verifiers with `Registry.register_verifier` (an `OpVerifier`, a list of them, or
None for none).
"""

from __future__ import annotations

from types import ModuleType

from ..core import OpVerifier
from . import (
    affine,
    arith,
    async_,
    cf,
    directives,
    func,
    gpu,
    iree,
    linalg,
    llvm,
    memref,
    pdl,
    scf,
    stablehlo,
    transform,
    vhlo,
    wasmssa,
)

# Imported with the package, never lazily: the server verifies in worker threads, and two threads
# importing these at once can meet each other's half-initialised modules.
MODULES: list[ModuleType] = [affine, arith, async_, cf, directives, func, gpu, iree, linalg, llvm, memref,
                             pdl, scf, stablehlo, transform, vhlo,
                             wasmssa]


def _modules() -> list[ModuleType]:
    return MODULES


def builtin_verifiers() -> dict[str, list[OpVerifier]]:
    """Op name -> its hand-written verifiers, for every op one module here knows."""
    out: dict[str, list[OpVerifier]] = {}
    for module in _modules():
        for table in ("VERIFIERS", "REGION_VERIFIERS", "SYMBOL_VERIFIERS", "LEGALIZED_VERIFIERS"):
            for name, v in getattr(module, table, {}).items():
                out.setdefault(name, []).append(v)
    return out


def dialect_verifiers() -> dict[str, OpVerifier]:
    """Dialect name -> the verifier every op of that dialect gets (VHLO's legality of attributes)."""
    out: dict[str, OpVerifier] = {}
    for module in _modules():
        out.update(getattr(module, "DIALECT_VERIFIERS", {}))
    return out


def interface_verifiers() -> dict[str, OpVerifier]:
    """Interface name -> the verifier every op declaring it gets."""
    out: dict[str, OpVerifier] = {}
    for module in _modules():
        out.update(getattr(module, "INTERFACES", {}))
    return out
