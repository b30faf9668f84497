"""Aliases of attributes, types and locations (`#map`, `#loc3`, `!tuple`, `#di_file`), decided and named as
MLIR's printer does it, and the scope the attribute printer consults to print them.

MLIR prints a module twice: a first pass visits every attribute, type and location the real print will
show, in the order of that print (`AliasCollector.visit`, fed by the op printer of the view: see
`view.aliasing`); the values a dialect names (`OpAsmDialectInterface::getAlias`) get aliases; then the
real print writes each aliased value as its alias, and the definitions: those some block argument or
attribute needs before the module (not deferrable), the rest (locations only ops use) after it.

Facts followed (upstream `AsmPrinter.cpp` and `BuiltinDialect.cpp`; checked against `mlir-opt` 22.1.8 and
`iree-opt` 3.13 on the corpus):

* names: every builtin location is `loc`, an affine map `map`, an integer set `set`, a distinct attribute
  of a non-unit value `distinct`, a tuple of more than 16 types `tuple`; dialect values by the rules the
  models register (`AliasRule`, keyed by the value's `#dialect.mnemonic`), the name sanitized;
* what a value holds is visited in the order it prints (dialect values: by printing them, `print_collecting`;
  values kept as text: the nested `#dialect.x<...>`, `affine_map<...>`, `affine_set<...>` and `!dialect.x`
  in their text, `nested_values`);
* depth: a value with an alias and no aliased part is 1; anything holding aliased parts is one more than
  the deepest of them; definitions are ordered by depth, types before attributes, then name, then first
  visit; equal names are numbered in that order (`#loc`, `#loc1`, ...; `#x1`, `#x1_1` after a trailing
  digit; a number never makes a name already in use);
* deferral: a location visited as an op's location may print after the module; one visited anywhere else
  (a block argument's location, an attribute) makes it and everything it holds print before.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from itertools import groupby

from ..ir.attributes import (
    ArrayAttr,
    Attribute,
    CallSiteLoc,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    DenseStringElementsAttr,
    DialectAttr,
    DictionaryAttr,
    DistinctAttr,
    FileLineColLoc,
    FileLineColRange,
    FusedLoc,
    NameLoc,
    SparseElementsAttr,
    StringAttr,
    TypeAttr,
    UnitAttr,
    UnknownLoc,
)
from ..ir.structured import StructuredAttr, StructuredType
from ..ir.types import (
    ComplexType,
    DialectType,
    FunctionType,
    MemRefType,
    NoneType,
    RankedTensorType,
    TupleType,
    Type,
    UnrankedMemRefType,
    UnrankedTensorType,
    VectorType,
)
from ..ir.walk import held_values
from .attr_printer import (
    ElisionHook,
    file_line_col_text,
    is_identity_layout,
    print_collecting,
    render_attribute,
    render_type,
)

AliasRule = str | Callable[[str], str | None]
"""A dialect's alias for its values of one kind: a fixed name, or a function of the value's local-scope
text giving the name (None: this value has none).  Names are sanitized afterwards, as MLIR does."""

AliasRules = Mapping[str, AliasRule]
"""Rules keyed by the head of the values' text: `#dialect.mnemonic` for attributes, `!dialect.mnemonic`
for types (`#llvm.di_file`, `#hal.executable.target`)."""

StrippedParameters = Mapping[str, Mapping[str, str]]
"""The parameters a dialect's attribute prints stripped (`printStrippedAttrOrType`: a parameter of one
concrete attribute class, `translation_info = <...>` in `#iree_codegen.compilation_info`): outer head ->
{parameter name: the head of the value it holds}.  MLIR prints such a value's alias where it has one, and
its stripped text where not."""


class AliasRuleTable(dict[str, AliasRule]):
    """Alias rules (`AliasRules`) and the stripped parameters (`StrippedParameters`) of a registry."""

    def __init__(self, rules: Mapping[str, AliasRule] | None = None,
                 stripped: StrippedParameters | None = None) -> None:
        super().__init__(rules or {})
        self.stripped: StrippedParameters = stripped or {}


def stripped_of(rules: AliasRules | None) -> StrippedParameters:
    """The stripped parameters `rules` carry (none for a plain mapping of rules)."""
    return rules.stripped if isinstance(rules, AliasRuleTable) else {}

Value = Attribute | Type

LOCATIONS = (UnknownLoc, FileLineColLoc, FileLineColRange, NameLoc, CallSiteLoc, FusedLoc)
_LOCATION_SET = frozenset(LOCATIONS)

_PLAIN_NAME_RE = re.compile(r"[A-Za-z_$\-][A-Za-z0-9_$\-]*")
_HEAD_RE = re.compile(r"[#!][A-Za-z_][A-Za-z0-9_$.]*")
_NESTED_RE = re.compile(
    r'"[^"\\]*(?:\\.[^"\\]*)*"'
    r"|(?P<attr>#[A-Za-z_][A-Za-z0-9_$]*\.[A-Za-z0-9_$.]*)"
    r"|(?P<type>![A-Za-z_][A-Za-z0-9_$]*\.[A-Za-z0-9_$.]*)"
    r"|(?<![A-Za-z0-9_$.])(?P<kw>affine_map|affine_set)(?=<)"
)
_BODY_RE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|->|[<>()\[\]{}]')
_OPEN = {"<": ">", "(": ")", "[": "]", "{": "}"}
_CLOSERS = frozenset(">)]}")
_PARAM_RE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|->|(?:(?<=<)|(?<=, ))(?P<param>[A-Za-z_][A-Za-z0-9_]*) = <'
                       r"|[<>()\[\]{}]")


# ================================================================================================
# Names
# ================================================================================================

def sanitize(name: str) -> str:
    """An alias name as MLIR makes it usable: a leading digit gets `_` before it; a character other
    than a letter, digit, `$`, `_` or `-` becomes `_` (a space) or its hex code."""
    if _PLAIN_NAME_RE.fullmatch(name):
        return name
    if all(c.isascii() and (c.isalnum() or c in "$_-") for c in name) and not name[:1].isdigit():
        return name
    out = []
    for b in name.encode("utf-8", "surrogateescape"):
        c = chr(b)
        if b < 0x80 and (c.isalnum() or c in "$_-"):
            out.append(c)
        elif c == " ":
            out.append("_")
        else:
            out.append(f"{b:X}")
    return ("_" if name[:1].isdigit() else "") + "".join(out)


def builtin_alias(value: Value) -> str | None:
    """The builtin dialect's alias name for `value`, if it gives one."""
    t = type(value)
    if t in _LOCATION_SET:
        return "loc"
    if t is DialectAttr:
        assert isinstance(value, DialectAttr)
        if value.dialect_name == "builtin":
            if value.text.startswith("affine_map<"):
                return "map"
            if value.text.startswith("affine_set<"):
                return "set"
        return None
    if t is DistinctAttr:
        assert isinstance(value, DistinctAttr)
        return None if isinstance(value.referenced, UnitAttr) else "distinct"
    if t is TupleType:
        assert isinstance(value, TupleType)
        return "tuple" if len(value.types) > 16 else None
    return None


