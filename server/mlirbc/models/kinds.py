"""Dialects whose attributes and types are structured kinds (`ir.structured`), dispatched by code.

Most dialects with a custom bytecode encoding (VHLO, the dialects declared in MLIR's bytecode DSL) write
each attribute/type entry as `varint code` followed by that kind's fields.  A `KindModel` owns one kind:
its code(s), how it decodes its fields into a `StructuredAttr`/`StructuredType`, encodes them back (code
included), prints and parses its text.  A `KindDialect` groups a dialect's kinds and is registered as the
dialect's attribute codec, type codec and text syntax (`register_kind_dialect`).  At every use it asks the
registry for a replacement of the kind (`Registry.register_attr_kind`), so a plugin can replace one kind
without touching the others.

Text: the parser hands `#dialect.mnemonic...` / `#dialect<mnemonic ...>` (and `!` for types) to the
dialect's syntax; `KindModel.parse` is called with the parser right after the mnemonic, in both spellings,
and reads the rest of the value (`<...>` in the dotted spelling, ` DEFAULT` in the other).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Protocol

from ..errors import TextError
from ..ir.attributes import Attribute
from ..ir.structured import FieldValue, StructuredAttr, StructuredType
from ..ir.types import Type
from .api import EntryReader, EntryWriter, ModelError

if TYPE_CHECKING:
    # Only for annotations: this module is imported while a registry is built, which must stay cheap.
    from ..syntax.attr_parser import Parser
    from .registry import Registry

__all__ = ["KindDialect", "KindModel", "LazyKindDialect", "field_attr", "field_attrs", "field_bytes",
           "field_int", "field_ints", "field_tuple", "field_type", "field_types", "register_kind_dialect",
           "register_lazy_kind_dialect"]


class KindModel(Protocol):
    """One attribute or type kind of a dialect (see module docstring)."""

    dialect: str
    name: str
    """The mnemonic, as the text spells it."""
    is_type: bool
    codes: tuple[int, ...]
    """The bytecode codes this kind reads (its first varint); several when the encoding has variants."""

    def decode(self, code: int, r: EntryReader) -> Attribute | Type:
        """The value whose encoding follows `code` (already read)."""
        ...

    def encode(self, value: StructuredAttr | StructuredType, w: EntryWriter) -> None:
        """Write `value`, its code first; raise ModelError if it cannot be encoded."""
        ...

    def print_value(self, value: StructuredAttr | StructuredType) -> str: ...

    def parse(self, p: Parser) -> Attribute | Type:
        """Read the rest of a value after its mnemonic (see module docstring)."""
        ...


class KindDialect:
    """A dialect's kinds: its attribute codec, type codec and text syntax in one (see module docstring)."""

    def __init__(self, dialect: str, kinds: Iterable[KindModel], registry: Registry | None = None,
                 strict: bool = True) -> None:
        self.dialect = dialect
        self.registry = registry
        self.strict = strict
        """Whether every value of the dialect is one of these kinds: an unknown mnemonic is then an error;
        otherwise (a dialect with values of its own syntax too, `llvm`) it is left to be kept as text."""
        self.attr_kinds: dict[str, KindModel] = {}
        self.type_kinds: dict[str, KindModel] = {}
        self.attr_codes: dict[int, KindModel] = {}
        self.type_codes: dict[int, KindModel] = {}
        for k in kinds:
            names, codes = (self.type_kinds, self.type_codes) if k.is_type else (self.attr_kinds,
                                                                               self.attr_codes)
            names[k.name] = k
            for c in k.codes:
                codes[c] = k

    def kind(self, name: str, is_type: bool) -> KindModel | None:
        """The kind of that mnemonic: the registry's replacement if there is one, else the dialect's own."""
        if self.registry is not None:
            hit = (self.registry.type_kind if is_type else self.registry.attr_kind)(self.dialect, name)
            if hit is not None:
                return hit
        return (self.type_kinds if is_type else self.attr_kinds).get(name)

    def _by_code(self, code: int, is_type: bool) -> KindModel:
        own = (self.type_codes if is_type else self.attr_codes).get(code)
        if own is None:
            what = "type" if is_type else "attribute"
            raise ModelError(f"unknown {self.dialect} {what} code {code}")
        kind = self.kind(own.name, is_type)
        assert kind is not None
        return kind

    # -- AttrTypeCodec ---------------------------------------------------------------------------
    def decode_attribute(self, r: EntryReader) -> Attribute:
        code = r.varint()
        value = self._by_code(code, False).decode(code, r)
        if not isinstance(value, Attribute):
            raise ModelError(f"{self.dialect} attribute code {code} decoded to a type")
        return value

    def decode_type(self, r: EntryReader) -> Type:
        code = r.varint()
        value = self._by_code(code, True).decode(code, r)
        if not isinstance(value, Type):
            raise ModelError(f"{self.dialect} type code {code} decoded to an attribute")
        return value

    def encode_attribute(self, a: Attribute, w: EntryWriter) -> bool:
        if not isinstance(a, StructuredAttr) or a.kind.dialect != self.dialect:
            return False
        kind = self.kind(a.kind.name, False)
        if kind is None:
            return False
        kind.encode(a, w)
        return True

    def encode_type(self, t: Type, w: EntryWriter) -> bool:
        if not isinstance(t, StructuredType) or t.kind.dialect != self.dialect:
            return False
        kind = self.kind(t.kind.name, True)
        if kind is None:
            return False
        kind.encode(t, w)
        return True

    # -- DialectSyntax ---------------------------------------------------------------------------
    def _parse(self, p: Parser, ident: str, is_type: bool) -> Attribute | Type | None:
        what = "type" if is_type else "attribute"
        start = p.prev_end
        if "." in ident:
            mnemonic = ident.split(".", 1)[1]
            kind = self.kind(mnemonic, is_type)
            if kind is None:
                if not self.strict:
                    return None
                raise TextError(f"unknown {self.dialect} {what} '{mnemonic}'",
                                p.span(start - len(ident) - 1, start))
            return kind.parse(p)
        from ..syntax.lexer import BARE

        tok = p.peek_ahead()
        if p.peek().kind != "<" or tok.kind != BARE or self.kind(tok.text, is_type) is None:
            if not self.strict:
                return None
            p.expect("<", f"expected '<' after '{ident}'")
            raise p.error(f"unknown {self.dialect} {what} '{p.peek().text}'")
        p.advance()
        kind = self.kind(p.advance().text, is_type)
        assert kind is not None
        value = kind.parse(p)
        p.expect(">", f"expected '>' after the {self.dialect} {what}")
        return value

    def parse_attribute(self, p: Parser, ident: str) -> Attribute | None:
        value = self._parse(p, ident, False)
        assert value is None or isinstance(value, Attribute)
        return value

    def parse_type(self, p: Parser, ident: str) -> Type | None:
        value = self._parse(p, ident, True)
        assert value is None or isinstance(value, Type)
        return value


