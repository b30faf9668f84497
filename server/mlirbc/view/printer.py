"""Prints a module as the MLIR generic text view and returns a map of what sits where.

The text is what `mlir-opt --mlir-print-op-generic --mlir-print-debuginfo --mlir-print-local-scope`
prints (same value and block names, predecessor comments, inline locations), preceded by `// mlirbc:`
header lines and followed by the resource trailer; with `aliases`, what it prints without
`--mlir-print-local-scope` (alias definitions before and after the module, `syntax.aliases`).  Distinct
attributes are numbered as mlir-opt numbers them, as the text is passed on (`syntax.distincts`); the
`// mlirbc: distinct` lines after the module say which attribute each number is.  Fallback
parts use the syntax in the README ("The text view").  With the text comes its source map
(`sourcemap.SourceMap`): where each op, value, block, attribute piece and fallback part was written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..ir.attributes import Attribute, DictionaryAttr, FallbackAttr, StringAttr, UnitAttr
from ..ir.gcpause import building
from ..ir.module import RESOURCE_BLOB, RESOURCE_BOOL, Module, ResourceGroup
from ..ir.operation import (
    PROPS_ATTRIBUTE,
    PROPS_DECODED,
    PROPS_FALLBACK,
    Block,
    Operation,
    OpName,
    Properties,
    Value,
)
from ..ir.types import FallbackType, FunctionType, Type
from ..ir.walk import distinct_attributes
from ..models.ods import mlir_opt_dialects
from ..syntax.aliases import AliasRules, AliasScope
from ..syntax.attr_printer import (
    alias_scope,
    elision_scope,
    keyword_or_string,
    print_attribute,
    print_location,
    print_location_inline,
    print_type,
    quote_bytes,
)
from ..syntax.distincts import DistinctIds, Moves
from ..syntax.elision import Elider
from ..syntax.lexer import decode_string
from .aliasing import collect_generic
from .sourcemap import (
    PART_FALLBACK_ATTRIBUTE,
    PART_FALLBACK_PROPERTIES,
    PART_FALLBACK_TYPE,
    PART_HEADER,
    PART_RESOURCES,
    PART_USELIST,
    MapBuilder,
    NoMapBuilder,
    SourceMap,
)

if TYPE_CHECKING:
    from ..models.registry import Registry

HEADER_PREFIX = "// mlirbc: "
USELIST_PREFIX = "// mlirbc: uselist "
BLOCK_USELIST_PREFIX = "// mlirbc: block-uselist "
PARTIAL_PREFIX = "// mlirbc: partial decode: "
DISTINCT_PREFIX = "// mlirbc: distinct "
"""Lines after the module listing the ident of `distinct[0]`, `distinct[1]`, ... (`syntax.distincts`)."""
DISTINCTS_PER_LINE = 32
FALLBACK_PROPS_KEY = "mlirbc.properties"

ALIASES_BY_DEFAULT = True
"""Whether the view prints aliases unless told (`mlirbc decode --aliases/--local-scope`, the server's
`mlirbc.view.aliases`): True prints them as upstream's tools do (`#map`, `#loc3`, dialect-chosen names);
False prints everything inline (`--mlir-print-local-scope`)."""

_FALLBACK_MARK = "mlirbc.fallback<"
_JOIN_EVERY = 4096
_FALLBACK_RE = re.compile(r'([#!])mlirbc\.fallback<"([^"\\]*(?:\\.[^"\\]*)*)", "0x([0-9A-Fa-f]*)">')


@dataclass
class PrintResult:
    """The text view and its source map (see `sourcemap.SourceMap`)."""

    text: str
    map: SourceMap
    elided: int = 0
    """How many values were printed as elided placeholders."""
    notes: list[Any] = field(default_factory=list)
    """Pretty form: the ops printed generic although a syntax model knows them, and why
    (`pretty.PrettyNote`)."""
    distincts: DistinctIds = field(default_factory=DistinctIds)
    """What `distinct[N]` stands for in the text (also `map.distincts`)."""


def header_facts(module: Module) -> dict[str, object]:
    facts: dict[str, object] = {"version": module.version, "producer": module.producer}
    versions = {d.name: d.version.hex() for d in module.dialects if d.version is not None}
    if versions:
        facts["dialect_versions"] = versions
    if module.view is not None:
        facts["view"] = module.view
    if module.implicit_module:
        facts["implicit_module"] = True
    return facts


class _Printer:
    """Writes the view as a stream of chunks, knowing the offset of everything it writes."""

    def __init__(self, module: Module, elider: Elider | None = None, with_map: bool = True,
                 sink: Callable[[str], object] | None = None) -> None:
        self.module = module
        self.elider = elider
        self.out: list[str] = []
        self.done: list[str] = []
        """`out` joined every `_JOIN_EVERY` chunks: a large view's millions of small strings would cost
        more memory (about 50 bytes of object each) than the text they make."""
        self._sink: Callable[[str], object] = sink if sink is not None else self.done.append
        """Where each joined piece goes: `done`, or a caller's writer (the view is never held whole)."""
        self.distincts = DistinctIds()
        """The numbers of the distinct attributes printed so far (`syntax.distincts`)."""
        self.moves: Moves = []
        """Where renumbering distinct attributes moved the text (the map is made before it)."""
        self._flushed = 0
        """The length (as printed, before renumbering) of the text flushed so far."""
        self.pos = 0
        self.map = MapBuilder() if with_map else NoMapBuilder()
        self.names: dict[int, str] = {}
        self.block_names: dict[int, str] = {}
        self.block_order: dict[int, int] = {}
        self._op_names: dict[OpName, str] = {}
        self._props_text: dict[tuple[str, tuple[tuple[str, Attribute], ...]], str] = {}
        self._props_by_record: dict[int, tuple[Properties, str, str]] = {}
        self._signatures: dict[tuple[tuple[Type, ...], tuple[Type, ...]], str] = {}

    def flush(self, piece: str) -> None:
        """Pass on a piece of the view (everything before it passed on already), its distinct attributes
        numbered as MLIR numbers them: in the order the text shows them."""
        at = self._flushed
        self._flushed = at + len(piece)
        self._sink(self.distincts.renumber(piece, at, self.moves))

    def flush_out(self) -> None:
        if self.out:
            self.flush("".join(self.out))
            self.out.clear()

    def emit(self, text: str) -> None:
        self.out.append(text)
        self.pos += len(text)

    def line(self, text: str) -> None:
        self.out.append(text)
        self.out.append("\n")
        self.pos += len(text) + 1

    # -- naming (mlir-opt's generic form numbers values uniquely, regions in LIFO order) --------
    def number(self, root: Operation) -> None:
        next_value = 0
        next_arg = 0
        stack = list(root.regions)
        if root.results:
            self._name_results(root, next_value)
            next_value += 1
        while stack:
            region = stack.pop()
            for bi, block in enumerate(region.blocks):
                self.block_names[id(block)] = f"^bb{bi}"
                self.block_order[id(block)] = bi
                entry = bi == 0
                for arg in block.arguments:
                    if entry:
                        self.names[id(arg)] = f"%arg{next_arg}"
                        next_arg += 1
                    else:
                        self.names[id(arg)] = f"%{next_value}"
                        next_value += 1
                for op in block.operations:
                    if op.results:
                        self._name_results(op, next_value)
                        next_value += 1
            for block in region.blocks:
                for op in block.operations:
                    stack.extend(op.regions)

    def _name_results(self, op: Operation, n: int) -> None:
        if len(op.results) == 1:
            self.names[id(op.results[0])] = f"%{n}"
        else:
            for i, r in enumerate(op.results):
                self.names[id(r)] = f"%{n}#{i}"

    def value(self, v: Value) -> str:
        return self.names.get(id(v), "%<<UNKNOWN SSA VALUE>>")

    # -- ops -----------------------------------------------------------------------------------
    def op(self, op: Operation, indent: int) -> None:
        pad = "  " * indent
        m = self.map
        orders = [f"{r.index}={_order_text(r.use_order)}" for r in op.results
                  if r.use_order is not None]
        if orders:
            at = self.pos + len(pad)
            comment = USELIST_PREFIX + " ".join(orders)
            m.part(PART_USELIST, at, at + len(comment), None)
            self.line(pad + comment)
        start = self.pos + len(pad)
        m.open_op(start, op)
        parts: list[str] = [pad]
        n = start
        results = op.results
        if results:
            head = self._result_head(op, n)
            parts.append(head)
            n += len(head)
        name_text = self._op_names.get(op.op_name)
        if name_text is None:
            name_text = quote_bytes(op.name.encode("utf-8", "surrogateescape"))
            self._op_names[op.op_name] = name_text
        name_at = n
        parts.append(name_text)
        n += len(name_text) + 1
        parts.append("(")
        names = self.names
        if op.operands:
            uses: list[tuple[int, int, Value]] = []
            for i, v in enumerate(op.operands):
                if i:
                    parts.append(", ")
                    n += 2
                text = names.get(id(v), "%<<UNKNOWN SSA VALUE>>")
                uses.append((n, n + len(text), v))
                parts.append(text)
                n += len(text)
            m.value_uses(uses)
        parts.append(")")
        n += 1
        if op.successors:
            parts.append("[")
            n += 1
            for i, b in enumerate(op.successors):
                if i:
                    parts.append(", ")
                    n += 2
                text = self.block_names.get(id(b), "^<<INVALID BLOCK>>")
                m.occurrence(b, n, n + len(text), False, True)
                parts.append(text)
                n += len(text)
            parts.append("]")
            n += 1
        fallback_props: str | None = None
        ps = pe = -1  # where the properties dictionary is
        if op.properties is not None:
            p = op.properties
            props: str | None = None
            if p.kind == PROPS_DECODED:
                # Ops read with one payload share their record: look it up by identity first (no hashing
                # of its values); the entry keeps the record, so its id stays its own.
                dialect = op.op_name.dialect
                shared = self._props_by_record.get(id(p))
                if shared is not None and shared[0] is p and shared[1] == dialect:
                    props = shared[2]
                elif p.values:
                    key = tuple(p.values.items())
                    props = self._props_text.get((dialect, key))
                    if props is None:
                        if self.elider is not None:
                            props = _props_text(p.values, self.elider.for_properties(dialect))
                        else:
                            props = _dict_text(p.values)
                        self._props_text[(dialect, key)] = props
                    self._props_by_record[id(p)] = (p, dialect, props)
            elif p.kind == PROPS_ATTRIBUTE and p.attribute is not None:
                props = print_attribute(p.attribute)
            elif p.kind == PROPS_FALLBACK:
                # In the discardable dictionary, not in <{...}>: upstream refuses properties on ops it
                # knows to have none (a newer op layout), but accepts any discardable attribute.
                raw = p.raw or b""
                value = self.elider.properties(raw) if self.elider is not None else None
                if value is None:
                    value = '"0x' + raw.hex().upper() + '"'
                fallback_props = FALLBACK_PROPS_KEY + " = " + value
            if props is not None:
                ps, pe = n + 2, n + 2 + len(props)
                if _FALLBACK_MARK in props:
                    self._find_parts(props, n + 2)
                parts.append(" <")
                parts.append(props)
                parts.append(">")
                n += len(props) + 3
        if ps >= 0 or op.attributes is not None:
            sym = symbol_of(op)
            if sym is not None:
                m.symbol(sym)
        head = "".join(parts)
        self.emit(head)
        if op.regions:
            self.emit(" (")
            last = len(op.regions) - 1
            for ri, region in enumerate(op.regions):
                open_at = self.pos
                self.line("{")
                for bi, block in enumerate(region.blocks):
                    self.block(block, bi, indent + 1)
                self.emit(pad)
                m.region(open_at, self.pos + 1)
                self.emit("}, " if ri < last else "})")
        n = self.pos
        tail: list[str] = []
        ds = de = -1  # where the attribute dictionary is
        if fallback_props is not None:
            rest = ""
            if op.attributes is not None and op.attributes.entries:
                rest = ", " + self._attr_dict_text(op, op.attributes)[1:-1]
            text = "{" + fallback_props + rest + "}"
            ds, de = n + 1, n + 1 + len(text)
            m.part(PART_FALLBACK_PROPERTIES, n + 2, n + 2 + len(fallback_props), op.properties)
            self._find_parts(text, n + 1)
            tail.append(" " + text)
            n += 1 + len(text)
        elif op.attributes is not None and op.attributes.entries:
            text = self._attr_dict_text(op, op.attributes)
            ds, de = n + 1, n + 1 + len(text)
            if _FALLBACK_MARK in text:
                self._find_parts(text, n + 1)
            tail.append(" " + text)
            n += 1 + len(text)
        # Signatures and property dictionaries repeat across ops: print each distinct one once instead of
        # building (and uniquing) a function type or dictionary per op.
        sig_key = (tuple([v.type for v in op.operands]), tuple([r.type for r in results]))
        sig = self._signatures.get(sig_key)
        if sig is None:
            sig = self._signatures[sig_key] = print_type(FunctionType.get(*sig_key))
        ts = n + 3
        if _FALLBACK_MARK in sig:
            self._find_parts(sig, ts)
        n += 3 + len(sig)
        loc = "loc(" + print_location(op.location) + ")"
        if _FALLBACK_MARK in loc:
            self._find_parts(loc, n + 1)
        tail.append(" : ")
        tail.append(sig)
        tail.append(" ")
        tail.append(loc)
        self.line("".join(tail))
        end = n + 1 + len(loc)
        m.close_op(end, pieces=(ps, pe, ds, de, ts, ts + len(sig), n + 1, end),
                   name=(name_at, name_at + len(name_text)))

    def _result_head(self, op: Operation, at: int) -> str:
        """`%0 = ` / `%0:2 = ` before an op written at `at`, its results' names recorded in the map."""
        results = op.results
        first = self.names.get(id(results[0]), "%?").partition("#")[0]
        self.map.results(results, at, at + len(first))
        return f"{first}:{len(results)} = " if len(results) > 1 else f"{first} = "

    def _attr_dict_text(self, op: Operation, attrs: DictionaryAttr) -> str:
        """The op's attribute dictionary; with elision, an op mlir-opt registers reads its inherent
        attributes from here (files before version 5), so its entries follow `Elider.for_properties`."""
        if self.elider is None or not self.elider.upstream_safe or \
                op.op_name.dialect not in mlir_opt_dialects():
            return print_attribute(attrs)
        return _props_text({k.text: v for k, v in attrs.entries},
                           self.elider.for_properties(op.op_name.dialect))

    def _find_parts(self, text: str, at: int) -> None:
        """Fallback attributes and types inside `text`, written at offset `at`.

        The view's own output escapes every quote inside a string, so an unescaped
        `#mlirbc.fallback<"` can only start a fallback part."""
        if "mlirbc.fallback<" not in text:
            return
        for m in _FALLBACK_RE.finditer(text):
            dialect = decode_string(m.group(2)).decode("utf-8", "surrogateescape")
            data = bytes.fromhex(m.group(3))
            if m.group(1) == "#":
                self.map.part(PART_FALLBACK_ATTRIBUTE, at + m.start(), at + m.end(),
                              FallbackAttr.get(dialect, data))
            else:
                self.map.part(PART_FALLBACK_TYPE, at + m.start(), at + m.end(),
                              FallbackType.get(dialect, data))

    def block(self, block: Block, index: int, indent: int) -> None:
        # An empty entry block still needs its label, or the printed region would have no block.
        if index > 0 or block.arguments or not block.operations:
            self._block_label(block, index, indent, self.value)
        self._block_uselist(block, indent)
        self._block_ops(block.operations, indent)

    def _block_label(self, block: Block, index: int, indent: int, value: Callable[[Value], str]) -> None:
        """`^bb1(%a: i32 loc(...)):` with its predecessors comment; `value` names the arguments."""
        pad = "  " * (indent - 1)
        m = self.map
        n = self.pos + len(pad)
        name = self.block_names.get(id(block), f"^bb{index}")
        m.occurrence(block, n, n + len(name), True, True)
        parts = [pad, name]
        n += len(name)
        if block.arguments:
            parts.append("(")
            n += 1
            for i, a in enumerate(block.arguments):
                if i:
                    parts.append(", ")
                    n += 2
                text = value(a)
                m.occurrence(a, n, n + len(text), True, False)
                # MLIR never aliases a block argument's location itself (what it holds, it may).
                arg = f"{text}: {print_type(a.type)} loc({print_location_inline(a.location)})"
                self._find_parts(arg, n)
                parts.append(arg)
                n += len(arg)
            parts.append(")")
        parts.append(":")
        if index > 0:
            parts.append(self._preds(block))
        self.line("".join(parts))

    def _block_uselist(self, block: Block, indent: int) -> None:
        """The use-list orders of the block's arguments, as a comment line (none when all are in order)."""
        orders = [f"{a.index}={_order_text(a.use_order)}" for a in block.arguments
                  if a.use_order is not None]
        if orders:
            comment = BLOCK_USELIST_PREFIX + " ".join(orders)
            at = self.pos + 2 * indent
            self.map.part(PART_USELIST, at, at + len(comment), None)
            self.line("  " * indent + comment)

    def _block_ops(self, ops: Sequence[Operation], indent: int) -> None:
        out = self.out
        for op in ops:
            self.op(op, indent)
            if len(out) > _JOIN_EVERY:
                self.flush("".join(out))
                out.clear()

    def _preds(self, block: Block) -> str:
        region = block.parent
        preds: list[Block] = []
        if region is not None:
            for b in region.blocks:
                for op in b.operations:
                    for s in op.successors:
                        if s is block:
                            preds.append(b)
        if not preds:
            return "  // no predecessors"
        if len(preds) == 1:  # as MLIR's getSinglePredecessor: two edges from one block are two preds
            return "  // pred: " + self.block_names.get(id(preds[0]), "?")
        preds.sort(key=lambda b: self.block_order.get(id(b), 0))
        return f"  // {len(preds)} preds: " + ", ".join(self.block_names.get(id(p), "?")
                                                      for p in preds)

    # -- aliases -------------------------------------------------------------------------------
    def collect_aliases(self, root: Operation, rules: AliasRules) -> AliasScope:
        """The aliases of the view of `root`, found by MLIR's first print pass in this view's form."""
        return collect_generic(root, rules)

    def root_with_aliases(self, root: Operation, rules: AliasRules) -> None:
        """The root op between its alias definitions: those it needs first, then those that may
        follow (locations only ops use), as MLIR prints a module without local scope."""
        scope = self.collect_aliases(root, rules)
        self.map.aliases = scope.by_name()
        with alias_scope(scope):
            for deferred in (False, True):
                if deferred:
                    self.op(root, 0)
                lines = scope.definition_lines(deferred)
                if not lines:
                    continue
                text = "\n".join(lines) + "\n"
                if _FALLBACK_MARK in text:
                    at = self.pos
                    for line in lines:
                        self._find_parts(line, at)
                        at += len(line) + 1
                self.emit(text)
                self.flush_out()
        scope.release()

    def close(self) -> None:
        """Drop what only printing needed (called once the view is printed)."""

    def distinct_lines(self) -> None:
        """The idents of the distinct attributes the text numbered (after everything that names them is
        passed on): what makes the text read back to the same attributes."""
        self.flush_out()
        idents = self.distincts.idents
        for i in range(0, len(idents), DISTINCTS_PER_LINE):
            line = DISTINCT_PREFIX + " ".join(map(str, idents[i:i + DISTINCTS_PER_LINE]))
            self.map.part(PART_HEADER, self.pos, self.pos + len(line), None)
            self.line(line)

    def body(self, root: Operation, aliases: AliasRules | None = None) -> None:
        """The module's op (after the header, before the resources), between its alias definitions
        when `aliases` gives the dialects' alias rules."""
        self.number(root)
        if aliases is None:
            self.op(root, 0)
        else:
            self.root_with_aliases(root, aliases)

    # -- resources -----------------------------------------------------------------------------

    def resources(self, groups: list[ResourceGroup]) -> None:
        dialect = [g for g in groups if g.is_dialect and _printable(g)]
        external = [g for g in groups if not g.is_dialect and _printable(g)]
        if not dialect and not external:
            return
        self.line("")
        start = self.pos
        self.line("{-#")
        sections = []
        if dialect:
            sections.append(("dialect_resources", dialect))
        if external:
            sections.append(("external_resources", external))
        for si, (title, gs) in enumerate(sections):
            self.line(f"  {title}: {{")
            for gi, g in enumerate(gs):
                self.line(f"    {_key(g.name)}: {{")
                entries = [e for e in g.entries if e.kind != RESOURCE_BLOB or e.blob is not None]
                # An elided blob is a comment line standing where its entry was; commas go between
                # the entries that remain.
                elided = [self.elider.blob(e) if self.elider is not None else None for e in entries]
                last = max((i for i, c in enumerate(elided) if c is None), default=-1)
                for ei, e in enumerate(entries):
                    comment = elided[ei]
                    if comment is not None:
                        self.line("      " + comment)
                        continue
                    if e.kind == RESOURCE_BOOL:
                        value = "true" if e.flag else "false"
                    elif e.kind == RESOURCE_BLOB:
                        assert e.blob is not None
                        value = '"0x' + e.alignment.to_bytes(4, "little").hex().upper() + \
                                e.blob.hex().upper() + '"'
                    else:
                        value = quote_bytes(e.string)
                    comma = "," if ei < last else ""
                    self.line(f"      {_key(e.key)}: {value}{comma}")
                self.line("    }" + ("," if gi + 1 < len(gs) else ""))
            self.line("  }" + ("," if si + 1 < len(sections) else ""))
        self.map.part(PART_RESOURCES, start, self.pos + 3, None)
        self.line("#-}")