def rule_alias(text: str, rules: AliasRules) -> str | None:
    """The alias a dialect rule gives the value printed as `text`."""
    m = _HEAD_RE.match(text)
    if m is None:
        return None
    rule = rules.get(m.group())
    if rule is None:
        return None
    return rule if isinstance(rule, str) else rule(text)


# ================================================================================================
# What a value kept as text holds
# ================================================================================================

def skip_body(text: str, start: int) -> int:
    """The end of the balanced `<...>` (or other bracket) at `start`, strings skipped and `->` no closer;
    -1 when it does not close."""
    stack: list[str] = []
    for m in _BODY_RE.finditer(text, start):
        c = m.group()
        if c[0] == '"' or c == "->":
            continue
        if c in _OPEN:
            stack.append(_OPEN[c])
        elif not stack or stack.pop() != c:
            return -1
        if not stack:
            return m.end()
    return -1


_STRING_RE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')


def _type_end(text: str, start: int) -> int:
    """Where a type written at `start` ends: before the first `,` or closing bracket outside brackets."""
    depth = 0
    i, n = start, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            m = _STRING_RE.match(text, i)
            i = m.end() if m is not None else n
            continue
        if c == "-" and text.startswith("->", i):
            i += 2
            continue
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            if not depth:
                break
            depth -= 1
        elif c == "," and not depth:
            break
        i += 1
    while i > start and text[i - 1] == " ":
        i -= 1
    return i


