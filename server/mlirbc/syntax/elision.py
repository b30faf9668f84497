"""Elided values: short placeholders that stand for large values in the text view, and resolve back to them.

A value whose payload is larger than the view's threshold is printed as a placeholder that keeps its type,
its size in bytes and a fingerprint (`ir.digest`: 16 hex digits of a sampled BLAKE2b, or `full_` and 16
hex digits of a digest of the whole value where two values of one file share a sampled fingerprint).  All
forms are valid MLIR that `mlir-opt --allow-unregistered-dialect` reads:

| value | full text | elided text |
|---|---|---|
| dense, dense string, sparse elements | `dense<...> : T` | `dense_resource<mlirbc.elided.SIZE.FP> : T` |
| string | `"..."` (`: T`) | `"mlirbc.elided.SIZE.FP"` (`: T`) |
| dense array | `array<T: ...>` | `#mlirbc.elided<array<T>, SIZE, "FP">` |
| fallback attribute | `#mlirbc.fallback<"d", "0x..">` | `#mlirbc.elided<"d", SIZE, "FP">` |
| fallback type | `!mlirbc.fallback<"d", "0x..">` | `!mlirbc.elided<"d", SIZE, "FP">` |
| fallback op properties | `mlirbc.properties = "0x.."` | `mlirbc.properties = "mlirbc.elided.SIZE.FP"` |
| resource blob | `key: "0x.."` | `// mlirbc: elided blob key: SIZE bytes, alignment A, fingerprint FP` |

mlir-opt sees an elements placeholder as a resource without data (what its own elision prints), the others
as opaque attributes of the unregistered `mlirbc` dialect, strings as strings, and the blob line as a
comment (so the resource has no data, again like upstream's elision).

Models (the hook for a dialect's own tensor attributes) have two ways in.  A structured value
(`ir.structured.StructuredAttr`, such as VHLO's `#vhlo.tensor_v1`) whose kind gives its `payload()` and
implements `ElidableKind.print_elided` is an elements value here: printed as the kind's own text around an
elements placeholder (`#vhlo.tensor_v1<dense_resource<mlirbc.elided.SIZE.FP> : tensor<4x4xf32>>`), the
placeholder checked against the payload's shaped type, and resolved back to the very value when the kind's
parser reads the placeholder inside `structured_scope` (anywhere else such a placeholder is refused: it
stands for a value of that kind, not for a builtin tensor); hover and export read the payload.  Or a model
holds the tensor as a `DenseElementsAttr` in a slot of its attribute class, printed with
`print_attribute` and parsed with the shared `Parser`'s `parse_attribute`: then it is elided, resolved (the
resolver reaches it through the slots of the table entries), hovered and exported like any dense tensor.

Printing: `Elider` is the printer's hook (installed with `attr_printer.elision_scope`).  Parsing: a
`Resolver` over the template module (the file the view was printed from) turns a placeholder back into the
very object, blob or payload the template holds, so the writer copies the original bytes; a placeholder
that names no value of that file, or names one with another type, size or dialect, is a located TextError.
"""

from __future__ import annotations

import contextlib
import itertools
import re
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..errors import TextError, TextSpan
from ..ir.attributes import (
    Attribute,
    DenseArrayAttr,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    DenseStringElementsAttr,
    FallbackAttr,
    SparseElementsAttr,
    StringAttr,
)
from ..ir.digest import Bytes, full_digest, sampled_digest, sampled_parts_digest
from ..ir.module import RESOURCE_BLOB, Module, ResourceEntry
from ..ir.operation import PROPS_ATTRIBUTE, PROPS_DECODED, PROPS_FALLBACK, Operation
from ..ir.structured import DensePayload, ElidableKind, StructuredAttr
from ..ir.types import FallbackType, NoneType, Type
from ..ir.walk import held_values, op_values
from .attr_printer import keyword_or_string, print_type, quote_bytes

TOKEN_PREFIX = "mlirbc.elided."
"""`mlirbc.elided.SIZE.FP`: the key of an elements placeholder and the text of a string placeholder."""
OPAQUE_NAME = "mlirbc.elided"
PROPS_KEY = "mlirbc.properties"
BLOB_COMMENT = "// mlirbc: elided blob "

