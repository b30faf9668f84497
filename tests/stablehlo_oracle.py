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


def legalized_print(data: bytes, generic: bool = False, local_scope: bool = True) -> str:
    """`deserialize_portable_artifact` printed with debug info: in the generic form or in custom forms,
    with local scope or with aliases (what the StableHLO view is compared with)."""
    from jaxlib.mlir.dialects import stablehlo  # type: ignore[import-not-found,unused-ignore]

    with context() as ctx:
        module = stablehlo.deserialize_portable_artifact(ctx, data)
        text: str = module.operation.get_asm(print_generic_op_form=generic, enable_debug_info=True,
                                             use_local_scope=local_scope)
    return text


def serialize_at(data: bytes, target: str) -> bytes | str:
    """The artifact `data` deserialized and serialized again for `target`
    (`serialize_portable_artifact`, other dialects allowed when it has sdy ops), or jaxlib's refusal as
    text."""
    from jaxlib.mlir.dialects import stablehlo  # type: ignore[import-not-found,unused-ignore]

    with context() as ctx:
        module = stablehlo.deserialize_portable_artifact(ctx, data)
        try:
            out: bytes = stablehlo.serialize_portable_artifact(module, target,
                                                               allow_other_dialects=b"sdy\0" in data)
        except Exception as exc:
            return str(exc) or type(exc).__name__
    return out


def targets() -> list[str]:
    """Every target jaxlib's serializer offers: each minor version from its minimum to its current."""
    from jaxlib.mlir.dialects import stablehlo  # type: ignore[import-not-found,unused-ignore]

    lo = tuple(int(x) for x in stablehlo.get_minimum_version().split("."))
    hi = tuple(int(x) for x in stablehlo.get_current_version().split("."))
    out = [f"{lo[0]}.{m}.0" for m in range(lo[1], 21)] if lo[0] == 0 else []
    out += [f"1.{m}.0" for m in range(0, hi[1] + 1)]
    return out


def serialize_text(text: str, target: str, other_dialects: bool = False) -> bytes | str:
    """StableHLO text parsed by jaxlib and serialized for `target`, or jaxlib's refusal as text."""
    from jaxlib.mlir import ir  # type: ignore[import-not-found,unused-ignore]
    from jaxlib.mlir.dialects import stablehlo  # type: ignore[import-not-found,unused-ignore]

    with context():
        module = ir.Module.parse(text)
        try:
            out: bytes = stablehlo.serialize_portable_artifact(module, target,
                                                               allow_other_dialects=other_dialects)
        except Exception as exc:
            return str(exc) or type(exc).__name__
    return out
