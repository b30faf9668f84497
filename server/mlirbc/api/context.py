"""`Context`: which dialect models read and write a module, and the `with` stacks of MLIR's bindings.

MLIR's bindings need a context for everything; here none is needed: each loaded module has its own
(the models its file was read with, bound to the model set its producer chose), and values (attributes,
types, locations) belong to no context at all (they are uniqued process-wide).  `Context` exists so that
code written for MLIR's bindings, which passes one or enters one with `with`, runs unchanged; a context
passed where a model matters (`Operation.create` of a detached op, `Attribute.parse` of a dialect's
syntax) chooses the models.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from types import TracebackType
from typing import Any

from ..models.registry import Registry


class Context:
    """The dialect models of a module (MLIR's `Context`, without the ownership).

    `Context()` has the built-in models and installed plugins; the keyword arguments are the CLI's
    `--disable-model`, `--ods-json` and `--models`.  Usable as a context manager (`with Context():`),
    which makes it `Context.current`."""

    def __init__(self, *, disable_models: Iterable[str] = (), ods_json: Iterable[str] = (),
                 model_set: str | None = None) -> None:
        self._disable = tuple(disable_models)
        self._ods = tuple(ods_json)
        self._set = model_set
        self._registry: Registry | None = None

    @classmethod
    def _with_registry(cls, registry: Registry) -> Context:
        ctx = cls()
        ctx._registry = registry
        return ctx

    @property
    def registry(self) -> Registry:
        """The model registry (built on first use)."""
        if self._registry is None:
            from ..models.build import default_registry, models

            if not (self._disable or self._ods or self._set):
                self._registry = default_registry()
            else:
                reg = models(disabled=self._disable, ods_json=self._ods, model_set=self._set)
                named = [p for p in reg.problems if p.source.startswith(("ods-json", "disable", "models"))]
                if named:
                    from .errors import IRError

                    raise IRError("cannot load models: " + "; ".join(str(p) for p in named))
                self._registry = reg
        return self._registry

    # -- MLIR's bindings' surface --------------------------------------------------------------------
    allow_unregistered_dialects = True
    """Always true: ops of dialects without a model are kept as they are."""

    def __enter__(self) -> Context:
        _push("context", self)
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        _pop("context", self)

    @classmethod
    def _current_or_none(cls) -> Context | None:
        found = _top("context")
        return found if isinstance(found, Context) else None

    def __repr__(self) -> str:
        return "<mlirbc.Context>"


class _CurrentContext:
    """`Context.current`: the innermost `with Context()`, None outside any (as MLIR's bindings)."""

    def __get__(self, obj: object, owner: type | None = None) -> Context | None:
        return Context._current_or_none()


Context.current = _CurrentContext()  # type: ignore[attr-defined]

_DEFAULT: Context | None = None


def default_context() -> Context:
    """The context of values and detached ops when no `with Context()` is active."""
    global _DEFAULT
    found = Context._current_or_none()
    if found is not None:
        return found
    if _DEFAULT is None:
        _DEFAULT = Context()
    return _DEFAULT


# -- thread-local `with` stacks (context, location, insertion point) ----------------------------------------

_local = threading.local()


def _stack(kind: str) -> list[Any]:
    stacks: dict[str, list[Any]] | None = getattr(_local, "stacks", None)
    if stacks is None:
        stacks = _local.stacks = {}
    return stacks.setdefault(kind, [])


def _push(kind: str, value: object) -> None:
    _stack(kind).append(value)


def _pop(kind: str, value: object) -> None:
    stack = _stack(kind)
    if not stack or stack[-1] is not value:
        raise RuntimeError(f"unbalanced exit of a `with` {kind}")
    stack.pop()


def _top(kind: str) -> Any:
    stack = _stack(kind)
    return stack[-1] if stack else None
