"""jaxlib as the StableHLO oracle (test extra `stablehlo`: jax/jaxlib 0.10.2, CPU): parse and print VHLO, read
portable artifacts.  Tests call `available()` and skip (loudly) when it is False."""

from __future__ import annotations

import importlib.util
from typing import Any

SKIP_REASON = ("ORACLE MISSING: jax/jaxlib not installed (pip install -e '.[stablehlo]'); StableHLO oracle "
               "comparisons were NOT run")

_ctx: Any = None


def available() -> bool:
    return importlib.util.find_spec("jax") is not None and importlib.util.find_spec("jaxlib") is not None


def context() -> Any:
    """One jaxlib MLIR context with vhlo, stablehlo, chlo, sdy and func registered."""
    global _ctx
    if _ctx is None:
        from jax._src.interpreters import mlir as jmlir  # type: ignore[import-not-found,unused-ignore]

        _ctx = jmlir.make_ir_context()
    return _ctx


def generic_print(source: bytes | str) -> str:
    """jaxlib's generic print (debug info, local scope) of VHLO bytecode or text, as stored (no
    legalization).  Raises jaxlib's error when it cannot parse."""
    from jaxlib.mlir import ir  # type: ignore[import-not-found,unused-ignore]

    with context():
        module = ir.Module.parse(source)
        text: str = module.operation.get_asm(print_generic_op_form=True, enable_debug_info=True,
                                             use_local_scope=True)
    return text


def deserialize(data: bytes) -> str:
    """`deserialize_portable_artifact`: the artifact as StableHLO (jaxlib legalizes VHLO at the file's
    target); returns its print.  Raises when jaxlib refuses the file."""
    from jaxlib.mlir.dialects import stablehlo  # type: ignore[import-not-found,unused-ignore]

    with context() as ctx:
        module = stablehlo.deserialize_portable_artifact(ctx, data)
        text: str = module.operation.get_asm(enable_debug_info=False)
    return text