def _printable(g: ResourceGroup) -> bool:
    return any(e.kind != RESOURCE_BLOB or e.blob is not None for e in g.entries)


_BARE_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_$.]*$")
"""A resource key or group name printed bare: one bare identifier (no `-`, which MLIR's lexer splits off);
upstream quotes any other, and refuses it bare."""


def _key(k: str) -> str:
    return k if _BARE_KEY.match(k) else quote_bytes(k.encode("utf-8", "surrogateescape"))


def _order_text(order: tuple[bool, tuple[int, ...]] | None) -> str:
    assert order is not None
    pair, entries = order
    return ("pairs" if pair else "") + "[" + ",".join(str(e) for e in entries) + "]"


def _props_text(values: dict[str, Attribute], scope: Callable[[str], Elider | None]) -> str:
    """A decoded properties dictionary printed entry by entry, each under the elision its slot allows
    (see `Elider.for_properties`); the same text as `_dict_text` otherwise."""
    parts = []
    for name, value in values.items():
        with elision_scope(scope(name)):
            key = keyword_or_string(name.encode("utf-8", "surrogateescape"))
            parts.append(key if isinstance(value, UnitAttr) else f"{key} = {print_attribute(value)}")
    return "{" + ", ".join(parts) + "}"


def _dict_text(values: dict[str, Attribute]) -> str:
    d = DictionaryAttr.get(tuple((StringAttr.get(k), v) for k, v in values.items()))
    return print_attribute(d)


