"""The IR model (attributes, types, operations, modules), and the public API under MLIR's names.

The submodules (`mlirbc.ir.operation`, `.attributes`, ...) are the IR layer every other layer builds on.
The package itself also answers for MLIR's `mlir.ir` names (`from mlirbc.ir import Operation,
InsertionPoint, StringAttr`): those are the public API's (`mlirbc.api`), looked up on first use so that
nothing of the layers above is imported by the IR layer itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..api import *  # noqa: F403


def _api() -> Any:
    import importlib

    return importlib.import_module("mlirbc.api")


def __getattr__(name: str) -> Any:
    if name == "__all__":  # `from ... import *`: the API's names
        return list(_api().__all__)
    # Only the public API's names, and only when asked: an IR submodule (`attributes`, `operation`, ...)
    # is imported by the import system itself once this raises AttributeError.
    if name[:1].isupper() or name in ("load", "parse", "module_of", "apply_patterns_greedily"):
        api = _api()
        if name in api.__all__:
            value = getattr(api, name)
            globals()[name] = value
            return value
    raise AttributeError(f"module 'mlirbc.ir' has no attribute {name!r}")