def _stripped_spans(text: str, pos: int, params: Mapping[str, str]) -> list[tuple[int, int, Value]]:
    """The values of `params` (parameter name -> head) written stripped in the body of `text` that opens
    at `pos`: `name = <...>` directly in that body (not inside a string or a nested value)."""
    out: list[tuple[int, int, Value]] = []
    depth = 0
    scan = _PARAM_RE.search
    m = scan(text, pos)
    while m is not None:
        tok = m.group()
        at = m.end()
        name = m.group("param")
        if name is not None:
            head = params.get(name) if depth == 1 else None
            if head is not None:
                start = at - 1
                end = skip_body(text, start)
                if end < 0:
                    break
                out.append((start, end, DialectAttr.get(head[1:].split(".", 1)[0], head + text[start:end])))
                at = end
            else:
                depth += 1  # the `<` the match ends with
        elif tok in _OPEN:
            depth += 1
        elif tok in _CLOSERS:
            depth -= 1
        m = scan(text, at)
    return out


def nested_values(value: DialectAttr | DialectType,
                  stripped: StrippedParameters | None = None) -> list[tuple[int, int, Value]]:
    """The values written inside the text of a value kept as text, outermost only, with their spans:
    dialect attributes (`#hal.executable.target<...>`, with their `: type`), affine maps and sets,
    dialect types, and the parameters `stripped` says the value prints stripped (a span `<...>` whose
    value is the head and that text)."""
    text = value.text
    head = _HEAD_RE.match(text)
    pos = head.end() if head is not None else 0
    if value.dialect_name == "builtin" or pos >= len(text):
        return []
    params = stripped.get(head.group()) if stripped and head is not None else None
    pending = _stripped_spans(text, pos, params) if params else []
    out: list[tuple[int, int, Value]] = []
    scan = _NESTED_RE.search
    while True:
        m = scan(text, pos)
        if pending and (m is None or m.start() >= pending[0][0]):
            span = pending.pop(0)  # what is inside a stripped value is that value's
            out.append(span)
            pos = span[1]
            continue
        if m is None:
            return out
        kind = m.lastgroup
        if kind is None:  # a string
            pos = m.end()
            continue
        start, end = m.start(), m.end()
        if end < len(text) and text[end] == "<":
            end = skip_body(text, end)
            if end < 0:
                return out
        elif kind == "kw":
            pos = end
            continue
        if kind == "attr" and text.startswith(" : ", end):
            end = _type_end(text, end + 3)
        span_text = text[start:end]
        child: Value
        if kind == "kw":
            child = DialectAttr.get("builtin", span_text)
        elif kind == "attr":
            child = DialectAttr.get(span_text[1:].split(".", 1)[0], span_text)
        else:
            child = DialectType.get(span_text[1:].split(".", 1)[0], span_text)
        out.append((start, end, child))
        pos = end


# ================================================================================================
# Collecting (MLIR's AliasInitializer)
# ================================================================================================

def _no_children(v: Value) -> Sequence[Value]:
    return ()


def _typed(v: Value) -> Sequence[Value]:
    t: Type = v.type  # type: ignore[union-attr]
    return () if isinstance(t, NoneType) else (t,)


def _memref(v: MemRefType) -> Sequence[Value]:
    out: list[Value] = [v.element]
    if not is_identity_layout(v.layout, len(v.shape)):
        out.append(v.layout)
    if v.memory_space is not None:
        out.append(v.memory_space)
    return out


def _unranked_memref(v: UnrankedMemRefType) -> Sequence[Value]:
    return (v.element,) if v.memory_space is None else (v.element, v.memory_space)


def _tensor(v: RankedTensorType) -> Sequence[Value]:
    return (v.element,) if v.encoding is None else (v.element, v.encoding)


def _fused(v: FusedLoc) -> Sequence[Value]:
    return v.locations if v.metadata is None else (v.metadata, *v.locations)


