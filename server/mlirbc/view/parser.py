"""Parses the generic text view back into a module, reporting every error it can with its location.

The grammar is MLIR's generic op form plus the view's additions (docs in README: the `// mlirbc:` header
and use-list comments, `<{mlirbc.properties = "0x.."}>` fallback ops, `#/!mlirbc.fallback<...>` parts) and
the `{-# ... #-}` resource trailer.  Attributes, types and locations are parsed by `attr_parser.Parser`,
whose token stream this parser shares.

Errors never stop the pass: after an error the parser skips to the next op at the same nesting depth, so
one pass reports all it can.  Text that does not lex (a stray character, an unterminated string) is
reported and skipped like any other error, and the results of an op that failed to parse stay defined as
stand-ins, so that their uses do not each report an undefined value.  Structural checks follow the parse:
undefined or redefined values, uses whose type differs from the definition, undefined successors, values
used outside the regions that can see them, and result counts that disagree with the op's type.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from ..errors import TextError, TextSpan
from ..ir.attributes import Attribute, DictionaryAttr, StringAttr, UnknownLoc
from ..ir.digest import Bytes
from ..ir.module import (
    RESOURCE_BLOB,
    RESOURCE_BOOL,
    RESOURCE_STRING,
    DialectEntry,
    Module,
    ResourceEntry,
    ResourceGroup,
)
from ..ir.operation import (
    PROPS_ATTRIBUTE,
    PROPS_DECODED,
    PROPS_FALLBACK,
    Block,
    Operation,
    OpName,
    OpResult,
    Properties,
    Region,
    Value,
)
from ..ir.types import Type
from ..models.api import OpModel
from ..models.registry import Registry, default_registry
from ..syntax.attr_parser import Parser, parse_attribute_text
from ..syntax.elision import (
    BLOB_COMMENT,
    BLOB_RE,
    PROPERTIES,
    TOKEN_PREFIX,
    Resolver,
    blob_placeholder,
    token_placeholder,
)
from ..syntax.lexer import BARE, BLOCK, EOF, HASH, INT, STRING, VALUE, Comment, Lexer, Token, string_value
from .printer import BLOCK_USELIST_PREFIX, FALLBACK_PROPS_KEY, HEADER_PREFIX, USELIST_PREFIX

_MLIRBC_COMMENT_RE = re.compile(r"^[ \t]*(// mlirbc: [^\n]*)", re.M)
_ALIAS_DEF_RE = re.compile(r"^[#!][A-Za-z_][A-Za-z0-9_$.\-]*[ \t]*=", re.M)


@dataclass
class TextDiagnostic:
    message: str
    span: TextSpan
    severity: str = "error"


@dataclass
class ParsedOp:
    op: Operation
    span: TextSpan
    name_span: TextSpan


@dataclass
class NameRef:
    """One definition or use of an SSA value or block label, with the object it names (if any)."""

    name: str
    span: TextSpan
    target: Value | Block | None
    is_def: bool


@dataclass
class ParseResult:
    """`module` is None when there are errors; `diagnostics` then lists every one found."""

    module: Module | None
    diagnostics: list[TextDiagnostic] = field(default_factory=list)
    ops: list[ParsedOp] = field(default_factory=list)
    names: list[NameRef] = field(default_factory=list)
    header: dict[str, object] = field(default_factory=dict)

    @property
    def errors(self) -> list[TextDiagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]


class _Pending:
    """A value used before its definition in the same name scope."""

    __slots__ = ("uses", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        self.uses: list[tuple[Operation, int, Type, TextSpan, Region | None]] = []


class _Scope:
    """Names defined by one region (and, for isolated regions, the boundary of visibility)."""

    __slots__ = ("values", "pending", "blocks", "block_uses", "region", "isolated", "parent")

    def __init__(self, region: Region | None, isolated: bool, parent: _Scope | None) -> None:
        self.values: dict[str, tuple[Value, TextSpan]] = {}
        self.pending: dict[str, _Pending] = {}
        self.blocks: dict[str, Block] = {}
        self.block_uses: list[tuple[str, TextSpan, Operation, int]] = []
        self.region = region
        self.isolated = isolated
        self.parent = parent



class OpParser(Parser):
    def __init__(self, text: str, registry: Registry, template: Module | None) -> None:
        try:
            super().__init__(Lexer(text))
        except TextError:
            self.tok = Token(EOF, "", 0, 0)  # the text does not lex at its start: parse_top reports it
        self.registry = registry
        self.template = template
        self.resolver = Resolver(template)
        self.elided = self.resolver
        self.blob_comments: list[tuple[int, Comment]] = []
        """`// mlirbc: elided blob` lines (offset, comment), merged into their resource groups."""
        self.result = ParseResult(None)
        self.scope: _Scope | None = None
        self.placeholder_values: dict[int, _Pending] = {}
        self.registered: dict[tuple[str, str], bool] = {}
        if template is not None and template.source is not None:
            for n in template.source.op_names:
                self.registered.setdefault((n.dialect, n.name), n.registered)
        self.resources: list[ResourceGroup] = []
        self.alias_ends: dict[int, int] = {}
        self.uselist_lines: dict[int, str] = {}
        self.block_uselist_lines: dict[int, str] = {}
        self.poisoned: dict[int, Value] = {}
        """Stand-ins for the results of ops that failed to parse (keyed by id): uses of them are not
        reported again (no cascade of 'undefined value' errors after one broken op)."""
        self._reported: set[tuple[str, TextSpan, str]] = set()

    # -- diagnostics ------------------------------------------------------------------------------
    def report(self, message: str, span: TextSpan, severity: str = "error") -> None:
        key = (message, span, severity)
        if key in self._reported:  # e.g. one missing '}' at the end seen by every enclosing region
            return
        self._reported.add(key)
        self.result.diagnostics.append(TextDiagnostic(message, span, severity))

    # -- lexical errors -----------------------------------------------------------------------------
    def lex_on(self, offset: int, report: bool) -> None:
        """Continue at `offset`, skipping text that does not lex (reporting the first such error when
        `report`): a stray character must not end the pass."""
        while True:
            try:
                self.reset(offset)
                return
            except TextError as exc:
                if report:
                    self.report(exc.message, exc.span)
                    report = False
                offset = self.lexer.resume_at

    def advance_over_errors(self) -> None:
        """`advance()`, skipping silently over text that does not lex (used while recovering)."""
        try:
            self.advance()
        except TextError:
            self.lex_on(self.lexer.resume_at, report=False)

    def tok_span(self, tok: Token) -> TextSpan:
        return self.lexer.span(tok.start, tok.end)

    # -- comments ---------------------------------------------------------------------------------
    def scan_comments(self) -> None:
        """Collect the `// mlirbc:` lines up front.

        They are whole-line comments, so a regular expression over the text finds them; lexing the
        whole view a second time for them would double the parse time of a large view.
        """
        text = self.text
        line = 0
        last = 0
        for m in _MLIRBC_COMMENT_RE.finditer(text):
            line += text.count("\n", last, m.start())
            last = m.start()
            c = Comment(m.group(1), m.start(1), m.end(1))
            if c.text.startswith(BLOB_COMMENT):
                self.blob_comments.append((c.start, c))
            elif c.text.startswith(USELIST_PREFIX):
                self.uselist_lines[line] = c.text[len(USELIST_PREFIX):]
            elif c.text.startswith(BLOCK_USELIST_PREFIX):
                self.block_uselist_lines[line] = c.text[len(BLOCK_USELIST_PREFIX):]
            elif c.text.startswith(HEADER_PREFIX) and not self.result.header:
                try:
                    facts = json.loads(c.text[len(HEADER_PREFIX):])
                    if isinstance(facts, dict):
                        self.result.header = facts
                    else:
                        raise ValueError("not an object")
                except ValueError as exc:
                    self.report(f"malformed mlirbc header comment: {exc}",
                                self.lexer.span(c.start, c.end))
        self.registry = self._bound(self.registry, self.template)

    def _bound(self, registry: Registry, template: Module | None) -> Registry:
        """The registry bound to the model set of the text's producer (header, else template)."""
        if registry.model_set is not None:
            return registry
        if template is not None and template.model_set is not None \
                and self.result.header.get("producer", template.producer) == template.producer:
            return registry.with_set(template.model_set, template.model_set_note)
        producer = self.result.header.get("producer")
        if not isinstance(producer, str):
            producer = template.producer if template is not None else Module(None).producer
        versions: dict[str, bytes | None] = {}
        if template is not None:
            versions.update((d.name, d.version) for d in template.dialects)
        header_versions = self.result.header.get("dialect_versions")
        if isinstance(header_versions, dict):
            for name, hexv in header_versions.items():
                try:
                    versions[str(name)] = bytes.fromhex(str(hexv))
                except ValueError:
                    continue
        return registry.for_file(producer, versions)

    def _use_orders(self, text: str, targets: list[Value], span: TextSpan) -> None:
        for item in text.split():
            try:
                idx_text, _, order = item.partition("=")
                idx = int(idx_text)
                pair = order.startswith("pairs")
                body = order.removeprefix("pairs")
                if not (body.startswith("[") and body.endswith("]")):
                    raise ValueError(order)
                entries = tuple(int(x) for x in body[1:-1].split(",") if x.strip())
            except ValueError:
                self.report(f"malformed use-list order '{item}'", span)
                continue
            if idx >= len(targets):
                self.report(f"use-list order for value #{idx} but there are {len(targets)}", span,
                            "warning")
                continue
            targets[idx].use_order = (pair, entries)

    # -- top level ----------------------------------------------------------------------------------
    def parse_top(self) -> Operation | None:
        self.scan_comments()
        self.parse_aliases()
        root: Operation | None = None
        holder = Block()
        self.scope = _Scope(None, True, None)
        while self.tok.kind != EOF:
            if self.tok.kind == "{-#":
                self.parse_resources()
                continue
            alias_end = self.alias_ends.get(self.tok.start)
            if alias_end is not None:
                self.lex_on(alias_end, report=True)
                continue
            start = self.tok
            op = self.parse_op_recovering(holder)
            if op is None:
                continue
            if root is not None:
                self.report("the view must hold exactly one top-level op", self.tok_span(start))
            else:
                root = op
        self.close_scope(self.scope)
        self.report_stray_blob_comments()
        if root is None and not self.result.errors:
            self.report("expected an op in generic form (\"dialect.op\"(...) : ...)",
                        self.tok_span(self.tok))
        return root

    # -- aliases ----------------------------------------------------------------------------------
    def parse_aliases(self) -> None:
        """Parse `#name = attr` / `!name = type` definitions wherever they stand at top level (each at the
        start of a line).

        mlir-opt prints location aliases after the module, so definitions are collected first, retrying
        those that use aliases defined further down.
        """
        # Definitions start a line at column 0 (ops are indented inside the module), so a regular
        # expression finds them without lexing the whole view an extra time.
        starts = [m.start() for m in _ALIAS_DEF_RE.finditer(self.text)]
        todo = starts
        for _ in range(len(starts) + 1):
            failed: list[tuple[int, TextError]] = []
            for start in todo:
                try:
                    self.reset(start)
                    name = self.advance()
                    self.expect("=")
                    if name.kind == HASH:
                        self.attr_aliases[name.text[1:]] = (
                            self.parse_loc() if self.at_keyword("loc") else self.parse_attribute())
                    else:
                        self.type_aliases[name.text[1:]] = self.parse_type()
                    self.alias_ends[start] = self.prev_end
                except TextError as exc:
                    failed.append((start, exc))
            if not failed or len(failed) == len(todo):
                for _, err in failed:
                    self.report(err.message, err.span)
                break
            todo = [s for s, _ in failed]
        self.lex_on(0, report=True)

    # -- ops ----------------------------------------------------------------------------------------
    def parse_op_recovering(self, block: Block) -> Operation | None:
        start = self.tok
        try:
            return self.parse_op(block)
        except TextError as exc:
            self.report(exc.message, exc.span)
            self.poison_results(start)
            self.recover(start)
            return None

    def poison_results(self, start: Token) -> None:
        """Define the result names of an op that failed to parse (`%a, %b:2 = ...` at `start`) as
        stand-ins, so that its uses do not each report an undefined value."""
        names: list[tuple[str, int, Token]] = []
        lexer = Lexer(self.text)
        tok = start
        try:
            while tok.kind == VALUE:
                count = 1
                nxt = lexer.token_at(tok.end)
                if nxt.kind == ":":
                    n = lexer.token_at(nxt.end)
                    if n.kind != INT:
                        return
                    count = max(1, int(n.text, 0))
                    nxt = lexer.token_at(n.end)
                names.append((tok.text, count, tok))
                if nxt.kind != ",":
                    break
                tok = lexer.token_at(nxt.end)
        except (TextError, ValueError):
            return
        scope = self.scope
        assert scope is not None
        for name, count, tok in names:
            keys = [name] + ([f"{name}#{j}" for j in range(count)] if count > 1 else [])
            for key in keys:
                if key in scope.values:
                    continue
                stand_in = Value(_none())
                self.poisoned[id(stand_in)] = stand_in
                self.define(key, stand_in, self.tok_span(tok), quiet=True)

    def recover(self, start: Token) -> None:
        """Skip from `start` past the broken op: to the next line-start token at the same depth."""
        self.reset(start.start)
        depth = 0
        first = True
        while self.tok.kind != EOF:
            tok = self.tok
            if not first and depth <= 0 and self._line_start(tok) and tok.kind in (
                    VALUE, STRING, BLOCK, "}", "{-#"):
                return
            if tok.kind == "}" and depth <= 0 and not first:
                return
            if tok.kind in ("(", "[", "{", "{-#"):
                depth += 1
            elif tok.kind in (")", "]", "}", "#-}"):
                depth -= 1
            first = False
            self.advance_over_errors()

    def _line_start(self, tok: Token) -> bool:
        i = tok.start - 1
        text = self.text
        while i >= 0 and text[i] in " \t":
            i -= 1
        return i < 0 or text[i] == "\n"

    def parse_op(self, block: Block) -> Operation:
        start = self.tok
        results: list[tuple[str, int, Token]] = []
        if self.tok.kind == VALUE:
            while True:
                tok = self.expect(VALUE, "expected SSA result name")
                count = 1
                if self.consume_if(":"):
                    n = self.expect(INT, "expected result count")
                    count = int(n.text, 0)
                    if count < 1:
                        raise self.error("expected a positive result count", n)
                if "#" in tok.text:
                    raise self.error("result names cannot carry a result number", tok)
                results.append((tok.text, count, tok))
                if not self.consume_if(","):
                    break
            self.expect("=", "expected '=' after result names")
        name_tok = self.tok
        if name_tok.kind != STRING:
            raise self.error("expected an op in generic form (\"dialect.op\"(...) : ...)", name_tok)
        self.advance()
        full = string_value(name_tok).decode("utf-8", "surrogateescape")
        if not full:
            raise self.error("op name is empty", name_tok)
        dialect, _, short = full.partition(".")
        operand_toks: list[Token] = []
        self.expect("(", "expected '(' before the operand list")
        if not self.consume_if(")"):
            while True:
                operand_toks.append(self.expect(VALUE, "expected SSA operand"))
                if not self.consume_if(","):
                    break
            self.expect(")", "expected ')' after the operand list")
        successor_toks: list[Token] = []
        if self.consume_if("["):
            while True:
                successor_toks.append(self.expect(BLOCK, "expected a block label"))
                if not self.consume_if(","):
                    break
            self.expect("]", "expected ']' after successors")
        props_dict: DictionaryAttr | None = None
        props_start = self.tok
        if self.consume_if("<"):
            props_dict = self.parse_attribute_dict()
            self.expect(">", "expected '>' after properties")
        props_span = self.lexer.span(props_start.start, self.prev_end)
        op = Operation(OpName(dialect, short, True))
        op.offset = -1
        block.append(op)
        region_starts: list[Token] = []
        isolated = self._isolated(full)
        if self.tok.kind == "(" and self.peek_ahead().kind == "{":
            self.advance()
            while True:
                region_starts.append(self.tok)
                region = op.add_region()
                self.parse_region(region, isolated)
                if not self.consume_if(","):
                    break
            self.expect(")", "expected ')' after regions")
        fallback_props: Properties | None = None
        if self.tok.kind == "{":
            attrs_start = self.tok
            attrs = self.parse_attribute_dict()
            entries = attrs.entries
            raw_entry = [v for k, v in entries if k.value == FALLBACK_PROPS_KEY.encode()]
            if raw_entry:
                if props_dict is not None:
                    raise TextError(f"an op with {FALLBACK_PROPS_KEY} cannot also have <{{...}}> "
                                    "properties", props_span)
                fallback_props = self.fallback_properties(
                    raw_entry[0], self.lexer.span(attrs_start.start, self.prev_end))
                entries = tuple((k, v) for k, v in entries if k.value != FALLBACK_PROPS_KEY.encode())
                attrs = DictionaryAttr.get(entries)
            op.attributes = attrs if entries else None
        self.expect(":", "expected ':' and the op's function type")
        type_tok = self.tok
        ftype = self.parse_function_type()
        if self.at_keyword("loc"):
            op.location = self.parse_loc()
        end = self.prev_end
        span = self.lexer.span(start.start, end)
        # Results.
        n_results = sum(c for _, c, _ in results)
        if n_results != len(ftype.results):
            self.report(f"the op's type has {len(ftype.results)} results but {n_results} are named",
                        self.lexer.span(type_tok.start, self.prev_end))
        op.results = [OpResult(t, op, i) for i, t in enumerate(ftype.results)]
        k = 0
        for name, count, tok in results:
            group = op.results[k:k + count]
            k += count
            for j, res in enumerate(group):
                key = f"{name}#{j}" if count > 1 else name
                self.define(key, res, self.tok_span(tok))
                if count > 1 and j == 0:
                    self.define(name, res, self.tok_span(tok), quiet=True)
        # Operands, typed by the function type.
        if len(operand_toks) != len(ftype.inputs):
            self.report(f"the op's type has {len(ftype.inputs)} operands but {len(operand_toks)} "
                        "are listed", self.lexer.span(type_tok.start, self.prev_end))
        for i, tok in enumerate(operand_toks):
            t = ftype.inputs[i] if i < len(ftype.inputs) else None
            op.operands.append(self.use(tok, op, i, t))
        for i, tok in enumerate(successor_toks):
            op.successors.append(Block())  # patched when the region's labels are known
            assert self.scope is not None
            self.scope.block_uses.append((tok.text, self.tok_span(tok), op, i))
        op.properties = fallback_props or self.properties(full, props_dict)
        if op.properties is None and self.template is None:
            self._fill_dictionary_defaults(op, full)
        op.op_name = OpName(dialect, short, self._registered(dialect, short, op.properties))
        line, _ = self.lexer.position(start.start)
        orders = self.uselist_lines.get(line - 1)
        if orders is not None:
            self._use_orders(orders, list(op.results), span)
        self.result.ops.append(ParsedOp(op, span, self.tok_span(name_tok)))
        return op

    def _isolated(self, full: str) -> bool:
        model = self.registry.op(full).model
        if model is None:
            return False
        try:
            return bool(model.info().isolated_from_above)
        except Exception:
            return False

    def _registered(self, dialect: str, short: str, props: Properties | None) -> bool:
        known = self.registered.get((dialect, short))
        if known is not None:
            return known
        if props is not None and props.kind == PROPS_FALLBACK:
            return True
        return self.registry.op(f"{dialect}.{short}" if short else dialect).model is not None

    def fallback_properties(self, value: Attribute, span: TextSpan) -> Properties:
        raw: Bytes | None = None
        if isinstance(value, StringAttr) and value.value.startswith(TOKEN_PREFIX.encode()):
            ph = token_placeholder(value.value.decode("ascii", "replace"), PROPERTIES)
            if ph is not None:
                raw = self.resolver.properties(ph, span)
                return Properties(PROPS_FALLBACK, raw=raw, reason="kept verbatim from the text view")
        if isinstance(value, StringAttr) and value.value.startswith(b"0x"):
            try:
                raw = bytes.fromhex(value.value[2:].decode("ascii"))
            except ValueError:
                raw = None
        if raw is None:
            raise TextError(f"{FALLBACK_PROPS_KEY} must be a string of hex bytes \"0x...\"", span)
        return Properties(PROPS_FALLBACK, raw=raw, reason="kept verbatim from the text view")

    def properties(self, full: str, d: DictionaryAttr | None) -> Properties | None:
        lookup = self.registry.op(full)
        model = lookup.model
        dialect, _, short = full.partition(".")
        if model is None or self.registered.get((dialect, short)) is False:
            return None if d is None else Properties(PROPS_ATTRIBUTE, attribute=d)
        if d is None:
            return None
        values = {k.text: v for k, v in d.entries}
        if self.template is None:
            # Text without an original file is encoded as mlir-opt encodes it: reading a `<{...}>`
            # dictionary fills in the default of every absent default-valued attribute.  With a template
            # the view is the file's own state, where an absent attribute stays absent.
            self._fill_defaults(model, values)
        return Properties(PROPS_DECODED, values=dict(sorted(values.items())), model=lookup.origin)

    def _fill_dictionary_defaults(self, op: Operation, full: str) -> None:
        """Without `<{...}>` (a view of a version < 5 file keeps inherent attributes in the dictionary),
        mlir-opt still gives absent default-valued attributes their default: do the same."""
        model = self.registry.op(full).model
        dialect, _, short = full.partition(".")
        if model is None or self.registered.get((dialect, short)) is False:
            return
        values = {k.text: v for k, v in op.attributes.entries} if op.attributes is not None else {}
        before = len(values)
        self._fill_defaults(model, values)
        if len(values) != before:
            op.attributes = DictionaryAttr.get(tuple((StringAttr.get(k), v)
                                                     for k, v in sorted(values.items())))

    def _fill_defaults(self, model: OpModel, values: dict[str, Attribute]) -> None:
        try:
            defaults = model.info().defaults
        except Exception:  # a plugin's model without defaults information
            return
        for name, text in defaults.items():
            if name not in values:
                try:
                    values[name] = parse_attribute_text(text)
                except TextError:
                    continue

    # -- regions and blocks -------------------------------------------------------------------------
    def parse_region(self, region: Region, isolated: bool) -> None:
        self.expect("{", "expected '{' to begin a region")
        scope = _Scope(region, isolated, self.scope)
        self.scope = scope
        try:
            if self.tok.kind == "}":
                self.advance()
                return
            if self.tok.kind != BLOCK:
                block = region.add_block()
                self.parse_block_body(block)
            while self.tok.kind == BLOCK:
                label = self.advance()
                block = region.add_block()
                if label.text in scope.blocks:
                    self.report(f"redefinition of block {label.text}", self.tok_span(label))
                scope.blocks[label.text] = block
                self.result.names.append(NameRef(label.text, self.tok_span(label), block, True))
                if self.consume_if("("):
                    if not self.consume_if(")"):
                        while True:
                            self.parse_block_arg(block)
                            if not self.consume_if(","):
                                break
                        self.expect(")", "expected ')' after block arguments")
                self.expect(":", "expected ':' after the block label")
                line, _ = self.lexer.position(label.start)
                orders = self.block_uselist_lines.get(line + 1)
                if orders is not None:
                    self._use_orders(orders, list(block.arguments), self.tok_span(label))
                self.parse_block_body(block)
            if self.tok.kind != "}":
                raise self.error("expected '}' to end the region")
            self.advance()
        finally:
            self.close_scope(scope)
            self.scope = scope.parent

    def parse_block_arg(self, block: Block) -> None:
        tok = self.expect(VALUE, "expected a block argument name")
        self.expect(":", "expected ':' and the argument's type")
        t = self.parse_type()
        loc: Attribute = UnknownLoc.get()
        if self.at_keyword("loc"):
            loc = self.parse_loc()
        arg = block.add_argument(t, loc)
        self.define(tok.text, arg, self.tok_span(tok))

    def parse_block_body(self, block: Block) -> None:
        while self.tok.kind not in (BLOCK, "}", EOF):
            self.parse_op_recovering(block)

    # -- names --------------------------------------------------------------------------------------
    def define(self, name: str, value: Value, span: TextSpan, quiet: bool = False) -> None:
        scope = self.scope
        assert scope is not None
        prev = self._lookup(name, defining=True)
        if prev is not None and not quiet:
            self.report(f"redefinition of SSA value {name}", span)
            return
        scope.values[name] = (value, span)
        if not quiet:
            self.result.names.append(NameRef(name, span, value, True))
        pending = scope.pending.pop(name, None)
        if pending is not None:
            self._resolve(pending, value, scope)

    def _resolve(self, pending: _Pending, value: Value, scope: _Scope) -> None:
        for op, i, t, span, _ in pending.uses:
            op.operands[i] = value
            if t is not None and value.type is not t and id(value) not in self.poisoned:
                self.report(f"use of {pending.name} expects type {_type_text(t)} but it is "
                            f"defined with type {_type_text(value.type)}", span)

    def _lookup(self, name: str, defining: bool = False) -> tuple[Value, TextSpan] | None:
        scope = self.scope
        while scope is not None:
            hit = scope.values.get(name)
            if hit is not None:
                return hit
            if defining or scope.isolated:
                return None
            scope = scope.parent
        return None

    def use(self, tok: Token, op: Operation, index: int, t: Type | None) -> Value:
        name = tok.text
        span = self.tok_span(tok)
        if name.endswith("#0") and self._lookup(name) is None:
            base = self._lookup(name[:-2])
            if base is not None:
                name = name[:-2]
        hit = self._lookup(name)
        if hit is not None:
            value = hit[0]
            if t is not None and value.type is not t and id(value) not in self.poisoned:
                self.report(f"use of {name} expects type {_type_text(t)} but it is defined with "
                            f"type {_type_text(value.type)}", span)
            self.result.names.append(NameRef(name, span, value, False))
            return value
        scope = self.scope
        assert scope is not None
        pending = scope.pending.get(name)
        if pending is None:
            pending = _Pending(name)
            scope.pending[name] = pending
        pending.uses.append((op, index, t if t is not None else _none(), span, scope.region))
        ref = NameRef(name, span, None, False)
        self.result.names.append(ref)
        placeholder = Value(t if t is not None else _none())
        self.placeholder_values[id(placeholder)] = pending
        return placeholder

    def close_scope(self, scope: _Scope) -> None:
        # Successors name blocks of the region that holds the op.
        for label, span, op, i in scope.block_uses:
            block = scope.blocks.get(label)
            if block is None:
                self.report(f"reference to an undefined block {label}", span)
                continue
            op.successors[i] = block
            self.result.names.append(NameRef(label, span, block, False))
        # Uses still pending may be defined later in an enclosing region (graph regions), unless
        # this region is isolated from above.
        parent = scope.parent
        for name, pending in scope.pending.items():
            if parent is not None and not scope.isolated:
                hit = parent.values.get(name)
                if hit is not None:
                    self._resolve(pending, hit[0], parent)
                    continue
                target = parent.pending.get(name)
                if target is None:
                    parent.pending[name] = pending
                else:
                    target.uses.extend(pending.uses)
                continue
            for _, _, _, span, _ in pending.uses:
                self.report(f"use of undefined SSA value {name}", span)

    # -- resources ----------------------------------------------------------------------------------
    def parse_resources(self) -> list[ResourceGroup]:
        groups: list[ResourceGroup] = []
        try:
            self.expect("{-#")
            while not self.consume_if("#-}"):
                section = self.expect(BARE, "expected 'dialect_resources' or 'external_resources'")
                if section.text not in ("dialect_resources", "external_resources"):
                    raise self.error("expected 'dialect_resources' or 'external_resources'", section)
                self.expect(":")
                self.expect("{")
                if not self.consume_if("}"):
                    while True:
                        gname = self._resource_key()
                        group = ResourceGroup(gname, section.text == "dialect_resources")
                        self.expect(":")
                        opened = self.expect("{").end
                        starts: list[int] = []
                        if not self.consume_if("}"):
                            while True:
                                starts.append(self.tok.start)
                                group.entries.append(self._resource_entry())
                                if not self.consume_if(","):
                                    break
                            self.expect("}", "expected '}' after resource entries")
                        self._merge_elided_blobs(group, starts, opened, self.prev_end)
                        groups.append(group)
                        if not self.consume_if(","):
                            break
                    self.expect("}", "expected '}' after resource groups")
                self.consume_if(",")
        except TextError as exc:
            self.report(exc.message, exc.span)
            while self.tok.kind not in ("#-}", EOF):
                self.advance_over_errors()
            self.consume_if("#-}")
        self.resources.extend(groups)
        return groups

    def _merge_elided_blobs(self, group: ResourceGroup, starts: list[int], opened: int,
                            closed: int) -> None:
        """Put the elided blobs whose comment lines stand inside this group's braces among its
        entries, at their places."""
        mine = [(at, c) for at, c in self.blob_comments if opened <= at < closed]
        if not mine:
            return
        self.blob_comments = [(at, c) for at, c in self.blob_comments if not opened <= at < closed]
        placed: list[tuple[int, ResourceEntry]] = list(zip(starts, group.entries, strict=True))
        for at, c in mine:
            span = self.lexer.span(c.start, c.end)
            m = BLOB_RE.match(c.text)
            if m is None:
                self.report("malformed elided blob line: expected `// mlirbc: elided blob KEY: SIZE "
                            "bytes, alignment A, fingerprint FP`", span)
                continue
            key_text = m.group(1)
            key = (string_value(Token(STRING, key_text, 0, len(key_text))).decode(
                "utf-8", "surrogateescape") if key_text.startswith('"') else key_text)
            ph = blob_placeholder(c.text, key)
            assert ph is not None
            try:
                placed.append((at, self.resolver.blob(ph, span)))
            except TextError as exc:
                self.report(exc.message, exc.span)
        placed.sort(key=lambda p: p[0])
        group.entries = [e for _, e in placed]

    def report_stray_blob_comments(self) -> None:
        for _, c in self.blob_comments:
            self.report("an elided blob line must stand inside a group of the resource trailer "
                        "(`{-# dialect_resources: { builtin: { ... } } #-}`)",
                        self.lexer.span(c.start, c.end))

    def _resource_key(self) -> str:
        tok = self.tok
        if tok.kind == BARE:
            self.advance()
            return tok.text
        if tok.kind == STRING:
            self.advance()
            return string_value(tok).decode("utf-8", "surrogateescape")
        raise self.error("expected a resource key", tok)

    def _resource_entry(self) -> ResourceEntry:
        key = self._resource_key()
        self.expect(":")
        tok = self.tok
        if self.consume_keyword_if("true"):
            return ResourceEntry(key, RESOURCE_BOOL, flag=True)
        if self.consume_keyword_if("false"):
            return ResourceEntry(key, RESOURCE_BOOL, flag=False)
        if tok.kind != STRING:
            raise self.error("expected a resource value (a string, \"0x...\" blob, true or false)", tok)
        self.advance()
        value = string_value(tok)
        if value.startswith(b"0x"):
            try:
                raw = bytes.fromhex(value[2:].decode("ascii"))
            except ValueError:
                raw = None
            if raw is not None:
                if len(raw) < 4:
                    raise self.error("a resource blob needs 4 bytes of alignment before its data",
                                     tok)
                alignment = int.from_bytes(raw[:4], "little")
                if alignment == 0 or alignment & (alignment - 1):
                    raise self.error(f"resource blob alignment {alignment} is not a power of two",
                                     tok)
                return ResourceEntry(key, RESOURCE_BLOB, blob=memoryview(raw[4:]),
                                     alignment=alignment)
        return ResourceEntry(key, RESOURCE_STRING, string=value)


