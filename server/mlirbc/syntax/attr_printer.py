"""Attributes, types and locations -> MLIR text, exactly as `mlir-opt` 22.1.8 prints them.

The reference output is `mlir-opt --mlir-print-op-generic --mlir-print-debuginfo
--mlir-print-local-scope` (no aliases); float formats live in `floats`.  Printed text is cached per
uniqued object (weakly, so the uniquer can still drop them).  Two hooks change what is printed, both
through the caches the printers consult: an elision hook (`elision_scope`, large values as placeholders)
and an alias scope (`alias_scope`, `syntax.aliases`: aliased values print as `#name`/`!name`); a
collecting hook (`print_collecting`) records which values a dialect's printer prints.

Deliberate differences, where mlir-opt's text would lose or garble what the file stores: a
FileLineColRange whose ends coincide keeps its `to line:col` part, an empty symbol name prints as
`@""`, and distinct attributes print their `ident` (the view numbers them as MLIR does: `distincts`).
"""

from __future__ import annotations

import contextlib
import re
import weakref
from collections.abc import Callable, Iterator, MutableMapping
from contextvars import ContextVar
from typing import Any, Protocol

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
    FallbackAttr,
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
from ..ir.digest import Bytes
from ..ir.structured import StructuredAttr, StructuredType
from ..ir.types import (
    DYNAMIC,
    ComplexType,
    DialectType,
    FallbackType,
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
    num_elements,
)
from .floats import (
    SEMANTICS,
    print_float_bits,
)

# ================================================================================================
# Strings and identifiers
# ================================================================================================

_NEEDS_ESCAPE = re.compile(rb"[^\x20\x21\x23-\x5b\x5d-\x7e]")
_ESCAPE_TABLE = [
    chr(b) if 0x20 <= b <= 0x7E and b not in (0x22, 0x5C) else f"\\{b:02X}" for b in range(256)
]
_ESCAPE_TABLE[0x5C] = "\\\\"
_BARE_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")


def escape_bytes(data: bytes) -> str:
    """The body of a string literal (no quotes), escaped like llvm::printEscapedString."""
    if not _NEEDS_ESCAPE.search(data):
        return data.decode("ascii")
    table = _ESCAPE_TABLE
    return "".join([table[b] for b in data])


def quote_bytes(data: bytes) -> str:
    return '"' + escape_bytes(data) + '"'


def keyword_or_string(data: bytes) -> str:
    """A bare identifier when `data` is one, else a quoted escaped string (printKeywordOrString)."""
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        return quote_bytes(data)
    if _BARE_ID.fullmatch(text):
        return text
    return quote_bytes(data)


def symbol_ref(data: bytes) -> str:
    # mlir-opt prints an empty symbol name as an unparsable marker; `@""` keeps the text parsable.
    return "@" + keyword_or_string(data)


# ================================================================================================
# Types
# ================================================================================================

_type_cache: weakref.WeakKeyDictionary[Type, str] = weakref.WeakKeyDictionary()


class ElisionHook(Protocol):
    """What the printers ask while a view elides large values (`syntax.elision.Elider`): the placeholder
    of an attribute or type (None: print it in full), and print caches of its own, since the text of a
    container depends on whether its payloads are elided.  An alias scope's hook is one too: its caches
    hold the aliases (`AliasScope.with_elider`)."""

    @property
    def attrs(self) -> MutableMapping[Attribute, str]: ...
    @property
    def types(self) -> MutableMapping[Type, str]: ...
    @property
    def locs(self) -> MutableMapping[Attribute, str]: ...

    def attribute(self, a: Attribute) -> str | None: ...
    def type(self, t: Type) -> str | None: ...


class AliasHook(Protocol):
    """An alias scope as the printers see it (`syntax.aliases.AliasScope`)."""

    def with_elider(self, hook: ElisionHook | None) -> ElisionHook:
        """The hook that prints with these aliases and `hook`'s placeholders."""
        ...

    def alias_of(self, value: Attribute | Type) -> str | None:
        """`value`'s alias (`#di_file`), if it has one."""
        ...


_elision: ContextVar[ElisionHook | None] = ContextVar("mlirbc_elision", default=None)
_aliases: ContextVar[AliasHook | None] = ContextVar("mlirbc_aliases", default=None)


@contextlib.contextmanager
def elision_scope(hook: ElisionHook | None) -> Iterator[None]:
    """Print with `hook` deciding which large values become placeholders (this thread/context only);
    inside an alias scope the aliases stay, and a dry run (`recording`) goes on recording."""
    token = _elision.set(_elision_target(hook)[1])
    try:
        yield
    finally:
        _elision.reset(token)