# Categories of elidable values (what a placeholder can stand for).
ELEMENTS = "elements"
STRING = "string"
ARRAY = "array"
FALLBACK_ATTR = "fallback attribute"
FALLBACK_TYPE = "fallback type"
PROPERTIES = "properties"
BLOB = "blob"

_FP = r"(?:full_)?[0-9a-f]{16}"
# (sizes have at most 19 digits: a longer number is no placeholder, and int() of it would be slow or fail)
FINGERPRINT_RE = re.compile(_FP)
TOKEN_RE = re.compile(rf"mlirbc\.elided\.([0-9]{{1,19}})\.({_FP})")
"""The placeholder token (full match: a string placeholder's text)."""
BLOB_RE = re.compile(
    r'// mlirbc: elided blob ("[^"\\]*(?:\\.[^"\\]*)*"|[A-Za-z_][A-Za-z0-9_$.-]*): ([0-9]{1,19}) bytes, '
    rf"alignment ([0-9]{{1,19}}), fingerprint ({_FP})[ \t]*$")
FIND_RE = re.compile(
    rf'dense_resource<(mlirbc\.elided\.([0-9]{{1,19}})\.({_FP}))>'
    rf'|"mlirbc\.elided\.([0-9]{{1,19}})\.({_FP})"'
    rf'|([#!])mlirbc\.elided<((?:[^<>,]|<[^<>]*>)*), ([0-9]{{1,19}}), "({_FP})">'
    rf'|// mlirbc: elided blob ("[^"\\]*(?:\\.[^"\\]*)*"|[A-Za-z_][A-Za-z0-9_$.-]*): ([0-9]{{1,19}}) bytes, '
    rf'alignment ([0-9]{{1,19}}), fingerprint ({_FP})')
"""Any placeholder in a line of text (for hover): groups per form, see `find_placeholders`."""

Value = Attribute | Type | ResourceEntry | Bytes
"""What a placeholder stands for: an attribute, a fallback type, a resource blob or a properties payload."""


@dataclass(frozen=True)
class Placeholder:
    """What a placeholder says: category, payload size and fingerprint, plus the checkable facts of its
    form (the elements' or string's type, the array's element type, the fallback's dialect, the blob's
    key and alignment)."""

    category: str
    size: int
    fingerprint: str
    type: Type | None = None
    dialect: str = ""
    key: str = ""
    alignment: int = 0


# ================================================================================================
# Sizes and fingerprints
# ================================================================================================

_sizes: weakref.WeakKeyDictionary[Attribute, int] = weakref.WeakKeyDictionary()


_CATEGORIES: dict[type, str] = {
    DenseElementsAttr: ELEMENTS, DenseStringElementsAttr: ELEMENTS, SparseElementsAttr: ELEMENTS,
    StringAttr: STRING, DenseArrayAttr: ARRAY, FallbackAttr: FALLBACK_ATTR, FallbackType: FALLBACK_TYPE,
}


_payloads: weakref.WeakKeyDictionary[StructuredAttr, DensePayload | None] = weakref.WeakKeyDictionary()


def structured_payload(value: object) -> DensePayload | None:
    """The dense payload of a structured value whose kind can print it elided, else None."""
    if type(value) is not StructuredAttr:
        return None
    try:
        return _payloads[value]
    except KeyError:
        pass
    got: DensePayload | None = None
    if isinstance(value.kind, ElidableKind):
        try:
            got = value.payload()
        except Exception:  # a model that cannot describe this value's data: it is not elided
            got = None
    _payloads[value] = got
    return got


def category(value: object) -> str | None:
    """The placeholder category of an elidable value, None for values that are never elided."""
    cat = _CATEGORIES.get(type(value))
    if cat is not None:
        return cat
    if type(value) is StructuredAttr:
        return ELEMENTS if structured_payload(value) is not None else None
    if isinstance(value, ResourceEntry):
        return BLOB if value.kind == RESOURCE_BLOB and value.blob is not None else None
    return None


def _parts(value: object) -> list[Bytes]:
    """The byte strings a value's payload consists of (sparse: indices, then values)."""
    if isinstance(value, DenseElementsAttr | DenseArrayAttr | FallbackAttr | FallbackType):
        return [value.data]
    if isinstance(value, StringAttr):
        return [value.value]
    if isinstance(value, DenseStringElementsAttr):
        return list(value.strings)
    if isinstance(value, SparseElementsAttr):
        return _parts(value.indices) + _parts(value.values)
    if isinstance(value, ResourceEntry):
        return [value.blob] if value.blob is not None else []
    if isinstance(value, bytes | memoryview):
        return [value]
    p = structured_payload(value)
    return [p.data] if p is not None else []


