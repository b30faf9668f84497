"""Hooks: extend a registered model without replacing it.

Replacing a model (`Registry.register_op`, `register_attr_kind`) is the last resort: a plugin that only
wants to add something registers a hook instead.

* a **decode hook** wraps one op's property decoding: `hook(reader, decode) -> values`, where `decode` is
  the model's own decoding (or the next hook's); it may inspect, check or annotate the values, or fall back
  to its own reading (`Registry.add_decode_hook`);
* a **note hook** says more about the ops of a dialect or one op: `hook(op) -> OpNote | None`, with hover
  paragraphs, another spelling of the op (shown as an inlay hint) and the symbol name the op defines (for the
  outline) (`Registry.add_note_hook`);
* a **view hook** of a dialect-level view (`models.views`) sees each op the view converts, either way:
  `hook(source op, converted op) -> replacement | None` (`Registry.add_view_hook`);
* a **write check** of a dialect looks at a whole module before it is written: `check(module, producer,
  version) -> problems`; any problem refuses the write (`Registry.add_write_check`; the StableHLO model
  refuses ops, attributes and types that do not exist at the file's target version).

Every hook is kept with its origin and counts how often it ran and failed; `mlirbc info` lists them.  A note
hook that raises is skipped (counted as failed); a decode hook that raises makes the op a fallback, like a
failing model.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

from ..ir.attributes import Attribute
from .api import EntryReader, EntryWriter, OpInfo, OpModel

if TYPE_CHECKING:
    from ..ir.module import Module
    from ..ir.operation import Operation
    from .views import ViewHook

Decode = Callable[[EntryReader], dict[str, Attribute]]
DecodeHook = Callable[[EntryReader, Decode], dict[str, Attribute]]
"""`hook(reader, decode)`: return the op's property values, normally `decode(reader)` (possibly checked or
changed); `reader` is positioned at the start of the payload."""


@dataclass
class OpNote:
    """What a note hook says about one op; every field is optional."""

    lines: list[str] = field(default_factory=list)
    """Markdown paragraphs for the op's hover."""
    spelling: str | None = None
    """Another spelling of the op (e.g. its StableHLO form), shown as an inlay hint and in the hover."""
    symbol: str | None = None
    """The name of the symbol the op defines, when its model keeps it somewhere the outline cannot see
    (a vhlo `func_v1` keeps `sym_name` as a `#vhlo.string_v1`)."""
    symbol_kind: str = "function"
    """What kind of symbol (`function`, `variable`, `module`, ...) for the outline."""


NoteHook = Callable[["Operation"], OpNote | None]
WriteCheck = Callable[["Module", str, int], list[str]]
"""`check(module, producer, bytecode version)`: what in the module cannot be written (empty: fine)."""

H = TypeVar("H")


@dataclass
class HookRecord(Generic[H]):
    """One registered hook: what it hooks (`decode:vhlo.add_v1`, `note:vhlo`), where it came from, and
    how often it ran."""

    label: str
    hook: H
    origin: str
    runs: int = 0
    failures: int = 0
    last_error: str = ""

    def call_note(self: HookRecord[NoteHook], op: Operation) -> OpNote | None:
        self.runs += 1
        try:
            return self.hook(op)
        except Exception as exc:  # a plugin's bug must not break hover
            self.failures += 1
            self.last_error = f"{type(exc).__name__}: {exc}"
            return None

    def call_check(self: HookRecord[WriteCheck], module: Module, producer: str, version: int) -> list[str]:
        self.runs += 1
        try:
            return list(self.hook(module, producer, version))
        except Exception as exc:  # a broken check refuses nothing, but is reported
            self.failures += 1
            self.last_error = f"{type(exc).__name__}: {exc}"
            return []

    def call_view(self: HookRecord[ViewHook], source: Operation, converted: Operation) -> Operation | None:
        self.runs += 1
        try:
            return self.hook(source, converted)
        except Exception as exc:  # a broken hook changes nothing, but is reported
            self.failures += 1
            self.last_error = f"{type(exc).__name__}: {exc}"
            return None

    def wrap(self: HookRecord[DecodeHook], inner: Decode) -> Decode:
        def decode(r: EntryReader) -> dict[str, Attribute]:
            self.runs += 1
            try:
                return self.hook(r, inner)
            except Exception as exc:
                self.failures += 1
                self.last_error = f"{type(exc).__name__}: {exc}"
                raise

        return decode

    def summary(self) -> dict[str, object]:
        return {"hook": self.label, "origin": self.origin, "runs": self.runs, "failures": self.failures,
                **({"last_error": self.last_error} if self.last_error else {})}


class HookedOpModel:
    """An op model whose property decoding runs through decode hooks (the registry hands these out)."""

    def __init__(self, inner: OpModel, hooks: list[HookRecord[DecodeHook]]) -> None:
        self.inner = inner
        self.name = inner.name
        self.hooks = hooks

    # The optional parts of a layout model that the writer asks for (by getattr) pass through.
    @property
    def attributes(self) -> object:
        return getattr(self.inner, "attributes", ())

    @property
    def natives(self) -> object:
        return getattr(self.inner, "natives", ())

    def accepts_dialect_version(self, version: bytes) -> bool:
        accepts = getattr(self.inner, "accepts_dialect_version", None)
        return bool(accepts(version)) if callable(accepts) else False

    def info(self) -> OpInfo:
        return self.inner.info()

    def has_properties(self) -> bool:
        return self.inner.has_properties()

    def decode_properties(self, r: EntryReader) -> dict[str, Attribute]:
        decode: Decode = self.inner.decode_properties
        for rec in self.hooks:
            decode = rec.wrap(decode)
        return decode(r)

    def encode_properties(self, values: dict[str, Attribute], w: EntryWriter) -> None:
        self.inner.encode_properties(values, w)