def _elision_target(hook: ElisionHook | None) -> tuple[ElisionHook | None, ElisionHook | None]:
    """(the hook in force, the one `elision_scope(hook)` puts in force): inside an alias scope the aliases
    stay; a dry run (`recording`) goes on recording, nothing is elided."""
    current = _elision.get()
    if isinstance(current, _Recording):
        hook = current
    scope = _aliases.get()
    return current, (hook if scope is None else scope.with_elider(hook))


def render_with_elision(hook: ElisionHook | None, render: Callable[[Any], str], value: Any) -> str:
    """`render(value)` inside `elision_scope(hook)`; no scope is entered when it would change nothing
    (most values an op's printer prints: the hook in force is already that one)."""
    current, target = _elision_target(hook)
    if target is current:
        return render(value)
    token = _elision.set(target)
    try:
        return render(value)
    finally:
        _elision.reset(token)


@contextlib.contextmanager
def alias_scope(scope: AliasHook) -> Iterator[None]:
    """Print with `scope`'s aliases (and the placeholders of the elision hook in force)."""
    outer = _elision.get()
    alias_token = _aliases.set(scope)
    token = _elision.set(scope.with_elider(outer))
    try:
        yield
    finally:
        _elision.reset(token)
        _aliases.reset(alias_token)


@contextlib.contextmanager
def _plain() -> Iterator[None]:
    """Print outside any alias scope or elision hook (a dry run included)."""
    alias_token, token = _aliases.set(None), _elision.set(None)
    try:
        yield
    finally:
        _elision.reset(token)
        _aliases.reset(alias_token)


def plain_attribute_text(a: Attribute) -> str:
    """An attribute's local-scope text (no aliases, nothing elided): what a model or a parser reads
    from it, the same wherever it is printed."""
    if _aliases.get() is None and _elision.get() is None:
        return print_attribute(a)
    with _plain():
        return print_attribute(a)


def plain_type_text(t: Type) -> str:
    """A type's local-scope text (no aliases, nothing elided)."""
    if _aliases.get() is None and _elision.get() is None:
        return print_type(t)
    with _plain():
        return print_type(t)


class _Collecting:
    """The hook of `print_collecting`: every value printed is recorded (not aliased, not elided) and
    printed as it is in local scope."""

    def __init__(self, found: list[Attribute | Type]) -> None:
        self.attrs: _CollectingCache = _CollectingCache(found, print_attribute)
        self.locs = _CollectingCache(found, print_location)
        self.types = _CollectingCache(found, print_type)

    def attribute(self, a: Attribute) -> str | None:
        return None

    def type(self, t: Type) -> str | None:
        return None


class _CollectingCache(dict[Any, str]):
    """A print cache whose every lookup records the value and answers with its local-scope text."""

    def __init__(self, found: list[Attribute | Type], plain: Callable[[Any], str]) -> None:
        super().__init__()
        self.found = found
        self.plain = plain

    def get(self, key: Any, default: Any = None) -> Any:
        self.found.append(key)
        token = _elision.set(None)
        alias_token = _aliases.set(None)
        try:
            return self.plain(key)
        finally:
            _aliases.reset(alias_token)
            _elision.reset(token)

    def __setitem__(self, key: Any, value: str) -> None:
        pass


def print_stripped(value: Attribute | Type, stripped: Callable[[], str]) -> str:
    """A dialect value nested in another printed without its `#dialect.mnemonic` (MLIR's
    `printStrippedAttrOrType`, `stripped()` gives that text): in an alias scope its alias if it has one;
    a collecting pass records it as printed here."""
    scope = _aliases.get()
    if scope is not None:
        alias = scope.alias_of(value)
        if alias is not None:
            return alias
    el = _elision.get()
    if isinstance(el, _Collecting):
        el.attrs.found.append(value)
        token = _elision.set(None)
        try:
            return stripped()
        finally:
            _elision.reset(token)
    return stripped()


class _Recording:
    """The hook of `recording`: every value printed is a visit, printed as it is in local scope."""

    def __init__(self, visit: Callable[[Attribute | Type, bool], None]) -> None:
        self.visit = visit
        self.attrs = _RecordingCache(lambda a: visit(a, False), print_attribute)
        self.types = _RecordingCache(lambda t: visit(t, False), print_type)
        self.locs = _RecordingCache(lambda loc: visit(loc, True), print_location)

    def attribute(self, a: Attribute) -> str | None:
        return None

    def type(self, t: Type) -> str | None:
        return None


class _RecordingCache(_CollectingCache):
    def __init__(self, visit: Callable[[Any], None], plain: Callable[[Any], str]) -> None:
        super().__init__([], plain)
        self.record = visit

    def get(self, key: Any, default: Any = None) -> Any:
        self.record(key)
        token = _elision.set(None)
        try:
            return self.plain(key)
        finally:
            _elision.reset(token)


