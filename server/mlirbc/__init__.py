"""mlirbc: a pure-Python reader, faithful writer and language server for MLIR bytecode.

The Python API (`mlirbc.load`, `mlirbc.Module`, `mlirbc.Operation`, ...; also importable from
`mlirbc.ir` under MLIR's own names) is `mlirbc.api`, imported on first use so that `import mlirbc`
stays cheap for the command line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from .api import *  # noqa: F403
    from .api import __all__ as _api_names
else:
    _api_names: list[str] = []


def _api() -> Any:
    import importlib

    return importlib.import_module("mlirbc.api")


def __getattr__(name: str) -> Any:
    if name == "__all__":  # `from ... import *`: the API's names
        return list(_api().__all__)
    api = _api()
    if name in api.__all__:
        value = getattr(api, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'mlirbc' has no attribute {name!r}")


def __dir__() -> list[str]:
    api = _api()
    return sorted({*globals(), *api.__all__})
