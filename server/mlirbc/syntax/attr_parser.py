"""MLIR text -> the same uniqued attributes, types and locations that print as that text.

`Parser` is a recursive-descent parser over a `Lexer` holding one current token; an op-level parser
can subclass it or drive it on the same token stream (`peek`, `advance`, `expect`,
`parse_attribute`, ...). It applies the canonicalisations MLIR applies when it builds these values
(dictionaries sorted by name, dense literals stored as splats when all elements are equal, i1 data
bit-packed, fused locations without metadata flattened, memory space 0 dropped), so parsing mlir-opt's
print of a value gives back the very object printed.

What it does not model stays text: dialect attributes and types (`#foo.bar<...>`, `!foo<"...">`)
and the builtin keyword attributes `affine_map<...>`, `affine_set<...>` and `strided<...>` become
`DialectAttr`/`DialectType` holding the exact source slice, unless the parser was given a syntax for
that dialect (`syntax`, from the model registry): the dialect's `DialectSyntax` then reads the value
into a structured attribute or type (`ir.structured`).  Every error is a `TextError` with a span.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Protocol, TypeVar

from ..errors import TextError, TextSpan
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
    fuse_locations,
)
from ..ir.types import (
    DYNAMIC,
    FLOAT_WIDTHS,
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
    element_type_problem,
    num_elements,
)
from .attr_printer import (
    dense_storage,
    element_storage_bytes,
    identity_layout_text,
    is_shaped,
    plain_attribute_text,
    plain_type_text,
    print_type,
    static_shape,
)
from .distincts import DistinctIds, DistinctMismatch
from .elision import (
    ARRAY,
    ELEMENTS,
    FALLBACK_ATTR,
    FALLBACK_TYPE,
    FINGERPRINT_RE,
    OPAQUE_NAME,
    TOKEN_PREFIX,
    Placeholder,
    Resolver,
    token_placeholder,
)
from .elision import STRING as ELIDED_STRING
from .floats import (
    SEMANTICS,
    decimal_to_float_exact,
    double_to_float,
)
from .lexer import (
    BAD_SURROGATES,
    BANG,
    BARE,
    EOF,
    FLOAT,
    HASH,
    INT,
    STRING,
    STRING_RE,
    SYMBOL,
    Lexer,
    Token,
    int_literal,
    string_value,
)

_T = TypeVar("_T")
_INT_TYPE_RE = re.compile(r"(si|ui|i)([0-9]+)")
_WS = r"[ \t\r\n]*"
_TENSOR_DIMS_RE = re.compile(rf"(?:(?:[0-9]+|\?){_WS}x{_WS})*")
_DIMS_UNTRAILED_RE = re.compile(rf"(?:[0-9]+|\?)(?:{_WS}x{_WS}(?:[0-9]+|\?))*")
_VECTOR_DIMS_RE = re.compile(rf"(?:(?:[0-9]+|\[{_WS}[0-9]+{_WS}\]){_WS}x{_WS})*")
_DIM_RE = re.compile(rf"([0-9]+)|(\?)|\[{_WS}([0-9]+){_WS}\]")
_FUTURE_FLOAT_RE = re.compile(r"f[0-9]+E[0-9]+M[0-9]+[A-Z]*")
_UNRANKED_RE = re.compile(rf"\*{_WS}x{_WS}")
_BODY_CHARS_RE = re.compile(rf'[<>\[\](){{}}"\-{BAD_SURROGATES}]')
_HEX_RE = re.compile(r"0x((?:[0-9A-Fa-f]{2})*)")
_PARAMETER_BEFORE_RE = re.compile(r"(?:^|[<,] ?)([A-Za-z_][A-Za-z0-9_]*) = $")


def _stripped_value(text: str, at: int, value_text: str, stripped: Mapping[str, str]) -> str:
    """The text an alias used at `at` stands for: its value's text, without its head where the alias is
    the value of a parameter printed stripped (`name = #alias`, `name` in `stripped`)."""
    m = _PARAMETER_BEFORE_RE.search(text, max(0, at - 80), at)
    head = stripped.get(m.group(1)) if m is not None else None
    if head is not None and value_text.startswith(head + "<"):
        return value_text[len(head):]
    return value_text


_ALIAS_USE_RE = re.compile(
    r'"[^"\\]*(?:\\.[^"\\]*)*"'
    r"|(?<![A-Za-z0-9_$.\-])(?P<sigil>[#!])(?P<name>[A-Za-z_][A-Za-z0-9_$\-]*)(?![A-Za-z0-9_$.\-<])")
"""Strings (skipped), and alias references in a dialect value's text (`#name`, `!name`: no `.`)."""
_CLOSERS = {">": "<", "]": "[", ")": "(", "}": "{"}
_MAX_INT_WIDTH = (1 << 24) - 1
_U32_MAX = (1 << 32) - 1

_SIMPLE_TYPES: dict[str, Type] = {}
_PROPS_KEY = b"mlirbc.properties"
"""A fallback op's payload key: its placeholder string is resolved by the op parser, not here."""


def _simple_type(name: str) -> Type | None:
    """Builtin types spelled as one bare identifier (`f32`, `index`, `ui8`, ...), memoised."""
    t = _SIMPLE_TYPES.get(name)
    if t is not None:
        return t
    if name in FLOAT_WIDTHS:
        t = FloatType.get(name)
    elif name == "index":
        t = IndexType.get()
    elif name == "none":
        t = NoneType.get()
    else:
        m = _INT_TYPE_RE.fullmatch(name)
        if m is None:
            return None
        if len(m.group(2)) > 8:
            return None
        width = int(m.group(2))
        if width > _MAX_INT_WIDTH:
            return None
        t = IntegerType.get(width, {"i": 0, "si": 1, "ui": 2}[m.group(1)])
    if len(_SIMPLE_TYPES) < 4096:
        _SIMPLE_TYPES[name] = t
    return t


def fused_location(locations: list[Attribute], metadata: Attribute | None) -> Attribute:
    """The fused location upstream's bytecode reader makes of these parts (what the view printed came
    from): without metadata `FusedLoc::get`'s canonical form (flattened, unknowns and duplicates dropped,
    as upstream's text parser makes it too); with metadata exactly the locations written, as upstream's
    bytecode reader keeps them (`fused<"m">[]` stays empty: upstream's text parser would make it
    `fused<"m">[unknown]`, which would change the file on a save)."""
    if metadata is None:
        return fuse_locations(locations, None)
    return FusedLoc.get(tuple(locations), metadata)


def file_range(filename: StringAttr, sl: int, sc: int, el: int, ec: int) -> Attribute:
    """A `"f":l:c to ...` range with the fewest stored numbers that keep all four positions."""
    if sl == el:
        if sc == ec:
            if sc == 0:
                return FileLineColRange.get(filename, () if sl == 0 else (sl,))
            return FileLineColRange.get(filename, (sl, sc))
        return FileLineColRange.get(filename, (sl, sc, ec))
    return FileLineColRange.get(filename, (sl, sc, el, ec))


class DialectSyntax(Protocol):
    """Reads one dialect's attributes and types from text (models provide it, the registry hands it out).

    Called with the parser just past the `#ident` / `!ident` token (`ident` without its sigil, e.g.
    `vhlo.tensor_v1` or `vhlo`); reads the rest of the value with the parser's primitives and returns it,
    or returns None without consuming anything when it does not know `ident` (the value is then kept as
    text, like the values of a dialect without syntax).
    """

    def parse_attribute(self, p: Parser, ident: str) -> Attribute | None: ...
    def parse_type(self, p: Parser, ident: str) -> Type | None: ...

    # Optional: `is_memref_layout(ident) -> bool`, whether the dialect's attribute `ident` (e.g.
    # `iree_tensor_ext.ragged_shape`) is a memref layout (MemRefLayoutAttrInterface), so that a lone one in
    # `memref<..., #attr>` is read as the layout, not the memory space (`Parser._is_layout`).


SyntaxLookup = Callable[[str], "DialectSyntax | None"]
"""dialect name -> its syntax, or None to keep that dialect's values as text."""


