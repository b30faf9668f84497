"""The one registry through which the reader, writer, printer and server reach dialect knowledge.

Registrations are fine-grained and typed per kind: one op's model, one dialect's lazy op provider (asked per
op name), one dialect's custom attribute codec, one dialect's custom type codec, one dialect's text syntax
(structured attributes/types, `models.kinds`), one attribute or type kind of such a dialect.  A later
registration of the same kind and name replaces the earlier one without error; the registry keeps what was
replaced and where each model came from, so the user can always see which model decoded what.

Alias rules (`register_alias`) name the values of one dialect kind as the dialect's
`OpAsmDialectInterface::getAlias` does, for a view printed with aliases (`syntax.aliases`).

Hooks extend a registered model without replacing it (`models.hooks`): wrap one op's property decoding,
add notes (hover text, another spelling, a symbol name) to the ops of a dialect or one op.  The registry
counts how often each hook ran; `mlirbc info` shows it.

Model sets (`models/sets.py`: `mlir22`, `mlir24`): a registration may be for one set only (`model_set=`);
one without a set serves every set.  Within a kind and name the later registration wins: one for a set
overrides the all-sets one for that set only; one for all sets replaces every earlier one, set-specific
ones included (so a plugin's replacement wins whatever set a file uses).  `with_set(name)` gives a view of
the same registry whose lookups use that set; the reader binds one per file from its producer.

Build registries with `models.build.models(...)` (CLI and server alike); `models.build.default_registry()`
is that with default arguments, built once per process.
"""

from __future__ import annotations

import copy
import enum
import re
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

from .api import AttrTypeCodec, OpModel
from .hooks import DecodeHook, HookedOpModel, HookRecord, NoteHook, OpNote, WriteCheck

if TYPE_CHECKING:
    from ..ir.module import Module
    from ..syntax.aliases import AliasRule, AliasRuleTable
    from ..syntax.attr_parser import DialectSyntax
    from .asm.api import OpSyntax
    from .kinds import KindModel
    from .views import DialectView, ViewHook

_ALIAS_HEAD_RE = re.compile(r"[#!][A-Za-z_][A-Za-z0-9_$]*\.[A-Za-z0-9_$.]+")

OpProvider = Callable[[str], "OpModel | None"]
"""A dialect's lazy op source: full op name -> model (None if the dialect has no such op)."""
SyntaxProvider = Callable[[str], "OpSyntax | None"]
"""A dialect's lazy source of op syntax models (custom assembly forms): full op name -> model or None."""

OpVerifierModel = object
"""A hand-written op verifier (`verifier.core.OpVerifier`, or None to switch one off): the registry keeps
it without looking inside, so models need not import the verifier."""


class Kind(enum.Enum):
    """What a registration is for."""

    OP = "op"
    DIALECT = "dialect"
    ATTR_CODEC = "attr"
    TYPE_CODEC = "type"
    SYNTAX = "syntax"
    ATTR_KIND = "attr-kind"
    TYPE_KIND = "type-kind"
    VERIFIER = "verifier"
    OP_SYNTAX = "op-syntax"
    SYNTAX_PROVIDER = "syntax-provider"
    VIEW = "view"


M = TypeVar("M")


def _label(kind: Kind, name: str, model_set: str | None) -> str:
    return f"{kind.value}:{name}" + (f" [{model_set}]" if model_set else "")


@dataclass(frozen=True)
class Replaced:
    """A registration that a later one replaced: what it was and where it came from."""

    kind: Kind
    name: str
    origin: str
    model_set: str | None = None

    @property
    def label(self) -> str:
        return _label(self.kind, self.name, self.model_set)


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
    model_set: str | None = None
    """The model set this registration serves; None: every set."""

    @property
    def label(self) -> str:
        """`op:arith.addi`, `dialect:arith [mlir24]`, `attr:quant`, `type:quant`, `syntax:vhlo`,
        `attr-kind:vhlo.tensor_v1`: for people, never parsed."""
        return _label(self.kind, self.name, self.model_set)

    def as_replaced(self) -> list[Replaced]:
        return [Replaced(self.kind, self.name, self.origin, self.model_set), *self.replaced]