_CHILDREN: dict[type, Callable[[Value], Sequence[Value]]] = {
    FileLineColLoc: _no_children,
    FileLineColRange: _no_children,
    UnknownLoc: _no_children,
    NameLoc: lambda v: () if isinstance(v.child, UnknownLoc) else (v.child,),  # type: ignore[union-attr]
    CallSiteLoc: lambda v: (v.callee, v.caller),  # type: ignore[union-attr]
    FusedLoc: _fused,  # type: ignore[dict-item]
    DictionaryAttr: lambda v: [value for _, value in v.entries],  # type: ignore[union-attr]
    ArrayAttr: lambda v: v.elements,  # type: ignore[union-attr]
    TypeAttr: lambda v: (v.type,),  # type: ignore[union-attr]
    DistinctAttr: lambda v: (v.referenced,),  # type: ignore[union-attr]
    StringAttr: _typed,
    DenseElementsAttr: _typed,
    DenseStringElementsAttr: _typed,
    SparseElementsAttr: _typed,
    DenseResourceElementsAttr: _typed,
    FunctionType: lambda v: (*v.inputs, *v.results),  # type: ignore[union-attr]
    ComplexType: lambda v: (v.element,),  # type: ignore[union-attr]
    TupleType: lambda v: v.types,  # type: ignore[union-attr]
    RankedTensorType: _tensor,  # type: ignore[dict-item]
    UnrankedTensorType: lambda v: (v.element,),  # type: ignore[union-attr]
    VectorType: lambda v: (v.element,),  # type: ignore[union-attr]
    MemRefType: _memref,  # type: ignore[dict-item]
    UnrankedMemRefType: _unranked_memref,  # type: ignore[dict-item]
}
"""What MLIR visits inside a builtin value, in order (integers, floats, dense arrays, symbol references,
unit and affine values: nothing; typed payloads: their type)."""


_LEAF_LOCATIONS = frozenset([FileLineColLoc, FileLineColRange, UnknownLoc])
_NO_LINKS: list[int] = []
"""The (shared, never extended) links of a value that holds nothing."""


class _Frame:
    """A value being visited: its index, what it holds, the next of those to visit, and the depth of the
    deepest aliased one so far."""

    __slots__ = ("idx", "kids", "next", "deepest")

    def __init__(self, idx: int, kids: Sequence[Value]) -> None:
        self.idx = idx
        self.kids = kids
        self.next = 0
        self.deepest = 0