class _Literal:
    """A parsed tensor literal: a hex string, or scalar tokens and their shape (None: a scalar)."""

    __slots__ = ("hex", "shape", "items", "start")

    def __init__(self, start: int) -> None:
        self.hex: Token | None = None
        self.shape: tuple[int, ...] | None = None
        self.items: list[tuple[bool, Token]] = []
        self.start = start


class Parser:
    """Recursive-descent parser for MLIR attributes, types and locations over a shared `Lexer`.

    `tok` is the current (not yet consumed) token.  `attr_aliases`/`type_aliases` resolve `#name`
    and `!name` references for texts that define aliases (the generic view has none).
    """

    def __init__(
        self,
        source: str | Lexer,
        *,
        attr_aliases: dict[str, Attribute] | None = None,
        type_aliases: dict[str, Type] | None = None,
        elided: Resolver | None = None,
        syntax: SyntaxLookup | None = None,
        distincts: DistinctIds | None = None,
        stripped: Mapping[str, Mapping[str, str]] | None = None,
    ) -> None:
        self.syntax = syntax
        self.stripped = stripped or {}
        """The parameters dialect attributes print stripped (`syntax.aliases.StrippedParameters`): an alias
        written there stands for its value's text without its head."""
        """Where dialect syntaxes come from (`Registry.syntax`); None keeps dialect values as text."""
        self.lexer = source if isinstance(source, Lexer) else Lexer(source)
        self.text = self.lexer.text
        self.prev_end = 0
        """End offset of the last consumed token (or raw-scanned piece such as a dialect body)."""
        self._nested = False  # inside a guarded parse already (see `_guarded`)
        # Names repeat a lot (every location names its file): skip the uniquer for repeats.
        self._names: dict[bytes, StringAttr] = {}
        self.attr_aliases: dict[str, Attribute] = attr_aliases if attr_aliases is not None else {}
        self.type_aliases: dict[str, Type] = type_aliases if type_aliases is not None else {}
        self.elided = elided
        """Resolves elided placeholders (`syntax.elision`) to the template's values; without one they
        are read as the plain MLIR they are (a resource key, a string, an opaque attribute)."""
        self._raw_string_value = False  # the value of `mlirbc.properties`: resolved by the op parser
        self.distincts = distincts if distincts is not None else DistinctIds()
        """What `distinct[N]` stands for in this text (`syntax.distincts`): one N, one attribute."""
        # Last: lexing the first token may fail, and a parser that recovers from lexical errors
        # (view.parser.OpParser) then still has every other field.
        self.tok: Token = self.lexer.next()

    def _is_layout(self, a: Attribute) -> bool:
        """Whether a lone memref attribute is a layout (affine map, strided, or a dialect's attribute its
        syntax says is one), not a memory space."""
        if not isinstance(a, DialectAttr):
            return False
        if a.dialect_name == "builtin":
            return a.text.startswith(("affine_map", "strided"))
        syntax = self.syntax(a.dialect_name) if self.syntax is not None else None
        check = getattr(syntax, "is_memref_layout", None)
        if check is None:
            return False
        ident = a.text[1:].split("<", 1)[0].strip()
        return bool(check(ident))

    # ============================================================================================
    # Token stream
    # ============================================================================================

    def peek(self) -> Token:
        """The current token (not consumed)."""
        return self.tok

    def peek_ahead(self, n: int = 1) -> Token:
        """The token `n` places after the current one, without moving."""
        tok = self.tok
        for _ in range(n):
            if tok.kind == EOF:
                break
            tok = self.lexer.token_at(tok.end)
        return tok

    def advance(self) -> Token:
        """Consume and return the current token."""
        tok = self.tok
        self.prev_end = tok.end
        self.tok = self.lexer.next()
        return tok

    def reset(self, offset: int) -> None:
        """Continue lexing at character `offset` (the next token starts at or after it)."""
        self.lexer.reset(offset)
        self.prev_end = offset
        self.tok = self.lexer.next()

    def at(self, kind: str) -> bool:
        return self.tok.kind == kind

    def at_keyword(self, word: str) -> bool:
        tok = self.tok
        return tok.kind == BARE and tok.text == word

    def consume_if(self, kind: str) -> Token | None:
        tok = self.tok
        if tok.kind != kind:
            return None
        self.prev_end = tok.end
        self.tok = self.lexer.next()
        return tok

    def consume_keyword_if(self, word: str) -> bool:
        tok = self.tok
        if tok.kind == BARE and tok.text == word:
            self.prev_end = tok.end
            self.tok = self.lexer.next()
            return True
        return False

    def expect(self, kind: str, message: str | None = None) -> Token:
        tok = self.tok
        if tok.kind != kind:
            raise self.error(message or f"expected '{kind}'", tok)
        self.prev_end = tok.end
        self.tok = self.lexer.next()
        return tok

    def expect_keyword(self, word: str, message: str | None = None) -> Token:
        tok = self.tok
        if tok.kind != BARE or tok.text != word:
            raise self.error(message or f"expected '{word}'", tok)
        self.prev_end = tok.end
        self.tok = self.lexer.next()
        return tok

    def expect_eof(self) -> None:
        if self.tok.kind != EOF:
            raise self.error("unexpected trailing text", self.tok)

    def span(self, start: int, end: int) -> TextSpan:
        return self.lexer.span(start, end)

    def error(self, message: str, where: Token | TextSpan | None = None) -> TextError:
        """A TextError at a token (default: the current one) or span, to be raised by the caller."""
        if where is None:
            where = self.tok
        if isinstance(where, Token):
            what = "end of input" if where.kind == EOF else repr(where.text)
            if where.kind == EOF or message.startswith("expected"):
                message = f"{message}, found {what}"
            where = self.lexer.span(where.start, where.end)
        return TextError(message, where)

    def string_attr(self, value: bytes) -> StringAttr:
        """StringAttr.get(value), memoised for the life of this parser."""
        attr = self._names.get(value)
        if attr is None:
            attr = self._names[value] = StringAttr.get(value)
        return attr

    def parse_string(self) -> bytes:
        return string_value(self.expect(STRING, "expected string literal"))

    # ============================================================================================
    # Types
    # ============================================================================================

    def parse_type(self) -> Type:
        """Any type: builtin, function, dialect type (kept as text) or `!mlirbc.fallback<...>`."""
        tok = self.tok
        if tok.kind == BARE:
            t = _SIMPLE_TYPES.get(tok.text)
            if t is not None:
                self.prev_end = tok.end
                self.tok = self.lexer.next()
                return t
        return self._guarded(self._type)

    def _int_value(self, tok: Token) -> int:
        """An INT token's value: `0x` hexadecimal or decimal (leading zeros allowed)."""
        try:
            return int_literal(tok.text)
        except ValueError as exc:
            raise self.error(str(exc), tok) from None

    def _guarded(self, parse: Callable[[], _T]) -> _T:
        """Run a parse, turning Python's recursion limit (absurd nesting) into a located TextError."""
        if self._nested:
            return parse()
        self._nested = True
        try:
            return parse()
        except RecursionError:
            raise self.error("nesting too deep", self.tok) from None
        finally:
            self._nested = False

    def _type(self) -> Type:
        tok = self.tok
        kind = tok.kind
        if kind == BARE:
            name = tok.text
            t = _simple_type(name)
            if t is not None:
                self.prev_end = tok.end
                self.tok = self.lexer.next()
                return t
            shaped = self._SHAPED.get(name)
            if shaped is not None:
                self.advance()
                self.expect("<", f"expected '<' in {name} type")
                return shaped(self, tok)
            if _FUTURE_FLOAT_RE.fullmatch(name):
                # A builtin float type newer than our table: kept as text, like the reader does.
                self.advance()
                return DialectType.get("builtin", name)
        elif kind == "(":
            return self._function_type()
        elif kind == BANG:
            return self._parse_dialect_type()
        raise self.error("expected type", tok)

    def parse_type_list_parens(self) -> tuple[Type, ...]:
        """`(t1, t2, ...)`, possibly empty."""
        self.expect("(", "expected '('")
        if self.consume_if(")"):
            return ()
        types = [self._type()]
        while self.consume_if(","):
            types.append(self._type())
        self.expect(")", "expected ')' in type list")
        return tuple(types)

    def parse_function_result_types(self) -> tuple[Type, ...]:
        """The part after `->`: a parenthesised list or a single type."""
        if self.tok.kind == "(":
            return self.parse_type_list_parens()
        return (self._type(),)

    def parse_function_type(self) -> FunctionType:
        """`(inputs) -> results`."""
        return self._guarded(self._function_type)

    def _function_type(self) -> FunctionType:
        inputs = self.parse_type_list_parens()
        self.expect("->", "expected '->' in function type")
        return FunctionType.get(inputs, self.parse_function_result_types())

    def _parse_dims(self, pattern: re.Pattern[str]) -> tuple[tuple[int, ...], tuple[bool, ...]]:
        """A dimension list `4x?x[8]x` read from the raw text at the current token (MLIR lexes dims
        apart from the normal token rules); leaves the parser on the element type."""
        text = self.text
        start = self.tok.start
        end = pattern.match(text, start).end()  # type: ignore[union-attr]
        dims: list[int] = []
        scalable: list[bool] = []
        for m in _DIM_RE.finditer(text, start, end):
            fixed, dynamic, scaled = m.groups()
            if dynamic:
                dims.append(DYNAMIC)
                scalable.append(False)
                continue
            digits = (fixed or scaled).lstrip("0")
            value = int(digits or "0") if len(digits) <= 19 else 1 << 63
            if value >= 1 << 63:
                raise TextError("dimension too large", self.span(m.start(), m.end()))
            dims.append(value)
            scalable.append(scaled is not None)
        if end != start:
            self.reset(end)
        return tuple(dims), tuple(scalable)

    def _parse_tensor(self, kw: Token) -> Type:
        m = _UNRANKED_RE.match(self.text, self.tok.start)
        if m is not None:
            self.reset(m.end())
            element = self._element_type("tensor")
            self.expect(">", "expected '>' in tensor type")
            return UnrankedTensorType.get(element)
        shape, _ = self._parse_dims(_TENSOR_DIMS_RE)
        element = self._element_type("tensor")
        encoding = None
        if self.consume_if(","):
            encoding = self._attr()
        self.expect(">", "expected '>' in tensor type")
        return RankedTensorType.get(shape, element, encoding)

    def _parse_memref(self, kw: Token) -> Type:
        m = _UNRANKED_RE.match(self.text, self.tok.start)
        unranked = m is not None
        shape: tuple[int, ...] = ()
        if m is not None:
            self.reset(m.end())
        else:
            shape, _ = self._parse_dims(_TENSOR_DIMS_RE)
        element = self._element_type("memref")
        layout: Attribute | None = None
        space: Attribute | None = None
        if self.consume_if(","):
            first_tok = self.tok
            first = self._attr()
            if self.consume_if(","):
                layout, space = first, self._attr()
            elif not unranked and self._is_layout(first):
                layout = first
            else:
                space = first
            if unranked and layout is not None:
                raise self.error("cannot have affine map for unranked memref type", first_tok)
        self.expect(">", "expected '>' in memref type")
        if isinstance(space, IntegerAttr) and space.bits == 0:
            space = None  # MLIR drops the default memory space
        if unranked:
            return UnrankedMemRefType.get(element, space)
        if layout is None:
            layout = DialectAttr.get("builtin", identity_layout_text(len(shape)))
        return MemRefType.get(shape, element, layout, space)

    def _parse_vector(self, kw: Token) -> Type:
        shape, scalable = self._parse_dims(_VECTOR_DIMS_RE)
        element = self._element_type("vector")
        self.expect(">", "expected '>' in vector type")
        return VectorType.get(shape, element, scalable if any(scalable) else None)

    def _element_type(self, container: str) -> Type:
        at = self.tok
        element = self._type()
        problem = element_type_problem(container, element)
        if problem is not None:
            raise self.error(problem, at)
        return element

    def _parse_complex(self, kw: Token) -> Type:
        element = self._type()
        self.expect(">", "expected '>' in complex type")
        return ComplexType.get(element)

    def _parse_tuple(self, kw: Token) -> Type:
        types: list[Type] = []
        if not self.consume_if(">"):
            types.append(self._type())
            while self.consume_if(","):
                types.append(self._type())
            self.expect(">", "expected '>' in tuple type")
        return TupleType.get(tuple(types))

    _SHAPED = {
        "tensor": _parse_tensor,
        "memref": _parse_memref,
        "vector": _parse_vector,
        "complex": _parse_complex,
        "tuple": _parse_tuple,
    }

    def _parse_dialect_type(self) -> Type:
        tok = self.advance()
        ident = tok.text[1:]
        has_body = self.tok.kind == "<" and self.tok.start == tok.end
        if not has_body and "." not in ident:
            alias = self.type_aliases.get(ident)
            if alias is None:
                raise self.error(f"undefined symbol alias id '{ident}'", tok)
            return alias
        if ident == "mlirbc.fallback" and has_body:
            dialect, data = self._parse_fallback_body()
            return FallbackType.get(dialect, data)
        if ident == OPAQUE_NAME and has_body and self.elided is not None:
            return self._elided_opaque(tok, is_type=True)  # type: ignore[return-value]
        syntax = self._dialect_syntax(ident)
        if syntax is not None:
            structured = self._structured(lambda: syntax.parse_type(self, ident), tok)
            if structured is not None:
                return structured
        end = self._skip_body(self.tok.start) if has_body else tok.end
        if has_body:
            self.reset(end)
        return DialectType.get(ident.split(".", 1)[0],
                               self._without_aliases(self.distincts.unnumber(self.text[tok.start : end]),
                                                     self.stripped.get("#" + ident)))

    # ============================================================================================
    # Attributes
    # ============================================================================================

    def parse_attribute(self) -> Attribute:
        """Any attribute, with its optional `: type` where MLIR's grammar has one."""
        return self._guarded(self._attr)

    def _attr(self) -> Attribute:
        tok = self.tok
        kind = tok.kind
        if kind == BARE:
            handler = self._KEYWORD_ATTRS.get(tok.text)
            if handler is not None:
                return handler(self)
            if (
                tok.text not in self._SHAPED
                and _simple_type(tok.text) is None
                and not _FUTURE_FLOAT_RE.fullmatch(tok.text)
            ):
                raise self.error("expected attribute value", tok)
            return TypeAttr.get(self._type())
        if kind == STRING:
            self.prev_end = tok.end
            self.tok = self.lexer.next()
            value = string_value(tok)
            if self.elided is not None and value.startswith(b"mlirbc.elided.") and \
                    not self._raw_string_value:
                return self._elided_string(tok, value)
            if self.tok.kind == ":":
                self.advance()
                return StringAttr.get(value, self._type())
            return StringAttr.get(value)
        if kind == INT or kind == FLOAT or kind == "-":
            return self._parse_number()
        if kind == "[":
            self.advance()
            elements: list[Attribute] = []
            if not self.consume_if("]"):
                elements.append(self._attr())
                while self.consume_if(","):
                    elements.append(self._attr())
                self.expect("]", "expected ']' in array attribute")
            return ArrayAttr.get(tuple(elements))
        if kind == "{":
            return self._attr_dict()
        if kind == SYMBOL:
            return self._parse_symbol_ref()
        if kind == HASH:
            return self._parse_hash_attr()
        if kind == "(" or kind == BANG:
            return TypeAttr.get(self._type())
        raise self.error("expected attribute value", tok)

    # -- public hooks for op syntaxes (the custom forms of ops) --------------------------------------
    def starts_type(self, word: str) -> bool:
        """Whether a bare identifier begins a builtin type (`i32`, `index`, `tensor`, ...)."""
        return _simple_type(word) is not None or word in self._SHAPED or \
            bool(_FUTURE_FLOAT_RE.fullmatch(word))

    def starts_attribute(self) -> bool:
        """Whether the current token can begin an attribute."""
        tok = self.tok
        kind = tok.kind
        if kind in (STRING, INT, FLOAT, "-", "[", "{", SYMBOL, HASH, BANG, "("):
            return True
        return kind == BARE and (tok.text in self._KEYWORD_ATTRS or self.starts_type(tok.text))

    def parse_attribute_of_type(self, t: Type) -> Attribute:
        """`parseAttribute(type)`: a number or `true`/`false` without `: type` takes type `t`, as does a
        `dense<...>` literal when `t` is a shaped type of static shape; other attributes read as
        `parse_attribute`."""
        tok = self.tok
        if tok.kind == BARE and tok.text == "dense" and is_shaped(t) and static_shape(t) is not None:
            return self._guarded(lambda: self._parse_dense(t))
        if tok.kind == BARE and tok.text == "sparse" and is_shaped(t) and static_shape(t) is not None:
            return self._guarded(lambda: self._parse_sparse(t))
        if tok.kind == BARE and tok.text == "dense_resource" and is_shaped(t):
            return self._guarded(lambda: self._parse_dense_resource(t))
        if tok.kind in (INT, FLOAT) or (tok.kind == "-" and self.peek_ahead().kind in (INT, FLOAT)):
            return self._guarded(lambda: self._number_of_type(t))
        if tok.kind == STRING:
            self.advance()
            value = string_value(tok)
            if self.elided is not None and value.startswith(b"mlirbc.elided."):
                # a custom form's string (`vm.fail %c, "..."`) elided in the view: the file's own string
                ph = token_placeholder(value.decode("ascii", "replace"), ELIDED_STRING,
                                       None if t == NoneType.get() else t)
                if ph is not None and not self.elided.is_literal_string(value):
                    return self.elided.string(ph, self.span(tok.start, self.prev_end))
            return StringAttr.get(value, t)
        return self.parse_attribute()

    def _number_of_type(self, t: Type) -> Attribute:
        negative = self.consume_if("-") is not None
        num = self.advance()
        if isinstance(t, FloatType):
            return FloatAttr.get(t, self._float_bits(num, negative, t))
        if isinstance(t, IntegerType | IndexType):
            if negative and isinstance(t, IntegerType) and t.signedness == 2:
                raise self.error("negative integer literal not valid for unsigned integer type", num)
            return IntegerAttr.get(t, self._int_bits(num, negative, t, "attribute"))
        raise self.error("integer literal not valid for specified type", num)

    def parse_stripped(self, prefix: str) -> Attribute | Type:
        """An attribute or type printed without its `#dialect.mnemonic` (`!dialect.mnemonic`) prefix, or
        in full (`parseCustomAttributeWithFallback`): the same object the full text gives."""
        tok = self.tok
        if tok.kind in (HASH, BANG):
            return self.parse_type() if tok.kind == BANG else self.parse_attribute()
        start = tok.start
        if tok.kind == "<":
            end = self._skip_body(start)
            body = self.text[start:end]
            self.reset(end)
        elif tok.kind in (BARE, INT, STRING):
            self.advance()
            body = tok.text
            dialect, _, mnemonic = prefix[1:].partition(".")
            return self._reparse(f"{prefix[0]}{dialect}<{mnemonic} {body}>", start)
        elif tok.kind in ("{", "[", "("):
            # the body of a `#dialect<mnemonic{...}>` spelling (Shardy's `#sdy<manual_axes{"x"}>`)
            end = self._skip_body(start)
            body = self.text[start:end]
            self.reset(end)
            dialect, _, mnemonic = prefix[1:].partition(".")
            return self._reparse(f"{prefix[0]}{dialect}<{mnemonic}{body}>", start)
        else:
            raise self.error(f"expected {prefix} parameters")
        return self._reparse(prefix + body, start)

    def _reparse(self, text: str, at: int) -> Attribute | Type:
        sub = Parser(text, attr_aliases=self.attr_aliases, type_aliases=self.type_aliases,
                     elided=self.elided, syntax=self.syntax, distincts=self.distincts, stripped=self.stripped)
        try:
            value: Attribute | Type = sub.parse_type() if text.startswith("!") else sub.parse_attribute()
            sub.expect_eof()
        except TextError as exc:
            raise TextError(exc.message, self.span(at, max(self.prev_end, at + 1))) from None
        return value

    def parse_attribute_dict(self) -> DictionaryAttr:
        """`{name = value, unitname, "quoted name" = value}`; entries end up sorted by name."""
        return self._guarded(self._attr_dict)

    def _attr_dict(self) -> DictionaryAttr:
        self.expect("{", "expected '{'")
        entries: dict[bytes, Attribute] = {}
        if not self.consume_if("}"):
            while True:
                key_tok = self.tok
                if key_tok.kind == BARE:
                    key = key_tok.text.encode()
                elif key_tok.kind == STRING:
                    key = string_value(key_tok)
                    if not key:
                        raise self.error("expected valid attribute name", key_tok)
                else:
                    raise self.error("expected attribute name", key_tok)
                self.advance()
                if key in entries:
                    name = key.decode("utf-8", "replace")
                    raise self.error(f"duplicate key '{name}' in dictionary attribute", key_tok)
                if self.consume_if("="):
                    if key == _PROPS_KEY:
                        self._raw_string_value = True
                        try:
                            entries[key] = self._attr()
                        finally:
                            self._raw_string_value = False
                    else:
                        entries[key] = self._attr()
                else:
                    entries[key] = UnitAttr.get()
                if not self.consume_if(","):
                    break
            self.expect("}", "expected '}' in attribute dictionary")
        return DictionaryAttr.get(tuple((self.string_attr(k), entries[k]) for k in sorted(entries)))

    def _parse_symbol_ref(self) -> Attribute:
        root = self.string_attr(string_value(self.advance()))
        nested: list[FlatSymbolRefAttr] = []
        while self.tok.kind == "::":
            self.advance()
            tok = self.expect(SYMBOL, "expected nested symbol reference identifier")
            nested.append(FlatSymbolRefAttr.get(self.string_attr(string_value(tok))))
        if not nested:
            return FlatSymbolRefAttr.get(root)
        return SymbolRefAttr.get(root, tuple(nested))

    def _parse_hash_attr(self) -> Attribute:
        tok = self.advance()
        ident = tok.text[1:]
        has_body = self.tok.kind == "<" and self.tok.start == tok.end
        if not has_body and "." not in ident:
            alias = self.attr_aliases.get(ident)
            if alias is None:
                raise self.error(f"undefined symbol alias id '{ident}'", tok)
            return alias
        if ident == "mlirbc.fallback" and has_body:
            dialect, data = self._parse_fallback_body()
            return FallbackAttr.get(dialect, data)
        if ident == OPAQUE_NAME and has_body and self.elided is not None:
            return self._elided_opaque(tok, is_type=False)  # type: ignore[return-value]
        syntax = self._dialect_syntax(ident)
        if syntax is not None:
            value = self._structured(lambda: syntax.parse_attribute(self, ident), tok)
            if value is not None:
                return value
        end = tok.end
        if has_body:
            end = self._skip_body(self.tok.start)
            self.reset(end)
        if self.tok.kind == ":":
            # A typed dialect attribute carries its type in its text (`#foo.bar<...> : i32`).
            self.advance()
            self._type()
            end = self.prev_end
        return DialectAttr.get(ident.split(".", 1)[0].split("<", 1)[0],
                               self._without_aliases(self.distincts.unnumber(self.text[tok.start : end]),
                                                     self.stripped.get("#" + ident)))

    def _without_aliases(self, text: str, stripped: Mapping[str, str] | None = None) -> str:
        """A dialect value's text with the aliases in it replaced by what they stand for: the text the
        value has in local scope, which is its identity (`syntax.aliases.nested_values`).  `stripped`:
        the parameters the value prints stripped (parameter -> head), where an alias stands for its
        value's text without that head."""
        if not (self.attr_aliases or self.type_aliases) or ("#" not in text[1:] and "!" not in text[1:]):
            return text
        pieces: list[str] = []
        at = 0
        for m in _ALIAS_USE_RE.finditer(text, 1):
            name = m.group("name")
            if name is None:
                continue
            value: Attribute | Type | None
            if m.group("sigil") == "#":
                value = self.attr_aliases.get(name)
                replacement = None if value is None else plain_attribute_text(value)
                if replacement is not None and stripped:
                    replacement = _stripped_value(text, m.start(), replacement, stripped)
            else:
                value = self.type_aliases.get(name)
                replacement = None if value is None else plain_type_text(value)
            if replacement is not None:
                pieces.append(text[at:m.start()])
                pieces.append(replacement)
                at = m.end()
        if not pieces:
            return text
        pieces.append(text[at:])
        return "".join(pieces)

    def _dialect_syntax(self, ident: str) -> DialectSyntax | None:
        if self.syntax is None:
            return None
        return self.syntax(ident.split(".", 1)[0])

    def _structured(self, parse: Callable[[], _T], tok: Token) -> _T:
        """Run a dialect syntax; its model errors (anything but a TextError) are located at the value."""
        try:
            return parse()
        except (TextError, RecursionError):
            raise
        except Exception as exc:
            raise TextError(f"invalid {tok.text}: {exc}",
                            self.span(tok.start, max(self.prev_end, tok.end))) from None

    def raw_body(self) -> str:
        """The exact text of the balanced `<...>` at the current token (consumed), for dialect syntaxes that
        keep a nested value as text (its distinct attributes with the idents of the view's numbering, as
        the value held them)."""
        start = self.tok.start
        if self.tok.kind != "<":
            raise self.error("expected '<'")
        end = self._skip_body(start)
        self.reset(end)
        return self.distincts.unnumber(self.text[start:end])

    def parse_dimension_list(self, trailing_x: bool = True) -> tuple[int, ...]:
        """A dimension list `4x?x` (dynamic = `DYNAMIC`), leaving the parser on what follows it; without
        `trailing_x`, one such as `2x?x4` (`parseDimensionList(..., withTrailingX=false)`), at least one
        dimension."""
        if trailing_x:
            return self._parse_dims(_TENSOR_DIMS_RE)[0]
        if _DIMS_UNTRAILED_RE.match(self.text, self.tok.start) is None:
            raise self.error("expected a dimension list")
        return self._parse_dims(_DIMS_UNTRAILED_RE)[0]

    def _parse_fallback_body(self) -> tuple[str, bytes]:
        self.expect("<")
        dialect = self.parse_string().decode("utf-8", "surrogateescape")
        self.expect(",", "expected ',' in mlirbc.fallback")
        hex_tok = self.expect(STRING, "expected hex string in mlirbc.fallback")
        m = _HEX_RE.fullmatch(string_value(hex_tok).decode("latin-1"))
        if m is None:
            raise self.error("expected string containing hex digits starting with `0x`", hex_tok)
        self.expect(">", "expected '>' in mlirbc.fallback")
        return dialect, bytes.fromhex(m.group(1))

    def _skip_body(self, start: int, comparisons: bool = False) -> int:
        """End offset of the balanced `<...>` dialect body starting at `start` (strings respected,
        `->` not a closer), as MLIR's parseDialectSymbolBody scans it."""
        text = self.text
        stack: list[str] = []
        pos = start
        search = _BODY_CHARS_RE.search
        while True:
            m = search(text, pos)
            if m is None:
                if stack:
                    raise TextError(
                        f"unbalanced '{stack[-1]}' character in pretty dialect name",
                        self.span(start, len(text)),
                    )
                raise TextError(
                    "unexpected EOF in pretty dialect name", self.span(start, len(text))
                )
            c = m.group()
            i = m.start()
            pos = i + 1
            if comparisons and c in "<>" and text.startswith("=", pos):
                pos += 1  # `>=` / `<=` in affine constraints compare, they do not nest
            elif c in "<[({":
                stack.append(c)
            elif c == "-":
                if text.startswith(">", pos):
                    pos += 1
            elif c > "\x7f":
                # Kept as text and written as UTF-8: a lone surrogate that stands for no byte cannot be.
                raise TextError(f"a lone surrogate (U+{ord(c):04X}) is not text and cannot be in a dialect "
                                "body", self.span(i, i + 1))
            elif c == '"':
                sm = STRING_RE.match(text, i)
                if sm is None:
                    self.lexer.token_at(i)  # raises the precise string error
                    raise TextError("bad string literal", self.span(i, i + 1))
                pos = sm.end()
            else:
                if not stack or stack[-1] != _CLOSERS[c]:
                    opener = stack[-1] if stack else c
                    raise TextError(
                        f"unbalanced '{opener}' character in pretty dialect name",
                        self.span(i, i + 1),
                    )
                stack.pop()
                if not stack:
                    return pos

    def _parse_keyword_body_attr(self) -> Attribute:
        """`affine_map<...>`, `affine_set<...>`, `strided<...>`: kept as their exact text."""
        tok = self.advance()
        lt = self.tok
        if lt.kind != "<":
            raise self.error(f"expected '<' after '{tok.text}'", lt)
        end = self._skip_body(lt.start, comparisons=True)
        # These bodies are MLIR token streams (upstream lexes them), so a character the lexer rejects
        # is an error here too, even though the body is kept as text.  Lexed in place (no copy of
        # the text) so that errors carry their true position.
        pos = lt.end
        while pos < end - 1:
            pos = self.lexer.token_at(pos).end
        self.reset(end)
        return DialectAttr.get("builtin", self.text[tok.start : end])

    def _parse_bool(self) -> Attribute:
        tok = self.advance()
        return IntegerAttr.get(IntegerType.get(1), 1 if tok.text == "true" else 0)

    def _parse_unit(self) -> Attribute:
        self.advance()
        return UnitAttr.get()

    def _parse_loc_attr(self) -> Attribute:
        return self.parse_loc()

    # -- numbers ---------------------------------------------------------------------------------

    def _parse_number(self) -> Attribute:
        negative = False
        if self.tok.kind == "-":
            self.advance()
            negative = True
            if self.tok.kind not in (INT, FLOAT):
                raise self.error("expected constant integer or floating point value")
        num = self.advance()
        t: Type | None = None
        type_tok = None
        if self.tok.kind == ":":
            self.advance()
            type_tok = self.tok
            t = self._type()
        if num.kind == FLOAT:
            if t is None:
                t = FloatType.get("f64")
            if not isinstance(t, FloatType):
                raise self.error("floating point value not valid for specified type", num)
            return FloatAttr.get(t, self._float_bits(num, negative, t))
        if t is None:
            t = IntegerType.get(64)
        if isinstance(t, FloatType):
            return FloatAttr.get(t, self._float_bits(num, negative, t))
        if isinstance(t, IntegerType | IndexType):
            if negative and isinstance(t, IntegerType) and t.signedness == 2:
                raise self.error(
                    "negative integer literal not valid for unsigned integer type", num
                )
            return IntegerAttr.get(t, self._int_bits(num, negative, t, "attribute"))
        raise self.error("integer literal not valid for specified type", type_tok or num)

    def parse_bounded_int(self, lo: int, hi: int, what: str, signed: bool = True) -> int:
        """An integer literal (`-` allowed when `signed`), checked against [lo, hi] before anything else
        is done with it: a dialect syntax's number slot (a varint, an int64 field) holds no more than its
        C++ type, and a value beyond it would neither encode nor print (a located error instead)."""
        tok = self.tok
        negative = signed and tok.kind == "-"
        if negative:
            self.advance()
        num = self.expect(INT, f"expected an integer for {what}")
        # Every bound here fits in well under 40 digits: a longer literal is out of range before any
        # (quadratic) decimal conversion.
        digits = num.text[2:] if num.text.startswith("0x") else num.text
        if len(digits.lstrip("0")) > 40:
            raise self.error(f"integer constant out of range for {what}", num)
        value = self._int_value(num)
        if negative:
            value = -value
        if not lo <= value <= hi:
            raise self.error(f"integer constant out of range for {what}", tok if negative else num)
        return value

    def float_literal_bits(self, num: Token, negative: bool, t: FloatType) -> int:
        """The bit pattern of a number token (`1.5`, `1`, `0x3F800000`, `inf`-free) in `t`'s semantics,
        as a float attribute's value reads it (for dialect syntaxes that put the type after the value)."""
        return self._float_bits(num, negative, t)

    def _int_bits(self, num: Token, negative: bool, t: Type, what: str) -> int:
        """buildAttributeAPInt: the literal's bit pattern in the type's width, range-checked."""
        if num.kind != INT:
            raise self.error("expected integer elements, but parsed floating-point", num)
        value = self._int_value(num)
        width = t.width if isinstance(t, IntegerType) else 64
        ok = value.bit_length() <= width
        if ok:
            if width == 0:
                ok = not negative
            elif negative:
                value = -value & ((1 << width) - 1)
                ok = bool(value >> (width - 1))
            elif (isinstance(t, IndexType) or t.signedness == 1) and value >> (width - 1):  # type: ignore[attr-defined]
                ok = False
        if not ok:
            raise self.error(f"integer constant out of range for {what}", num)
        return value

    def _float_bits(self, num: Token, negative: bool, t: FloatType) -> int:
        sem = SEMANTICS[t.name]
        text = num.text
        if num.kind == INT:
            if not text.startswith("0x"):
                raise self.error(
                    "unexpected decimal integer literal for a floating point value", num
                )
            if negative:
                raise self.error("hexadecimal float literal should not have a leading minus", num)
            bits = int(text, 16)
            if bits.bit_length() > sem.width:
                raise self.error("hexadecimal float constant out of range for type", num)
            return bits
        if num.kind != FLOAT:
            raise self.error("expected floating point literal", num)
        if negative and not sem.signed and text.strip("0.eE+-") != "":
            raise self.error(f"floating point value not representable in {t.name}", num)
        # Rounded once, straight into the target format.  mlir-opt goes through a double first,
        # which is the same for every format up to f64 bar rare double-rounding ties, but loses
        # f80/f128 precision and range: then it cannot read back its own prints; we can.
        if sem.name == "f64":
            return double_to_float(-float(text) if negative else float(text), sem)
        return decimal_to_float_exact(("-" if negative else "") + text, sem)

    # -- dense and friends -----------------------------------------------------------------------

    def _parse_literal(self, allow_hex: bool) -> _Literal:
        lit = _Literal(self.tok.start)
        if allow_hex and self.tok.kind == STRING:
            lit.hex = self.advance()
        elif self.tok.kind == "[":
            lit.shape = self._parse_literal_list(lit.items)
        else:
            self._parse_literal_element(lit.items)
        return lit

    def _parse_literal_list(self, items: list[tuple[bool, Token]]) -> tuple[int, ...]:
        self.expect("[")
        size = 0
        inner: tuple[int, ...] | None = None
        if not self.consume_if("]"):
            while True:
                elem_tok = self.tok
                if elem_tok.kind == "[":
                    dims = self._parse_literal_list(items)
                else:
                    self._parse_literal_element(items)
                    dims = ()
                size += 1
                if inner is None:
                    inner = dims
                elif inner != dims:
                    raise self.error(
                        "tensor literal is invalid; ranks are not consistent between elements",
                        elem_tok,
                    )
                if not self.consume_if(","):
                    break
            self.expect("]", "expected ']' in tensor literal")
        return (size, *(inner or ()))

    def _parse_literal_element(self, items: list[tuple[bool, Token]]) -> None:
        tok = self.tok
        kind = tok.kind
        if kind in (INT, FLOAT, STRING) or (kind == BARE and tok.text in ("true", "false")):
            items.append((False, self.advance()))
        elif kind == "-":
            self.advance()
            if self.tok.kind not in (INT, FLOAT):
                raise self.error("expected integer or floating point literal")
            items.append((True, self.advance()))
        elif kind == "(":
            self.advance()
            self._parse_literal_element(items)
            self.expect(",", "expected ',' between complex elements")
            self._parse_literal_element(items)
            self.expect(")", "expected ')' after complex elements")
        else:
            raise self.error("expected element literal of primitive type", tok)

    def _parse_shaped_literal_type(self, at: Token) -> Type:
        self.expect(":", "expected ':'")
        type_tok = self.tok
        t = self._type()
        if not is_shaped(t):
            raise self.error("elements literal must be a shaped type", type_tok)
        if static_shape(t) is None:
            raise self.error("elements literal type must have static shape", type_tok)
        return t

    def _elements_attr(self, lit: _Literal, t: Type, at: Token) -> Attribute:
        """TensorLiteralParser::getAttr: the dense attribute a literal denotes for type `t`."""
        shape = static_shape(t)
        assert shape is not None
        element: Type = t.element  # type: ignore[attr-defined]
        count = num_elements(shape)
        numeric = isinstance(element, IntegerType | IndexType | FloatType | ComplexType)
        if lit.hex is not None and numeric:
            return self._hex_elements(lit.hex, t, element, count)
        if lit.hex is not None:
            return DenseStringElementsAttr.get(t, True, (string_value(lit.hex),))
        if lit.shape is not None and lit.shape != shape:
            raise TextError(
                f"inferred shape of elements literal ([{', '.join(map(str, lit.shape))}]) does not "
                f"match type ([{', '.join(map(str, shape))}])",
                self.span(lit.start, lit.start + 1),
            )
        items = lit.items
        if not items and count:
            raise TextError(
                f"parsed zero elements, but type ({print_type(t)}) expected at least 1",
                self.span(at.start, at.end),
            )
        if isinstance(element, ComplexType):
            if lit.shape is None and count and len(items) != 2:
                raise TextError(
                    f"parsed {len(items)} elements, but type ({print_type(element)}) expected 2 "
                    "elements",
                    self.span(at.start, at.end),
                )
            if lit.shape is not None and len(items) != 2 * count:
                raise TextError(
                    f"parsed {len(items)} elements, but type ({print_type(t)}) expected "
                    f"{2 * count} elements",
                    self.span(at.start, at.end),
                )
            part = element.element
            if not isinstance(part, IntegerType | IndexType | FloatType):
                raise self.error("unsupported complex element type", at)
            values = [self._scalar_bytes(neg, tok, part) for neg, tok in items]
            elems = [values[i] + values[i + 1] for i in range(0, len(values), 2)]
            return DenseElementsAttr.get(t, _splat_or_all(elems))
        if isinstance(element, IntegerType | IndexType | FloatType):
            if isinstance(element, IntegerType) and element.width == 1:
                flags = [self._bool_value(neg, tok, element) for neg, tok in items]
                return DenseElementsAttr.get(t, _pack_bools(flags, count))
            return DenseElementsAttr.get(
                t, _splat_or_all([self._scalar_bytes(neg, tok, element) for neg, tok in items])
            )
        strings: list[bytes] = []
        for _neg, tok in items:
            if tok.kind != STRING:
                raise self.error("expected string token", tok)
            strings.append(string_value(tok))
        if strings and all(s == strings[0] for s in strings):
            return DenseStringElementsAttr.get(t, True, (strings[0],))
        return DenseStringElementsAttr.get(t, False, tuple(strings))

    def _bool_value(self, negative: bool, tok: Token, t: IntegerType) -> bool:
        if tok.kind == BARE:
            return tok.text == "true"
        if tok.kind == STRING:
            raise self.error("expected integer elements", tok)
        return bool(self._int_bits(tok, negative, t, "type"))

    def _scalar_bytes(self, negative: bool, tok: Token, t: Type) -> bytes:
        if isinstance(t, FloatType):
            if tok.kind == BARE:
                raise self.error("expected floating-point elements, but parsed integer", tok)
            if tok.kind == STRING:
                raise self.error("expected floating-point elements", tok)
            bits = self._float_bits(tok, negative, t)
            return bits.to_bytes(SEMANTICS[t.name].storage_bytes, "little")
        if tok.kind == STRING:
            raise self.error("expected integer elements", tok)
        if isinstance(t, IntegerType) and negative and t.signedness == 2:
            raise self.error("expected unsigned integer elements, but parsed negative value", tok)
        if tok.kind == BARE:
            if not (isinstance(t, IntegerType) and t.width == 1):
                raise self.error("expected i1 type for 'true' or 'false' values", tok)
            return b"\x01" if tok.text == "true" else b"\x00"
        bits = self._int_bits(tok, negative, t, "type")
        width = t.width if isinstance(t, IntegerType) else 64
        return bits.to_bytes(max(1, (width + 7) // 8), "little")

    def _hex_elements(self, hex_tok: Token, t: Type, element: Type, count: int) -> Attribute:
        m = _HEX_RE.fullmatch(string_value(hex_tok).decode("latin-1"))
        if m is None:
            raise self.error("expected string containing hex digits starting with `0x`", hex_tok)
        data = bytes.fromhex(m.group(1))
        bad = TextError(
            f"elements hex data size is invalid for provided type: '{print_type(t)}'",
            self.span(hex_tok.start, hex_tok.end),
        )
        if isinstance(element, IntegerType) and element.width == 1:
            if not data and not count:
                return DenseElementsAttr.get(t, b"")
            if len(data) == 1 and (data[0] in (0, 0xFF) or count == 1):
                return DenseElementsAttr.get(t, b"\xff" if data[0] else b"\x00")
            if len(data) != (count + 7) // 8:
                raise bad
            return DenseElementsAttr.get(t, dense_storage(data, element, count))
        size = element_storage_bytes(element)
        if size is None:
            raise bad
        if len(data) == size:
            return DenseElementsAttr.get(t, data)
        if len(data) != size * count:
            raise bad
        return DenseElementsAttr.get(t, dense_storage(data, element, count))

    def _parse_dense(self, given: Type | None = None) -> Attribute:
        kw = self.advance()
        self.expect("<", "expected '<' after 'dense'")
        lit = _Literal(self.tok.start)
        if not self.consume_if(">"):
            lit = self._parse_literal(allow_hex=True)
            self.expect(">", "expected '>'")
        t = given if given is not None and self.tok.kind != ":" else self._parse_shaped_literal_type(kw)
        return self._elements_attr(lit, t, kw)

    def _parse_sparse(self, given: Type | None = None) -> Attribute:
        kw = self.advance()
        self.expect("<", "expected '<' after 'sparse'")
        i64 = IntegerType.get(64)
        if self.consume_if(">"):
            t = self._given_or_literal_type(given, kw)
            shape = static_shape(t)
            assert shape is not None
            element: Type = t.element  # type: ignore[attr-defined]
            empty_indices = RankedTensorType.get((0, len(shape)), i64)
            indices: Attribute = DenseElementsAttr.get(empty_indices, b"")
            values_type = RankedTensorType.get((0,), element)
            values: Attribute
            if isinstance(element, IntegerType | IndexType | FloatType | ComplexType):
                values = DenseElementsAttr.get(values_type, b"")
            else:
                values = DenseStringElementsAttr.get(values_type, False, ())
            return SparseElementsAttr.get(t, indices, values)
        idx_lit = self._parse_literal(allow_hex=False)
        self.expect(",", "expected ','")
        val_lit = self._parse_literal(allow_hex=True)
        self.expect(">", "expected '>'")
        t = self._given_or_literal_type(given, kw)
        shape = static_shape(t)
        assert shape is not None
        element = t.element  # type: ignore[attr-defined]
        idx_type = RankedTensorType.get(
            idx_lit.shape if idx_lit.shape is not None else (1, len(shape)), i64
        )
        indices = self._elements_attr(idx_lit, idx_type, kw)
        val_shape = val_lit.shape if val_lit.shape is not None else (idx_type.shape[0],)
        values = self._elements_attr(val_lit, RankedTensorType.get(val_shape, element), kw)
        return SparseElementsAttr.get(t, indices, values)

    def _given_or_literal_type(self, given: Type | None, kw: Token) -> Type:
        """The type an elements literal has: `: type` after it, else the one its context gives
        (`parseAttribute(type)`: memref.global's initial value)."""
        return given if given is not None and self.tok.kind != ":" else self._parse_shaped_literal_type(kw)

    def _parse_dense_resource(self, given: Type | None = None) -> Attribute:
        kw = self.advance()
        self.expect("<", "expected '<' after 'dense_resource'")
        key_tok = self.tok
        if key_tok.kind == BARE:
            key = key_tok.text
        elif key_tok.kind == STRING:
            key = string_value(key_tok).decode("utf-8", "surrogateescape")
        else:
            raise self.error("expected identifier key for 'resource' entry", key_tok)
        self.advance()
        self.expect(">", "expected '>'")
        type_tok = self.tok
        if given is not None and self.tok.kind != ":":
            t = given
        else:
            self.expect(":", "expected ':'")
            type_tok = self.tok
            t = self._type()
        if not is_shaped(t):  # any shaped type: a resource's shape may be dynamic (as upstream)
            raise self.error("`dense_resource` expected a shaped type", type_tok)
        if self.elided is not None and key.startswith(TOKEN_PREFIX) and \
                not self.elided.is_literal_key(key):
            ph = token_placeholder(key, ELEMENTS, t)
            if ph is not None:
                return self.elided.elements(ph, self.span(kw.start, self.prev_end))
        return DenseResourceElementsAttr.get(t, key)

    def _parse_dense_array(self) -> Attribute:
        self.advance()
        self.expect("<", "expected '<' after 'array'")
        type_tok = self.tok
        et = self._type()
        if isinstance(et, IntegerType):
            if et.width != 1 and et.width % 8:
                raise self.error("element type bitwidth must be a multiple of 8", type_tok)
        elif isinstance(et, FloatType):
            if SEMANTICS[et.name].width % 8:
                raise self.error("element type bitwidth must be a multiple of 8", type_tok)
        else:
            raise self.error("expected integer or float type", type_tok)
        out = bytearray()
        count = 0
        if self.consume_if(":"):
            while True:
                negative = self.consume_if("-") is not None
                tok = self.tok
                if isinstance(et, IntegerType) and et.width == 1:
                    if negative or tok.kind != BARE or tok.text not in ("true", "false"):
                        raise self.error("expected 'true' or 'false' values for i1 type", tok)
                    out.append(1 if tok.text == "true" else 0)
                elif isinstance(et, IntegerType):
                    if tok.kind != INT:
                        raise self.error("expected integer literal", tok)
                    if negative and et.signedness == 2:
                        raise self.error(
                            "negative integer literal not valid for unsigned integer type", tok
                        )
                    out += self._int_bits(tok, negative, et, "type").to_bytes(
                        et.width // 8, "little"
                    )
                else:
                    assert isinstance(et, FloatType)
                    if tok.kind not in (INT, FLOAT):
                        raise self.error("expected floating point literal", tok)
                    bits = self._float_bits(tok, negative, et)
                    out += bits.to_bytes(SEMANTICS[et.name].storage_bytes, "little")
                self.advance()
                count += 1
                if not self.consume_if(","):
                    break
        self.expect(">", "expected '>' to close an array attribute")
        return DenseArrayAttr.get(et, count, bytes(out))

    # -- elided placeholders (syntax.elision) ----------------------------------------------------

    def _elided_string(self, tok: Token, value: bytes) -> Attribute:
        t: Type | None = None
        if self.tok.kind == ":":
            self.advance()
            t = self._type()
        assert self.elided is not None
        ph = token_placeholder(value.decode("ascii", "replace"), ELIDED_STRING, t)
        if ph is None or self.elided.is_literal_string(value):
            return StringAttr.get(value, t)
        return self.elided.string(ph, self.span(tok.start, self.prev_end))

    def _elided_opaque(self, tok: Token, is_type: bool) -> Attribute | Type:
        """`#mlirbc.elided<KIND, SIZE, "FP">` (`!` for a type); KIND is `array<T>` or "dialect"."""
        assert self.elided is not None
        self.expect("<")
        what = "type" if is_type else "attribute"
        kind_tok = self.tok
        element: Type | None = None
        dialect = ""
        if kind_tok.kind == STRING:
            dialect = string_value(self.advance()).decode("utf-8", "surrogateescape")
        elif not is_type and self.at_keyword("array"):
            empty = self._parse_dense_array()
            assert isinstance(empty, DenseArrayAttr)
            if empty.count:
                raise self.error("an elided array placeholder names its kind as `array<T>`, without "
                                 "elements", kind_tok)
            element = empty.element_type
        else:
            raise self.error(f"expected the kind of the elided {what}: a dialect name in quotes"
                             + ("" if is_type else " or array<T>"), kind_tok)
        self.expect(",", "expected ',' after the kind of the elided value")
        size_tok = self.expect(INT, "expected the size of the elided value in bytes")
        self.expect(",", "expected ',' after the size of the elided value")
        fp_tok = self.expect(STRING, "expected the fingerprint of the elided value")
        self.expect(">", "expected '>' to close the elided placeholder")
        fp = string_value(fp_tok).decode("ascii", "replace")
        if not FINGERPRINT_RE.fullmatch(fp):
            raise self.error("a fingerprint is 16 hex digits, or full_ and 16 hex digits", fp_tok)
        span = self.span(tok.start, self.prev_end)
        size = self._int_value(size_tok)
        if is_type:
            return self.elided.fallback_type(Placeholder(FALLBACK_TYPE, size, fp, dialect=dialect), span)
        if element is not None:
            return self.elided.array(Placeholder(ARRAY, size, fp, element), span)
        return self.elided.fallback_attr(Placeholder(FALLBACK_ATTR, size, fp, dialect=dialect), span)

    def _parse_distinct(self) -> Attribute:
        start = self.advance().start
        self.expect("[", "expected '[' after 'distinct'")
        id_tok = self.expect(INT, "expected distinct ID")
        ident = self._int_value(id_tok)
        if ident >= 1 << 64:
            raise self.error("expected an unsigned 64-bit integer", id_tok)
        self.expect("]", "expected ']' to close distinct ID")
        self.expect("<", "expected '<' after distinct ID")
        referenced: Attribute
        if self.consume_if(">"):
            referenced = UnitAttr.get()
        else:
            referenced = self._attr()
            self.expect(">", "expected '>' to close distinct attribute")
        try:
            return self.distincts.resolve(ident, referenced)
        except DistinctMismatch as exc:
            raise self.error(f"{exc}: {plain_attribute_text(exc.previous)}",
                             self.span(start, self.prev_end)) from None

    _KEYWORD_ATTRS = {
        "true": _parse_bool,
        "false": _parse_bool,
        "unit": _parse_unit,
        "dense": _parse_dense,
        "dense_resource": _parse_dense_resource,
        "sparse": _parse_sparse,
        "array": _parse_dense_array,
        "distinct": _parse_distinct,
        "loc": _parse_loc_attr,
        "affine_map": _parse_keyword_body_attr,
        "affine_set": _parse_keyword_body_attr,
        "strided": _parse_keyword_body_attr,
    }

    # ============================================================================================
    # Locations
    # ============================================================================================

    def parse_loc(self) -> Attribute:
        """`loc(...)`, keyword and parentheses included."""
        self.expect_keyword("loc", "expected 'loc' keyword")
        self.expect("(", "expected '(' in location")
        loc = self._guarded(self._location)
        self.expect(")", "expected ')' in location")
        return loc

    def parse_location(self) -> Attribute:
        """The inside of `loc(...)`."""
        return self._guarded(self._location)

    def _location(self) -> Attribute:
        tok = self.tok
        kind = tok.kind
        if kind == STRING:
            return self._parse_name_or_file_loc()
        if kind == BARE:
            text = tok.text
            if text == "unknown":
                self.advance()
                return UnknownLoc.get()
            if text == "callsite":
                # Call stacks nest in the caller position: walk that chain in a loop, not by
                # recursion, so arbitrarily deep stacks parse.
                callees: list[Attribute] = []
                while self.at_keyword("callsite"):
                    self.advance()
                    self.expect("(", "expected '(' in callsite location")
                    callees.append(self._location())
                    self.expect_keyword("at", "expected 'at' in callsite location")
                caller = self._location()
                for callee in reversed(callees):
                    self.expect(")", "expected ')' in callsite location")
                    caller = CallSiteLoc.get(callee, caller)
                return caller
            if text == "fused":
                self.advance()
                metadata = None
                if self.consume_if("<"):
                    metadata = self._attr()
                    self.expect(">", "expected '>' after fused location metadata")
                self.expect("[", "expected '[' in fused location")
                locs: list[Attribute] = []
                if not self.consume_if("]"):
                    locs.append(self._location())
                    while self.consume_if(","):
                        locs.append(self._location())
                    self.expect("]", "expected ']' in fused location")
                return fused_location(locs, metadata)
        if kind == HASH:
            return self._parse_hash_attr()
        raise self.error("expected location instance", tok)

    def _parse_name_or_file_loc(self) -> Attribute:
        name = self.string_attr(string_value(self.advance()))
        if self.tok.kind == ":":
            self.advance()
            line = self._loc_number("line")
            if self.tok.kind != ":":
                return file_range(name, line, 0, line, 0)
            self.advance()
            col = self._loc_number("column")
            if not self.at_keyword("to"):
                return FileLineColLoc.get(name, line, col)
            self.advance()
            end_line = line
            if self.tok.kind == INT:
                end_line = self._loc_number("line")
            if self.tok.kind != ":":
                raise self.error("expected either integer or `:` post `to` in FileLineColRange")
            self.advance()
            end_col = self._loc_number("column")
            return file_range(name, line, col, end_line, end_col)
        if self.tok.kind == "(":
            self.advance()
            child = self._location()
            self.expect(")", "expected ')' after child location of NameLoc")
            return NameLoc.get(name, child)
        return NameLoc.get(name, UnknownLoc.get())

    def _loc_number(self, what: str) -> int:
        tok = self.tok
        if tok.kind != INT:
            raise self.error(f"expected integer {what} number in FileLineColRange", tok)
        value = self._int_value(tok)
        if value > _U32_MAX:
            raise self.error(f"expected integer {what} number in FileLineColRange", tok)
        self.advance()
        return value






def _splat_or_all(elems: list[bytes]) -> bytes:
    """Storage of dense elements: one element when all are equal (MLIR detects splats), else all."""
    if not elems:
        return b""
    first = elems[0]
    if all(e == first for e in elems):
        return first
    return b"".join(elems)


def _pack_bools(flags: list[bool], count: int) -> bytes:
    """i1 storage: a splat is one byte 0xFF/0x00, otherwise bit i of byte i // 8 (spec 5.6)."""
    if not flags:
        return b""
    if len(flags) == 1 or all(f == flags[0] for f in flags):
        return b"\xff" if flags[0] else b"\x00"
    value = 0
    for i, f in enumerate(flags):
        if f:
            value |= 1 << i
    return value.to_bytes((count + 7) // 8, "little")


def _parse_all(text: str, method: str, syntax: SyntaxLookup | None = None) -> object:
    parser = Parser(text, syntax=syntax)
    result = getattr(parser, method)()
    parser.expect_eof()
    return result


def parse_attribute_text(text: str, syntax: SyntaxLookup | None = None) -> Attribute:
    """One attribute making up the whole of `text`."""
    result = _parse_all(text, "parse_attribute", syntax)
    assert isinstance(result, Attribute)
    return result


def parse_type_text(text: str, syntax: SyntaxLookup | None = None) -> Type:
    """One type making up the whole of `text`."""
    result = _parse_all(text, "parse_type", syntax)
    assert isinstance(result, Type)
    return result


def parse_location_text(text: str) -> Attribute:
    """The inside of a `loc(...)` making up the whole of `text`."""
    result = _parse_all(text, "parse_location")
    assert isinstance(result, Attribute)
    return result