class _Table(Generic[M]):
    """The registrations of one kind: per name, one for every set (key None) and overrides per set."""

    def __init__(self) -> None:
        self._by_name: dict[str, dict[str | None, Registration[M]]] = {}

    def put(self, reg: Registration[M]) -> Registration[M]:
        slots = self._by_name.setdefault(reg.name, {})
        if reg.model_set is None:
            # Serves every set from now on: replaces the all-sets registration and every override.
            olds = [slots[k] for k in sorted(slots, key=lambda k: (k is not None, k or ""))]
            reg.replaced = list(dict.fromkeys(r for old in olds for r in old.as_replaced()))
            slots.clear()
        else:
            old = slots.get(reg.model_set) or slots.get(None)
            reg.replaced = old.as_replaced() if old is not None else []
        slots[reg.model_set] = reg
        return reg

    def get(self, name: str, model_set: str | None) -> Registration[M] | None:
        slots = self._by_name.get(name)
        if slots is None:
            return None
        return (slots.get(model_set) if model_set is not None else None) or slots.get(None)

    def names(self, model_set: str | None) -> list[str]:
        return [n for n, slots in self._by_name.items() if None in slots or model_set in slots]

    def values(self) -> Iterator[Registration[M]]:
        for slots in list(self._by_name.values()):
            yield from list(slots.values())


@dataclass
class Lookup:
    """The answer to "who decodes this op": a model with its origin, or the reason there is none."""

    model: OpModel | None
    origin: str = ""
    reason: str = ""


