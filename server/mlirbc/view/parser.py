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

The parse also builds the text's source map (`sourcemap.SourceMap`, the same kind the printer returns),
ops it could not read included (as broken spans), and can read one op in place inside a larger text
(`parse_op_in_place`), which is how an edit inside a function re-parses only that function.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from ..bytecode.ir_section import MAX_NESTING
from ..bytecode.template import template_of
from ..bytecode.writable import module_properties, problems
from ..errors import TextError, TextSpan
from ..ir.attributes import (
    Attribute,
    DictionaryAttr,
    FallbackAttr,
    FileLineColLoc,
    StringAttr,
    UnknownLoc,
)
from ..ir.digest import Bytes
from ..ir.gcpause import building
from ..ir.implicit import MODULE_NAME, needs_module, source_location, wrap
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
from ..ir.types import FallbackType, FunctionType, Type
from ..models.api import OpModel, isolated_from_above
from ..models.asm.api import Argument
from ..models.build import default_registry
from ..models.registry import Registry
from ..syntax.aliases import LOCATIONS
from ..syntax.attr_parser import Parser, parse_attribute_text
from ..syntax.distincts import DistinctIds, parse_idents
from ..syntax.elision import (
    BLOB_COMMENT,
    BLOB_RE,
    PROPERTIES,
    TOKEN_PREFIX,
    Resolver,
    blob_placeholder,
    token_placeholder,
)
from ..syntax.lexer import (
    BARE,
    BLOCK,
    EOF,
    HASH,
    INT,
    LEX_ERROR,
    STRING,
    VALUE,
    Comment,
    Lexer,
    Token,
    int_literal,
    string_value,
)
from ..syntax.textlines import TextLines

if TYPE_CHECKING:
    from ..verifier.incremental import ModuleVerification
from .printer import (
    BLOCK_USELIST_PREFIX,
    DISTINCT_PREFIX,
    FALLBACK_PROPS_KEY,
    HEADER_PREFIX,
    PARTIAL_PREFIX,
    USELIST_PREFIX,
    symbol_of,
)
from .sourcemap import (
    PART_FALLBACK_ATTRIBUTE,
    PART_FALLBACK_PROPERTIES,
    PART_FALLBACK_TYPE,
    PART_HEADER,
    PART_RESOURCES,
    PART_USELIST,
    PIECE_ATTRIBUTES,
    PIECE_LOCATION,
    PIECE_PROPERTIES,
    PIECE_TYPE,
    MapBuilder,
    NameHandle,
    NoMapBuilder,
    SourceMap,
)

_T = TypeVar("_T")
_MEMO_SIZE = 1 << 16
_VALUE_NAME = r"%(?:[0-9]+|[A-Za-z$._\-][A-Za-z0-9$._\-]*)"
_OP_HEAD_RE = re.compile(
    rf'(?:({_VALUE_NAME}) = )?"([A-Za-z0-9_$.\-]+)"\(((?:{_VALUE_NAME}(?:#[0-9]+)?)'
    rf'(?:, {_VALUE_NAME}(?:#[0-9]+)?)*)?\)')
"""The head of an op as the printer writes it, `%0 = "d.op"(%1, %2#1)`, with one result name (no
`:N`), a name without escapes and operands separated by `, `: every piece lexes as one token, so
reading it in one match gives the same tokens as the lexer (anything else goes token by token)."""
_FILE_LOC_RE = re.compile(r'loc\("([^"\\\n]*)":([0-9]{1,10}):([0-9]{1,10})\)')
"""(Ten digits at most: longer numbers, past 32 bits anyway, go to `parse_loc`, which says where.)"""
_LOCATIONS = frozenset(LOCATIONS)
_ALIAS_LOC_RE = re.compile(r"loc\(#([A-Za-z_][A-Za-z0-9_$\-]*)\)")
"""An op's location written as an alias (`loc(#loc3)`), read in one step."""
_FILE_LOC_ALIAS_RE = re.compile(
    r'#([A-Za-z_][A-Za-z0-9_$\-]*)[ \t]*=[ \t]*'
    r'loc\("([^"\\\n]*)":([0-9]{1,10}):([0-9]{1,10})\)[ \t]*(?=\n|$)')
"""The commonest alias definition, `#loc3 = loc("file":line:col)`, read in one step."""
_MLIRBC_COMMENT_RE = re.compile(r"[ \t]*(// mlirbc: [^\n]*)")
_ALIAS_DEF_RE = re.compile(r"[#!][A-Za-z_][A-Za-z0-9_$.\-]*[ \t]*=")
_ALIAS_LINE_RE = re.compile(r"^[#!][A-Za-z_][A-Za-z0-9_$.\-]*[ \t]*=", re.M)


# Strings and comments (skipped whole), and runs of opening or closing brackets (one step each).
_BRACKETS_RE = re.compile(r'"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"|//[^\n]*|[({\[]+|[)}\]]+')


def _line_start_matches(text: str, needle: str, pattern: re.Pattern[str], lo: int = 0,
                        hi: int | None = None) -> Iterator[re.Match[str]]:
    """Matches of `pattern` at line starts (after blanks) where `needle` occurs in text[lo:hi]: found
    with `str.find`, which skips text far faster than a multi-line `^` pattern tried at every offset
    (a 50 MB line)."""
    hi = len(text) if hi is None else hi
    at = text.find(needle, lo, hi)
    while at >= 0:
        start = at
        while start > lo and text[start - 1] in " \t":
            start -= 1
        if start == 0 or text[start - 1] == "\n":
            m = pattern.match(text, start, hi)
            if m is not None:
                yield m
        at = text.find(needle, at + 1, hi)


def _column0_matches(text: str, first: str, pattern: re.Pattern[str], lo: int = 0,
                     hi: int | None = None) -> Iterator[re.Match[str]]:
    """Matches of `pattern` at column 0 of a line starting with `first`, in text[lo:hi]."""
    hi = len(text) if hi is None else hi
    if (lo == 0 or text[lo - 1] == "\n") and text.startswith(first, lo, hi):
        m = pattern.match(text, lo, hi)
        if m is not None:
            yield m
    at = text.find("\n" + first, lo, hi)
    while at >= 0:
        m = pattern.match(text, at + 1, hi)
        if m is not None:
            yield m
        at = text.find("\n" + first, at + 1, hi)


_RESYNC_KINDS = frozenset((VALUE, STRING, BLOCK, "}", "{-#"))
"""Tokens that start an op or end a region: recovery resumes at one at the start of a line."""
_OPENERS = frozenset(("(", "[", "{", "{-#"))
_CLOSERS = frozenset((")", "]", "}", "#-}"))

@dataclass
class TextDiagnostic:
    message: str
    span: TextSpan
    severity: str = "error"
    code: str = ""
    """`verify` for the verifier's findings (`view.verification`); parse problems have none."""
    related: tuple[tuple[TextSpan, str], ...] = ()
    """Other places the diagnostic concerns (a callee's definition), with what each is."""


@dataclass
class ParseResult:
    """`module` is None when there are errors; `diagnostics` then lists every one found.  `map` is the
    source map of the text (of what could be read, when there are errors)."""

    module: Module | None
    diagnostics: list[TextDiagnostic] = field(default_factory=list)
    header: dict[str, object] = field(default_factory=dict)
    map: SourceMap | None = None
    aliases: tuple[dict[str, Attribute], dict[str, Type]] = field(default_factory=lambda: ({}, {}))
    """The `#name = ...` / `!name = ...` definitions of the text (for re-reading one op in place)."""
    verification: ModuleVerification | None = None
    """The verifier's state of the module (when parsed with `verify=True`)."""

    @property
    def errors(self) -> list[TextDiagnostic]:
        """Every error, the verifier's included (a module with only those is still built)."""
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def parse_errors(self) -> list[TextDiagnostic]:
        """The errors that leave no module (all but the verifier's)."""
        return [d for d in self.diagnostics if d.severity == "error" and d.code != "verify"]