class AliasCollector:
    """Visits values in print order and decides their aliases (MLIR's `AliasInitializer`); `finish`
    gives the scope to print with."""

    def __init__(self, rules: AliasRules | None = None) -> None:
        self.rules: AliasRules = rules or {}
        self._stripped = stripped_of(rules)
        self._rule_dialects = frozenset(h[1:].split(".", 1)[0] for h in self.rules)
        self._index: dict[Value, int] = {}
        self._values: list[Value] = []
        self._names: list[str | None] = []
        self._depth: list[int] = []
        self._deferred: list[bool] = []
        self._links: list[list[int]] = []
        self._spans: dict[Value, list[tuple[int, int, Value]]] = {}
        self._texts: dict[Value, str] = {}

    def visit(self, value: Value, deferrable: bool = False, elide_type: bool = False) -> None:
        """`value` is printed here; `deferrable`: as an op's location (its alias may follow the module);
        `elide_type`: a typed attribute printed without its type (a custom form's
        `printAttributeWithoutType`), whose type is then not visited."""
        idx = self._index.get(value)
        if idx is not None:
            if not deferrable and self._deferred[idx]:
                self._keep(idx)
            return
        if type(value) in _LEAF_LOCATIONS:
            self._leaf(value, deferrable)
            return
        # Depth first without recursion: location chains nest thousands deep.
        stack = [self._enter(value, deferrable, elide_type)]
        index = self._index
        depth = self._depth
        while stack:
            frame = stack[-1]
            if frame.next < len(frame.kids):
                child = frame.kids[frame.next]
                frame.next += 1
                cidx = index.get(child)
                if cidx is None:
                    if type(child) in _LEAF_LOCATIONS:
                        cidx = self._leaf(child, deferrable)
                    else:
                        stack.append(self._enter(child, deferrable))
                        continue
                elif not deferrable and self._deferred[cidx]:
                    self._keep(cidx)
            else:
                stack.pop()
                cidx = frame.idx
                name = self._name(self._values[cidx])
                self._names[cidx] = name
                depth[cidx] = frame.deepest + 1 if frame.deepest else (1 if name is not None else 0)
                if not stack:
                    return
                frame = stack[-1]
            self._links[frame.idx].append(cidx)
            if depth[cidx] > frame.deepest:
                frame.deepest = depth[cidx]

    def visit_all(self, values: Sequence[Value]) -> None:
        """`visit` each of `values` (not deferrable), in order."""
        index = self._index
        deferred = self._deferred
        for v in values:
            idx = index.get(v)
            if idx is None:
                self.visit(v)
            elif deferred[idx]:
                self._keep(idx)

    def visit_printed(self, printed: Sequence[tuple[int, Value, bool]]) -> int:
        """`visit` each value of `printed` ((what, value, printed without its type) as an op's printer
        wrote them, not deferrable), in order: a value seen before costs no call.  Returns the deepest
        `depth_of` among them (0: no alias in any; their depths are final once visited)."""
        index = self._index
        deferred = self._deferred
        depth = self._depth
        deepest = 0
        for _, v, elide in printed:
            idx = index.get(v)
            if idx is None:
                self.visit(v, False, elide)
                idx = index[v]
            elif deferred[idx]:
                self._keep(idx)
            if depth[idx] > deepest:
                deepest = depth[idx]
        return deepest

    def visit_op_locations(self, locations: Sequence[Value]) -> None:
        """`visit` each of `locations` as an op's location (deferrable), in order: the bulk of a large
        module's values, most of them locations that hold nothing (done here without a call each)."""
        index = self._index
        values, names, depth, deferred, links = (self._values, self._names, self._depth, self._deferred,
                                                 self._links)
        for loc in locations:
            if loc in index:
                continue  # deferrable: a value seen before stays as it is
            if type(loc) in _LEAF_LOCATIONS:
                index[loc] = len(values)
                values.append(loc)
                names.append("loc")
                depth.append(1)
                deferred.append(True)
                links.append(_NO_LINKS)
            else:
                self.visit(loc, True)

    def _leaf(self, value: Value, deferrable: bool) -> int:
        """A location that holds nothing: aliased `loc`, depth 1."""
        idx = len(self._values)
        self._index[value] = idx
        self._values.append(value)
        self._names.append("loc")
        self._depth.append(1)
        self._deferred.append(deferrable)
        self._links.append(_NO_LINKS)
        return idx

    def _enter(self, value: Value, deferrable: bool, elide_type: bool = False) -> _Frame:
        idx = len(self._values)
        self._index[value] = idx
        self._values.append(value)
        self._names.append(None)
        self._depth.append(0)
        self._deferred.append(deferrable)
        self._links.append([])
        if elide_type and _CHILDREN.get(type(value)) is _typed:
            return _Frame(idx, ())
        return _Frame(idx, self._children(value))

    def depth_of(self, value: Value) -> int | None:
        """How deep `value`'s aliases go (0: it holds no alias and has none); None: never visited."""
        idx = self._index.get(value)
        return None if idx is None else self._depth[idx]

    def _children(self, v: Value) -> Sequence[Value]:
        f = _CHILDREN.get(type(v))
        if f is not None:
            return f(v)
        if isinstance(v, DialectAttr | DialectType):
            spans = nested_values(v, self._stripped)
            if not spans:
                return ()
            self._spans[v] = spans
            return [child for _, _, child in spans]
        if isinstance(v, StructuredAttr | StructuredType):
            if isinstance(v, StructuredAttr) and v.payload() is not None:
                return list(held_values(v))  # a tensor constant: not printed just to be looked at
            text, found = print_collecting(v)
            self._texts[v] = text
            return found
        return ()

    def _name(self, v: Value) -> str | None:
        name = builtin_alias(v)
        if name is None and self.rules:
            if isinstance(v, DialectAttr | DialectType):
                name = rule_alias(v.text, self.rules)
            elif isinstance(v, StructuredAttr | StructuredType) and v.kind.dialect in self._rule_dialects:
                text = self._texts.get(v)
                if text is not None:
                    name = rule_alias(text, self.rules)
        return None if name is None else sanitize(name)

    def _keep(self, idx: int) -> None:
        """Mark a value, and all it holds, as needed before the module."""
        deferred = self._deferred
        if not deferred[idx]:
            return
        stack = [idx]
        while stack:
            i = stack.pop()
            if deferred[i]:
                deferred[i] = False
                stack.extend(self._links[i])

    def finish(self) -> AliasScope:
        """The aliases of everything visited, named and ordered as MLIR prints them."""
        values, names, deferred = self._values, self._names, self._deferred
        is_attr = [not isinstance(v, Type) for v in values]
        keys = list(zip(self._depth, is_attr, names, strict=True))
        order = [i for i, name in enumerate(names) if name is not None]
        order.sort(key=keys.__getitem__)  # stable: equal keys in the order first visited
        used: set[str] = set()
        counts: dict[str, int] = {}
        t = _Tables()
        # Values of one key (a large module's op locations: most of them) are named together.
        for (_, attr, named), group in groupby(order, key=keys.__getitem__):
            name: str = named  # type: ignore[assignment]  # (entries without a name are not in `order`)
            idxs = list(group)
            uniques: list[str] = []
            if name not in used:
                uniques.append(name)
                used.add(name)
            rest = len(idxs) - len(uniques)
            if rest:
                # Numbered names: `_` first after a trailing digit (`#x1_1`), never a name in use.
                base = name + "_" if name[-1].isdigit() else name
                n = counts.get(base, 1)
                more = [base + str(k) for k in range(n, n + rest)]
                if used.isdisjoint(more):
                    counts[base] = n + rest
                    used.update(more)
                    uniques.extend(more)
                else:
                    for _ in range(rest):
                        unique = base + str(n)
                        while unique in used:
                            n += 1
                            unique = base + str(n)
                        n += 1
                        counts[base] = n
                        used.add(unique)
                        uniques.append(unique)
            vals = [values[i] for i in idxs]
            sigil = "#" if attr else "!"
            aliases = [sigil + u for u in uniques]
            t.entries.extend(zip(vals, aliases, [deferred[i] for i in idxs], strict=True))
            t.aliases.update(zip(vals, aliases, strict=True))
            if attr:
                t.attr_texts.update(zip(vals, aliases, strict=True))  # type: ignore[arg-type]
                t.attrs.update(zip(uniques, vals, strict=True))  # type: ignore[arg-type]
                if name == "loc":
                    if _LOCATION_SET.issuperset(map(type, vals)):
                        t.loc_texts.update(zip(vals, aliases, strict=True))  # type: ignore[arg-type]
                    else:
                        t.loc_texts.update((v, a) for v, a in zip(vals, aliases, strict=True)  # type: ignore[misc]
                                           if type(v) in _LOCATION_SET)
            else:
                t.type_texts.update(zip(vals, aliases, strict=True))  # type: ignore[arg-type]
                t.types.update(zip(uniques, vals, strict=True))  # type: ignore[arg-type]
        return AliasScope(t.entries, self._spans, t)