def _next_token(lexer: Lexer) -> Token:
    """The next token of a pre-scan, skipping text that does not lex (the main pass reports it)."""
    while True:
        try:
            return lexer.next()
        except TextError:
            lexer.reset(lexer.resume_at)


def _none() -> Type:
    from ..ir.types import NoneType

    return NoneType.get()


def _type_text(t: Type) -> str:
    from ..syntax.attr_printer import print_type

    return print_type(t)


def parse_module(text: str, template: Module | None = None,
                 registry: Registry | None = None) -> ParseResult:
    """Parse a text view.  With a template (the module the view was printed from), facts the text does
    not carry (registered flags, dialect versions, version and producer when the header is missing)
    come from it."""
    reg = registry if registry is not None else default_registry()
    p = OpParser(text, reg, template)
    try:
        root = p.parse_top()
    except TextError as exc:
        p.report(exc.message, exc.span)
        root = None
    except RecursionError:
        p.report("the text is nested too deeply to parse", p.tok_span(p.tok))
        root = None
    result = p.result
    if result.errors or root is None:
        result.diagnostics.sort(key=lambda d: (d.span.start_line, d.span.start_col))
        return result
    header = result.header
    version = header.get("version")
    producer = header.get("producer")
    module = Module(root, model_set=p.registry.model_set, model_set_note=p.registry.model_set_note)
    if template is not None:
        module.version = template.version
        module.producer = template.producer
        module.dialects = [DialectEntry(d.name, d.version) for d in template.dialects]
    if isinstance(version, int) and 0 <= version <= 6:
        module.version = version
    if isinstance(producer, str):
        module.producer = producer
    versions = header.get("dialect_versions")
    if isinstance(versions, dict):
        for name, hexv in versions.items():
            try:
                payload = bytes.fromhex(str(hexv))
            except ValueError:
                continue
            for d in module.dialects:
                if d.name == name:
                    d.version = payload
                    break
            else:
                module.dialects.append(DialectEntry(str(name), payload))
    module.resources = p.resources
    result.module = module
    return result