class _Pending:
    """A value used before its definition in the same name scope."""

    __slots__ = ("uses", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        self.uses: list[tuple[Operation, int, Type, int, int, Region | None,
                              NameHandle]] = []
        """(op, operand index, expected type, start, end, region, map handle) of each use."""


class _Tail:
    """What follows an op's operands (successors, properties, the op with its regions and attribute
    dictionary, type, location), read token by token or, in the printer's usual form, without the lexer
    (see `OpParser.parse_op`)."""

    __slots__ = ("op", "ftype", "type_start", "end", "successors", "fallback_props", "props_dict",
                 "props_start", "props_end", "loc", "loc_start")

    def __init__(self, op: Operation | None, ftype: FunctionType, type_start: int, end: int,
                 successors: list[tuple[Token, NameHandle]], fallback_props: Properties | None,
                 props_dict: Attribute | None, props_start: int, props_end: int,
                 loc: Attribute | None = None, loc_start: int = -1) -> None:
        self.op = op
        self.ftype = ftype
        self.type_start = type_start
        self.end = end
        """Where the op's text ends."""
        self.successors = successors
        self.fallback_props = fallback_props
        self.props_dict = props_dict
        self.props_start = props_start
        """Where `<` is (or, without properties, the token after the operands), and where `>` ends."""
        self.props_end = props_end
        self.loc = loc
        self.loc_start = loc_start


class _Scope:
    """Names defined by one region (and, for isolated regions, the boundary of visibility)."""

    __slots__ = ("values", "pending", "blocks", "block_uses", "region", "isolated", "parent")

    def __init__(self, region: Region | None, isolated: bool, parent: _Scope | None) -> None:
        self.values: dict[str, Value] = {}
        self.pending: dict[str, _Pending] = {}
        self.blocks: dict[str, Block] = {}
        self.block_uses: list[tuple[str, int, int, Operation, int, NameHandle]] = []
        self.region = region
        self.isolated = isolated
        self.parent = parent


class OpParser(Parser):
    """Reads text[start:end] (the whole text by default); offsets and the map are those of `text`."""

    def __init__(self, text: str, registry: Registry, template: Module | None, start: int = 0,
                 end: int | None = None, lines: TextLines | None = None, single: bool = False,
                 aliases: tuple[dict[str, Attribute], dict[str, Type]] | None = None,
                 with_map: bool = True, distincts: DistinctIds | None = None, source_name: str = "-",
                 implicit_module: bool = False) -> None:
        self.map = MapBuilder(single) if with_map else NoMapBuilder(single)
        self.source_name = source_name
        """The text's name in the location of the implicit module (`ir.implicit.source_location`)."""
        self.implicit_module = implicit_module
        """The text is known to need MLIR's implicit module: the map holds it as the root op, spanning
        the text, and the top-level ops as the ops inside it (where the verifier's findings point)."""
        self.reread = False
        """The text turned out to need an implicit module the map does not hold: read it again with one."""
        self.start = start
        self.end = len(text) if end is None else end
        try:
            super().__init__(Lexer(text, start, self.end, lines),
                             attr_aliases=dict(aliases[0]) if aliases else None,
                             type_aliases=dict(aliases[1]) if aliases else None,
                             syntax=registry.syntax, stripped=registry.alias_rules().stripped)
        except TextError:
            # the text does not lex at its start: parse_top reports it
            self.tok = Token(EOF, "", start, start)
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
        src = template_of(template) if template is not None else None
        if src is not None:
            for n in src.op_names:
                self.registered.setdefault((n.dialect, n.name), n.registered)
        self._fresh_distincts = len(src.attrs) if src is not None else 0
        """A `distinct[N]` no numbering names gets an ident none of the template's attributes has."""
        self.distincts = distincts.copy(self._fresh_distincts) if distincts is not None else \
            DistinctIds(fresh_base=self._fresh_distincts)
        self.resources: list[ResourceGroup] = []
        self.alias_ends: dict[int, int] = {}
        self.uselist_lines: dict[int, tuple[str, int, int]] = {}
        self.header_comments = 0
        """How many `// mlirbc:` header lines the text holds (the first is the header)."""
        self.block_uselist_lines: dict[int, tuple[str, int, int]] = {}
        """Line start offset -> (orders, start, end) of each `// mlirbc: [block-]uselist` line."""
        self.poisoned: dict[int, Value] = {}
        """Stand-ins for the results of ops that failed to parse (keyed by id): uses of them are not
        reported again (no cascade of 'undefined value' errors after one broken op)."""
        self._reported: set[tuple[str, TextSpan, str]] = set()
        self._isolated_names: dict[str, bool] = {}
        self._type_memo: dict[str, FunctionType] = {}
        self._props_memo: dict[str, DictionaryAttr] = {}
        self._op_name_texts: dict[str, tuple[str, str, str]] = {}
        """An op name token's text -> (full name, dialect, name without prefix)."""
        self._op_names: dict[tuple[str, str, bool], OpName] = {}
        self._props_records: dict[tuple[str, int], tuple[DictionaryAttr, Properties]] = {}
        self._unknown_loc = UnknownLoc.get()  # every op's location until its loc(...) is read
        self.region_depth = 0
        self.poisoned_groups: dict[int, int] = {}
        """id(stand-in of `%x`) -> N, for an op `%x:N = ...` that failed to parse."""
        self.dialects: list[str] = ["builtin"]
        """The default dialect of each op whose regions are being read (custom op names may leave it out)."""
        self.implicit_terminators: set[int] = set()
        self.elided_bodies: dict[int, Region] = {}
        """The regions a custom form leaves out of the text (named linalg ops' bodies), by id."""
        self.custom_ops: set[int] = set()
        """id() of the ops read in a custom form (their untouched ones are reconciled with the template,
        `view.reconcile`)."""
        """id() of the terminators a custom form left out and the parser added (`ensure_terminator`)."""
        self._skipped: dict[int, tuple[int, int, int, int]] = {}
        """What each recovery found, by the offset it started at: (where it stopped, the bracket depth
        there relative to the start, `prev_end` there, where its error was).  An enclosing op's recovery
        passes over a nested op's recovered text in one step, so nested failures cost linear time, not
        depth x length."""

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

    # -- parts that are not MLIR syntax: recorded in the map where the attribute parser meets them ---
    def _parse_dialect_type(self) -> Type:
        start = self.tok.start
        t = super()._parse_dialect_type()
        if isinstance(t, FallbackType):
            self.map.part(PART_FALLBACK_TYPE, start, self.prev_end, t)
        return t

    def _parse_hash_attr(self) -> Attribute:
        start = self.tok.start
        a = super()._parse_hash_attr()
        if isinstance(a, FallbackAttr):
            self.map.part(PART_FALLBACK_ATTRIBUTE, start, self.prev_end, a)
        return a

    # -- comments ---------------------------------------------------------------------------------
    def scan_comments(self) -> None:
        """Collect the `// mlirbc:` lines up front.

        They are whole-line comments, so a regular expression over the text finds them; lexing the
        whole view a second time for them would double the parse time of a large view.  Each is keyed
        by the offset where its line starts.
        """
        text = self.text
        distinct_lines: list[tuple[str, int, int]] = []
        for m in _line_start_matches(text, "// mlirbc: ", _MLIRBC_COMMENT_RE, self.start, self.end):
            body = m.group(1)
            cs, ce = m.start(1), m.end(1)
            if body.startswith(BLOB_COMMENT):
                self.blob_comments.append((cs, Comment(body, cs, ce)))
            elif body.startswith(USELIST_PREFIX):
                self.uselist_lines[m.start()] = (body[len(USELIST_PREFIX):], cs, ce)
            elif body.startswith(BLOCK_USELIST_PREFIX):
                self.block_uselist_lines[m.start()] = (body[len(BLOCK_USELIST_PREFIX):], cs, ce)
            elif body.startswith(DISTINCT_PREFIX):
                self.header_comments += 1
                self.map.part(PART_HEADER, cs, ce, None)
                distinct_lines.append((body[len(DISTINCT_PREFIX):], cs, ce))
            elif body.startswith(PARTIAL_PREFIX):
                self.report("this view shows a file that decoded only part-way "
                            f"({body[len(PARTIAL_PREFIX):]}); it cannot be encoded",
                            self.lexer.span(cs, ce))
            elif body.startswith(HEADER_PREFIX):
                self.header_comments += 1
                if self.result.header:
                    continue  # the first header line is the header
                self.map.part(PART_HEADER, cs, ce, None)
                try:
                    facts = json.loads(body[len(HEADER_PREFIX):])
                    if not isinstance(facts, dict):
                        raise ValueError("not an object")
                    problem = header_problem(facts)
                    if problem is not None:
                        raise ValueError(problem)
                    self.result.header = facts
                except (ValueError, RecursionError) as exc:
                    self.report(f"malformed mlirbc header comment: {exc}", self.lexer.span(cs, ce))
        if distinct_lines:
            self._distinct_numbering(distinct_lines)
        self.registry = self._bound(self.registry, self.template)
        # Values of a dialect are read by the syntax of the file's model set (MLIR 24's llvm entries).
        self.syntax = self.registry.syntax

    def _distinct_numbering(self, lines: list[tuple[str, int, int]]) -> None:
        """The `// mlirbc: distinct` lines: the idents of `distinct[0]`, `distinct[1]`, ... in order."""
        words: list[str] = []
        for body, _, _ in lines:
            words.extend(body.split())
        try:
            idents = parse_idents(words)
        except ValueError as exc:
            self.report(f"malformed mlirbc distinct line: {exc}", self.lexer.span(lines[0][1], lines[-1][2]))
            return
        self.distincts = DistinctIds(idents, fresh_base=self._fresh_distincts)

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

    def _line_before(self, offset: int) -> int:
        """Where the line before the one holding `offset` starts (-1 on the first line)."""
        text = self.text
        ls = text.rfind("\n", 0, offset) + 1
        return -1 if ls == 0 else text.rfind("\n", 0, ls - 1) + 1

    def _use_orders(self, text: str, targets: list[Value], start: int, end: int) -> None:
        """Apply one `[block-]uselist` comment's orders; problems are reported at [start, end)."""
        for item in text.split():
            try:
                idx_text, _, order = item.partition("=")
                idx = int(idx_text)
                pair = order.startswith("pairs")
                body = order.removeprefix("pairs")
                if not (body.startswith("[") and body.endswith("]")):
                    raise ValueError(order)
                entries = tuple(int(x) for x in body[1:-1].split(",") if x.strip())
                if idx < 0 or not idx_text.strip().isdigit():
                    raise ValueError(idx_text)
            except ValueError:
                self.report(f"malformed use-list order '{item[:80]}'", self.lexer.span(start, end))
                continue
            bad = next((e for e in entries if not 0 <= e <= MAX_USE_INDEX), None)
            if bad is not None:
                # A use-list entry is the index of a use: it must fit the writer's index type.
                shown = str(bad) if len(str(bad)) <= 24 else str(bad)[:20] + "..."
                self.report(f"use-list order entry {shown} is out of range (0 to {MAX_USE_INDEX})",
                            self.lexer.span(start, end))
                continue
            if idx >= len(targets):
                self.report(f"use-list order for value #{idx} but there are {len(targets)}",
                            self.lexer.span(start, end), "warning")
                continue
            targets[idx].use_order = (pair, entries)

    # -- top level ----------------------------------------------------------------------------------
    def parse_top(self) -> Operation | None:
        self.scan_comments()
        self.parse_aliases()
        self.result.aliases = (self.attr_aliases, self.type_aliases)
        self.map.aliases = self.result.aliases
        ops: list[Operation] = []
        holder = Block()
        self.scope = _Scope(None, True, None)
        # A view (its header, or the file it is read against) holds the file's one top-level op as it
        # is, as `mlir-opt --no-implicit-module` reads text; other text gets MLIR's implicit module.
        view = bool(self.header_comments) or self.template is not None
        if self.implicit_module:
            self.map.open_op(self.start, None)
            self.region_depth = 1
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
            if view and len(ops) == 1:
                self.report(_SECOND_TOP_LEVEL_OP.format(ops[0].name), self.tok_span(start))
            ops.append(op)
        self.close_scope(self.scope)
        self.report_stray_blob_comments()
        if not view:
            if not self.implicit_module and (self.result.errors or not needs_module(ops)):
                return ops[0] if ops else None
            if not self.implicit_module and not isinstance(self.map, NoMapBuilder):
                self.reread = True
                return None
            module = wrap(ops, source_location(self.source_name),
                          module_properties(self.registry, Module(None).version))
            if self.implicit_module:
                self.map.set_op(module)
                self.map.close_op(self.end)
            return module
        if not ops and not self.result.errors:
            self.report("expected an op in generic form (\"dialect.op\"(...) : ...)",
                        self.tok_span(self.tok))
        return ops[0] if ops else None

    # -- aliases ----------------------------------------------------------------------------------
    def parse_aliases(self) -> None:
        """Parse `#name = attr` / `!name = type` definitions wherever they stand at top level (each at the
        start of a line).

        mlir-opt prints location aliases after the module, so definitions are collected first, retrying
        those that use aliases defined further down.
        """
        # Definitions start a line at column 0 (ops are indented inside the module), so a regular
        # expression finds them without lexing the whole view an extra time.
        starts = sorted(m.start() for prefix in "#!"
                        for m in _column0_matches(self.text, prefix, _ALIAS_DEF_RE, self.start, self.end))
        todo = starts
        for _ in range(len(starts) + 1):
            failed: list[tuple[int, TextError]] = []
            for start in todo:
                m = _FILE_LOC_ALIAS_RE.match(self.text, start, self.end)
                if m is not None and int(m.group(3)) <= 0xFFFFFFFF and int(m.group(4)) <= 0xFFFFFFFF:
                    try:
                        raw = m.group(2).encode("utf-8", "surrogateescape")
                    except UnicodeEncodeError:  # a lone surrogate: the lexer says where, below
                        pass
                    else:
                        self.attr_aliases[m.group(1)] = FileLineColLoc.get(
                            self.string_attr(raw), int(m.group(3)), int(m.group(4)))
                        self.alias_ends[start] = m.end()
                        continue
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
        # Definitions that follow each other are stepped over at once when the ops are read.
        ends = self.alias_ends
        text = self.text
        after: int | None = None
        for start in sorted(ends, reverse=True):
            if after is not None and text[ends[start]:after].isspace():
                ends[start] = ends[after]
            after = start
        self.lex_on(self.start, report=True)

    # -- ops ----------------------------------------------------------------------------------------
    def parse_op_recovering(self, block: Block) -> Operation | None:
        start = self.tok
        depth = self.map.depth
        try:
            return self.parse_op(block)
        except TextError as exc:
            self.report(exc.message, exc.span)
            while self.map.depth > depth + 1:  # ops nested in this one and left open
                self.map.close_op(self.prev_end, broken=True)
            self.poison_results(start)
            self.recover(start)
            if self.map.depth > depth:
                self.map.close_op(max(self.prev_end, start.end), broken=True)
            return None

    def poison_results(self, start: Token) -> None:
        """Define the result names of an op that failed to parse (`%a, %b:2 = ...` at `start`) as
        stand-ins, so that its uses do not each report an undefined value."""
        names: list[tuple[str, int, Token]] = []
        lexer = Lexer(self.text, self.start, self.end)
        tok = start
        try:
            while tok.kind == VALUE:
                count = 1
                nxt = lexer.token_at(tok.end)
                if nxt.kind == ":":
                    n = lexer.token_at(nxt.end)
                    if n.kind != INT:
                        return
                    try:
                        count = max(1, _result_count(n.text))
                    except ValueError:
                        count = MAX_STAND_INS
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
            if name in scope.values:
                continue
            stand_in = Value(_none())
            self.poisoned[id(stand_in)] = stand_in
            self.define(name, stand_in, tok.start, quiet=True)
            if count > 1:
                # `%x#j` stand-ins are made when used (`%0:99999999` must not make a name per result)
                self.poisoned_groups[id(stand_in)] = count

    def recover(self, start: Token) -> None:
        """Skip from `start` past the broken op: to the next line-start token at the same depth, at or
        after the place the error was found."""
        if self.tok.kind == EOF:
            # The op ran to the end of the text: nothing to skip.  (Rescanning from its start would make
            # every enclosing op, each failing at the end in turn, rescan the rest of the text.)
            return
        # Never back to text before the error: the ops there were read already (those nested in this
        # one), and reading them again for every enclosing op that fails made recovery quadratic (ops
        # nested 500 deep, each failing after the inner ones recovered: 2.8 s for 8 KB).
        failed_at = self.tok.start
        # Token by token as `advance` would go (text that does not lex skipped silently), but without
        # making tokens: recovery re-reads the broken op, often most of a damaged view.
        skipped = self._skipped
        depth = 0
        first = True
        prev_end = at = pos = start.start
        while True:
            jumped = False
            for kind, at, end in self.lexer.scan(pos):
                if kind == LEX_ERROR:
                    prev_end = at  # where `advance_over_errors` would have gone on
                    continue
                if kind == EOF or (not first and depth <= 0 and at >= failed_at and (
                        kind == "}" or (kind in _RESYNC_KINDS and self._line_start(at)))):
                    break
                # An earlier recovery from here, whose error lay no later than this one's, found no place
                # to stop before its end at a depth above its start's: none lies there at a depth above
                # this token's either (nor before this error), so go straight on.
                found = skipped.get(at) if depth >= 0 else None
                if found is not None and found[3] <= failed_at:
                    pos, delta, prev_end, _ = found
                    depth += delta
                    first = False
                    jumped = True
                    break
                if kind in _OPENERS:
                    depth += 1
                elif kind in _CLOSERS:
                    depth -= 1
                first = False
                prev_end = end
            if not jumped:
                break
        skipped[start.start] = (at, depth, prev_end, failed_at)
        self.lexer.reset(at)
        self.tok = self.lexer.next()
        self.prev_end = prev_end

    def _line_start(self, offset: int) -> bool:
        i = offset - 1
        text = self.text
        while i >= 0 and text[i] in " \t":
            i -= 1
        return i < 0 or text[i] == "\n"

    def parse_op(self, block: Block) -> Operation:
        start = self.tok
        m = self.map
        uselist = None
        if self.uselist_lines:
            uselist = self.uselist_lines.get(self._line_before(start.start))
            if uselist is not None:
                m.part(PART_USELIST, uselist[1], uselist[2], None)
        m.open_op(start.start)
        results: list[tuple[str, int, Token, NameHandle]] = []
        head = self._op_head(start, results)
        tail: _Tail | None = None
        if head is None:
            names = self._op_head_tokens(results)
            if names is None:
                from .asm_parser import parse_custom_op

                return parse_custom_op(self, block, start, results, uselist)
            full, dialect, short, operand_toks = names
        else:
            full, dialect, short, operand_toks, head_end = head
            tail = self._simple_tail(head_end)
            if tail is None:
                self.reset(head_end)
        # Uses are recorded in the map now, in text order; their targets once the op's type is known.
        operand_handles = [m.occurrence(None, t.start, t.end, False, False) for t in operand_toks]
        if tail is None:
            tail = self._op_tail_tokens(block, full, dialect, short)
        else:
            self._place_simple_tail(tail, block, dialect, short)
        return self._op_rest(start, full, dialect, short, results, operand_toks, operand_handles, tail,
                             uselist)

    def _op_tail_tokens(self, block: Block, full: str, dialect: str, short: str) -> _Tail:
        """Everything after the operands, token by token: successors, properties, regions, attribute
        dictionary, type and location; the op is made and appended to `block` on the way."""
        m = self.map
        successor_toks: list[tuple[Token, NameHandle]] = []
        if self.consume_if("["):
            while True:
                tok = self.expect(BLOCK, "expected a block label")
                successor_toks.append((tok, m.occurrence(None, tok.start, tok.end, False, True)))
                if not self.consume_if(","):
                    break
            self.expect("]", "expected ']' after successors")
        props_dict: Attribute | None = None
        props_start = self.tok
        if self.consume_if("<"):
            dict_start = self.tok.start
            if self.tok.kind == "{":
                props_dict = self._memo(self._props_memo, "}>", 1, self.parse_attribute_dict)
            else:
                # Any attribute: an unregistered op's properties need not be a dictionary (`<"x">`).
                props_dict = self.parse_attribute()
            m.piece(PIECE_PROPERTIES, dict_start, self.prev_end)
            self.expect(">", "expected '>' after properties")
        props_end = self.prev_end
        op = Operation(self._op_name(dialect, short, True), self._unknown_loc)
        op.offset = -1
        m.set_op(op)
        block.append(op)
        # An op name the file stores as unregistered has no traits (as the writer and reader decide).
        isolated = self._isolated(full) and self.registered.get((dialect, short)) is not False
        if self.tok.kind == "(" and self.peek_ahead().kind == "{":
            self.advance()
            self.dialects.append(self._generic_default_dialect(full))
            try:
                while True:
                    region_start = self.tok.start
                    region = op.add_region()
                    self.parse_region(region, isolated)
                    m.region(region_start, self.prev_end)
                    if not self.consume_if(","):
                        break
            finally:
                self.dialects.pop()
            self.expect(")", "expected ')' after regions")
        fallback_props: Properties | None = None
        if self.tok.kind == "{":
            attrs_start = self.tok
            attrs = self.parse_attribute_dict()
            m.piece(PIECE_ATTRIBUTES, attrs_start.start, self.prev_end)
            entries = attrs.entries
            raw_entry = [v for k, v in entries if k.value == FALLBACK_PROPS_KEY.encode()]
            if raw_entry:
                if props_dict is not None:
                    raise TextError(f"an op with {FALLBACK_PROPS_KEY} cannot also have <{{...}}> "
                                    "properties", self.lexer.span(props_start.start, props_end))
                fallback_props = self.fallback_properties(
                    raw_entry[0], self.lexer.span(attrs_start.start, self.prev_end))
                self._fallback_props_part(attrs_start.start, fallback_props)
                entries = tuple((k, v) for k, v in entries if k.value != FALLBACK_PROPS_KEY.encode())
                attrs = DictionaryAttr.get(entries)
            op.attributes = attrs if entries else None
        self.expect(":", "expected ':' and the op's function type")
        type_tok = self.tok
        ftype = self._memo(self._type_memo, " loc(", 0, self.parse_function_type)
        m.piece(PIECE_TYPE, type_tok.start, self.prev_end)
        if self.at_keyword("loc"):
            loc_start = self.tok.start
            op.location = self._loc()
            m.piece(PIECE_LOCATION, loc_start, self.prev_end)
        end = self.prev_end
        return _Tail(op, ftype, type_tok.start, end, successor_toks, fallback_props, props_dict,
                     props_start.start, props_end)

    def _op_rest(self, start: Token, full: str, dialect: str, short: str,
                 results: list[tuple[str, int, Token, NameHandle]], operand_toks: list[Token],
                 operand_handles: list[NameHandle], tail: _Tail,
                 uselist: tuple[str, int, int] | None) -> Operation:
        """Results, operands, successors and properties of an op whose text is read."""
        m = self.map
        op, ftype, type_start, end = tail.op, tail.ftype, tail.type_start, tail.end
        assert op is not None
        # Results.
        n_results = sum(c for _, c, _, _ in results)
        if n_results != len(ftype.results):
            self.report(f"the op's type has {len(ftype.results)} results but {n_results} are named",
                        self.lexer.span(type_start, end))
        op.results = [OpResult(t, op, i) for i, t in enumerate(ftype.results)]
        k = 0
        for name, count, tok, handle in results:
            group = op.results[k:k + count]
            k += count
            m.define(handle, *group)
            for j, res in enumerate(group):
                key = f"{name}#{j}" if count > 1 else name
                self.define(key, res, tok.start)
                if count > 1 and j == 0:
                    self.define(name, res, tok.start, quiet=True)
        # Operands, typed by the function type.
        if len(operand_toks) != len(ftype.inputs):
            self.report(f"the op's type has {len(ftype.inputs)} operands but {len(operand_toks)} "
                        "are listed", self.lexer.span(type_start, end))
        for i, tok in enumerate(operand_toks):
            t = ftype.inputs[i] if i < len(ftype.inputs) else None
            op.operands.append(self.use(tok, op, i, t, operand_handles[i]))
        for i, (tok, handle) in enumerate(tail.successors):
            op.successors.append(Block())  # patched when the region's labels are known
            assert self.scope is not None
            self.scope.block_uses.append((tok.text, tok.start, tok.end, op, i, handle))
        op.properties = tail.fallback_props or self.properties(full, tail.props_dict, tail.props_start,
                                                               tail.props_end)
        if op.properties is None and self.template is None:
            self._fill_dictionary_defaults(op, full)
        op.op_name = self._op_name(dialect, short, self._registered(dialect, short, op.properties))
        if uselist is not None:
            self._use_orders(uselist[0], list(op.results), uselist[1], uselist[2])
        sym = symbol_of(op)
        if sym is not None:
            m.symbol(sym)
        m.close_op(end)
        return op

    def _op_head_tokens(self, results: list[tuple[str, int, Token, NameHandle]]
                        ) -> tuple[str, str, str, list[Token]] | None:
        """Read `%results = "name"(operands)` token by token: (full name, dialect, name without prefix,
        operand tokens); the result names go to `results`.  None when the op is in a custom form (a bare
        op name: nothing after the results is consumed)."""
        m = self.map
        if self.tok.kind == VALUE:
            while True:
                tok = self.expect(VALUE, "expected SSA result name")
                handle = m.occurrence(None, tok.start, tok.end, True, False)
                count = 1
                if self.consume_if(":"):
                    n = self.expect(INT, "expected result count")
                    try:
                        count = _result_count(n.text)
                    except ValueError as exc:
                        raise self.error(str(exc), n) from None
                    if count < 1:
                        raise self.error("expected a positive result count", n)
                if "#" in tok.text:
                    raise self.error("result names cannot carry a result number", tok)
                results.append((tok.text, count, tok, handle))
                if not self.consume_if(","):
                    break
            self.expect("=", "expected '=' after result names")
        name_tok = self.tok
        if name_tok.kind == BARE:
            return None
        if name_tok.kind != STRING:
            raise self.error("expected an op in generic form (\"dialect.op\"(...) : ...) or a custom op",
                             name_tok)
        self.advance()
        m.op_name(name_tok.start, name_tok.end)
        names = self._op_name_texts.get(name_tok.text)
        if names is None:
            full = string_value(name_tok).decode("utf-8", "surrogateescape")
            if not full:
                raise self.error("op name is empty", name_tok)
            dialect, _, short = full.partition(".")
            names = self._op_name_texts[name_tok.text] = (full, dialect, short)
        full, dialect, short = names
        operand_toks: list[Token] = []
        self.expect("(", "expected '(' before the operand list")
        if not self.consume_if(")"):
            while True:
                operand_toks.append(self.expect(VALUE, "expected SSA operand"))
                if not self.consume_if(","):
                    break
            self.expect(")", "expected ')' after the operand list")
        return full, dialect, short, operand_toks

    def _op_head(self, start: Token, results: list[tuple[str, int, Token, NameHandle]]
                 ) -> tuple[str, str, str, list[Token], int] | None:
        """`_op_head_tokens` in one match for the printer's usual form (`_OP_HEAD_RE`), plus where the
        head ends (the lexer is not moved there), else None (nothing consumed)."""
        if start.kind != VALUE and start.kind != STRING:
            return None
        h = _OP_HEAD_RE.match(self.text, start.start, self.end)
        if h is None:
            return None
        m = self.map
        if h.start(1) >= 0:
            rs, re_ = h.span(1)
            tok = Token(VALUE, h.group(1), rs, re_)
            results.append((tok.text, 1, tok, m.occurrence(None, rs, re_, True, False)))
        ns, ne = h.span(2)
        m.op_name(ns - 1, ne + 1)
        full = h.group(2)
        dialect, _, short = full.partition(".")
        operand_toks: list[Token] = []
        if h.start(3) >= 0:
            at = h.start(3)
            for name in h.group(3).split(", "):
                end = at + len(name)
                operand_toks.append(Token(VALUE, name, at, end))
                at = end + 2
        return full, dialect, short, operand_toks, h.end()

    def _simple_tail(self, pos: int) -> _Tail | None:
        """The rest of an op read without the lexer, for the printer's usual form of an op with no
        successors, regions or attribute dictionary: ` <{props}> : type loc("file":line:col)`, with
        properties and type texts that parsed before (`_memo`'s caches, under the keys `_memo` uses).
        None (nothing consumed) otherwise: the token path reads it."""
        text = self.text
        stop = self.end
        line_end = text.find("\n", pos, stop)
        if line_end < 0:
            line_end = stop
        props: DictionaryAttr | None = None
        props_start, props_end = pos, pos
        if text.startswith(" <{", pos, line_end):
            close = text.find("}>", pos + 3, line_end)
            if close < 0:
                return None
            props = self._props_memo.get(text[pos + 2:close + 1])
            if props is None:
                return None
            props_start = pos + 1
            pos = props_end = close + 2
        if not text.startswith(" : ", pos, line_end):
            return None
        type_start = pos + 3
        type_end = text.find(" loc(", type_start, line_end)
        if type_end < 0:
            return None
        ftype = self._type_memo.get(text[type_start:type_end])
        if ftype is None:
            return None
        lm = _FILE_LOC_RE.match(text, type_end + 1, line_end)
        loc: Attribute | None
        if lm is None:
            lm = _ALIAS_LOC_RE.match(text, type_end + 1, line_end)
            loc = None if lm is None else self.attr_aliases.get(lm.group(1))
            if lm is None or loc is None or type(loc) not in _LOCATIONS:
                return None
        else:
            line, col = int(lm.group(2)), int(lm.group(3))
            if line > 0xFFFFFFFF or col > 0xFFFFFFFF:
                return None
            try:
                raw = lm.group(1).encode("utf-8", "surrogateescape")
            except UnicodeEncodeError:
                return None
            loc = FileLineColLoc.get(self.string_attr(raw), line, col)
        # (Nothing is consumed yet: `_place_simple_tail` makes the op once the operands' uses are in
        # the map, and moves the lexer.)
        return _Tail(None, ftype, type_start, lm.end(), [], None, props,
                     props_start if props is not None else pos + 1, props_end, loc, type_end + 1)

    def _place_simple_tail(self, tail: _Tail, block: Block, dialect: str, short: str) -> None:
        """The op of a tail `_simple_tail` read, with the parts of the map the token path records."""
        m = self.map
        if tail.props_dict is not None:
            m.piece(PIECE_PROPERTIES, tail.props_start + 1, tail.props_end - 1)
        op = Operation(self._op_name(dialect, short, True), self._unknown_loc)
        op.offset = -1
        m.set_op(op)
        block.append(op)
        tail.op = op
        m.piece(PIECE_TYPE, tail.type_start, tail.loc_start - 1)
        # The token after the op is lexed here, where the token path lexes it (reading the location): a
        # lexical error there leaves the op in the block and the map, its location not yet set.
        self.reset(tail.end)
        assert tail.loc is not None
        op.location = tail.loc
        m.piece(PIECE_LOCATION, tail.loc_start, tail.end)

    def _memo(self, cache: dict[str, _T], marker: str, extra: int, parse: Callable[[], _T]) -> _T:
        """`parse()`, or the value an identical text parsed to before.

        Ops repeat their function types and property dictionaries; the text from the current token
        to `marker` (plus `extra` characters) on the same line is the key, and only a parse that
        ended exactly there, recording no parts in the map, is kept (the same text always parses the
        same: aliases are fixed before ops are read)."""
        text = self.text
        start = self.tok.start
        line_end = text.find("\n", start, self.end)
        stop = text.find(marker, start, line_end if line_end >= 0 else self.end)
        if stop < 0:
            return parse()
        stop += extra
        key = text[start:stop]
        hit = cache.get(key)
        if hit is not None:
            self.reset(stop)
            return hit
        seg = self.map.current_segment
        parts = len(seg.parts)
        value = parse()
        if self.prev_end == stop and len(seg.parts) == parts and len(cache) < _MEMO_SIZE:
            cache[key] = value
        return value

    def _loc(self) -> Attribute:
        """`parse_loc()`, with the commonest form, `loc("file":line:col)`, read in one step."""
        m = _FILE_LOC_RE.match(self.text, self.tok.start, self.end)
        if m is not None:
            line, col = int(m.group(2)), int(m.group(3))
            if line <= 0xFFFFFFFF and col <= 0xFFFFFFFF:
                try:
                    raw = m.group(1).encode("utf-8", "surrogateescape")
                except UnicodeEncodeError:  # a lone surrogate: the lexer says where, below
                    return self.parse_loc()
                name = self.string_attr(raw)
                self.reset(m.end())
                return FileLineColLoc.get(name, line, col)
        m = _ALIAS_LOC_RE.match(self.text, self.tok.start, self.end)
        if m is not None:
            loc = self.attr_aliases.get(m.group(1))
            if loc is not None and type(loc) in _LOCATIONS:
                self.reset(m.end())
                return loc
        return self.parse_loc()

    def _fallback_props_part(self, dict_start: int, props: Properties) -> None:
        """Record the `mlirbc.properties = "0x.."` entry of the dictionary at `dict_start`."""
        lexer = Lexer(self.text, dict_start, self.end)
        try:
            tok = lexer.next()
            depth = 0
            while tok.kind != EOF:
                if tok.kind in ("{", "[", "(", "<"):
                    depth += 1
                elif tok.kind in ("}", "]", ")", ">"):
                    depth -= 1
                    if depth == 0:
                        return
                elif depth == 1 and tok.kind in (BARE, STRING) and (
                        tok.text == FALLBACK_PROPS_KEY or (
                            tok.kind == STRING and string_value(tok) == FALLBACK_PROPS_KEY.encode())):
                    lexer.next()  # '='
                    value = lexer.next()
                    self.map.part(PART_FALLBACK_PROPERTIES, tok.start, value.end, props)
                    return
                tok = lexer.next()
        except TextError:
            return

    def _op_name(self, dialect: str, short: str, registered: bool) -> OpName:
        """One (immutable) OpName per distinct name and flag, not two per op."""
        key = (dialect, short, registered)
        name = self._op_names.get(key)
        if name is None:
            name = self._op_names[key] = OpName(dialect, short, registered)
        return name

    def _isolated(self, full: str) -> bool:
        hit = self._isolated_names.get(full)
        if hit is None:
            hit = self._isolated_names[full] = is_isolated(self.registry, full)
        return hit

    def _registered(self, dialect: str, short: str, props: Properties | None) -> bool:
        known = self.registered.get((dialect, short))
        if known is not None:
            return known
        if props is not None and props.kind == PROPS_FALLBACK:
            return True
        return self.registry.has_op(f"{dialect}.{short}" if short else dialect)

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

    def properties(self, full: str, d: Attribute | None, start: int, end: int) -> Properties | None:
        """The op's properties from its `<...>` text at [start, end) (located only for an error: a
        span per op costs a line lookup)."""
        lookup = self.registry.op(full)
        model = lookup.model
        dialect, _, short = full.partition(".")
        if model is None or self.registered.get((dialect, short)) is False:
            return None if d is None else Properties(PROPS_ATTRIBUTE, attribute=d)
        if d is None:
            return None
        if not isinstance(d, DictionaryAttr):
            raise TextError(f"the properties of '{full}' must be a dictionary <{{...}}>",
                            self.lexer.span(start, end))
        # Ops of one name with the same dictionary share one record, as the reader's ops with one payload.
        # (Keyed by identity: attributes are uniqued, and the entry keeps `d` alive.)
        hit = self._props_records.get((full, id(d)))
        if hit is not None and hit[0] is d:
            return hit[1]
        shared = self._decoded_properties(lookup.origin, model, d)
        self._props_records[(full, id(d))] = (d, shared)
        return shared

    def _decoded_properties(self, origin: str, model: OpModel, d: DictionaryAttr) -> Properties:
        values = {k.text: v for k, v in d.entries}
        if self.template is None:
            # Text without an original file is encoded as mlir-opt encodes it: reading a `<{...}>`
            # dictionary fills in the default of every absent default-valued attribute.  With a template
            # the view is the file's own state, where an absent attribute stays absent.
            self._fill_defaults(model, values)
        return Properties(PROPS_DECODED, values=dict(sorted(values.items())), model=origin)

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
                    values[name] = parse_attribute_text(text, self.registry.syntax)
                except TextError:
                    continue

    def _generic_default_dialect(self, full: str) -> str:
        """The default dialect inside a generic op's regions: its syntax model's, else none."""
        if len(self.dialects) == 1 and self.dialects[0] == "builtin" and full == "builtin.module":
            return "builtin"
        model = self.registry.op_syntax(full).model if "." in full else None
        if model is None:
            return ""
        try:
            from ..models.asm.api import default_dialect

            return default_dialect(model, None)  # type: ignore[arg-type]
        except Exception:
            return ""

    # -- regions and blocks -------------------------------------------------------------------------
    def parse_region(self, region: Region, isolated: bool, entry_args: list[Argument] | None = None) -> None:
        if self.region_depth >= MAX_NESTING:
            self.skip_region()
            return
        self.region_depth += 1
        try:
            self._parse_region(region, isolated, entry_args)
        finally:
            self.region_depth -= 1

    def skip_region(self) -> None:
        """A region nested deeper than the reader follows: report it, skip its balanced text (one linear
        scan) and go on, instead of recursing as deep as the text goes."""
        open_tok = self.expect("{", "expected '{' to begin a region")
        self.report(f"regions nested deeper than {MAX_NESTING} levels (the bytecode reader's limit)",
                    self.tok_span(open_tok))
        text = self.text
        depth = 1
        for m in _BRACKETS_RE.finditer(text, open_tok.end):
            run = m.group()
            c = run[0]
            if c in "({[":
                depth += len(run)
            elif c in ")}]":
                if len(run) >= depth:
                    self.lex_on(m.start() + depth, report=False)
                    return
                depth -= len(run)
        self.lex_on(len(text), report=False)

    def _parse_region(self, region: Region, isolated: bool, entry_args: list[Argument] | None = None) -> None:
        self.expect("{", "expected '{' to begin a region")
        scope = _Scope(region, isolated, self.scope)
        self.scope = scope
        m = self.map
        try:
            if entry_args:
                # The op's syntax declared the entry block's arguments (`scf.for %iv = ...`, a signature).
                block = region.add_block()
                for a in entry_args:
                    t = a.type if a.type is not None else _none()
                    arg = block.add_argument(t, a.location if a.location is not None else UnknownLoc.get())
                    if a.location is None:
                        self.implicit_terminators.add(id(arg))  # its location is not in the text
                    ref = a.ref
                    handle = getattr(ref, "handle", None)
                    tok = getattr(ref, "tok", None)
                    if handle is not None:
                        self.map.define(handle, arg)
                    self.define(ref.name, arg, tok.start if tok is not None else self.tok.start)
                if self.tok.kind == BLOCK:
                    raise self.error("invalid block name in a region with named arguments")
                self._entry_uselist(block)
                self.parse_block_body(block)
            elif self.tok.kind == "}":
                self.advance()
                return
            if self.tok.kind != BLOCK and not entry_args:
                block = region.add_block()
                self.parse_block_body(block)
            while self.tok.kind == BLOCK:
                label = self.advance()
                block = region.add_block()
                if label.text in scope.blocks:
                    self.report(f"redefinition of block {label.text}", self.tok_span(label))
                scope.blocks[label.text] = block
                m.occurrence(block, label.start, label.end, True, True)
                if self.consume_if("("):
                    if not self.consume_if(")"):
                        while True:
                            self.parse_block_arg(block)
                            if not self.consume_if(","):
                                break
                        self.expect(")", "expected ')' after block arguments")
                self.expect(":", "expected ':' after the block label")
                if self.block_uselist_lines:
                    found = self.block_uselist_lines.get(self.text.find("\n", label.start) + 1)
                    if found is not None:
                        m.part(PART_USELIST, found[1], found[2], None)
                        self._use_orders(found[0], list(block.arguments), found[1], found[2])
                self.parse_block_body(block)
            if self.tok.kind != "}":
                raise self.error("expected '}' to end the region")
            self.advance()
        finally:
            self.close_scope(scope)
            self.scope = scope.parent

    def _entry_uselist(self, block: Block) -> None:
        """The `// mlirbc: block-uselist` line of an entry block without a label: the first line of
        its region (the pretty form declares such a block's arguments in the op's own syntax)."""
        if not self.block_uselist_lines or not block.arguments:
            return
        found = self.block_uselist_lines.get(self.text.find("\n", self.prev_end - 1) + 1)
        if found is not None:
            self.map.part(PART_USELIST, found[1], found[2], None)
            self._use_orders(found[0], list(block.arguments), found[1], found[2])

    def parse_block_arg(self, block: Block) -> None:
        tok = self.expect(VALUE, "expected a block argument name")
        handle = self.map.occurrence(None, tok.start, tok.end, True, False)
        self.expect(":", "expected ':' and the argument's type")
        t = self.parse_type()
        loc: Attribute = UnknownLoc.get()
        if self.at_keyword("loc"):
            loc = self._loc()
        arg = block.add_argument(t, loc)
        self.map.define(handle, arg)
        self.define(tok.text, arg, tok.start)

    def parse_block_body(self, block: Block) -> None:
        while self.tok.kind not in (BLOCK, "}", EOF):
            self.parse_op_recovering(block)

    # -- names --------------------------------------------------------------------------------------
    def define(self, name: str, value: Value, start: int, quiet: bool = False) -> None:
        scope = self.scope
        assert scope is not None
        prev = self._lookup(name, defining=True)
        if prev is not None and not quiet:
            self.report(f"redefinition of SSA value {name}",
                        self.lexer.span(start, start + len(name)))
            return
        scope.values[name] = value
        pending = scope.pending.pop(name, None)
        if pending is not None:
            self._resolve(pending, value, scope)

    def _resolve(self, pending: _Pending, value: Value, scope: _Scope) -> None:
        for op, i, t, start, end, _, handle in pending.uses:
            op.operands[i] = value
            if id(value) not in self.poisoned:
                self.map.resolve(handle, value)
            if t is not None and value.type is not t and id(value) not in self.poisoned:
                self.report(f"use of {pending.name} expects type {_type_text(t)} but it is "
                            f"defined with type {_type_text(value.type)}", self.lexer.span(start, end))

    def _lookup(self, name: str, defining: bool = False) -> Value | None:
        scope = self.scope
        while scope is not None:
            hit = scope.values.get(name)
            if hit is not None:
                return hit
            if defining or scope.isolated:
                return None
            scope = scope.parent
        return None

    def use(self, tok: Token, op: Operation, index: int, t: Type | None,
            handle: NameHandle) -> Value:
        name = tok.text
        if name.endswith("#0") and self._lookup(name) is None:
            base = self._lookup(name[:-2])
            if base is not None:
                name = name[:-2]
        value = self._lookup(name)
        if value is None and "#" in name and self.poisoned_groups:
            value = self._poisoned_result(name, tok.start)
        if value is not None:
            if id(value) in self.poisoned:
                return value
            if t is not None and value.type is not t:
                self.report(f"use of {name} expects type {_type_text(t)} but it is defined with "
                            f"type {_type_text(value.type)}", self.tok_span(tok))
            self.map.resolve(handle, value)
            return value
        scope = self.scope
        assert scope is not None
        pending = scope.pending.get(name)
        if pending is None:
            pending = _Pending(name)
            scope.pending[name] = pending
        pending.uses.append((op, index, t if t is not None else _none(), tok.start, tok.end,
                             scope.region, handle))
        placeholder = Value(t if t is not None else _none())
        self.placeholder_values[id(placeholder)] = pending
        return placeholder

    def _poisoned_result(self, name: str, at: int) -> Value | None:
        """`%x#j` of an op that failed to parse, named `%x:N` with j < N: a stand-in, made now."""
        base_name, _, number = name.partition("#")
        base = self._lookup(base_name)
        if base is None or not number.isdigit() or len(number) > 10:
            return None
        count = self.poisoned_groups.get(id(base))
        if count is None or int(number) >= count:
            return None
        stand_in = Value(_none())
        self.poisoned[id(stand_in)] = stand_in
        self.define(name, stand_in, at, quiet=True)
        return stand_in

    def close_scope(self, scope: _Scope) -> None:
        # Successors name blocks of the region that holds the op.
        for label, start, end, op, i, handle in scope.block_uses:
            block = scope.blocks.get(label)
            if block is None:
                self.report(f"reference to an undefined block {label}", self.lexer.span(start, end))
                continue
            op.successors[i] = block
            self.map.resolve(handle, block)
        # Uses still pending may be defined later in an enclosing region (graph regions), unless
        # this region is isolated from above.
        parent = scope.parent
        for name, pending in scope.pending.items():
            if parent is not None and not scope.isolated:
                hit = parent.values.get(name)
                if hit is not None:
                    self._resolve(pending, hit, parent)
                    continue
                target = parent.pending.get(name)
                if target is None:
                    parent.pending[name] = pending
                else:
                    target.uses.extend(pending.uses)
                continue
            for use in pending.uses:
                self.report(f"use of undefined SSA value {name}", self.lexer.span(use[3], use[4]))

    # -- resources ----------------------------------------------------------------------------------
    def parse_resources(self) -> list[ResourceGroup]:
        groups: list[ResourceGroup] = []
        start = self.tok.start
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
        self.map.part(PART_RESOURCES, start, self.prev_end, None)
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


_SECOND_TOP_LEVEL_OP = (
    "the view must hold exactly one top-level op, the file's '{0}': MLIR would wrap them all in a new "
    "implicit module, nesting '{0}' one level down and writing every op of the file anew; move this op "
    "into '{0}', or write the enclosing module yourself")
"""A view stands for its file's one top-level op; a second one is refused rather than restructure the file."""


def is_isolated(registry: Registry, name: str) -> bool:
    """Whether the model of op `name` says its regions are isolated from above (names inside do not
    see names outside)."""
    return isolated_from_above(registry.op(name).model)


MAX_USE_INDEX = (1 << 31) - 1
"""The largest index a use-list order can hold (a value has fewer uses than the file has ops)."""
MAX_STAND_INS = 4096
"""The result count assumed for an op that failed to parse with a count that is not a number."""
MAX_RESULT_COUNT = (1 << 31) - 1


def _result_count(text: str) -> int:
    """The N of `%x:N` (ValueError past 2^31 - 1: no op has that many results)."""
    value = int_literal(text) if len(text) <= 12 else MAX_RESULT_COUNT + 1
    if value > MAX_RESULT_COUNT:
        raise ValueError(f"result count {text[:20]}{'...' if len(text) > 20 else ''} is too large")
    return value


def header_problem(facts: dict[str, object]) -> str | None:
    """What in the `// mlirbc: {...}` header facts the writer could not write, or None."""
    version = facts.get("version")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)
                                or not 0 <= version <= 6):
        return f"version must be a bytecode version 0 to 6, not {json.dumps(version)[:40]}"
    producer = facts.get("producer")
    if producer is not None:
        if not isinstance(producer, str):
            return "producer must be a string"
        if "\0" in producer:
            return "the producer cannot contain a NUL character"
        try:
            producer.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError as exc:
            return f"the producer has a character that cannot be written ({exc.reason} at {exc.start})"
    view = facts.get("view")
    if view is not None and (not isinstance(view, str) or not view.isidentifier()):
        return "view must name a dialect-level view (such as \"stablehlo\")"
    if "implicit_module" in facts and not isinstance(facts["implicit_module"], bool):
        return "implicit_module must be true or false"
    versions = facts.get("dialect_versions")
    if versions is not None:
        if not isinstance(versions, dict):
            return "dialect_versions must be an object of dialect name -> hex bytes"
        for name, hexv in versions.items():
            try:
                bytes.fromhex(hexv) if isinstance(hexv, str) else bytes.fromhex("?")
            except ValueError:
                return f"the version of dialect '{name[:80]}' must be a string of hex bytes"
    return None


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
                 registry: Registry | None = None, lines: TextLines | None = None,
                 with_map: bool = True, verify: bool = False, source_name: str = "-") -> ParseResult:
    """Parse a text view.  With a template (the module the view was printed from), facts the text does
    not carry (registered flags, dialect versions, version and producer when the header is missing)
    come from it.  `lines` (the text's line table, when the caller has one) saves building it for
    messages.  Without `with_map` the result's map is empty (a caller that only writes the module).
    With `verify`, a module that parsed is verified (`verifier`): its faults are diagnostics with the code
    `verify`, and the module is kept.

    A view (a text with the `// mlirbc:` header, or read against its template) holds exactly one
    top-level op, the file's, kept as it is.  Other text follows MLIR's parser (`ir.implicit`): unless it
    holds exactly one `builtin.module`, its top-level ops (none, one or more) are wrapped in a new module
    located at `loc("source_name":0:0)` (`-` is the name MLIR's Python bindings give a string, `mlir-opt`
    gives a file's path or `<stdin>`)."""
    with building():
        result = _parse_module(text, template, registry, lines, with_map, source_name)
        if not with_map and result.module is None and result.errors and any(
                d.span.end == 0 for d in result.errors):
            # errors located by the map (what the writer could not write): parsed again with one
            again = _parse_module(text, template, registry, lines, True, source_name)
            if again.module is None and again.errors:
                result = again
        module = result.module
        if verify and module is not None and module.root is not None:
            from .verification import finding_diagnostics, verify_root

            reg = registry if registry is not None else default_registry()
            bound = reg.with_set(module.model_set, module.model_set_note) \
                if reg.model_set is None and module.model_set is not None else reg
            result.verification = verify_root(module.root, bound)
            assert result.map is not None
            found = result.verification.findings()
            if found:
                if not with_map:  # the findings are located by the map: build one
                    again = _parse_module(text, template, registry, lines, True, source_name)
                    root = again.module.root if again.module is not None else None
                    if again.map is not None and root is not None:
                        result = again
                        result.verification = verify_root(root, bound)
                        found = result.verification.findings()
                assert result.map is not None
                table = TextLines(text) if lines is None else lines
                result.diagnostics.extend(finding_diagnostics(found, result.map, table))
                result.diagnostics.sort(key=lambda d: (d.span.start, d.span.end))
        return result