def payload_size(value: object) -> int:
    """Bytes of a value's payload: what the elision threshold is compared with and a placeholder says."""
    if isinstance(value, DenseElementsAttr | DenseArrayAttr | FallbackAttr | FallbackType):
        return len(value.data)
    if isinstance(value, StringAttr):
        return len(value.value)
    if isinstance(value, ResourceEntry):
        return len(value.blob) if value.blob is not None else 0
    if isinstance(value, bytes | memoryview):
        return len(value)
    if isinstance(value, DenseStringElementsAttr | SparseElementsAttr):
        n = _sizes.get(value)
        if n is None:
            n = _sizes[value] = sum(len(p) for p in _parts(value))
        return n
    p = structured_payload(value)
    return len(p.data) if p is not None else 0


def _single(value: object) -> bool:
    return not isinstance(value, DenseStringElementsAttr | SparseElementsAttr)


def sampled_fingerprint(value: object) -> str:
    """16 hex digits that identify the value while reading at most a bounded sample of it."""
    parts = _parts(value)
    digest = sampled_digest(parts[0]) if _single(value) and len(parts) == 1 else \
        sampled_parts_digest(parts)
    return digest.hex()


def full_fingerprint(value: object) -> str:
    """`full_` and 16 hex digits of a digest of the whole value (reads all of it)."""
    parts = _parts(value)
    if _single(value) and len(parts) == 1:
        return "full_" + full_digest(parts[0]).hex()
    import hashlib

    h = hashlib.blake2b(digest_size=8, person=b"mlirbc-fparts")
    h.update(len(parts).to_bytes(8, "little"))
    for p in parts:
        h.update(full_digest(p))
    return "full_" + h.hexdigest()


def _token(size: int, fp: str) -> str:
    return f"{TOKEN_PREFIX}{size}.{fp}"


# ================================================================================================
# Values of a module
# ================================================================================================

_IR_MODULES = ("mlirbc.ir.attributes", "mlirbc.ir.types")


def module_values(module: Module) -> Iterator[object]:
    """Every attribute and type the module holds (each once, nested ones included), then its resource
    entries and fallback properties payloads.

    A module read from a file is walked through its tables: every builtin attribute or type it uses is an
    entry (children included), so only values of a model's own classes are opened up, and of the ops
    only the decoded properties are looked at (a model may build values that are no entry, such as the
    segment sizes of an op).  A module parsed from text, or a dialect-level view of a decoded one (its
    values are the view's, not the file's), is walked through its ops."""
    seen: set[int] = set()
    # The decoded file's tables (a `bytecode.template.Template`; this layer does not import it).
    src: Any = module.source
    ops = list(module.root.walk()) if module.root is not None else []
    stack: list[object] = []
    tables = getattr(src, "attrs", None) or getattr(src, "types", None)
    if src is not None and module.view is None and tables:
        for e in itertools.chain(src.attrs, src.types):
            v = e.value
            seen.add(id(v))
            yield v
            if type(v).__module__ not in _IR_MODULES:
                stack.extend(held_values(v))
        for op in ops:
            p = op.properties
            if p is not None and p.kind == PROPS_DECODED:
                stack.extend(v for v in p.values.values() if id(v) not in seen)
    else:
        stack.extend(v for op in ops for v in op_values(op))
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        yield x
        stack.extend(held_values(x))
    for g in module.resources:
        yield from g.entries
    for op in ops:
        p = op.properties
        if p is not None and p.kind == PROPS_FALLBACK and p.raw is not None:
            yield p.raw


def _value_category(v: object) -> str | None:
    if isinstance(v, bytes | memoryview):
        return PROPERTIES
    return category(v)


# ================================================================================================
# Printing
# ================================================================================================

