"""Aliases of the pretty view: which attributes, types and locations print as `#name` / `!name`, defined
once at the top of the text (or, for locations, after the module), as mlir-opt prints without
`--mlir-print-local-scope`.

A port of upstream's AliasInitializer: the view walks the module as it will print it (each op's location
first, then what its syntax model prints, regions where the model prints them; a generic op's regions,
operand and result types, then its attribute dictionary) and `AliasCollector.visit`s every attribute, type
and location printed.  A value gets the name its dialect's alias rule gives it
(`models.asm.aliases`, registered per dialect); what it holds is visited first, so a value's depth is one
more than the deepest alias inside it.  Aliases are ordered by depth, types before attributes, then name,
then first visit; equal names are numbered (`#map`, `#map1`; `#x1_1` after a name ending in a digit).
Locations of ops may be defined after the module (deferred); a location also met where it cannot be
deferred (a block argument's) is not, nor is anything it holds.

`AliasState` is the printers' hook (`syntax.attr_printer.alias_scope`): the alias of each value, and the
text of values known only by their text (`DialectAttr`) with the aliases of the values written inside
them.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass, field

from ..ir.attributes import (
    ArrayAttr,
    Attribute,
    CallSiteLoc,
    DenseArrayAttr,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    DenseStringElementsAttr,
    DialectAttr,
    DictionaryAttr,
    DistinctAttr,
    FileLineColLoc,
    FileLineColRange,
    FlatSymbolRefAttr,
    FloatAttr,
    FusedLoc,
    IntegerAttr,
    NameLoc,
    SparseElementsAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
    UnknownLoc,
)
from ..ir.structured import StructuredAttr, StructuredType
from ..ir.types import (
    ComplexType,
    DialectType,
    FloatType,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    NoneType,
    RankedTensorType,
    TupleType,
    Type,
    UnrankedMemRefType,
    UnrankedTensorType,
    VectorType,
)
from ..models.asm.aliases import closing_bracket, sanitize_alias, value_dialect
from ..models.registry import Registry
from ..syntax.attr_printer import Caches, ElisionHook, is_identity_layout

Value = Attribute | Type


# ================================================================================================
# What a value holds, in print order
# ================================================================================================

def _typed_children(a: Attribute) -> list[Value]:
    t = getattr(a, "type", None)
    if isinstance(t, Type) and not isinstance(t, NoneType):
        return [t]
    return []


def children(value: Value, elide_type: bool = False) -> list[Value]:
    """The attributes and types printing `value` prints through the printer (DummyAliasDialectAsmPrinter:
    builtin values by their structure, dialect values as their printer writes them)."""
    if isinstance(value, Type):
        if isinstance(value, StructuredType):
            return _field_values(value.fields)
        if isinstance(value, DialectType):
            return [v for _, _, v in nested_literals(value.text)]
        if isinstance(value, MemRefType):
            out: list[Value] = [value.element]
            if value.layout is not None and not is_identity_layout(value.layout, len(value.shape)):
                out.append(value.layout)
            if value.memory_space is not None:
                out.append(value.memory_space)
            return out
        if isinstance(value, RankedTensorType):
            return [value.element] if value.encoding is None else [value.element, value.encoding]
        if isinstance(value, UnrankedTensorType | VectorType | ComplexType):
            return [value.element]
        if isinstance(value, UnrankedMemRefType):
            return [value.element] if value.memory_space is None else [value.element, value.memory_space]
        if isinstance(value, FunctionType):
            return [*value.inputs, *value.results]
        if isinstance(value, TupleType):
            return list(value.types)
        return []
    a = value
    if isinstance(a, StructuredAttr):
        return _field_values(a.fields)
    if isinstance(a, DialectAttr):
        if a.dialect_name == "builtin":
            return []  # affine maps, integer sets, layouts: nothing printed through the printer
        return [v for _, _, v in nested_literals(a.text)]
    if isinstance(a, DistinctAttr):
        return [a.referenced]
    if isinstance(a, DictionaryAttr):
        return [v for _, v in a.entries]
    if isinstance(a, ArrayAttr):
        return list(a.elements)
    if isinstance(a, TypeAttr):
        return [a.type]
    if isinstance(a, NameLoc):
        return [] if isinstance(a.child, UnknownLoc) else [a.child]
    if isinstance(a, CallSiteLoc):
        return [a.callee, a.caller]
    if isinstance(a, FusedLoc):
        return [*([] if a.metadata is None else [a.metadata]), *a.locations]
    if not elide_type and isinstance(a, DenseElementsAttr | DenseStringElementsAttr | SparseElementsAttr |
                                     DenseResourceElementsAttr | StringAttr):
        return _typed_children(a)
    return []


_LEAVES = frozenset([FileLineColLoc, FileLineColRange, UnknownLoc, IntegerAttr, FloatAttr, UnitAttr,
                     DenseArrayAttr, FlatSymbolRefAttr, SymbolRefAttr, IntegerType, IndexType, FloatType,
                     NoneType])
"""Classes that hold no attribute or type the printer prints (nothing to visit inside)."""


def _field_values(fields: tuple[object, ...]) -> list[Value]:
    out: list[Value] = []
    stack: list[object] = list(reversed(fields))
    while stack:
        f = stack.pop()
        if isinstance(f, Attribute | Type):
            out.append(f)
        elif isinstance(f, tuple):
            stack.extend(reversed(f))
    return out


_IDENT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.")


def nested_literals(text: str) -> list[tuple[int, int, Value]]:
    """The dialect attributes and types (`#d.x<...>`, `!d.t`) and affine maps and sets written inside
    the text of a value known by its text, outermost only, with where each is."""
    out: list[tuple[int, int, Value]] = []
    n = len(text)
    i = 0
    if text[:1] in ("#", "!"):
        i = 1
        while i < n and text[i] in _IDENT:
            i += 1
    elif text.startswith(("affine_map<", "affine_set<")):
        i = len("affine_map")
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            continue
        if c in "#!" and i + 1 < n and (text[i + 1].isalpha() or text[i + 1] == "_"):
            j = i + 1
            while j < n and text[j] in _IDENT:
                j += 1
            end = j
            if j < n and text[j] == "<":
                k = closing_bracket(text, j)
                if k < 0:
                    break
                end = k + 1
            literal = text[i:end]
            dialect = text[i + 1:j].split(".", 1)[0]
            value: Value = DialectAttr.get(dialect, literal) if c == "#" else \
                DialectType.get(dialect, literal)
            out.append((i, end, value))
            i = end
            continue
        if c == "a" and text.startswith(("affine_map<", "affine_set<"), i) and \
                (i == 0 or text[i - 1] not in _IDENT):
            j = i + len("affine_map")
            k = closing_bracket(text, j)
            if k < 0:
                break
            out.append((i, k + 1, DialectAttr.get("builtin", text[i:k + 1])))
            i = k + 1
            continue
        i += 1
    return out


# ================================================================================================
# Collecting
# ================================================================================================

class _Info:
    __slots__ = ("value", "name", "depth", "is_type", "deferred", "children")

    def __init__(self, value: Value, name: str | None, deferred: bool) -> None:
        self.value = value
        self.name = name
        self.depth = 1 if name else 0
        self.is_type = isinstance(value, Type)
        self.deferred = deferred
        self.children: list[_Info] = []


class AliasCollector:
    """Visits what a view prints, in print order (AliasInitializer)."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.infos: dict[int, _Info] = {}
        self._rules: dict[str, object] = {}
        self._sanitized: dict[str, str] = {}

    def _alias_name(self, value: Value) -> str | None:
        dialect = value_dialect(value)
        rule = self._rules.get(dialect, _MISSING)
        if rule is _MISSING:
            rule = self.registry.alias_rule(dialect)
            self._rules[dialect] = rule
        if rule is None:
            return None
        try:
            name = rule(value)  # type: ignore[operator]
        except Exception:  # a rule that fails on a value gives it no alias
            return None
        if not isinstance(name, str) or not name:
            return None
        clean = self._sanitized.get(name)
        if clean is None:
            clean = self._sanitized[name] = sanitize_alias(name)
        return clean

    def visit(self, value: Value, deferred: bool = False, elide_type: bool = False) -> None:
        """Visit `value` and, the first time, everything it holds (without recursion: location chains
        can be long)."""
        info = self.infos.get(id(value))
        if info is not None:
            if not deferred and info.deferred:
                _non_deferred(info)
            return
        root = _Info(value, self._alias_name(value), deferred)
        self.infos[id(value)] = root
        if type(value) in _LEAVES:
            return
        stack: list[tuple[_Info, Iterator[Value]]] = [(root, iter(children(value, elide_type)))]
        while stack:
            info, todo = stack[-1]
            child = next(todo, None)
            if child is None:
                stack.pop()
                if stack and info.depth:
                    parent = stack[-1][0]
                    parent.depth = max(parent.depth, info.depth + 1)
                continue
            found = self.infos.get(id(child))
            if found is not None:
                if not deferred:
                    _non_deferred(found)
                info.children.append(found)
                if found.depth:
                    info.depth = max(info.depth, found.depth + 1)
                continue
            new = _Info(child, self._alias_name(child), deferred)
            self.infos[id(child)] = new
            info.children.append(new)
            stack.append((new, iter(children(child))))

    def aliases(self) -> list[tuple[Value, str, bool]]:
        """(value, `#name` or `!name`, deferred) of every aliased value, in definition order."""
        named = [i for i in self.infos.values() if i.name]
        named.sort(key=lambda i: (i.depth, 0 if i.is_type else 1, i.name))
        used: set[str] = set()
        counts: dict[str, int] = {}
        out: list[tuple[Value, str, bool]] = []
        for info in named:
            name = info.name
            assert name is not None
            sigil = "!" if info.is_type else "#"
            if name not in used:
                used.add(name)
                out.append((info.value, sigil + name, info.deferred))
                continue
            base = name + "_" if name[-1].isdigit() else name
            counts.setdefault(base, 1)
            while True:
                index = counts[base]
                counts[base] += 1
                probe = base + str(index)
                if probe not in used:
                    used.add(probe)
                    break
            out.append((info.value, sigil + probe, info.deferred))
        return out