def _parse_module(text: str, template: Module | None, registry: Registry | None,
                  lines: TextLines | None, with_map: bool = True, source_name: str = "-") -> ParseResult:
    reg = registry if registry is not None else default_registry()
    # Regions nest MAX_NESTING deep at most (deeper ones are skipped with an error), a few frames each.
    if sys.getrecursionlimit() < 8 * MAX_NESTING:
        sys.setrecursionlimit(8 * MAX_NESTING)
    p = OpParser(text, reg, template, lines=lines, with_map=with_map, source_name=source_name)
    try:
        root = p.parse_top()
        if p.reread:  # (only text that is not a view and not one module, rare, is read twice)
            p = OpParser(text, reg, template, lines=lines, with_map=with_map, source_name=source_name,
                         implicit_module=True)
            root = p.parse_top()
    except TextError as exc:
        p.report(exc.message, exc.span)
        root = None
    except RecursionError:
        p.report("the text is nested too deeply to parse", p.tok_span(p.tok))
        root = None
    result = p.result
    result.map = p.map.finish(text)
    result.map.distincts = p.distincts
    result.diagnostics.sort(key=lambda d: (d.span.start, d.span.end))
    if result.errors or root is None:
        return result
    if template is not None and template.root is not None and p.custom_ops:
        from .reconcile import reconcile

        reconcile(root, template.root, p.registry, p.implicit_terminators, p.custom_ops, p.elided_bodies)
    if p.elided_bodies:
        _report_missing_bodies(p, result)
        if result.errors:
            result.diagnostics.sort(key=lambda d: (d.span.start, d.span.end))
            return result
    module = module_for(root, result.header, template, p.registry)
    module.resources = p.resources
    # What the writer could not write or the reader would refuse, located at the op (by the models of
    # the module's producer, as the parser read it).
    found = problems(root, p.registry, module.version, module.dialects)
    if found:
        for problem in found:
            span = result.map.op_span(problem.op)
            result.diagnostics.append(TextDiagnostic(
                problem.message, p.lexer.span(span.start, span.end) if span is not None else
                p.lexer.span(0, 0)))
        if result.errors:
            result.diagnostics.sort(key=lambda d: (d.span.start, d.span.end))
            return result
    result.module = module
    return result