@dataclass
class Elider:
    """The printer's elision hook: which values are elided at `threshold` bytes and their placeholders.

    Built for one module: its values above the threshold are fingerprinted up front, so that values of
    one size whose sampled fingerprints agree (a sparse difference the sample missed) get full digests
    and every placeholder of the view names exactly one value.  Print caches are per elider (a
    container's text depends on whether its payloads are elided).
    """

    threshold: int
    attrs: weakref.WeakKeyDictionary[Attribute, str] = field(default_factory=weakref.WeakKeyDictionary)
    types: weakref.WeakKeyDictionary[Type, str] = field(default_factory=weakref.WeakKeyDictionary)
    locs: weakref.WeakKeyDictionary[Attribute, str] = field(default_factory=weakref.WeakKeyDictionary)
    fingerprints: dict[int, str] = field(default_factory=dict)
    """id(value) -> fingerprint, for the module's values above the threshold."""
    keep: list[object] = field(default_factory=list)
    """The fingerprinted values (keeps the ids above valid)."""
    count: int = 0
    """Placeholders printed."""
    _parent: Elider | None = None
    upstream_safe: bool = True
    """Keep the view readable by mlir-opt: see `for_properties` (False elides everywhere; tests use
    that to put a placeholder on every value above the threshold)."""
    arrays: bool = True
    """Whether dense arrays are elided (not in the decoded properties of a registered op: mlir-opt
    converts those into typed properties and refuses an opaque attribute there)."""
    upstream: frozenset[str] = frozenset()
    """The dialects mlir-opt registers (`models.ods.mlir_opt_dialects`, given by the view layer)."""
    _sibling: Elider | None = None
    module_only: bool = False
    """Elide only the module's own values (those fingerprinted up front), never a value a custom form
    builds to print (linalg's iterator types as strings): saving resolves a placeholder to a value of the
    original file, and there is none for those."""

    @classmethod
    def for_module(cls, module: Module, threshold: int, upstream_safe: bool = True,
                   upstream: frozenset[str] = frozenset()) -> Elider:
        el = cls(threshold, upstream_safe=upstream_safe, upstream=upstream, module_only=True)
        if threshold <= 0:
            return el
        groups: dict[tuple[str, int, str], list[object]] = {}
        for v in module_values(module):
            cat = _CATEGORIES.get(type(v)) or _value_category(v)
            if cat is None:
                continue
            size = payload_size(v)
            if size <= threshold:
                continue
            fp = sampled_fingerprint(v)
            el.fingerprints[id(v)] = fp
            el.keep.append(v)
            groups.setdefault((cat, size, fp), []).append(v)
        for members in groups.values():
            if len(members) > 1 and not _all_equal(members):
                for v in members:
                    el.fingerprints[id(v)] = full_fingerprint(v)
        return el

    def elides(self, value: object) -> bool:
        if not self.arrays and isinstance(value, DenseArrayAttr):
            return False
        if self.module_only and id(value) not in self.fingerprints:
            return False
        return self.threshold > 0 and _value_category(value) is not None and \
            payload_size(value) > self.threshold

    def for_properties(self, dialect: str) -> Callable[[str], Elider | None]:
        """Which elider prints each decoded property of an op of `dialect`.

        mlir-opt converts the properties of the ops it registers into typed storage and refuses a
        placeholder where the op's definition wants a specific kind (an `I32ElementsAttr`, a
        `DenseI64ArrayAttr`).  So for those ops only the slots that hold weights (`WEIGHT_SLOTS`, which
        take any typed or elements attribute) elide elements and strings, dense arrays never; the
        properties of other ops elide everything."""
        if not self.upstream_safe or dialect not in self.upstream:
            return lambda name: self
        weights = self.without_arrays()
        return lambda name: weights if name in WEIGHT_SLOTS else None

    def without_arrays(self) -> Elider:
        """The elider for a registered op's decoded properties: the same fingerprints, dense arrays in
        full, its own print caches."""
        if self._sibling is None:
            self._sibling = Elider(self.threshold, fingerprints=self.fingerprints, keep=self.keep,
                                   arrays=False, _parent=self, upstream=self.upstream,
                                   module_only=self.module_only)
        return self._sibling

    def fingerprint(self, value: object) -> str:
        fp = self.fingerprints.get(id(value))
        if fp is None:
            fp = self.fingerprints[id(value)] = sampled_fingerprint(value)
            self.keep.append(value)
        return fp

    # -- hooks called by the printers ----------------------------------------------------------
    def attribute(self, a: Attribute) -> str | None:
        """The placeholder of an attribute, or None when it is printed in full."""
        if not self.elides(a):
            return None
        self._counted()
        size = payload_size(a)
        fp = self.fingerprint(a)
        if isinstance(a, DenseElementsAttr | DenseStringElementsAttr | SparseElementsAttr):
            return f"dense_resource<{_token(size, fp)}> : {print_type(a.type)}"
        if isinstance(a, StringAttr):
            typed = "" if isinstance(a.type, NoneType) else " : " + print_type(a.type)
            return f'"{_token(size, fp)}"{typed}'
        if isinstance(a, DenseArrayAttr):
            return f'#{OPAQUE_NAME}<array<{print_type(a.element_type)}>, {size}, "{fp}">'
        if isinstance(a, FallbackAttr):
            dialect = quote_bytes(a.dialect_name.encode("utf-8", "surrogateescape"))
            return f'#{OPAQUE_NAME}<{dialect}, {size}, "{fp}">'
        p = structured_payload(a)
        if p is not None and isinstance(a, StructuredAttr) and isinstance(a.kind, ElidableKind):
            return a.kind.print_elided(a, f"dense_resource<{_token(size, fp)}> : {print_type(p.shaped_type)}")
        return None

    def type(self, t: Type) -> str | None:
        if not isinstance(t, FallbackType) or not self.elides(t):
            return None
        self._counted()
        dialect = quote_bytes(t.dialect_name.encode("utf-8", "surrogateescape"))
        return f'!{OPAQUE_NAME}<{dialect}, {len(t.data)}, "{self.fingerprint(t)}">'

    @contextlib.contextmanager
    def uncounted(self) -> Iterator[None]:
        """Placeholders printed inside are not counted: a print that is not the view's (the pretty
        view's alias pass prints what the view will print again, or reuse)."""
        count = self.count
        sibling = self._sibling.count if self._sibling is not None else 0
        try:
            yield
        finally:
            self.count = count
            if self._sibling is not None:
                self._sibling.count = sibling

    def _counted(self) -> None:
        self.count += 1
        if not self.arrays and self._parent is not None:
            self._parent.count += 1

    def properties(self, raw: Bytes) -> str | None:
        """The value of `mlirbc.properties` for an elided fallback payload (a string), or None."""
        if not self.elides(raw):
            return None
        self.count += 1
        return f'"{_token(len(raw), self.fingerprint(raw))}"'

    def blob(self, entry: ResourceEntry) -> str | None:
        """The trailer comment line standing for an elided resource blob, or None."""
        if not self.elides(entry):
            return None
        self.count += 1
        key = keyword_or_string(entry.key.encode("utf-8", "surrogateescape"))
        return (f"{BLOB_COMMENT}{key}: {payload_size(entry)} bytes, alignment {entry.alignment}, "
                f"fingerprint {self.fingerprint(entry)}")


