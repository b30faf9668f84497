"""The one registry through which the reader, writer, printer and server reach dialect knowledge.

Registrations are fine-grained and typed per kind: one op's model, one dialect's lazy op provider (asked per
op name), one dialect's custom attribute codec, one dialect's custom type codec.  A later registration of
the same kind and name replaces the earlier one without error; the registry keeps what was replaced and
where each model came from, so the user can always see which model decoded what.

Build registries with `models.build.models(...)` (CLI and server alike); `default_registry()` is that with
default arguments, built once per process.
"""

from __future__ import annotations

import enum
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from .api import AttrTypeCodec, OpModel

OpProvider = Callable[[str], "OpModel | None"]
"""A dialect's lazy op source: full op name -> model (None if the dialect has no such op)."""


class Kind(enum.Enum):
    """What a registration is for."""

    OP = "op"
    DIALECT = "dialect"
    ATTR_CODEC = "attr"
    TYPE_CODEC = "type"


M = TypeVar("M")


@dataclass(frozen=True)
class Replaced:
    """A registration that a later one replaced: what it was and where it came from."""

    kind: Kind
    name: str
    origin: str

    @property
    def label(self) -> str:
        return f"{self.kind.value}:{self.name}"


@dataclass
class Registration(Generic[M]):
    kind: Kind
    name: str
    """The op's full name (`arith.addi`) or the dialect's name (`arith`)."""
    model: M
    origin: str
    """Where it came from: 'builtin (mlirbc)', 'plugin <dist>:<entry point>', 'ods-json <path>', ..."""
    replaced: list[Replaced] = field(default_factory=list)
    """What this registration replaced, newest first."""

    @property
    def label(self) -> str:
        """`op:arith.addi`, `dialect:arith`, `attr:quant`, `type:quant`: for people, never parsed."""
        return f"{self.kind.value}:{self.name}"


@dataclass
class Lookup:
    """The answer to "who decodes this op": a model with its origin, or the reason there is none."""

    model: OpModel | None
    origin: str = ""
    reason: str = ""


@dataclass(frozen=True)
class ModelProblem:
    """A model source that could not be used (a broken plugin, an unreadable ODS JSON file, a bad spec)."""

    source: str
    """What was asked for: `plugin <dist>:<name>`, `ods-json <path>`, `disable <spec>`, ..."""
    message: str

    def __str__(self) -> str:
        return f"{self.source}: {self.message}"


_NAME = re.compile(r"[A-Za-z_][\w$]*(\.[\w$.-]+)?\Z")


@dataclass(frozen=True)
class DisableSpec:
    """One `--disable-model` value: a whole dialect (`arith`) or one op (`arith.addi`)."""

    dialect: str
    op: str | None = None

    @property
    def text(self) -> str:
        return self.op if self.op is not None else self.dialect


def parse_disable_spec(spec: str) -> DisableSpec:
    """Read a disable spec the same way everywhere: `arith`, `arith.addi`, and the labels `dialect:arith`,
    `op:arith.addi` (what `mlirbc info` shows).  Raises ValueError naming what is wrong."""
    s = spec.strip()
    kind = ""
    if ":" in s:
        kind, _, s = s.partition(":")
        if kind not in ("op", "dialect"):
            raise ValueError(f"'{spec}': expected DIALECT, DIALECT.OP, dialect:DIALECT or op:DIALECT.OP")
    if not _NAME.match(s):
        raise ValueError(f"'{spec}': not a dialect or op name")
    dialect, dot, _ = s.partition(".")
    if kind == "dialect" and dot:
        raise ValueError(f"'{spec}': a dialect name has no '.'")
    if kind == "op" and not dot:
        raise ValueError(f"'{spec}': an op name is DIALECT.OP")
    return DisableSpec(dialect, s if dot else None)