def _report_missing_bodies(p: OpParser, result: ParseResult) -> None:
    """A body the text leaves out that neither the original nor the op's model could give."""
    assert result.map is not None
    for region in p.elided_bodies.values():
        if region.blocks or region.parent is None:
            continue
        span = result.map.op_span(region.parent)
        where = p.lexer.span(span.start, span.end) if span is not None else p.lexer.span(0, 0)
        p.report(f"cannot build the body of '{region.parent.name}' for these element types (no port of "
                 "its region builder): write it in generic form, or keep the op as it was", where)


def module_for(root: Operation, header: dict[str, object], template: Module | None,
               registry: Registry | None = None) -> Module:
    """A module around `root` with the facts of the view's header (else the template's); `registry` (bound
    to a model set) gives the module's set."""
    version = header.get("version")
    producer = header.get("producer")
    module = Module(root)
    if registry is not None:
        module.model_set, module.model_set_note = registry.model_set, registry.model_set_note
    elif template is not None:
        module.model_set, module.model_set_note = template.model_set, template.model_set_note
    if template is not None:
        module.version = template.version
        module.producer = template.producer
        module.dialects = [DialectEntry(d.name, d.version) for d in template.dialects]
        module.view = template.view
    view = header.get("view")
    if isinstance(view, str):
        module.view = view
    # The file's top-level op was not a module: the view's module is the implicit one MLIR read it in.
    implicit = header.get("implicit_module", template.implicit_module if template is not None else False)
    module.implicit_module = implicit is True and root.name == MODULE_NAME
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
    return module