WEIGHT_SLOTS = frozenset({"value", "values", "initial_value"})
"""Properties of upstream ops that hold constants of any kind: `arith.constant`, `llvm.mlir.constant`
and `spirv.Constant` `value`, `tosa.const` `values`, `memref.global` `initial_value`, `ml_program.global`
`value`, `llvm.mlir.global` `value`."""


def _all_equal(members: list[object]) -> bool:
    first = _parts(members[0])
    for other in members[1:]:
        parts = _parts(other)
        if len(parts) != len(first) or any(len(a) != len(b) or memoryview(a) != memoryview(b)
                                           for a, b in zip(first, parts, strict=True)):
            return False
    return True


# ================================================================================================
# Parsing
# ================================================================================================

class Resolver:
    """Turns placeholders back into the template's values (see the module docstring).

    `template` is the module the view was printed from; without one (a view encoded without its
    original) every placeholder is refused.  Candidates are indexed on first use by category and size;
    fingerprints are computed only for candidates of the size a placeholder names.
    """

    def __init__(self, template: Module | None, origin: str = "") -> None:
        self.template = template
        self.origin = origin or "the original file"
        self._index: dict[tuple[str, int], list[object]] | None = None
        self._sampled: dict[int, str] = {}
        self._full: dict[int, str] = {}
        self._literal_keys: set[str] | None = None
        self._literal_strings: set[bytes] | None = None
        self.kind: object = None
        """The structured kind whose text is being parsed (`structured_scope`): its elided values are
        what an elements placeholder may stand for there."""

    # -- index -----------------------------------------------------------------------------------
    def _candidates(self, cat: str, size: int) -> list[object]:
        if self._index is None:
            index: dict[tuple[str, int], list[object]] = {}
            if self.template is not None:
                for v in module_values(self.template):
                    c = _value_category(v)
                    if c is not None:
                        index.setdefault((c, payload_size(v)), []).append(v)
            self._index = index
        return self._index.get((cat, size), [])

    def _fp(self, v: object, full: bool) -> str:
        cache = self._full if full else self._sampled
        fp = cache.get(id(v))
        if fp is None:
            fp = cache[id(v)] = full_fingerprint(v) if full else sampled_fingerprint(v)
        return fp

    def lookup(self, cat: str, size: int, fp: str) -> list[object]:
        """The template's values of a category and size with this fingerprint."""
        full = fp.startswith("full_")
        return [v for v in self._candidates(cat, size) if self._fp(v, full) == fp]

    def is_literal_key(self, key: str) -> bool:
        """Whether the template has a real resource (or dense_resource reference) with this key: then
        `dense_resource<mlirbc.elided...>` is that resource, not a placeholder."""
        if self._literal_keys is None:
            keys: set[str] = set()
            if self.template is not None:
                keys.update(e.key for g in self.template.resources for e in g.entries)
                keys.update(v.key for v in module_values(self.template)
                            if isinstance(v, DenseResourceElementsAttr))
            self._literal_keys = keys
        return key in self._literal_keys

    def is_literal_string(self, value: bytes) -> bool:
        """Whether the template holds a string with exactly this text (then it is not a placeholder)."""
        if self._literal_strings is None:
            self._literal_strings = {v.value for v in module_values(self.template)
                                     if isinstance(v, StringAttr)} if self.template is not None else set()
        return value in self._literal_strings

    # -- resolution ------------------------------------------------------------------------------
    def _one(self, ph: Placeholder, span: TextSpan, what: str,
             fits: Callable[[object], bool] = lambda v: True) -> object:
        """The one value a placeholder names.  Values of equal content but another type or dialect
        (an i32 and an i64 array with the same bytes) are told apart by `fits`, which checks what the
        placeholder's text says besides size and fingerprint."""
        if self.template is None:
            raise TextError(f"{what} stands for a value elided from the original file, which is not "
                            "available here: encode the view with its original (`--like ORIGINAL`)",
                            span)
        hits = self.lookup(ph.category, ph.size, ph.fingerprint)
        if not hits:
            sizes = self._candidates(ph.category, ph.size)
            why = (f"no {ph.category} of {ph.size} bytes there has fingerprint {ph.fingerprint}"
                   if sizes else f"{self.origin} has no {ph.category} of {ph.size} bytes")
            raise TextError(f"{what} does not belong to this file: {why} (a placeholder only stands for "
                            "a value of the file it was printed from, with its size and fingerprint)",
                            span)
        fitting = [v for v in hits if fits(v)]
        if not fitting:
            return hits[0]  # the caller says which of type, element type or dialect differs
        distinct: list[object] = []
        for v in fitting:
            if not any(_all_equal([v, o]) for o in distinct):
                distinct.append(v)
        if len(distinct) > 1:
            raise TextError(f"{what} is ambiguous: {len(distinct)} different values of {self.origin} "
                            f"have {ph.size} bytes and fingerprint {ph.fingerprint}; write the full "
                            "digest (`full_...`) or the value itself", span)
        return fitting[0]

    def elements(self, ph: Placeholder, span: TextSpan) -> Attribute:
        kind = self.kind

        def fits(c: object) -> bool:
            if type(c) is StructuredAttr:
                return c.kind is kind and _shaped_type(c) is ph.type
            return kind is None and getattr(c, "type", None) is ph.type

        v = self._one(ph, span, "elided elements placeholder", fits)
        assert isinstance(v, Attribute)
        if isinstance(v, StructuredAttr) and v.kind is not kind:
            raise TextError(f"elided elements placeholder: it stands for a `#{v.kind.dialect}.{v.kind.name}` "
                            f"value, which is written as such (`{_shape_of_text(v)}`), not here", span)
        if kind is not None and not isinstance(v, StructuredAttr):
            raise TextError("elided elements placeholder: it stands for a builtin elements attribute, "
                            f"not for the data of a `#{getattr(kind, 'dialect', '?')}."
                            f"{getattr(kind, 'name', '?')}` value", span)
        t = _shaped_type(v) if isinstance(v, StructuredAttr) else getattr(v, "type", None)
        if t is not ph.type:
            raise TextError(f"elided elements placeholder: the value it stands for has type "
                            f"{_type_text(t)}, not {_type_text(ph.type)} (a placeholder keeps its "
                            "value's type; write the value itself to change it)", span)
        return v

    def string(self, ph: Placeholder, span: TextSpan) -> Attribute:
        v = self._one(ph, span, "elided string placeholder",
                      lambda c: getattr(c, "type", None) is (ph.type or NoneType.get()))
        assert isinstance(v, StringAttr)
        if v.type is not (ph.type or NoneType.get()):
            raise TextError(f"elided string placeholder: the string it stands for has type "
                            f"{_type_text(v.type)}, not {_type_text(ph.type or NoneType.get())}", span)
        return v

    def array(self, ph: Placeholder, span: TextSpan) -> Attribute:
        v = self._one(ph, span, "elided array placeholder",
                      lambda c: getattr(c, "element_type", None) is ph.type)
        assert isinstance(v, DenseArrayAttr)
        if v.element_type is not ph.type:
            raise TextError(f"elided array placeholder: the array it stands for has element type "
                            f"{_type_text(v.element_type)}, not {_type_text(ph.type)}", span)
        return v

    def fallback_attr(self, ph: Placeholder, span: TextSpan) -> Attribute:
        v = self._one(ph, span, "elided fallback attribute placeholder",
                      lambda c: getattr(c, "dialect_name", None) == ph.dialect)
        assert isinstance(v, FallbackAttr)
        if v.dialect_name != ph.dialect:
            raise TextError(f"elided fallback attribute placeholder: the payload it stands for belongs "
                            f"to dialect '{v.dialect_name}', not '{ph.dialect}'", span)
        return v

    def fallback_type(self, ph: Placeholder, span: TextSpan) -> Type:
        v = self._one(ph, span, "elided fallback type placeholder",
                      lambda c: getattr(c, "dialect_name", None) == ph.dialect)
        assert isinstance(v, FallbackType)
        if v.dialect_name != ph.dialect:
            raise TextError(f"elided fallback type placeholder: the payload it stands for belongs to "
                            f"dialect '{v.dialect_name}', not '{ph.dialect}'", span)
        return v

    def properties(self, ph: Placeholder, span: TextSpan) -> Bytes:
        v = self._one(ph, span, "elided properties placeholder")
        assert isinstance(v, bytes | memoryview)
        return v

    def blob(self, ph: Placeholder, span: TextSpan) -> ResourceEntry:
        v = self._one(ph, span, "elided blob placeholder",
                      lambda c: getattr(c, "alignment", None) == ph.alignment)
        assert isinstance(v, ResourceEntry) and v.blob is not None
        if v.alignment != ph.alignment:
            raise TextError(f"elided blob placeholder: the blob it stands for has alignment "
                            f"{v.alignment}, not {ph.alignment}", span)
        return ResourceEntry(ph.key, RESOURCE_BLOB, blob=v.blob, alignment=v.alignment, offset=v.offset)


