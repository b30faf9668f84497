"""Reading an op in its custom assembly form: the view's op parser (`models.asm.api.AsmParser`).

The op name (its dialect prefix may be the default dialect of the enclosing op) picks the syntax model;
the model reads the rest through `_AsmParser`, whose primitives are the view parser's (tokens, attributes,
types, regions with the arguments the op's syntax declares, located errors); the op is made from what
it read (`OpState`): operands resolved as uses in the enclosing scopes, inherent attributes into the
op's properties as its model lays them out, the rest into its attribute dictionary, defaults filled in as
mlir-opt fills them when it reads text, implicit terminators added where the text leaves them out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import TextError
from ..ir.attributes import Attribute, DictionaryAttr, StringAttr, UnknownLoc
from ..ir.operation import PROPS_DECODED, Block, BlockArgument, Operation, OpResult, Properties, Region
from ..ir.types import Type
from ..models.asm import api as asm
from ..models.sets import SETS
from ..syntax.lexer import BARE, BLOCK, HASH, INT, STRING, SYMBOL, VALUE, Token, int_literal, string_value
from .sourcemap import PIECE_ATTRIBUTES, PIECE_CUSTOM, PIECE_LOCATION, NameHandle

if TYPE_CHECKING:
    from .parser import OpParser


class _Ref:
    """An operand or argument name in the text (`%x`), with its map record."""

    __slots__ = ("name", "tok", "handle")

    def __init__(self, tok: Token, handle: NameHandle) -> None:
        self.name = tok.text
        self.tok = tok
        self.handle = handle


_TYPE_START = frozenset(("(", "bang"))
_PUNCT_KINDS = frozenset(("(", ")", "[", "]", "{", "}", "<", ">", ",", ":", "=", "->", "?", "+", "*", "...",
                          "|", "::", "-"))


class _AsmParser:
    """The op parser a syntax model reads one op through."""

    def __init__(self, p: OpParser, full: str) -> None:
        self.p = p
        self.full = full
        self.operands: list[tuple[_Ref, Type]] = []
        self.successors: list[_Ref] = []
        self.implicit: list[Operation | BlockArgument] = []
        self.attr_dict: tuple[int, int] | None = None
        self.mlir_version = SETS.get(p.registry.model_set or "", 22)
        """The MLIR major version the text is read for (its model set's)."""
        self.keyvalue_props = self.mlir_version >= 24
        """MLIR 24's key-value properties (`<alignment = 4>`) where `attr-dict` and `prop-dict` are."""

    def declares_attribute(self, name: str) -> bool:
        model = self.p.registry.op(self.full).model
        try:
            return model is not None and name in model.info().attributes
        except Exception:  # a plugin's model that cannot say
            return False

    # -- errors and tokens --------------------------------------------------------------------------
    def error(self, message: str) -> Exception:
        return self.p.error(message)

    def peek_text(self) -> str:
        tok = self.p.tok
        return tok.text if tok.kind != "eof" else ""

    def parse_keyword(self, word: str) -> None:
        self.p.expect_keyword(word, f"expected '{word}'")

    def parse_optional_keyword(self, word: str) -> bool:
        return self.p.consume_keyword_if(word)

    def parse_optional_any_keyword(self) -> str | None:
        tok = self.p.tok
        if tok.kind != BARE:
            return None
        self.p.advance()
        return tok.text

    def parse_punct(self, punct: str) -> None:
        if not self.parse_optional_punct(punct):
            raise self.p.error(f"expected '{punct}'")

    def parse_optional_punct(self, punct: str) -> bool:
        tok = self.p.tok
        if punct == ":" and tok.kind == "::":
            # MLIR lexes `::` as two colons (`key("a" :: "b")`)
            self.p.reset(tok.start + 1)
            return True
        return self.p.consume_if(punct) is not None

    # -- operands -----------------------------------------------------------------------------------
    def parse_operand(self) -> asm.OperandRef:
        tok = self.p.expect(VALUE, "expected SSA operand")
        return _Ref(tok, self.p.map.occurrence(None, tok.start, tok.end, False, False))

    def parse_optional_operand(self) -> asm.OperandRef | None:
        if self.p.tok.kind != VALUE:
            return None
        return self.parse_operand()

    def parse_optional_value_name(self) -> str | None:
        if self.p.tok.kind != VALUE:
            return None
        return self.p.expect(VALUE, "expected a name").text

    def resolve_operands(self, refs: Sequence[asm.OperandRef], types: Sequence[Type],
                         state: asm.OpState) -> None:
        if len(refs) != len(types):
            raise self.error(f"{len(refs)} operands but {len(types)} types")
        for ref, t in zip(refs, types, strict=True):
            assert isinstance(ref, _Ref)
            self.operands.append((ref, t))

    def mention(self, ref: asm.OperandRef) -> None:
        assert isinstance(ref, _Ref)
        v = self.p._lookup(ref.name)
        if v is not None:
            self.p.map.resolve(ref.handle, v)

    def value_type(self, ref: asm.OperandRef) -> Type | None:
        v = self.p._lookup(ref.name)
        return v.type if v is not None and id(v) not in self.p.poisoned else None

    # -- types and attributes -------------------------------------------------------------------------
    def parse_type(self) -> Type:
        return self.p.parse_type()

    def parse_optional_type(self) -> Type | None:
        tok = self.p.tok
        if tok.kind in _TYPE_START or (tok.kind == BARE and self.p.starts_type(tok.text)):
            return self.p.parse_type()
        return None

    def parse_attribute(self, type: Type | None = None) -> Attribute:
        if type is not None:
            return self.p.parse_attribute_of_type(type)
        return self.p.parse_attribute()

    def parse_optional_attribute(self, type: Type | None = None) -> Attribute | None:
        if not self.p.starts_attribute():
            return None
        return self.parse_attribute(type)

    def parse_stripped(self, prefix: str) -> Attribute | Type:
        return self.p.parse_stripped(prefix)

    def parse_dimension_list(self) -> list[int]:
        return list(self.p.parse_dimension_list(trailing_x=False))

    def parse_affine_map_text(self) -> str:
        p = self.p
        start = p.tok.start
        for opener, closer, required in (("(", ")", True), ("[", "]", False), ("->", "", True),
                                         ("(", ")", True)):
            if p.tok.kind != opener:
                if required:
                    raise p.error(f"expected '{opener}' in an affine map")
                continue
            p.advance()
            depth = 1 if closer else 0
            while depth:
                if p.tok.kind == "eof":
                    raise p.error(f"expected '{closer}' in an affine map")
                depth += (p.tok.kind == opener) - (p.tok.kind == closer)
                p.advance()
        return p.text[start:p.prev_end]

    def parse_optional_attr_dict(self) -> DictionaryAttr | None:
        if self.p.tok.kind != "{":
            return None
        start = self.p.tok.start
        d = self.p.parse_attribute_dict()
        self.attr_dict = (start, self.p.prev_end)
        return d

    def parse_optional_attr_dict_with_keyword(self) -> DictionaryAttr | None:
        if not self.p.consume_keyword_if("attributes"):
            return None
        start = self.p.tok.start
        d = self.p.parse_attribute_dict()
        self.attr_dict = (start, self.p.prev_end)
        return d

    def parse_symbol_name(self) -> bytes:
        tok = self.p.expect(SYMBOL, "expected a symbol name (@name)")
        return string_value(tok)

    def parse_optional_symbol_name(self) -> bytes | None:
        if self.p.tok.kind != SYMBOL:
            return None
        return self.parse_symbol_name()

    def parse_keyword_or_string(self) -> bytes:
        tok = self.p.tok
        if tok.kind == BARE:
            self.p.advance()
            return tok.text.encode()
        if tok.kind == STRING:
            self.p.advance()
            return string_value(tok)
        raise self.p.error("expected a keyword or a string", tok)

    def parse_optional_string(self) -> bytes | None:
        tok = self.p.tok
        if tok.kind != STRING:
            return None
        self.p.advance()
        return string_value(tok)

    def parse_integer(self) -> int:
        neg = self.p.consume_if("-") is not None
        tok = self.p.expect(INT, "expected an integer")
        try:
            value = int_literal(tok.text)
        except ValueError as exc:
            raise self.p.error(str(exc), tok) from None
        return -value if neg else value

    def parse_optional_integer(self) -> int | None:
        tok = self.p.tok
        if tok.kind == INT or (tok.kind == "-" and self.p.peek_ahead().kind == INT):
            return self.parse_integer()
        return None

    # -- regions ----------------------------------------------------------------------------------
    def parse_region(self, arguments: Sequence[asm.Argument] = (), enable_name_shadowing: bool = False
                     ) -> Region:
        region = Region(None)
        start = self.p.tok.start
        self.p.parse_region(region, self.p._isolated(self.full), list(arguments))
        self.p.map.region(start, self.p.prev_end)
        return region

    def parse_optional_region(self, arguments: Sequence[asm.Argument] = ()) -> Region | None:
        if self.p.tok.kind != "{":
            return None
        return self.parse_region(arguments)

    def parse_argument(self, allow_type: bool = True, allow_attrs: bool = False) -> asm.Argument:
        ref = self.parse_operand_def()
        arg = asm.Argument(ref)
        if allow_type:
            self.p.expect(":", "expected ':' and the argument's type")
            arg.type = self.p.parse_type()
        if allow_attrs and self.p.tok.kind == "{":
            arg.attrs = self.p.parse_attribute_dict()
        if self.p.at_keyword("loc"):
            arg.location = self.p._loc()
        return arg

    def parse_operand_def(self) -> _Ref:
        tok = self.p.expect(VALUE, "expected an argument name")
        if "#" in tok.text:
            raise self.p.error("an argument name cannot carry a result number", tok)
        return _Ref(tok, self.p.map.occurrence(None, tok.start, tok.end, True, False))

    def parse_optional_argument(self, allow_type: bool = True, allow_attrs: bool = False
                                ) -> asm.Argument | None:
        if self.p.tok.kind != VALUE:
            return None
        return self.parse_argument(allow_type, allow_attrs)

    def parse_optional_location(self) -> Attribute | None:
        if not self.p.at_keyword("loc"):
            return None
        return self.p._loc()

    def elided_body(self, region: Region) -> None:
        self.p.elided_bodies[id(region)] = region

    def ensure_terminator(self, region: Region, name: str, regions: int = 0) -> None:
        """Add the implicit terminator `name` (no operands; `regions` regions of one empty block each, as
        `scf.forall.in_parallel` is built) where the text left it out."""
        if not region.blocks:
            region.add_block()
        block = region.blocks[-1]
        if block.operations:
            last = block.operations[-1]
            if last.op_name.full == name or \
                    asm.has_terminator_trait(self.p.registry.op_syntax(last.op_name.full).model):
                return  # (ensureTerminator looks for any terminator: a multi-block body ends in a branch)
        dialect, _, short = name.partition(".")
        term = Operation(self.p._op_name(dialect, short, True), UnknownLoc.get())
        for _ in range(regions):
            term.add_region().add_block()
        block.append(term)
        self.implicit.append(term)

    def mark_implicit(self, item: Operation | BlockArgument) -> None:
        self.implicit.append(item)

    # -- successors ---------------------------------------------------------------------------------
    def parse_successor(self) -> asm.BlockRef:
        tok = self.p.expect(BLOCK, "expected a block name")
        return _Ref(tok, self.p.map.occurrence(None, tok.start, tok.end, False, True))

    def parse_optional_successor(self) -> asm.BlockRef | None:
        if self.p.tok.kind != BLOCK:
            return None
        return self.parse_successor()

    def resolve_successors(self, refs: Sequence[asm.BlockRef], state: asm.OpState) -> None:
        for ref in refs:
            assert isinstance(ref, _Ref)
            self.successors.append(ref)


def resolve_op_name(p: OpParser, text: str) -> str:
    """The full op name a custom op's name token means where it stands (default dialect rule)."""
    dd = p.dialects[-1] if p.dialects else ""
    if "." not in text:
        return f"{dd}.{text}" if dd else text
    if dd and p.registry.op_syntax(text).model is None and p.registry.op_syntax(f"{dd}.{text}").model:
        return f"{dd}.{text}"
    return text


ResultNames = list[tuple[str, int, Token, NameHandle]]


def parse_custom_op(p: OpParser, block: Block, start: Token, results: ResultNames,
                    uselist: tuple[str, int, int] | None) -> Operation:
    """Read the custom form of the op whose name token is current (its results already read)."""
    m = p.map
    name_tok = p.tok
    full = resolve_op_name(p, name_tok.text)
    lookup = p.registry.op_syntax(full)
    model = lookup.model
    if model is None:
        raise p.error(f"expected an op in generic form (\"dialect.op\"(...) : ...) or a custom op, found "
                      f"'{name_tok.text}' (no custom form of '{full}' is known)", name_tok)
    p.advance()
    m.op_name(name_tok.start, name_tok.end)
    dialect, _, short = full.partition(".")
    state = asm.OpState(full)
    ap = _AsmParser(p, full)
    p.dialects.append(_default_dialect(model))
    try:
        model.parse_op(ap, state)
    finally:
        p.dialects.pop()
    loc: Attribute = UnknownLoc.get()
    loc_start = -1
    m.piece(PIECE_CUSTOM, name_tok.end, p.prev_end)
    if p.at_keyword("loc"):
        loc_start = p.tok.start
        loc = p._loc()
        m.piece(PIECE_LOCATION, loc_start, p.prev_end)
    if ap.attr_dict is not None:
        m.piece(PIECE_ATTRIBUTES, *ap.attr_dict)
    end = p.prev_end
    op = Operation(p._op_name(dialect, short, True), loc, tuple(state.result_types))
    op.offset = -1
    m.set_op(op)
    block.append(op)
    p.custom_ops.add(id(op))
    for term in ap.implicit:
        term.location = loc
        p.implicit_terminators.add(id(term))
    # Regions.
    if state.regions:
        op.regions = []
        for r in state.regions:
            r.parent = op
            op.regions.append(r)
    # Results.
    n_results = sum(c for _, c, _, _ in results)
    if n_results != len(op.results):
        p.report(f"'{full}' has {len(op.results)} results but {n_results} are named",
                 p.lexer.span(start.start, end))
    k = 0
    for name, count, tok, handle in results:
        group: list[OpResult] = op.results[k:k + count]
        k += count
        if not group:
            continue
        m.define(handle, *group)
        for j, res in enumerate(group):
            key = f"{name}#{j}" if count > 1 else name
            p.define(key, res, tok.start)
            if count > 1 and j == 0:
                p.define(name, res, tok.start, quiet=True)
    # Operands and successors.
    for i, (ref, t) in enumerate(ap.operands):
        op.operands.append(p.use(ref.tok, op, i, t, ref.handle))
    if ap.successors:
        op.successors = []
        scope = p.scope
        assert scope is not None
        for i, ref in enumerate(ap.successors):
            op.successors.append(Block())
            scope.block_uses.append((ref.tok.text, ref.tok.start, ref.tok.end, op, i, ref.handle))
    _attach_attributes(p, op, full, state.attributes)
    if uselist is not None:
        p._use_orders(uselist[0], list(op.results), uselist[1], uselist[2])
    from .printer import symbol_of

    sym = symbol_of(op)
    if sym is not None:
        m.symbol(sym)
    m.close_op(end)
    return op


def _default_dialect(model: object) -> str:
    try:
        return asm.default_dialect(model, None)  # type: ignore[arg-type]
    except Exception:
        return ""


def _attach_attributes(p: OpParser, op: Operation, full: str, attrs: dict[str, Attribute]) -> None:
    """Inherent attributes into the op's properties (as its model lays them out), the rest into its
    attribute dictionary; absent default-valued attributes get their default, as mlir-opt reading text."""
    lookup = p.registry.op(full)
    model = lookup.model
    inherent: set[str] = set()
    if model is not None:
        inherent = {f.name for f in getattr(model, "attributes", ())} | \
            {f.name for f in getattr(model, "natives", ())}
        if not inherent:
            try:
                inherent = set(model.info().attributes)
            except Exception:
                inherent = set()
        p._fill_defaults(model, attrs)
    props = {k: v for k, v in attrs.items() if k in inherent}
    rest = sorted(((k, v) for k, v in attrs.items() if k not in inherent),
                  key=lambda kv: kv[0].encode("utf-8", "surrogateescape"))
    if model is not None and model.has_properties() and _version(p) >= 5:
        op.properties = Properties(PROPS_DECODED, values=dict(sorted(props.items())), model=lookup.origin)
    else:
        rest = sorted([*rest, *props.items()], key=lambda kv: kv[0].encode("utf-8", "surrogateescape"))
    if rest:
        op.attributes = DictionaryAttr.get(tuple((StringAttr.get(k), v) for k, v in rest))


def _version(p: OpParser) -> int:
    """The bytecode version the text is for (header, else template): below 5 an op keeps its inherent
    attributes in its attribute dictionary."""
    v = p.result.header.get("version")
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    return p.template.version if p.template is not None else 6


def parse_error(p: OpParser, message: str) -> TextError:
    return p.error(message)


__all__ = ["parse_custom_op", "resolve_op_name", "HASH"]