@dataclass
class OpInPlace:
    """One op read in place from a larger text (`parse_op_in_place`)."""

    op: Operation | None
    """The op; None when the text there did not read as exactly one op."""
    diagnostics: list[TextDiagnostic]
    map: SourceMap
    """A map of the whole text holding only this op's segment (see `SourceMap.splice`)."""
    whole: bool
    """The text read as exactly one op from `start` to `end` and the op itself parsed: a full parse
    would report the same (the op's own problems are local to it).  When False, only a full parse
    can say what the text means."""
    implicit: set[int] = field(default_factory=set)
    """id() of the implicit terminators the parser added (see `view.reconcile`)."""
    custom: set[int] = field(default_factory=set)
    """id() of the ops read in a custom form."""


def parse_op_in_place(text: str, start: int, end: int, template: Module | None,
                      registry: Registry | None = None, lines: TextLines | None = None,
                      aliases: tuple[dict[str, Attribute], dict[str, Type]] | None = None,
                      header: dict[str, object] | None = None,
                      distincts: DistinctIds | None = None) -> OpInPlace:
    """Read text[start:end] as one op directly inside the root op (a function, say), with the offsets of
    the whole text.  Its names are its own: only an op whose regions are isolated from above and that
    has no operands, results or successors means the same here as in a full parse.  `header`: the facts
    of the view's header (its bytecode version decides where an op in a custom form keeps its inherent
    attributes); `distincts`: what the whole text's `distinct[N]` stand for (its map's), which the op's
    map extends with the numbers the op adds."""
    with building():  # a keystroke's re-read must not pay for a walk over the whole module's objects
        return _parse_op_in_place(text, start, end, template, registry, lines, aliases, header, distincts)