class Registry:
    def __init__(self) -> None:
        self._ops: dict[str, Registration[OpModel]] = {}
        self._dialects: dict[str, Registration[OpProvider]] = {}
        self._attr_codecs: dict[str, Registration[AttrTypeCodec]] = {}
        self._type_codecs: dict[str, Registration[AttrTypeCodec]] = {}
        self._disabled_dialects: set[str] = set()
        self._disabled_ops: set[str] = set()
        self._op_cache: dict[str, Lookup] = {}
        self._lock = threading.RLock()
        self.loaded_dialects: set[str] = set()
        """Dialects whose op provider has been asked at least once (to show laziness)."""
        self.problems: list[ModelProblem] = []
        """Model sources that failed while this registry was built; reported, never fatal."""

    # -- registration -------------------------------------------------------------------------
    def _put(self, table: dict[str, Registration[M]], reg: Registration[M]) -> Registration[M]:
        with self._lock:
            old = table.get(reg.name)
            if old is not None:
                reg.replaced = [Replaced(old.kind, old.name, old.origin), *old.replaced]
            table[reg.name] = reg
            self._op_cache.clear()
            return reg

    def register_op(self, model: OpModel, origin: str) -> Registration[OpModel]:
        """Register one op's model.  If a dialect provider already serves that op, the new registration's
        `replaced` chain names the provider (what the op used to come from)."""
        with self._lock:
            reg = self._put(self._ops, Registration(Kind.OP, model.name, model, origin))
            if not reg.replaced:
                dreg = self._dialects.get(model.name.split(".", 1)[0])
                if dreg is not None and _provider_has(dreg.model, model.name):
                    reg.replaced = [Replaced(Kind.DIALECT, dreg.name, dreg.origin), *dreg.replaced]
            return reg

    def register_dialect(self, dialect: str, provider: OpProvider, origin: str) -> Registration[OpProvider]:
        return self._put(self._dialects, Registration(Kind.DIALECT, dialect, provider, origin))

    def register_attr_codec(self, codec: AttrTypeCodec, origin: str) -> Registration[AttrTypeCodec]:
        return self._put(self._attr_codecs, Registration(Kind.ATTR_CODEC, codec.dialect, codec, origin))

    def register_type_codec(self, codec: AttrTypeCodec, origin: str) -> Registration[AttrTypeCodec]:
        return self._put(self._type_codecs, Registration(Kind.TYPE_CODEC, codec.dialect, codec, origin))

    def disable(self, spec: str | DisableSpec) -> None:
        """Disable a dialect or one op (see `parse_disable_spec`): those ops decode as fallbacks, and a
        disabled dialect's attribute/type codecs are not used."""
        d = parse_disable_spec(spec) if isinstance(spec, str) else spec
        with self._lock:
            if d.op is None:
                self._disabled_dialects.add(d.dialect)
            else:
                self._disabled_ops.add(d.op)
            self._op_cache.clear()

    def is_disabled(self, dialect: str, op_name: str | None = None) -> bool:
        return dialect in self._disabled_dialects or (op_name is not None and op_name in self._disabled_ops)

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
        if full_name in self._disabled_ops:
            return Lookup(None, reason=f"model disabled (--disable-model {full_name})")
        if dialect in self._disabled_dialects:
            return Lookup(None, reason=f"model disabled (--disable-model {dialect})")
        reg = self._ops.get(full_name)
        if reg is not None:
            return Lookup(reg.model, reg.origin)
        dreg = self._dialects.get(dialect)
        if dreg is None:
            return Lookup(None, reason=f"no model for dialect '{dialect}'")
        self.loaded_dialects.add(dialect)
        model = dreg.model(full_name)
        if model is None:
            return Lookup(None, reason=f"the '{dialect}' model ({dreg.origin}) has no op '{full_name}'")
        return Lookup(model, dreg.origin)

    def attr_codec(self, dialect: str) -> tuple[AttrTypeCodec | None, str]:
        reg = self._attr_codecs.get(dialect)
        if reg is None or dialect in self._disabled_dialects:
            return None, ""
        return reg.model, reg.origin

    def type_codec(self, dialect: str) -> tuple[AttrTypeCodec | None, str]:
        reg = self._type_codecs.get(dialect)
        if reg is None or dialect in self._disabled_dialects:
            return None, ""
        return reg.model, reg.origin

    # -- what is registered -----------------------------------------------------------------------
    def op_registration(self, full_name: str) -> Registration[OpModel] | None:
        return self._ops.get(full_name)

    def dialect_registration(self, dialect: str) -> Registration[OpProvider] | None:
        return self._dialects.get(dialect)

    def attr_codec_registration(self, dialect: str) -> Registration[AttrTypeCodec] | None:
        return self._attr_codecs.get(dialect)

    def type_codec_registration(self, dialect: str) -> Registration[AttrTypeCodec] | None:
        return self._type_codecs.get(dialect)

    def dialect_names(self) -> list[str]:
        """Dialects with an op provider, sorted."""
        return sorted(self._dialects)

    def op_names(self) -> set[str]:
        """Every op name a model is registered for: single ops, and what each provider can list."""
        names = set(self._ops)
        for reg in list(self._dialects.values()):
            lister = getattr(reg.model, "op_names", None)
            if callable(lister):
                try:
                    names.update(str(n) for n in lister())
                except Exception:  # a provider that cannot list still serves lookups
                    pass
        return names

    def registrations(self) -> Iterator[Registration[OpModel] | Registration[OpProvider]
                                        | Registration[AttrTypeCodec]]:
        """Every current registration, of every kind (for `mlirbc info` and the server)."""
        yield from self._ops.values()
        yield from self._dialects.values()
        yield from self._attr_codecs.values()
        yield from self._type_codecs.values()

    def has_dialect(self, dialect: str) -> bool:
        return dialect in self._dialects


def _provider_has(provider: OpProvider, full_name: str) -> bool:
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
            from .build import models

            _default = models()
        return _default