@contextlib.contextmanager
def recording(visit: Callable[[Attribute | Type, bool], None]) -> Iterator[None]:
    """A dry run of a printer for aliases (MLIR's first print pass): every attribute and type printed is
    `visit(value, False)`, every location printed with `print_location` (an op's) `visit(loc, True)`,
    with `print_location_inline` (a block argument's) `visit(loc, False)`; text comes out as in local
    scope.  MLIR visits an op's location before anything else of the op: a printer that prints it last
    calls `visit(op.location, True)` first."""
    token = _elision.set(_Recording(visit))
    alias_token = _aliases.set(None)
    try:
        yield
    finally:
        _aliases.reset(alias_token)
        _elision.reset(token)


def print_collecting(value: StructuredAttr | StructuredType) -> tuple[str, list[Attribute | Type]]:
    """A structured value's local-scope text and the attributes, types and locations its printer
    printed directly, in that order (what MLIR's alias collection visits inside a dialect value)."""
    found: list[Attribute | Type] = []
    token = _elision.set(_Collecting(found))
    alias_token = _aliases.set(None)
    try:
        text = value.kind.print_value(value)
    finally:
        _aliases.reset(alias_token)
        _elision.reset(token)
    return text, found


def print_type(t: Type) -> str:
    """A type as MLIR text (`i32`, `tensor<2x?xf32>`, `(i32) -> i64`, `!llvm.ptr`, ...)."""
    el = _elision.get()
    s = (_type_cache if el is None else el.types).get(t)
    if s is None:
        try:
            s = _render_type(t)
        except RecursionError:
            _warm(t)
            s = _render_type(t)
    return s


def _render_type(t: Type, store: bool = True) -> str:
    printer = _TYPE_PRINTERS.get(type(t))
    if printer is None:
        raise TypeError(f"cannot print type {t!r}")
    el = _elision.get()
    if el is None:
        s = printer(t)
        if store:
            _type_cache[t] = s
        return s
    placeholder = el.type(t) if type(t) in _ELIDABLE_TYPES else None
    s = printer(t) if placeholder is None else placeholder
    if store:
        el.types[t] = s
    return s


def render_type(t: Type) -> str:
    """`t` itself, never its own alias (an alias definition's body); what it holds may be aliased."""
    try:
        return _render_type(t, store=False)
    except RecursionError:
        _warm(t)
        return _render_type(t, store=False)


def _dims(shape: tuple[int, ...]) -> str:
    return "".join(("?" if d == DYNAMIC else str(d)) + "x" for d in shape)


def identity_layout_text(rank: int) -> str:
    """Text of the identity affine map of `rank` dimensions: the default memref layout."""
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({dims})>"


def is_identity_layout(layout: Attribute, rank: int) -> bool:
    return isinstance(layout, DialectAttr) and layout.text == identity_layout_text(rank)


def _print_integer_type(t: IntegerType) -> str:
    return ("", "si", "ui")[t.signedness] + ("" if t.signedness else "i") + str(t.width)


def _print_function_type(t: FunctionType) -> str:
    inputs = ", ".join([print_type(x) for x in t.inputs])
    results = t.results
    if len(results) == 1 and not isinstance(results[0], FunctionType):
        return f"({inputs}) -> {print_type(results[0])}"
    return f"({inputs}) -> ({', '.join([print_type(x) for x in results])})"


def _print_ranked_tensor(t: RankedTensorType) -> str:
    enc = "" if t.encoding is None else ", " + print_attribute(t.encoding)
    return f"tensor<{_dims(t.shape)}{print_type(t.element)}{enc}>"


def _print_memref(t: MemRefType) -> str:
    s = f"memref<{_dims(t.shape)}{print_type(t.element)}"
    if not is_identity_layout(t.layout, len(t.shape)):
        s += ", " + _print_attr_elided(t.layout)
    if t.memory_space is not None:
        s += ", " + _print_attr_elided(t.memory_space)
    return s + ">"


def _print_unranked_memref(t: UnrankedMemRefType) -> str:
    s = f"memref<*x{print_type(t.element)}"
    if t.memory_space is not None:
        s += ", " + _print_attr_elided(t.memory_space)
    return s + ">"


def _print_vector(t: VectorType) -> str:
    scalable = t.scalable or (False,) * len(t.shape)
    dims = "".join(f"[{d}]x" if s else f"{d}x" for d, s in zip(t.shape, scalable, strict=False))
    return f"vector<{dims}{print_type(t.element)}>"


def _print_fallback_type(t: FallbackType) -> str:
    dialect = quote_bytes(t.dialect_name.encode("utf-8", "surrogateescape"))
    return f'!mlirbc.fallback<{dialect}, "0x{t.data.hex().upper()}">'