def register_kind_dialect(registry: Registry, dialect: KindDialect, origin: str) -> None:
    """Register a kind dialect as its dialect's attribute codec, type codec and syntax."""
    dialect.registry = registry
    registry.register_attr_codec(dialect, origin)
    registry.register_type_codec(dialect, origin)
    registry.register_syntax(dialect.dialect, dialect, origin)


class LazyKindDialect:
    """Stands for a `KindDialect` built on first use (its tables, and the text syntax modules they import,
    are only loaded when a file or a text actually has values of that dialect): registering stays cheap."""

    def __init__(self, dialect: str, build: Callable[[], KindDialect], registry: Registry,
                 producers: Callable[[str], bool] | None = None) -> None:
        self.dialect = dialect
        self._build = build
        self._registry = registry
        self._built: KindDialect | None = None
        self._producers = producers

    def accepts_producer(self, producer: str) -> bool:
        """Whether this model set knows the encoding `producer` writes (all producers unless given)."""
        return self._producers is None or self._producers(producer)

    def get(self) -> KindDialect:
        if self._built is None:
            built = self._build()
            built.registry = self._registry
            self._built = built
        return self._built

    def decode_attribute(self, r: EntryReader) -> Attribute:
        return self.get().decode_attribute(r)

    def decode_type(self, r: EntryReader) -> Type:
        return self.get().decode_type(r)

    def encode_attribute(self, a: Attribute, w: EntryWriter) -> bool:
        return self.get().encode_attribute(a, w)

    def encode_type(self, t: Type, w: EntryWriter) -> bool:
        return self.get().encode_type(t, w)

    def parse_attribute(self, p: Parser, ident: str) -> Attribute | None:
        return self.get().parse_attribute(p, ident)

    def parse_type(self, p: Parser, ident: str) -> Type | None:
        return self.get().parse_type(p, ident)

    def producer_note(self, producer: str) -> str:
        from .api import producer_note

        return producer_note(self.get(), producer)


def register_lazy_kind_dialect(registry: Registry, dialect: str, build: Callable[[], KindDialect],
                               origin: str, producers: Callable[[str], bool] | None = None,
                               model_set: str | None = None) -> LazyKindDialect:
    """Register a kind dialect that is built the first time it is used; `producers` says which producers'
    files it reads (e.g. `api.up_to_mlir(22)`), `model_set` for which set only (default: every set)."""
    lazy = LazyKindDialect(dialect, build, registry, producers)
    registry.register_attr_codec(lazy, origin, model_set=model_set)
    registry.register_type_codec(lazy, origin, model_set=model_set)
    registry.register_syntax(dialect, lazy, origin, model_set=model_set)
    return lazy


# -- reading fields back with their types ------------------------------------------------------------------
# A structured value's fields are typed loosely (`FieldValue`); kinds read them back through these, which
# check what they get (a value built by a plugin or from text may hold anything) and raise ModelError.

def field_int(v: FieldValue, what: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise ModelError(f"{what} must be an integer")
    return v


def field_type(v: FieldValue, what: str) -> Type:
    if not isinstance(v, Type):
        raise ModelError(f"{what} must be a type")
    return v


def field_attr(v: FieldValue, what: str) -> Attribute:
    if not isinstance(v, Attribute):
        raise ModelError(f"{what} must be an attribute")
    return v


def field_bytes(v: FieldValue, what: str) -> bytes:
    if not isinstance(v, bytes):
        raise ModelError(f"{what} must be bytes")
    return v


def field_tuple(v: FieldValue, what: str) -> tuple[FieldValue, ...]:
    if not isinstance(v, tuple):
        raise ModelError(f"{what} must be a list")
    return v


def field_ints(v: FieldValue, what: str) -> tuple[int, ...]:
    return tuple(field_int(x, what) for x in field_tuple(v, what))


def field_types(v: FieldValue, what: str) -> tuple[Type, ...]:
    return tuple(field_type(x, what) for x in field_tuple(v, what))


def field_attrs(v: FieldValue, what: str) -> tuple[Attribute, ...]:
    return tuple(field_attr(x, what) for x in field_tuple(v, what))