def _type_text(t: object) -> str:
    return print_type(t) if isinstance(t, Type) else "none"


def _shaped_type(v: StructuredAttr) -> Type | None:
    p = structured_payload(v)
    return p.shaped_type if p is not None else None


def _shape_of_text(v: StructuredAttr) -> str:
    if not isinstance(v.kind, ElidableKind):
        return f"#{v.kind.dialect}.{v.kind.name}<...>"
    return v.kind.print_elided(v, f"... : {_type_text(_shaped_type(v))}")


@contextlib.contextmanager
def structured_scope(parser: object, kind: object) -> Iterator[None]:
    """While a model's parser reads the text of one of its values (`kind`), an elements placeholder
    stands for an elided value of that kind (`parser` is the shared `attr_parser.Parser`; without a
    resolver this does nothing)."""
    resolver = getattr(parser, "elided", None)
    if not isinstance(resolver, Resolver):
        yield
        return
    outer = resolver.kind
    resolver.kind = kind
    try:
        yield
    finally:
        resolver.kind = outer


def token_placeholder(text: str, cat: str, t: Type | None = None) -> Placeholder | None:
    """The placeholder a `mlirbc.elided.SIZE.FP` token (elements key, string text) spells, or None."""
    m = TOKEN_RE.fullmatch(text)
    if m is None:
        return None
    return Placeholder(cat, int(m.group(1)), m.group(2), t)