# ================================================================================================
# Printing
# ================================================================================================

class _AliasedHook:
    """An alias scope combined with an elision hook (or none): print caches that start with the aliases."""

    __slots__ = ("attrs", "types", "locs", "inner", "scope")

    def __init__(self, scope: AliasScope, inner: ElisionHook | None) -> None:
        self.scope = scope
        self.inner = inner
        self.attrs: MutableMapping[Attribute, str] = dict(scope.attr_texts)
        self.types: MutableMapping[Type, str] = dict(scope.type_texts)
        self.locs: MutableMapping[Attribute, str] = dict(scope.loc_texts)

    def attribute(self, a: Attribute) -> str | None:
        return None if self.inner is None else self.inner.attribute(a)

    def type(self, t: Type) -> str | None:
        return None if self.inner is None else self.inner.type(t)


class _Tables:
    """What an alias scope looks values and names up in (made by `AliasCollector.finish` in bulk)."""

    __slots__ = ("entries", "aliases", "attr_texts", "type_texts", "loc_texts", "attrs", "types")

    def __init__(self) -> None:
        self.entries: list[tuple[Value, str, bool]] = []
        self.aliases: dict[Value, str] = {}
        self.attr_texts: dict[Attribute, str] = {}
        self.type_texts: dict[Type, str] = {}
        self.loc_texts: dict[Attribute, str] = {}
        self.attrs: dict[str, Attribute] = {}
        self.types: dict[str, Type] = {}


