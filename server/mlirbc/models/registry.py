"""The one registry through which the reader, writer, printer and server reach dialect knowledge.

Keys are fine-grained: one op (`op:arith.addi`), one dialect's custom attribute codec (`attr:quant`) or
type codec (`type:quant`), or a whole dialect's op set (`dialect:arith`, a lazy provider asked per op
name).  A later registration for a key replaces the earlier one without error; the registry keeps what was
replaced and where each model came from, so the user can always see which model decoded what.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .api import AttrTypeCodec, OpModel

OpProvider = Callable[[str], "OpModel | None"]
"""A dialect's lazy op source: full op name -> model (None if the dialect has no such op)."""


@dataclass
class Registration:
    key: str
    model: Any
    origin: str
    """Where it came from: 'builtin', 'plugin <dist>:<entry point>', 'ods-json <path>', 'api <module>'."""
    replaced: list[Registration] = field(default_factory=list)


@dataclass
class Lookup:
    """The answer to "who decodes this op": a model with its origin, or the reason there is none."""

    model: OpModel | None
    origin: str = ""
    reason: str = ""


class Registry:
    def __init__(self) -> None:
        self._entries: dict[str, Registration] = {}
        self._disabled: set[str] = set()
        self._op_cache: dict[str, Lookup] = {}
        self._lock = threading.RLock()
        self.loaded_dialects: set[str] = set()
        """Dialects whose op provider has been asked at least once (to show laziness)."""

    # -- registration -------------------------------------------------------------------------
    def _register(self, key: str, model: Any, origin: str) -> Registration:
        with self._lock:
            old = self._entries.get(key)
            reg = Registration(key, model, origin)
            if old is not None:
                reg.replaced = [old, *old.replaced]
            self._entries[key] = reg
            self._op_cache.clear()
            return reg

    def register_op(self, model: OpModel, origin: str) -> Registration:
        """Register one op's model.  If a dialect provider already serves that op, the new registration's
        `replaced` chain starts with the provider's registration (what the op used to come from)."""
        with self._lock:
            reg = self._register(f"op:{model.name}", model, origin)
            if len(reg.replaced) == 0:
                dialect = model.name.split(".", 1)[0]
                dreg = self._entries.get(f"dialect:{dialect}")
                if dreg is not None and _provider_has(dreg.model, model.name):
                    reg.replaced = [dreg, *dreg.replaced]
            return reg

    def register_dialect(self, dialect: str, provider: OpProvider, origin: str) -> Registration:
        return self._register(f"dialect:{dialect}", provider, origin)

    def register_attr_codec(self, codec: AttrTypeCodec, origin: str) -> Registration:
        return self._register(f"attr:{codec.dialect}", codec, origin)

    def register_type_codec(self, codec: AttrTypeCodec, origin: str) -> Registration:
        return self._register(f"type:{codec.dialect}", codec, origin)

    def disable(self, spec: str) -> None:
        """Disable a dialect (`arith`) or one op (`arith.addi`): those ops decode as fallbacks."""
        with self._lock:
            self._disabled.add(spec)
            self._op_cache.clear()

    def is_disabled(self, dialect: str, op_name: str | None = None) -> bool:
        return dialect in self._disabled or (op_name is not None and op_name in self._disabled)

    # -- lookup ---------------------------------------------------------------------------------
    def op(self, full_name: str) -> Lookup:
        hit = self._op_cache.get(full_name)
        if hit is not None:
            return hit
        with self._lock:
            result = self._lookup_op(full_name)
            self._op_cache[full_name] = result
            return result

    def _lookup_op(self, full_name: str) -> Lookup:
        dialect = full_name.split(".", 1)[0]
        if full_name in self._disabled or dialect in self._disabled:
            which = full_name if full_name in self._disabled else dialect
            return Lookup(None, reason=f"model disabled (--disable-model {which})")
        reg = self._entries.get(f"op:{full_name}")
        if reg is not None:
            return Lookup(reg.model, reg.origin)
        dreg = self._entries.get(f"dialect:{dialect}")
        if dreg is None:
            return Lookup(None, reason=f"no model for dialect '{dialect}'")
        self.loaded_dialects.add(dialect)
        model = dreg.model(full_name)
        if model is None:
            return Lookup(None, reason=f"the '{dialect}' model ({dreg.origin}) has no op '{full_name}'")
        return Lookup(model, dreg.origin)

    def attr_codec(self, dialect: str) -> tuple[AttrTypeCodec | None, str]:
        reg = self._entries.get(f"attr:{dialect}")
        if reg is None or dialect in self._disabled:
            return None, ""
        return reg.model, reg.origin

    def type_codec(self, dialect: str) -> tuple[AttrTypeCodec | None, str]:
        reg = self._entries.get(f"type:{dialect}")
        if reg is None or dialect in self._disabled:
            return None, ""
        return reg.model, reg.origin

    def registrations(self) -> list[Registration]:
        return list(self._entries.values())

    def registration(self, key: str) -> Registration | None:
        """The current registration for a key (`op:arith.addi`, `dialect:arith`, `type:quant`...)."""
        return self._entries.get(key)

    def has_dialect(self, dialect: str) -> bool:
        return f"dialect:{dialect}" in self._entries


def _provider_has(provider: Any, full_name: str) -> bool:
    # Providers that can answer from an index (ODS data) do so without loading the dialect.
    has_op = getattr(provider, "has_op", None)
    if callable(has_op):
        return bool(has_op(full_name))
    try:
        return provider(full_name) is not None
    except Exception:  # a provider's failure only means we cannot say what was replaced
        return False


_default: Registry | None = None
_default_lock = threading.Lock()


def default_registry() -> Registry:
    """The registry with every built-in model (and installed plugins), built once per process."""
    global _default
    with _default_lock:
        if _default is None:
            _default = build_registry()
        return _default


def build_registry(disabled: list[str] | None = None, plugins: bool = True,
                   ods_json: list[str] | None = None) -> Registry:
    """A fresh registry: built-in models first, then plugins (which may replace them), then the ops of
    user-named ODS JSON files (`llvm-tblgen --dump-json` output), then disables."""
    from .builtin_models import register_builtin_models

    reg = Registry()
    register_builtin_models(reg)
    if plugins:
        from .plugins import load_entry_point_plugins

        load_entry_point_plugins(reg)
    if ods_json:
        from .ods import load_ods_json

        for path in ods_json:
            load_ods_json(reg, path)
    for spec in disabled or []:
        reg.disable(spec)
    return reg