_MISSING = object()


def _non_deferred(info: _Info) -> None:
    stack = [info]
    while stack:
        i = stack.pop()
        if not i.deferred:
            continue
        i.deferred = False
        stack.extend(i.children)


# ================================================================================================
# The printers' hook
# ================================================================================================

@dataclass
class AliasState:
    """The aliases of one printed view (see `syntax.attr_printer.AliasHook`)."""

    names: dict[int, str] = field(default_factory=dict)
    keep: list[object] = field(default_factory=list)
    """The aliased values (keeps their ids valid)."""
    _caches: dict[int, Caches] = field(default_factory=dict)
    _texts: dict[int, str] = field(default_factory=dict)

    def caches(self, el: ElisionHook | None) -> Caches:
        key = id(el)
        found = self._caches.get(key)
        if found is None:
            attrs: MutableMapping[Attribute, str] = {}
            types: MutableMapping[Type, str] = {}
            locs: MutableMapping[Attribute, str] = {}
            found = self._caches[key] = (attrs, types, locs)
        return found

    def dialect_text(self, value: DialectAttr | DialectType) -> str:
        done = self._texts.get(id(value))
        if done is not None:
            return done
        text = value.text
        found = nested_literals(text) if value.dialect_name != "builtin" and \
            ("#" in text[1:] or "!" in text[1:] or "affine_" in text) else []
        if not found:
            self._texts[id(value)] = text
            self.keep.append(value)
            return text
        parts: list[str] = []
        at = 0
        for start, end, v in found:
            parts.append(text[at:start])
            name = self.names.get(id(v))
            if name is not None:
                parts.append(name)
            elif isinstance(v, DialectAttr | DialectType) and v.dialect_name != "builtin":
                parts.append(self.dialect_text(v))
            else:
                parts.append(text[start:end])
            at = end
        parts.append(text[at:])
        out = "".join(parts)
        self._texts[id(value)] = out
        self.keep.append(value)
        return out