class AliasScope:
    """The aliases of one print: installed with `attr_printer.alias_scope`, the printers write every
    aliased value as its alias; `definition_lines` gives the lines that define them."""

    def __init__(self, entries: list[tuple[Value, str, bool]],
                 spans: dict[Value, list[tuple[int, int, Value]]], tables: _Tables | None = None) -> None:
        self.entries = entries
        """(value, alias, deferred) in definition order."""
        if tables is None:
            tables = _Tables()
            for v, alias, _ in entries:
                tables.aliases[v] = alias
                if isinstance(v, Type):
                    tables.type_texts[v] = alias
                    tables.types[alias[1:]] = v
                else:
                    tables.attr_texts[v] = alias
                    tables.attrs[alias[1:]] = v
                    if type(v) in _LOCATION_SET:
                        tables.loc_texts[v] = alias
        self.aliases: dict[Value, str] = tables.aliases
        self.attr_texts: dict[Attribute, str] = tables.attr_texts
        self.type_texts: dict[Type, str] = tables.type_texts
        self.loc_texts: dict[Attribute, str] = tables.loc_texts
        self._named = (tables.attrs, tables.types)
        self._spans = spans
        self._rewritten: dict[Value, str] = {}
        # Values kept as text print with their aliased parts replaced.
        for v in spans:
            text = self._rewrite(v)
            if text is not None and v not in self.aliases:
                if isinstance(v, Type):
                    self.type_texts[v] = text
                else:
                    self.attr_texts[v] = text
        self._hooks: dict[int, tuple[ElisionHook | None, _AliasedHook]] = {}

    def __len__(self) -> int:
        return len(self.entries)

    def by_name(self) -> tuple[dict[str, Attribute], dict[str, Type]]:
        """The aliases as the text parser takes them: attribute and type aliases by name (no sigil)."""
        return dict(self._named[0]), dict(self._named[1])

    def _rewrite(self, v: Value) -> str | None:
        """`v`'s text with its aliased parts as their aliases (None: nothing in it is aliased)."""
        if v in self._rewritten:
            return self._rewritten[v]
        spans = self._spans.get(v)
        out: str | None = None
        if spans:
            assert isinstance(v, DialectAttr | DialectType)
            pieces: list[str] = []
            at = 0
            changed = False
            for start, end, child in spans:
                inner = self.aliases.get(child)
                if inner is None:
                    inner = self._rewrite(child)
                    if inner is not None and v.text[start] == "<":  # a stripped parameter stays stripped
                        inner = inner[inner.index("<"):]
                if inner is not None:
                    pieces.append(v.text[at:start])
                    pieces.append(inner)
                    at = end
                    changed = True
            if changed:
                pieces.append(v.text[at:])
                out = "".join(pieces)
        self._rewritten[v] = out  # type: ignore[assignment]
        return out

    def with_elider(self, hook: ElisionHook | None) -> ElisionHook:
        if isinstance(hook, _AliasedHook) and hook.scope is self:
            return hook
        key = id(hook)
        entry = self._hooks.get(key)
        if entry is None or entry[0] is not hook:
            entry = (hook, _AliasedHook(self, hook))
            self._hooks[key] = entry
        return entry[1]

    def alias_of(self, value: Value) -> str | None:
        return self.aliases.get(value)

    def release(self) -> None:
        """Forget the print caches made for this scope (after the print: they refer back to the scope,
        a cycle only a full collection would free)."""
        self._hooks.clear()

    def definition_lines(self, deferred: bool) -> list[str]:
        """The lines `#alias = definition` of the aliases printed before the module (`deferred` False)
        or after it, in order (one per location of most ops of a large module: those are made here
        without the general printer).  Call inside `attr_printer.alias_scope(self)`."""
        out: list[str] = []
        add = out.append
        for v, alias, is_deferred in self.entries:
            if is_deferred != deferred:
                continue
            if type(v) is FileLineColLoc:
                add(alias + " = loc(" + file_line_col_text(v) + ")")
            else:
                add(alias + " = " + self.definition(v))
        return out

    def definition(self, v: Value) -> str:
        """What `v`'s alias stands for, as printed in its definition."""
        text = self._rewritten.get(v)
        if text is not None:
            return text
        return render_type(v) if isinstance(v, Type) else render_attribute(v)