def blob_placeholder(line: str, key: str) -> Placeholder | None:
    """The placeholder of a trailer comment line (`key` already unquoted by the caller), or None."""
    m = BLOB_RE.match(line.strip())
    if m is None:
        return None
    return Placeholder(BLOB, int(m.group(2)), m.group(4), key=key, alignment=int(m.group(3)))


# ================================================================================================
# Finding placeholders in text (hover) and ops holding elided values (graph)
# ================================================================================================

@dataclass
class Found:
    """A placeholder found in text: where (offsets in the searched string) and what it says."""

    start: int
    end: int
    category: str
    size: int
    fingerprint: str
    detail: str = ""
    """The dialect of a fallback, `array<T>` of an array, the key of a blob."""


def find_placeholders(text: str) -> list[Found]:
    """Every placeholder in `text` (typically one line), without resolving them."""
    out: list[Found] = []
    for m in FIND_RE.finditer(text):
        if m.group(1):
            out.append(Found(m.start(), m.end(), ELEMENTS, int(m.group(2)), m.group(3)))
        elif m.group(4):
            props = text[:m.start()].rstrip().endswith(PROPS_KEY + " =")
            out.append(Found(m.start(), m.end(), PROPERTIES if props else STRING, int(m.group(4)),
                             m.group(5)))
        elif m.group(6):
            kind = m.group(7).strip()
            cat = ARRAY if kind.startswith("array<") else \
                FALLBACK_TYPE if m.group(6) == "!" else FALLBACK_ATTR
            out.append(Found(m.start(), m.end(), cat, int(m.group(8)), m.group(9), kind))
        else:
            out.append(Found(m.start(), m.end(), BLOB, int(m.group(11)), m.group(13), m.group(10)))
    return out