FORM_GENERIC = "generic"
FORM_PRETTY = "pretty"
FORM_AUTO = "auto"
FORMS = (FORM_GENERIC, FORM_PRETTY)
AUTO_FORM = FORM_PRETTY
"""What `auto` means for a file without a dialect-level view of its own: custom assembly forms, as
upstream's tools print (`generic` is asked for by name)."""


def resolve_form(form: str, module: Module) -> str:
    """The form a view of `module` is printed in: `generic`, `pretty`, or for `auto` the default (files
    of StableHLO's portable format shown as stored, whose VHLO ops have no custom forms, stay generic:
    their auto view is the StableHLO view, `view.forms`)."""
    if form in FORMS:
        return form
    if form != FORM_AUTO:
        raise ValueError(f"unknown view form {form!r} (expected auto, pretty or generic)")
    if module.producer.startswith("StableHLO_"):
        return FORM_GENERIC
    return AUTO_FORM


def print_module(module: Module, header: bool = True, elide_larger_than: int = 0,
                 upstream_safe: bool = True, with_map: bool = True, form: str = FORM_GENERIC,
                 registry: Registry | None = None, aliases: AliasRules | None = None) -> PrintResult:
    """Render `module` as the text view, with its source map.  A module without a root prints only its
    header.

    Values whose payload is larger than `elide_larger_than` bytes (0: none) print as placeholders
    (`syntax.elision`); `PrintResult.elided` counts them.  `upstream_safe` keeps the properties of ops
    mlir-opt registers in full except their constant slots (`Elider.for_properties`).  Without
    `with_map` the map is empty (the same text, for a caller that only writes it out).  `form` is
    `generic` (every op in MLIR's generic form) or `pretty` (custom assembly forms, `view.pretty`, with
    the syntax models of `registry`).  With `aliases` (the dialects' alias rules,
    `Registry.alias_rules`; `{}`: the builtin ones only) the view prints aliases as MLIR does without
    local scope."""
    with building():
        return _print_module(module, header, elide_larger_than, upstream_safe, with_map, form, registry,
                             aliases)