@dataclass
class SyntaxLookup:
    """The answer to "who prints this op in its custom form": a syntax model with its origin, or None."""

    model: OpSyntax | None
    origin: str = ""


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
        self._ops: _Table[OpModel] = _Table()
        self._dialects: _Table[OpProvider] = _Table()
        self._attr_codecs: _Table[AttrTypeCodec] = _Table()
        self._type_codecs: _Table[AttrTypeCodec] = _Table()
        self._syntaxes: _Table[DialectSyntax] = _Table()
        self._attr_kinds: _Table[KindModel] = _Table()
        self._type_kinds: _Table[KindModel] = _Table()
        self._op_syntaxes: _Table[OpSyntax] = _Table()
        self._syntax_providers: _Table[SyntaxProvider] = _Table()
        self._syntax_cache: dict[tuple[str | None, str], SyntaxLookup] = {}
        self._views: _Table[DialectView] = _Table()
        self._view_hooks: dict[str, list[HookRecord[ViewHook]]] = {}
        self._decode_hooks: dict[str, list[HookRecord[DecodeHook]]] = {}
        self._note_hooks: dict[str, list[HookRecord[NoteHook]]] = {}
        self._write_checks: dict[str, list[HookRecord[WriteCheck]]] = {}
        self._alias_rules: dict[str, dict[str | None, tuple[AliasRule, str]]] = {}
        self._stripped: dict[tuple[str, str], dict[str | None, tuple[str, str]]] = {}
        """(outer head, parameter) -> {model set: (the head of the value it holds, origin)}."""
        self._verifiers: _Table[OpVerifierModel] = _Table()
        self._disabled_dialects: set[str] = set()
        self._disabled_ops: set[str] = set()
        self._caches: dict[str | None, dict[str, Lookup]] = {}
        self._lock = threading.RLock()
        self.loaded_dialects: set[str] = set()
        """Dialects whose op provider has been asked at least once (to show laziness)."""
        self.problems: list[ModelProblem] = []
        """Model sources that failed while this registry was built; reported, never fatal."""
        self.model_set: str | None = None
        """The model set lookups use (`with_set`); None: only registrations for every set."""
        self.model_set_note = ""
        """Why this set was chosen (for `mlirbc info` and hover), set by `with_set`."""
        self._op_cache = self._caches.setdefault(None, {})

    def with_set(self, model_set: str | None, note: str = "") -> Registry:
        """A view of this registry whose lookups use `model_set`.  It shares every registration, disable,
        problem and loaded-dialect record with this registry (a later registration is seen by both)."""
        view = copy.copy(self)
        view.model_set = model_set
        view.model_set_note = note
        with self._lock:
            view._op_cache = self._caches.setdefault(model_set, {})
        return view

    def for_file(self, producer: str, dialect_versions: Mapping[str, bytes | None]) -> Registry:
        """This registry bound to the model set a file of this producer uses (`sets.choose_set`), unless
        it is bound already (a set the user forced)."""
        if self.model_set is not None:
            return self
        from .sets import choose_set

        choice = choose_set(producer, dialect_versions)
        return self.with_set(choice.name, choice.note)

    # -- registration -------------------------------------------------------------------------
    def _put(self, table: _Table[M], reg: Registration[M]) -> Registration[M]:
        with self._lock:
            table.put(reg)
            for cache in self._caches.values():
                cache.clear()
            self._syntax_cache.clear()
            return reg

    def register_op(self, model: OpModel, origin: str,
                    model_set: str | None = None) -> Registration[OpModel]:
        """Register one op's model.  If a dialect provider already serves that op, the new registration's
        `replaced` chain names the provider (what the op used to come from)."""
        with self._lock:
            reg = self._put(self._ops, Registration(Kind.OP, model.name, model, origin, model_set=model_set))
            if not reg.replaced:
                dreg = self._dialects.get(model.name.split(".", 1)[0], model_set)
                if dreg is not None and _provider_has(dreg.model, model.name):
                    reg.replaced = dreg.as_replaced()
            return reg

    def register_dialect(self, dialect: str, provider: OpProvider, origin: str,
                         model_set: str | None = None) -> Registration[OpProvider]:
        return self._put(self._dialects, Registration(Kind.DIALECT, dialect, provider, origin,
                                                      model_set=model_set))

    def register_attr_codec(self, codec: AttrTypeCodec, origin: str,
                            model_set: str | None = None) -> Registration[AttrTypeCodec]:
        return self._put(self._attr_codecs, Registration(Kind.ATTR_CODEC, codec.dialect, codec, origin,
                                                         model_set=model_set))

    def register_type_codec(self, codec: AttrTypeCodec, origin: str,
                            model_set: str | None = None) -> Registration[AttrTypeCodec]:
        return self._put(self._type_codecs, Registration(Kind.TYPE_CODEC, codec.dialect, codec, origin,
                                                         model_set=model_set))

    def register_syntax(self, dialect: str, syntax: DialectSyntax, origin: str,
                        model_set: str | None = None) -> Registration[DialectSyntax]:
        """How the text parser reads `#dialect...`/`!dialect...` (structured values, `models.kinds`)."""
        return self._put(self._syntaxes, Registration(Kind.SYNTAX, dialect, syntax, origin,
                                                      model_set=model_set))

    def register_op_syntax(self, model: OpSyntax, origin: str,
                           model_set: str | None = None) -> Registration[OpSyntax]:
        """Register how one op prints and parses in its custom assembly form (replacing any earlier
        syntax of that op, the dialect's data-driven one included)."""
        return self._put(self._op_syntaxes, Registration(Kind.OP_SYNTAX, model.name, model, origin,
                                                         model_set=model_set))

    def register_syntax_provider(self, dialect: str, provider: SyntaxProvider, origin: str,
                                 model_set: str | None = None) -> Registration[SyntaxProvider]:
        """A dialect's lazy source of op syntax models (generated syntax data), asked per op name."""
        return self._put(self._syntax_providers, Registration(Kind.SYNTAX_PROVIDER, dialect, provider,
                                                              origin, model_set=model_set))

    def syntax_provider(self, dialect: str, model_set: str | None = None) -> SyntaxProvider | None:
        """The dialect's current lazy source of op syntax models (for a plugin that adds ops to it)."""
        reg = self._syntax_providers.get(dialect, model_set)
        return reg.model if reg is not None else None

    def op_syntax(self, full_name: str) -> SyntaxLookup:
        """The custom assembly form of an op (model None: the op prints generic).  A disabled op or
        dialect has none."""
        key = (self.model_set, full_name)
        hit = self._syntax_cache.get(key)
        if hit is not None:
            return hit
        with self._lock:
            result = self._lookup_syntax(full_name)
            self._syntax_cache[key] = result
            return result

    def _lookup_syntax(self, full_name: str) -> SyntaxLookup:
        dialect = full_name.split(".", 1)[0]
        if dialect in self._disabled_dialects or full_name in self._disabled_ops:
            return SyntaxLookup(None)
        reg = self._op_syntaxes.get(full_name, self.model_set)
        if reg is not None:
            return SyntaxLookup(reg.model, reg.origin)
        preg = self._syntax_providers.get(dialect, self.model_set)
        if preg is None:
            return SyntaxLookup(None)
        try:
            model = preg.model(full_name)
        except Exception:  # a provider's failure means: no custom form for this op
            model = None
        return SyntaxLookup(model, preg.origin if model is not None else "")

    def register_attr_kind(self, kind: KindModel, origin: str) -> Registration[KindModel]:
        """Replace one attribute kind (`vhlo.tensor_v1`) of a dialect whose codec dispatches on kinds."""
        name = f"{kind.dialect}.{kind.name}"
        return self._put(self._attr_kinds, Registration(Kind.ATTR_KIND, name, kind, origin))

    def register_type_kind(self, kind: KindModel, origin: str) -> Registration[KindModel]:
        """Replace one type kind (`vhlo.tensor_v1`) of a dialect whose codec dispatches on kinds."""
        name = f"{kind.dialect}.{kind.name}"
        return self._put(self._type_kinds, Registration(Kind.TYPE_KIND, name, kind, origin))

    def register_verifier(self, op_name: str, verifier: OpVerifierModel, origin: str,
                          model_set: str | None = None) -> Registration[OpVerifierModel]:
        """Replace the hand-written verifier of one op (`func.return`); None switches it off.  The
        verifier's own built-in checks serve every op nobody registered one for."""
        return self._put(self._verifiers, Registration(Kind.VERIFIER, op_name, verifier, origin,
                                                       model_set=model_set))

    def verifier_registration(self, op_name: str) -> Registration[OpVerifierModel] | None:
        return self._verifiers.get(op_name, self.model_set)
    def register_view(self, view: DialectView, origin: str,
                      model_set: str | None = None) -> Registration[DialectView]:
        """A dialect-level view (`models.views`), by its name (`stablehlo`): `--form auto` shows a module
        in the first registered view that applies to it."""
        return self._put(self._views, Registration(Kind.VIEW, view.name, view, origin, model_set=model_set))

    def view(self, name: str) -> tuple[DialectView, str] | None:
        """The view of that name and its origin (None: none, or its stored dialect is disabled)."""
        reg = self._views.get(name, self.model_set)
        if reg is None or reg.model.stored_dialect in self._disabled_dialects:
            return None
        return reg.model, reg.origin

    def view_for(self, module: Module) -> tuple[DialectView, str] | None:
        """The first view that applies to `module` (None: the module is shown as stored)."""
        for name in self._views.names(self.model_set):
            hit = self.view(name)
            if hit is not None and hit[0].applies(module):
                return hit
        return None

    def add_view_hook(self, view: str, hook: ViewHook, origin: str) -> None:
        """Call `hook` after the view `view` converts each op (see `models.views.ViewHook`)."""
        with self._lock:
            self._view_hooks.setdefault(view, []).append(HookRecord(f"view:{view}", hook, origin))

    def view_hooks(self, view: str) -> list[HookRecord[ViewHook]]:
        return list(self._view_hooks.get(view, ()))

    def add_decode_hook(self, op_name: str, hook: DecodeHook, origin: str) -> None:
        """Wrap the property decoding of one op (`vhlo.add_v1`): the hook gets the reader and the model's
        own decode, and returns the values (see `models.hooks`).  Hooks stack, the latest outermost."""
        with self._lock:
            self._decode_hooks.setdefault(op_name, []).append(HookRecord(f"decode:{op_name}", hook, origin))
            for cache in self._caches.values():
                cache.clear()

    def add_note_hook(self, target: str, hook: NoteHook, origin: str) -> None:
        """Add notes (hover lines, another spelling, a symbol name) to the ops of a dialect (`vhlo`) or to
        one op (`vhlo.func_v1`)."""
        with self._lock:
            self._note_hooks.setdefault(target, []).append(HookRecord(f"note:{target}", hook, origin))

    def register_alias(self, head: str, rule: AliasRule, origin: str, model_set: str | None = None) -> None:
        """How the values printed `head<...>` (`#hal.executable.target`, `!dialect.mnemonic` for a type)
        are aliased: a fixed name or a function of their text (`syntax.aliases.AliasRule`).  The same
        rules as for registrations: a later one for every set replaces all, one for a set overrides."""
        if not _ALIAS_HEAD_RE.fullmatch(head):
            raise ValueError(f"alias rule head {head!r} is not '#dialect.mnemonic' or '!dialect.mnemonic'")
        with self._lock:
            slots = self._alias_rules.setdefault(head, {})
            if model_set is None:
                slots.clear()
            slots[model_set] = (rule, origin)

    def register_stripped_parameter(self, outer: str, parameter: str, inner: str, origin: str,
                                    model_set: str | None = None) -> None:
        """A parameter the dialect prints stripped (`printStrippedAttrOrType`): `parameter = <...>` in the
        values printed `outer<...>` holds a value printed `inner<...>` in full, which the view prints as
        its alias where it has one (`syntax.aliases.StrippedParameters`).  Replaced as alias rules are."""
        for head in (outer, inner):
            if not _ALIAS_HEAD_RE.fullmatch(head) or not head.startswith("#"):
                raise ValueError(f"stripped parameter head {head!r} is not '#dialect.mnemonic'")
        with self._lock:
            slots = self._stripped.setdefault((outer, parameter), {})
            if model_set is None:
                slots.clear()
            slots[model_set] = (inner, origin)

    def alias_rules(self) -> AliasRuleTable:
        """The alias rules and stripped parameters of this registry's model set (disabled dialects have
        none)."""
        from ..syntax.aliases import AliasRuleTable

        out = AliasRuleTable()
        for head, slots in list(self._alias_rules.items()):
            hit = (slots.get(self.model_set) if self.model_set is not None else None) or slots.get(None)
            if hit is not None and head[1:].split(".", 1)[0] not in self._disabled_dialects:
                out[head] = hit[0]
        stripped: dict[str, dict[str, str]] = {}
        for (outer, parameter), found in list(self._stripped.items()):
            got = (found.get(self.model_set) if self.model_set is not None else None) or found.get(None)
            if got is not None and outer[1:].split(".", 1)[0] not in self._disabled_dialects:
                stripped.setdefault(outer, {})[parameter] = got[0]
        out.stripped = stripped
        return out

    def add_write_check(self, dialect: str, check: WriteCheck, origin: str) -> None:
        """A check of a whole module before it is written (skipped while `dialect` is disabled)."""
        with self._lock:
            self._write_checks.setdefault(dialect, []).append(
                HookRecord(f"write-check:{dialect}", check, origin))

    def write_problems(self, module: Module, producer: str, version: int) -> list[str]:
        """What the write checks refuse in `module` (empty: it may be written)."""
        out: list[str] = []
        for dialect, checks in list(self._write_checks.items()):
            if dialect in self._disabled_dialects:
                continue
            for rec in checks:
                out.extend(rec.call_check(module, producer, version))
        return out

    def disable(self, spec: str | DisableSpec) -> None:
        """Disable a dialect or one op (see `parse_disable_spec`): those ops decode as fallbacks, and a
        disabled dialect's attribute/type codecs are not used."""
        d = parse_disable_spec(spec) if isinstance(spec, str) else spec
        with self._lock:
            if d.op is None:
                self._disabled_dialects.add(d.dialect)
            else:
                self._disabled_ops.add(d.op)
            for cache in self._caches.values():
                cache.clear()
            self._syntax_cache.clear()

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

    def has_op(self, full_name: str) -> bool:
        """Whether `op(full_name).model` is not None, answered from the dialect provider's index where it
        keeps one (`has_op`): a view asks this of every op name it prints, and building a model it does
        not use then was most of the models a first open built."""
        hit = self._op_cache.get(full_name)
        if hit is not None:
            return hit.model is not None
        dialect = full_name.split(".", 1)[0]
        if full_name in self._disabled_ops or dialect in self._disabled_dialects:
            return False
        if self._ops.get(full_name, self.model_set) is not None:
            return True
        dreg = self._dialects.get(dialect, self.model_set)
        if dreg is None:
            return False
        probe = getattr(dreg.model, "has_op", None)
        if callable(probe):
            return bool(probe(full_name))
        return self.op(full_name).model is not None

    def _lookup_op(self, full_name: str) -> Lookup:
        dialect = full_name.split(".", 1)[0]
        if full_name in self._disabled_ops:
            return Lookup(None, reason=f"model disabled (--disable-model {full_name})")
        if dialect in self._disabled_dialects:
            return Lookup(None, reason=f"model disabled (--disable-model {dialect})")
        reg = self._ops.get(full_name, self.model_set)
        if reg is not None:
            return Lookup(self._hooked(reg.model), reg.origin)
        dreg = self._dialects.get(dialect, self.model_set)
        if dreg is None:
            return Lookup(None, reason=f"no model for dialect '{dialect}'")
        self.loaded_dialects.add(dialect)
        model = dreg.model(full_name)
        if model is None:
            return Lookup(None, reason=f"the '{dialect}' model ({dreg.origin}) has no op '{full_name}'")
        return Lookup(self._hooked(model), dreg.origin)

    def _hooked(self, model: OpModel) -> OpModel:
        hooks = self._decode_hooks.get(model.name)
        return HookedOpModel(model, list(hooks)) if hooks else model

    def attr_codec(self, dialect: str) -> tuple[AttrTypeCodec | None, str]:
        reg = self._attr_codecs.get(dialect, self.model_set)
        if reg is None or dialect in self._disabled_dialects:
            return None, ""
        return reg.model, reg.origin

    def type_codec(self, dialect: str) -> tuple[AttrTypeCodec | None, str]:
        reg = self._type_codecs.get(dialect, self.model_set)
        if reg is None or dialect in self._disabled_dialects:
            return None, ""
        return reg.model, reg.origin

    def syntax(self, dialect: str) -> DialectSyntax | None:
        """The text syntax of a dialect's structured values (None: kept as text, or disabled)."""
        reg = self._syntaxes.get(dialect, self.model_set)
        if reg is None or dialect in self._disabled_dialects:
            return None
        return reg.model

    def attr_kind(self, dialect: str, name: str) -> KindModel | None:
        """A registered replacement of one attribute kind (None: the dialect's own kind stands)."""
        reg = self._attr_kinds.get(f"{dialect}.{name}", self.model_set)
        return reg.model if reg is not None else None

    def type_kind(self, dialect: str, name: str) -> KindModel | None:
        reg = self._type_kinds.get(f"{dialect}.{name}", self.model_set)
        return reg.model if reg is not None else None

    def has_note_hooks(self) -> bool:
        """Whether any note hook is registered (features skip their per-op walk otherwise)."""
        return bool(self._note_hooks)

    def op_notes(self, op: object, op_name: str) -> list[OpNote]:
        """What the note hooks say about one op (dialect hooks first, then the op's own); a failing hook
        is skipped and counted as such."""
        dialect = op_name.split(".", 1)[0]
        out: list[OpNote] = []
        if self.is_disabled(dialect, op_name):
            return out
        for rec in [*self._note_hooks.get(dialect, ()), *self._note_hooks.get(op_name, ())]:
            note = rec.call_note(op)
            if note is not None:
                out.append(note)
        return out

    def hooks(self) -> list[HookRecord[DecodeHook] | HookRecord[NoteHook] | HookRecord[WriteCheck]
                            | HookRecord[ViewHook]]:
        """Every hook with its origin and how often it ran (and failed), for `mlirbc info`."""
        out: list[HookRecord[DecodeHook] | HookRecord[NoteHook] | HookRecord[WriteCheck]
                  | HookRecord[ViewHook]] = []
        for d in self._decode_hooks.values():
            out.extend(d)
        for n in self._note_hooks.values():
            out.extend(n)
        for c in self._write_checks.values():
            out.extend(c)
        for v in self._view_hooks.values():
            out.extend(v)
        return out

    # -- what is registered (for this view's set) ------------------------------------------------
    def op_registration(self, full_name: str) -> Registration[OpModel] | None:
        return self._ops.get(full_name, self.model_set)

    def dialect_registration(self, dialect: str) -> Registration[OpProvider] | None:
        return self._dialects.get(dialect, self.model_set)

    def attr_codec_registration(self, dialect: str) -> Registration[AttrTypeCodec] | None:
        return self._attr_codecs.get(dialect, self.model_set)

    def type_codec_registration(self, dialect: str) -> Registration[AttrTypeCodec] | None:
        return self._type_codecs.get(dialect, self.model_set)

    def dialect_names(self) -> list[str]:
        """Dialects with an op provider, sorted."""
        return sorted(self._dialects.names(self.model_set))

    def op_names(self) -> set[str]:
        """Every op name a model is registered for: single ops, and what each provider can list."""
        names = set(self._ops.names(self.model_set))
        for dialect in self._dialects.names(self.model_set):
            reg = self._dialects.get(dialect, self.model_set)
            lister = getattr(reg.model, "op_names", None) if reg is not None else None
            if callable(lister):
                try:
                    names.update(str(n) for n in lister())
                except Exception:  # a provider that cannot list still serves lookups
                    pass
        return names

    def syntax_registration(self, dialect: str) -> Registration[DialectSyntax] | None:
        return self._syntaxes.get(dialect, self.model_set)

    def registrations(self) -> Iterator[Registration[OpModel] | Registration[OpProvider]
                                        | Registration[AttrTypeCodec] | Registration[DialectSyntax]
                                        | Registration[KindModel] | Registration[OpVerifierModel]
                                        | Registration[OpSyntax] | Registration[SyntaxProvider]
                                        | Registration[DialectView]]:
        """Every current registration, of every kind and set (for `mlirbc info` and the server)."""
        yield from self._ops.values()
        yield from self._dialects.values()
        yield from self._attr_codecs.values()
        yield from self._type_codecs.values()
        yield from self._syntaxes.values()
        yield from self._attr_kinds.values()
        yield from self._type_kinds.values()
        yield from self._verifiers.values()
        yield from self._op_syntaxes.values()
        yield from self._syntax_providers.values()
        yield from self._views.values()

    def has_dialect(self, dialect: str) -> bool:
        return self._dialects.get(dialect, self.model_set) is not None


def _provider_has(provider: OpProvider, full_name: str) -> bool:
    # Providers that can answer from an index (ODS data) do so without loading the dialect.
    has_op = getattr(provider, "has_op", None)
    if callable(has_op):
        return bool(has_op(full_name))
    try:
        return provider(full_name) is not None
    except Exception:  # a provider's failure only means we cannot say what was replaced
        return False