def _parse_op_in_place(text: str, start: int, end: int, template: Module | None,
                       registry: Registry | None, lines: TextLines | None,
                       aliases: tuple[dict[str, Attribute], dict[str, Type]] | None,
                       header: dict[str, object] | None = None,
                       distincts: DistinctIds | None = None) -> OpInPlace:
    reg = registry if registry is not None else default_registry()
    p = OpParser(text, reg, template, start, end, lines, single=True, aliases=aliases, distincts=distincts)
    if header:
        p.result.header.update(header)
    p.region_depth = 1  # inside the root op's region, as in a full parse: the nesting limit counts it
    whole = _ALIAS_LINE_RE.search(text, start, end) is None
    op: Operation | None = None
    try:
        p.scan_comments()
        p.scope = _Scope(None, True, None)
        holder = Block()
        first = p.tok
        op = p.parse_op_recovering(holder)
        if op is None or p.tok.kind != EOF or first.start != start or p.prev_end != end:
            whole = False
        if p.header_comments:
            whole = False  # a header line typed inside the op: what it means depends on the whole text
        if p.distincts.changed:
            whole = False  # a distinct attribute's value changed here: the rest of the text may still name it
        p.close_scope(p.scope)
    except (TextError, RecursionError):
        whole = False
    p.result.diagnostics.sort(key=lambda d: (d.span.start, d.span.end))
    if op is not None:
        op.parent = None
    piece = p.map.finish(text)
    piece.distincts = p.distincts
    return OpInPlace(op if whole else None, p.result.diagnostics, piece, whole,
                     p.implicit_terminators, p.custom_ops)