def stream_module(module: Module, write: Callable[[str], object], header: bool = True,
                  elide_larger_than: int = 0, upstream_safe: bool = True, form: str = FORM_GENERIC,
                  registry: Registry | None = None, aliases: AliasRules | None = None) -> int:
    """Print `module`'s view to `write` piece by piece (no map): the text `print_module` gives, without
    ever holding all of it (a command that writes a large view out).  Returns how many values were
    elided."""
    with building():
        p = _print(module, header, elide_larger_than, upstream_safe, False, write, form, registry, aliases)
    p.flush_out()
    return p.elider.count if p.elider is not None else 0


def _print_module(module: Module, header: bool, elide_larger_than: int, upstream_safe: bool,
                  with_map: bool, form: str = FORM_GENERIC, registry: Registry | None = None,
                  aliases: AliasRules | None = None) -> PrintResult:
    p = _print(module, header, elide_larger_than, upstream_safe, with_map, None, form, registry, aliases)
    p.flush_out()
    text = "".join(p.done)
    distincts = p.distincts
    if distincts.idents and module.root is not None:
        root = module.root
        distincts = DistinctIds(distincts.idents, lookup=lambda: distinct_attributes(root))
    source_map = p.map.finish(text, p.moves)
    source_map.distincts = distincts
    return PrintResult(text, source_map, p.elider.count if p.elider is not None else 0,
                       list(getattr(p, "notes", [])), distincts)