def holds_elided_value(op: Operation, threshold: int, module: Module | None = None,
                       upstream_safe: bool = True, upstream: frozenset[str] = frozenset()) -> bool:
    """Whether the view printed at `threshold` (and `upstream_safe`, as `print_module` takes it) elides
    a value this op holds: in its attributes or properties, or a resource blob it references through
    `dense_resource`.  (The graph view's "elided" flag.)"""
    if threshold <= 0:
        return False
    p = op.properties
    if p is not None and p.kind == PROPS_FALLBACK and p.raw is not None and len(p.raw) > threshold:
        return True
    blobs = {e.key: e for g in module.resources if g.is_dialect and g.name == "builtin"
             for e in g.entries} if module is not None else {}
    strict = upstream_safe and op.op_name.dialect in upstream
    named: list[tuple[str, Attribute]] = []
    if op.attributes is not None:
        named += [(k.text, v) for k, v in op.attributes.entries]
    if p is not None and p.kind == PROPS_DECODED:
        named += list(p.values.items())
    roots: list[object] = [v for k, v in named if not strict or k in WEIGHT_SLOTS]
    if p is not None and p.kind == PROPS_ATTRIBUTE and p.attribute is not None and not strict:
        roots.append(p.attribute)
    roots.extend(r.type for r in op.results)
    seen: set[int] = set()
    while roots:
        v = roots.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        if category(v) is not None and payload_size(v) > threshold and \
                not (strict and isinstance(v, DenseArrayAttr)):
            return True
        if isinstance(v, DenseResourceElementsAttr):
            e = blobs.get(v.key)
            if e is not None and e.blob is not None and len(e.blob) > threshold:
                return True
        if not isinstance(v, StringAttr):
            roots.extend(held_values(v))
    return False


def resource_key(raw: str) -> str:
    """A `dense_resource<...>` key as the text writes it (bare or a quoted string) -> the key."""
    if not raw.startswith('"'):
        return raw
    from .attr_parser import Parser  # (the parser imports this module)

    return Parser(raw).parse_string().decode("utf-8", "surrogateescape")


def leading_type(text: str) -> Type | None:
    """The type `text` starts with (after `dense_resource<key> : `), None when it does not start with one."""
    from .attr_parser import Parser

    try:
        return Parser(text).parse_type()
    except Exception:  # any text: not a type
        return None