_TYPE_PRINTERS: dict[type, Callable[[Any], str]] = {
    IntegerType: _print_integer_type,
    IndexType: lambda t: "index",
    NoneType: lambda t: "none",
    FloatType: lambda t: t.name,
    FunctionType: _print_function_type,
    ComplexType: lambda t: f"complex<{print_type(t.element)}>",
    TupleType: lambda t: f"tuple<{', '.join([print_type(x) for x in t.types])}>",
    RankedTensorType: _print_ranked_tensor,
    UnrankedTensorType: lambda t: f"tensor<*x{print_type(t.element)}>",
    MemRefType: _print_memref,
    UnrankedMemRefType: _print_unranked_memref,
    VectorType: _print_vector,
    DialectType: lambda t: t.text,
    FallbackType: _print_fallback_type,
    StructuredType: lambda t: t.kind.print_value(t),
}


# ================================================================================================
# Attributes
# ================================================================================================

_attr_cache: weakref.WeakKeyDictionary[Attribute, str] = weakref.WeakKeyDictionary()
_UNCACHED_SIZE = 4096  # big payloads (dense data, long strings) are printed on demand, not kept twice


def print_attribute(a: Attribute) -> str:
    """An attribute as MLIR text, with its `: type` suffix where MLIR prints one."""
    el = _elision.get()
    s = (_attr_cache if el is None else el.attrs).get(a)
    if s is None:
        try:
            s = _render_attribute(a)
        except RecursionError:
            _warm(a)
            s = _render_attribute(a)
    return s


def _render_attribute(a: Attribute, store: bool = True) -> str:
    printer = _ATTR_PRINTERS.get(type(a))
    if printer is None:
        raise TypeError(f"cannot print attribute {a!r}")
    el = _elision.get()
    cache: MutableMapping[Attribute, str] = _attr_cache
    s = None
    if el is not None:
        cache = el.attrs
        if type(a) in _BULKY or type(a) is FallbackAttr:
            s = el.attribute(a)
    if s is None:
        s = printer(a)
    if store and (len(s) <= _UNCACHED_SIZE or type(a) not in _BULKY):
        cache[a] = s
    return s


def render_attribute(a: Attribute) -> str:
    """`a` itself, never its own alias (an alias definition's body); what it holds may be aliased.  A
    location prints as `loc(...)`."""
    if isinstance(a, _LOCATION_TYPES):
        return "loc(" + print_location_inline(a) + ")"
    try:
        return _render_attribute(a, store=False)
    except RecursionError:
        _warm(a)
        return _render_attribute(a, store=False)


def _print_attr_elided(a: Attribute) -> str:
    """The form where the type "may" be elided: i64 integers and f64 floats lose `: type`."""
    if isinstance(a, IntegerAttr):
        t = a.type
        if isinstance(t, IntegerType) and t.width == 64 and t.signedness == 0:
            return _int_value_text(a.bits, t)
    elif isinstance(a, FloatAttr):
        t = a.type
        if isinstance(t, FloatType) and t.name == "f64":
            return print_float_bits(a.bits, "f64")
    return print_attribute(a)


def _int_width(t: Type) -> int:
    if isinstance(t, IntegerType):
        return t.width
    return 64  # index


def _int_value_text(bits: int, t: Type) -> str:
    width = _int_width(t)
    if isinstance(t, IntegerType) and t.signedness == 2:
        return str(bits)
    if width and bits >> (width - 1):
        return str(bits - (1 << width))
    return str(bits)


def _print_integer_attr(a: IntegerAttr) -> str:
    t = a.type
    if isinstance(t, IntegerType) and t.width == 1 and t.signedness == 0:
        return "true" if a.bits else "false"
    return f"{_int_value_text(a.bits, t)} : {print_type(t)}"


def _print_float_attr(a: FloatAttr) -> str:
    t = a.type
    if isinstance(t, FloatType):
        return f"{print_float_bits(a.bits, t.name)} : {t.name}"
    return f"0x{a.bits:X} : {print_type(t)}"


def _print_string_attr(a: StringAttr) -> str:
    s = quote_bytes(a.value)
    if not isinstance(a.type, NoneType):
        s += " : " + print_type(a.type)
    return s


def _print_named(name: StringAttr, value: Attribute) -> str:
    key = keyword_or_string(name.value)
    if isinstance(value, UnitAttr):
        return key
    return f"{key} = {print_attribute(value)}"


def _print_dictionary(a: DictionaryAttr) -> str:
    return "{" + ", ".join([_print_named(k, v) for k, v in a.entries]) + "}"


def _print_array(a: ArrayAttr) -> str:
    return "[" + ", ".join([_print_attr_elided(x) for x in a.elements]) + "]"