def _print(module: Module, header: bool, elide_larger_than: int, upstream_safe: bool, with_map: bool,
           sink: Callable[[str], object] | None, form: str = FORM_GENERIC,
           registry: Registry | None = None, aliases: AliasRules | None = None) -> _Printer:
    """The printer after printing `module`; its last chunks are still in `out`."""
    elider = Elider.for_module(module, elide_larger_than, upstream_safe, mlir_opt_dialects()) \
        if elide_larger_than > 0 \
        else None
    if form == FORM_PRETTY:
        from .pretty import pretty_printer

        p: _Printer = pretty_printer(module, registry, elider, with_map, sink)
    elif form == FORM_GENERIC:
        p = _Printer(module, elider, with_map, sink)
    else:
        raise ValueError(f"unknown view form {form!r} (expected one of {', '.join(FORMS)})")
    if header:
        line = HEADER_PREFIX + json.dumps(header_facts(module), sort_keys=True)
        p.map.part(PART_HEADER, 0, len(line), None)
        p.line(line)
        if module.error is not None:  # a partial view says where decoding stopped, and why
            p.line(PARTIAL_PREFIX + " ".join(str(module.error).split()))
    with elision_scope(elider):
        if module.root is not None:
            p.body(module.root, aliases)
        if header:
            p.distinct_lines()
        p.resources(module.resources)
        if aliases is not None and module.root is not None:
            p.line("")  # mlir-opt ends a module printed with aliases with an empty line
    p.close()
    return p


def symbol_of(op: Operation) -> str | None:
    """The op's `sym_name`, from its decoded properties or its attributes."""
    p = op.properties
    value: Attribute | None = None
    if p is not None and p.kind == PROPS_DECODED:
        value = p.values.get("sym_name")
    elif p is not None and p.kind == PROPS_ATTRIBUTE and isinstance(p.attribute, DictionaryAttr):
        value = p.attribute.lookup("sym_name")
    if value is None and op.attributes is not None:
        value = op.attributes.lookup("sym_name")
    return value.text if isinstance(value, StringAttr) else None


def _numbered(root: Operation) -> _Printer:
    p = _Printer(Module(root), None, with_map=False)
    p.number(root)
    return p


def value_name(v: Value, root: Operation) -> str:
    """The name the view gives `v` (`%3`, `%arg0`, `%5#1`) in the view of the IR under `root`."""
    return _numbered(root).value(v)


def outermost(op: Operation) -> Operation:
    """The outermost op above `op` (the root its view names values from)."""
    while op.parent is not None and op.parent.parent is not None and op.parent.parent.parent is not None:
        op = op.parent.parent.parent
    return op
