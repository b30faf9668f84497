"""Building a model registry: the one way the CLI, the server and the library do it.

Order: the built-in models, then installed plugins (entry-point group `mlirbc.models`, which may replace
built-ins; the project's own, IREE's models, load first), then plugin modules named by the user, then the
ops of user ODS JSON files, then disables.  A forced model set binds the result to that set.  A
source that fails is recorded in `Registry.problems` and the rest still loads: a broken plugin never breaks
reading files.  Callers decide how loud a problem is (the CLI refuses a bad file the user named).
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterable

from .registry import ModelProblem, Registry, parse_disable_spec
from .sets import parse_set_name


def models(disabled: Iterable[str] = (), ods_json: Iterable[str] = (), plugin_modules: Iterable[str] = (),
           entry_points: bool = True, model_set: str | None = None) -> Registry:
    """A fresh registry; every source that fails is in `registry.problems`.

    `disabled`: `--disable-model` specs (`registry.parse_disable_spec`); `ods_json`: `llvm-tblgen
    --dump-json` files whose ops become models; `plugin_modules`: importable modules with a
    `register(registry, origin)` callable; `entry_points`: load installed plugin packages; `model_set`:
    a set the user forces (`mlir22`, `mlir24`) instead of the one each file's producer chooses (an unknown
    name is a problem and the producer chooses).
    """
    from .builtin_models import register_builtin_models

    reg = Registry()
    register_builtin_models(reg)
    if entry_points:
        from .plugins import load_entry_point_plugins

        reg.problems.extend(load_entry_point_plugins(reg))
    for name in plugin_modules:
        reg.problems.extend(_load_plugin_module(reg, name))
    for path in ods_json:
        from .ods import load_ods_json

        try:
            load_ods_json(reg, path)
        except Exception as exc:  # a bad file must not stop the rest
            reg.problems.append(ModelProblem(f"ods-json {path}", _why(exc)))
    for spec in disabled:
        try:
            reg.disable(parse_disable_spec(spec))
        except ValueError as exc:
            reg.problems.append(ModelProblem("disable", str(exc)))
    if model_set:
        try:
            name = parse_set_name(model_set)
        except ValueError as exc:
            reg.problems.append(ModelProblem("models", str(exc)))
        else:
            return reg.with_set(name, "forced by the user")
    return reg


_default: Registry | None = None
_default_lock = threading.Lock()


def default_registry() -> Registry:
    """The registry with every built-in model (and installed plugins), built once per process."""
    global _default
    with _default_lock:
        if _default is None:
            _default = models()
        return _default


def _load_plugin_module(reg: Registry, name: str) -> list[ModelProblem]:
    source = f"plugin module {name}"
    try:
        register = getattr(importlib.import_module(name), "register", None)
    except Exception as exc:
        return [ModelProblem(source, f"cannot import: {_why(exc)}")]
    if not callable(register):
        return [ModelProblem(source, "has no register(registry, origin)")]
    try:
        register(reg, source)
    except Exception as exc:
        return [ModelProblem(source, f"register failed: {_why(exc)}")]
    return []


def _why(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.strerror}" + (f": {exc.filename}" if exc.filename else "")
    return f"{exc}" or type(exc).__name__