def _print_symbol_ref(a: SymbolRefAttr) -> str:
    parts = [symbol_ref(a.root.value)]
    parts.extend(symbol_ref(n.root.value) for n in a.nested)
    return "::".join(parts)


def _print_dense_array(a: DenseArrayAttr) -> str:
    et = a.element_type
    head = "array<" + print_type(et)
    if not a.count:
        return head + ">"
    data = a.data
    if isinstance(et, FloatType):
        sem = SEMANTICS[et.name]
        size = sem.storage_bytes
        mask = (1 << sem.width) - 1
        items = [
            print_float_bits(
                int.from_bytes(data[i * size : (i + 1) * size], "little") & mask, et.name
            )
            for i in range(a.count)
        ]
    else:
        width = _int_width(et)
        if width == 1:  # any i1, signed or not, as upstream prints (and parses) it
            items = ["true" if data[i] & 1 else "false" for i in range(a.count)]
        else:
            size = max(1, width // 8)
            mask = (1 << width) - 1
            items = [
                _int_value_text(
                    int.from_bytes(data[i * size : (i + 1) * size], "little") & mask, et
                )
                for i in range(a.count)
            ]
    return head + ": " + ", ".join(items) + ">"


# -- dense elements ------------------------------------------------------------------------------


def is_shaped(t: Type) -> bool:
    """A builtin shaped type (what elements attributes and `dense_resource` need)."""
    return isinstance(t, RankedTensorType | VectorType | MemRefType | UnrankedTensorType
                      | UnrankedMemRefType)


def static_shape(t: Type) -> tuple[int, ...] | None:
    """The shape of a statically shaped tensor/vector/memref type, else None."""
    if isinstance(t, RankedTensorType | VectorType | MemRefType):
        if DYNAMIC in t.shape or any(d < 0 for d in t.shape):
            return None
        return t.shape
    return None


def element_storage_bytes(t: Type) -> int | None:
    """Bytes per element in a dense blob (complex: both parts); None for i1 (packed) or unknown."""
    if isinstance(t, IntegerType):
        if t.width == 1:
            return None
        return (t.width + 7) // 8
    if isinstance(t, IndexType):
        return 8
    if isinstance(t, FloatType):
        return SEMANTICS[t.name].storage_bytes
    if isinstance(t, ComplexType):
        inner = t.element
        if isinstance(inner, IntegerType) and inner.width == 1:
            return 2
        size = element_storage_bytes(inner)
        return None if size is None else 2 * size
    return None


def _is_bool(t: Type) -> bool:
    return isinstance(t, IntegerType) and t.width == 1


_SCAN = 1 << 20  # bytes compared per step when a large blob may be all one element


def _repeats(data: Bytes, size: int) -> bool:
    """Whether `data` is its first `size` bytes over and over, compared in bounded steps (may be mapped)."""
    first = bytes(data[:size])
    if len(data) > size and bytes(data[size : 2 * size]) != first:
        return False  # most blobs differ early: no pattern is built for them
    step = size * max(1, _SCAN // size)
    pattern = first * (step // size)
    for at in range(0, len(data), step):
        piece = bytes(data[at : at + step])
        if piece != pattern[: len(piece)]:
            return False
    return True


def dense_blob(t: Type, data: Bytes) -> Bytes:
    """The blob an attribute keeps: checked as upstream's isValidRawBuffer (the text form has no spelling
    for a blob of another size), and made a splat when every element is equal, as upstream's storage does."""
    shape = static_shape(t)
    element = getattr(t, "element", None)
    if shape is None or not isinstance(element, Type):
        raise ValueError("dense elements need a statically shaped type")
    count = num_elements(shape)
    if isinstance(element, IntegerType) and element.width == 1:
        ok = (len(data) == 1 and (data[0] in (0, 0xFF) or count == 1)) or \
            len(data) in ((count + 7) // 8, count)
    else:
        size = element_storage_bytes(element)
        if size is None:
            raise ValueError(f"dense elements of an element type that has no dense storage "
                             f"({type(element).__name__})")
        ok = len(data) in (size, size * count)
    if not ok:
        raise ValueError(f"dense elements blob of {len(data)} bytes does not fit {count} elements")
    return dense_storage(data, element, count)


def dense_storage(data: Bytes, element: Type, count: int) -> Bytes:
    """The blob upstream's storage keeps for dense elements: one element when all `count` are equal.

    MLIR detects splats when the attribute is built (from text or from a file), so a file that stores
    every element of an all-equal tensor reads as the splat, and is written back as one."""
    if count <= 1 or not data:
        return data
    if _is_bool(element):
        if len(data) != (count + 7) // 8:
            return data
        # Packed bits (spec 5.6); stray padding bits keep the data as it is, as upstream's key does.
        if not data[0] & 1:
            return b"\x00" if _repeats(data, 1) and not data[0] else data
        odd = count % 8
        if odd and data[-1] != (1 << odd) - 1:
            return data
        full = data[:-1] if odd else data
        return b"\xff" if not full or (full[0] == 0xFF and _repeats(full, 1)) else data
    size = element_storage_bytes(element)
    if size is None or len(data) != size * count:
        return data
    return bytes(data[:size]) if _repeats(data, size) else data


def dense_is_splat(data: Bytes, element: Type, count: int) -> bool:
    """Whether a dense blob stores a single element standing for all of them."""
    if _is_bool(element):
        if count > 8:
            return len(data) == 1
        return len(data) == 1 and data[0] in (0, 0xFF)
    size = element_storage_bytes(element)
    return size is not None and len(data) == size


def _scalar_printer(element: Type) -> Callable[[Bytes, int], str] | None:
    """A function printing element `i` of a (non-bool) blob; None for unsupported element types."""
    if isinstance(element, IntegerType | IndexType):
        width = _int_width(element)
        size = max(1, (width + 7) // 8)
        mask = (1 << width) - 1
        if width == 1:  # only reachable as a complex part, stored one byte each
            return lambda data, i: "true" if data[i] & 1 else "false"
        return lambda data, i: _int_value_text(
            int.from_bytes(data[i * size : (i + 1) * size], "little") & mask, element
        )
    if isinstance(element, FloatType):
        sem = SEMANTICS[element.name]
        size = sem.storage_bytes
        mask = (1 << sem.width) - 1
        name = element.name
        return lambda data, i: print_float_bits(
            int.from_bytes(data[i * size : (i + 1) * size], "little") & mask, name
        )
    if isinstance(element, ComplexType):
        part = _scalar_printer(element.element)
        if part is None:
            return None
        return lambda data, i: f"({part(data, 2 * i)},{part(data, 2 * i + 1)})"
    return None


def _nest(shape: tuple[int, ...], items: list[str]) -> str:
    """Elements in row-major order, bracketed by dimension (printDenseElementsAttrImpl)."""
    if not items:
        return ""
    level = items
    for d in reversed(shape[1:]):
        level = ["[" + ", ".join(level[i : i + d]) + "]" for i in range(0, len(level), d)]
    return "[" + ", ".join(level) + "]"


def dense_body(data: Bytes, t: Type, allow_hex: bool = True) -> str:
    """What goes between `dense<` and `>` for a DenseIntOrFPElementsAttr blob of type `t`."""
    shape = static_shape(t)
    element = t.element if isinstance(t, RankedTensorType | VectorType | MemRefType) else None
    if shape is None or element is None:
        return f'"0x{data.hex().upper()}"'
    count = num_elements(shape)
    if _is_bool(element):
        if dense_is_splat(data, element, count) or (count == 1 and len(data) == 1):
            return "true" if data[0] else "false"
        if len(data) == (count + 7) // 8:
            if (allow_hex and count > 100) or (count and data[-1] >> (count % 8 or 8)):
                # Padding bits that are set have no element spelling: hex keeps them byte for byte.
                return f'"0x{data.hex().upper()}"'
            bits = int.from_bytes(data, "little")
            items = ["true" if bits >> i & 1 else "false" for i in range(count)]
        elif len(data) == count:
            # One byte per element: what writers before bit-packing produced (readers accept it).
            items = ["true" if b else "false" for b in data]
        else:
            return f'"0x{data.hex().upper()}"'
        return _nest(shape, items)
    printer = _scalar_printer(element)
    size = element_storage_bytes(element)
    if printer is None or size is None:
        return f'"0x{data.hex().upper()}"'
    if len(data) == size:
        return printer(data, 0)
    if len(data) != size * count:
        return f'"0x{data.hex().upper()}"'
    if allow_hex and count > 100:
        return f'"0x{data.hex().upper()}"'
    return _nest(shape, [printer(data, i) for i in range(count)])


def _print_dense(a: DenseElementsAttr) -> str:
    return f"dense<{dense_body(a.data, a.type)}> : {print_type(a.type)}"


def dense_string_body(a: DenseStringElementsAttr) -> str:
    if a.splat:
        return quote_bytes(a.strings[0]) if a.strings else ""
    shape = static_shape(a.type) or (len(a.strings),)
    return _nest(shape, [quote_bytes(s) for s in a.strings])


def _print_dense_string(a: DenseStringElementsAttr) -> str:
    return f"dense<{dense_string_body(a)}> : {print_type(a.type)}"


def _elements_count(a: Attribute) -> int:
    t = getattr(a, "type", None)
    shape = static_shape(t) if isinstance(t, Type) else None
    return 0 if shape is None else num_elements(shape)


def _print_sparse(a: SparseElementsAttr) -> str:
    body = ""
    if _elements_count(a.indices):
        idx = a.indices
        idx_text = (
            dense_body(idx.data, idx.type, False) if isinstance(idx, DenseElementsAttr) else ""
        )
        vals = a.values
        if isinstance(vals, DenseElementsAttr):
            val_text = dense_body(vals.data, vals.type, True)
        elif isinstance(vals, DenseStringElementsAttr):
            val_text = dense_string_body(vals)
        else:
            val_text = print_attribute(vals)
        body = f"{idx_text}, {val_text}"
    return f"sparse<{body}> : {print_type(a.type)}"


def _print_dense_resource(a: DenseResourceElementsAttr) -> str:
    key = keyword_or_string(a.key.encode("utf-8", "surrogateescape"))
    return f"dense_resource<{key}> : {print_type(a.type)}"


def _print_distinct(a: DistinctAttr) -> str:
    inner = "" if isinstance(a.referenced, UnitAttr) else print_attribute(a.referenced)
    return f"distinct[{a.ident}]<{inner}>"


def _print_fallback_attr(a: FallbackAttr) -> str:
    dialect = quote_bytes(a.dialect_name.encode("utf-8", "surrogateescape"))
    return f'#mlirbc.fallback<{dialect}, "0x{a.data.hex().upper()}">'


def _print_loc_attr(a: Attribute) -> str:
    return "loc(" + print_location(a) + ")"


_ATTR_PRINTERS: dict[type, Callable[[Any], str]] = {
    IntegerAttr: _print_integer_attr,
    FloatAttr: _print_float_attr,
    StringAttr: _print_string_attr,
    DictionaryAttr: _print_dictionary,
    ArrayAttr: _print_array,
    UnitAttr: lambda a: "unit",
    TypeAttr: lambda a: print_type(a.type),
    FlatSymbolRefAttr: lambda a: symbol_ref(a.root.value),
    SymbolRefAttr: _print_symbol_ref,
    DenseArrayAttr: _print_dense_array,
    DenseElementsAttr: _print_dense,
    DenseStringElementsAttr: _print_dense_string,
    DenseResourceElementsAttr: _print_dense_resource,
    SparseElementsAttr: _print_sparse,
    DistinctAttr: _print_distinct,
    DialectAttr: lambda a: a.text,
    FallbackAttr: _print_fallback_attr,
    StructuredAttr: lambda a: a.kind.print_value(a),
    UnknownLoc: _print_loc_attr,
    FileLineColLoc: _print_loc_attr,
    FileLineColRange: _print_loc_attr,
    NameLoc: _print_loc_attr,
    CallSiteLoc: _print_loc_attr,
    FusedLoc: _print_loc_attr,
}


_BULKY = frozenset(
    [StringAttr, DenseArrayAttr, DenseElementsAttr, DenseStringElementsAttr, SparseElementsAttr,
     StructuredAttr]
)
"""Payload attributes whose long prints are not cached (a structured value may be a tensor constant; its
nested values are cached on their own)."""

_ELIDABLE_TYPES = frozenset([FallbackType])


# ================================================================================================
# Locations
# ================================================================================================

_loc_cache: weakref.WeakKeyDictionary[Attribute, str] = weakref.WeakKeyDictionary()


def range_positions(numbers: tuple[int, ...]) -> tuple[int, int, int, int]:
    """(start line, start col, end line, end col) of a FileLineColRange's 0-4 stored numbers."""
    n = len(numbers)
    if n == 0:
        return 0, 0, 0, 0
    if n == 1:
        return numbers[0], 0, numbers[0], 0
    if n == 2:
        return numbers[0], numbers[1], numbers[0], numbers[1]
    if n == 3:
        return numbers[0], numbers[1], numbers[0], numbers[2]
    return numbers[0], numbers[1], numbers[2], numbers[3]


def file_line_col_text(loc: FileLineColLoc) -> str:
    """The inside of `loc(...)` for a file-line-column location: `"file":1:2`."""
    return f"{_quoted_name(loc.filename)}:{loc.line}:{loc.column}"


def print_location(loc: Attribute) -> str:
    """The inside of `loc(...)`: `"file":1:2`, `unknown`, `callsite(A at B)`, `fused[...]`, ...; in an
    alias scope an aliased location is its alias (`#loc3`)."""
    el = _elision.get()
    if type(loc) is FileLineColLoc:
        # Most ops have a location of their own: caching its text would cost a weak reference per op
        # for text that is cheaper to make again (an alias scope's cache has them all already).
        if el is not None:
            s = el.locs.get(loc)
            if s is not None:
                return s
        return f"{_quoted_name(loc.filename)}:{loc.line}:{loc.column}"
    s = (_loc_cache if el is None else el.locs).get(loc)
    if s is None:
        try:
            s = _render_location(loc)
        except RecursionError:
            _warm(loc)
            s = _render_location(loc)
    return s


def print_location_inline(loc: Attribute) -> str:
    """The inside of `loc(...)` never aliased itself, though what it holds may be: MLIR prints a block
    argument's location so, and the body of a location alias's definition."""
    if _aliases.get() is None:
        el = _elision.get()
        if isinstance(el, _Recording):
            el.visit(loc, False)
            token = _elision.set(None)
            try:
                return print_location(loc)
            finally:
                _elision.reset(token)
        return print_location(loc)
    try:
        return _render_location(loc, store=False)
    except RecursionError:
        _warm(loc)
        return _render_location(loc, store=False)


def _render_location(loc: Attribute, store: bool = True) -> str:
    if isinstance(loc, FileLineColLoc):
        s = f"{_quoted_name(loc.filename)}:{loc.line}:{loc.column}"
    elif isinstance(loc, NameLoc):
        s = _quoted_name(loc.name)
        if not isinstance(loc.child, UnknownLoc):
            s += "(" + print_location(loc.child) + ")"
    elif isinstance(loc, UnknownLoc):
        s = "unknown"
    elif isinstance(loc, CallSiteLoc):
        s = f"callsite({print_location(loc.callee)} at {print_location(loc.caller)})"
    elif isinstance(loc, FusedLoc):
        meta = "" if loc.metadata is None else "<" + print_attribute(loc.metadata) + ">"
        s = f"fused{meta}[{', '.join([print_location(x) for x in loc.locations])}]"
    elif isinstance(loc, FileLineColRange):
        sl, sc, el, ec = range_positions(loc.numbers)
        s = f"{_quoted_name(loc.filename)}:{sl}:{sc}"
        if el != sl:
            s += f" to {el}:{ec}"
        elif ec != sc:
            s += f" to :{ec}"
        else:
            # mlir-opt prints this range like a FileLineColLoc, which reads back as one (another
            # bytecode code): spell the range out so the view keeps what the file stores.
            s += f" to {el}:{ec}"
    elif isinstance(loc, DialectAttr):
        s = loc.text
    else:
        # Any other attribute in a location slot (mlir-opt rejects those): print it as one.
        s = print_attribute(loc)
    if store:
        hook = _elision.get()
        (_loc_cache if hook is None else hook.locs)[loc] = s
    return s


_name_cache: weakref.WeakKeyDictionary[StringAttr, str] = weakref.WeakKeyDictionary()


_last_name: list[tuple[StringAttr | None, str]] = [(None, "")]
"""The last file name quoted (locations of one file follow each other): skips the cache's lookup.  One
tuple, read and replaced whole, so threads never see a name with another's text."""


def _quoted_name(name: StringAttr) -> str:
    last = _last_name[0]
    if last[0] is name:
        return last[1]
    s = _name_cache.get(name)
    if s is None:
        s = quote_bytes(name.value)
        _name_cache[name] = s
    _last_name[0] = (name, s)
    return s


# ================================================================================================
# Deep nesting
# ================================================================================================

_LOCATION_TYPES = (UnknownLoc, FileLineColLoc, FileLineColRange, NameLoc, CallSiteLoc, FusedLoc)


def _children(node: object) -> list[object]:
    out: list[object] = []
    for name in type(node).__slots__:  # type: ignore[attr-defined]
        value = getattr(node, name)
        values = value if isinstance(value, tuple) else (value,)
        for v in values:
            if isinstance(v, tuple):
                out.extend(x for x in v if isinstance(x, Attribute | Type))
            elif isinstance(v, Attribute | Type):
                out.append(v)
    return out


def _cached(node: object) -> bool:
    el = _elision.get()
    if isinstance(node, Type):
        return node in (_type_cache if el is None else el.types)
    if isinstance(node, _LOCATION_TYPES):
        return node in (_loc_cache if el is None else el.locs)
    return isinstance(node, Attribute) and node in (_attr_cache if el is None else el.attrs)


def _warm(root: object) -> None:
    """Fill the print caches bottom-up without recursion, so that printing a structure nested
    deeper than Python's recursion limit (long call-site chains) only ever recurses one level."""
    stack: list[tuple[object, bool]] = [(root, False)]
    seen: set[int] = set()
    while stack:
        node, children_done = stack.pop()
        if children_done:
            if _cached(node):
                continue  # an alias scope's entry (its alias) stays as it is
            if isinstance(node, Type):
                _render_type(node)
            elif isinstance(node, _LOCATION_TYPES):
                _render_location(node)
            elif isinstance(node, Attribute):
                _render_attribute(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        stack.extend((child, False) for child in _children(node))
