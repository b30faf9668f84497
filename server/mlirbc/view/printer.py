"""Prints a module as the MLIR generic text view and returns a map of what sits where.

The text is what `mlir-opt --mlir-print-op-generic --mlir-print-debuginfo --mlir-print-local-scope`
prints (same value and block names, predecessor comments, inline locations), preceded by `// mlirbc:`
header lines and followed by the resource trailer.  Fallback parts use the syntax in docs/text-view.md.
The span map (`OpSpan`, `PartSpan`) is what the language server annotates and hovers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..ir.attributes import Attribute, DictionaryAttr, StringAttr, UnitAttr
from ..ir.module import RESOURCE_BLOB, RESOURCE_BOOL, Module, ResourceGroup
from ..ir.operation import (
    PROPS_ATTRIBUTE,
    PROPS_DECODED,
    PROPS_FALLBACK,
    Block,
    Operation,
    OpName,
    Value,
)
from ..ir.types import FunctionType, Type
from ..syntax.attr_printer import (
    elision_scope,
    keyword_or_string,
    print_attribute,
    print_location,
    print_type,
    quote_bytes,
)
from ..syntax.elision import Elider, mlir_opt_dialects

HEADER_PREFIX = "// mlirbc: "
USELIST_PREFIX = "// mlirbc: uselist "
BLOCK_USELIST_PREFIX = "// mlirbc: block-uselist "
FALLBACK_PROPS_KEY = "mlirbc.properties"

_FALLBACK_RE = re.compile(r'[#!]mlirbc\.fallback<"(?:[^"\\]|\\.)*", "0x[0-9A-Fa-f]*">')


@dataclass
class PartSpan:
    """A fallback part inside an op's text: kind is 'properties', 'attribute' or 'type'."""

    kind: str
    line: int
    start: int
    end: int
    text: str


@dataclass
class OpSpan:
    """Where one op sits in the text (0-based lines; columns in characters; end exclusive)."""

    op: Operation
    start_line: int
    start_col: int
    end_line: int
    end_col: int
    name_line: int
    name_start: int
    name_end: int
    parts: list[PartSpan] = field(default_factory=list)


@dataclass
class PrintResult:
    text: str
    ops: list[OpSpan]
    names: dict[int, str]
    """id(value) -> printed name (`%0`, `%arg1`, `%3#1`)."""
    block_names: dict[int, str]
    header_lines: int
    elided: int = 0
    """How many values were printed as elided placeholders."""


def header_facts(module: Module) -> dict[str, object]:
    facts: dict[str, object] = {"version": module.version, "producer": module.producer}
    versions = {d.name: d.version.hex() for d in module.dialects if d.version is not None}
    if versions:
        facts["dialect_versions"] = versions
    return facts


class _Printer:
    def __init__(self, module: Module, elider: Elider | None = None) -> None:
        self.module = module
        self.elider = elider
        self.lines: list[str] = []
        self.ops: list[OpSpan] = []
        self.names: dict[int, str] = {}
        self.block_names: dict[int, str] = {}
        self.block_order: dict[int, int] = {}
        self._op_names: dict[OpName, str] = {}
        self._props_text: dict[tuple[str, tuple[tuple[str, Attribute], ...]], str] = {}
        self._signatures: dict[tuple[tuple[Type, ...], tuple[Type, ...]], str] = {}

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
        orders = [f"{r.index}={_order_text(r.use_order)}" for r in op.results
                  if r.use_order is not None]
        if orders:
            self.lines.append(pad + USELIST_PREFIX + " ".join(orders))
        start_line = len(self.lines)
        head = pad
        if op.results:
            first = self.names.get(id(op.results[0]), "%?").split("#")[0]
            head += f"{first}:{len(op.results)} = " if len(op.results) > 1 else f"{first} = "
        name_start = len(head)
        name_text = self._op_names.get(op.op_name)
        if name_text is None:
            name_text = quote_bytes(op.name.encode("utf-8", "surrogateescape"))
            self._op_names[op.op_name] = name_text
        head += name_text
        name_end = len(head)
        head += "(" + ", ".join(self.value(v) for v in op.operands) + ")"
        if op.successors:
            head += "[" + ", ".join(self.block_names.get(id(b), "^<<INVALID BLOCK>>")
                                    for b in op.successors) + "]"
        fallback_props: str | None = None
        if op.properties is not None:
            p = op.properties
            if p.kind == PROPS_DECODED:
                if p.values:
                    key = tuple(p.values.items())
                    props = self._props_text.get((op.op_name.dialect, key))
                    if props is None:
                        if self.elider is not None:
                            props = _props_text(p.values, self.elider.for_properties(op.op_name.dialect))
                        else:
                            props = _dict_text(p.values)
                        self._props_text[(op.op_name.dialect, key)] = props
                    head += " <" + props + ">"
            elif p.kind == PROPS_ATTRIBUTE and p.attribute is not None:
                head += " <" + print_attribute(p.attribute) + ">"
            elif p.kind == PROPS_FALLBACK:
                # In the discardable dictionary, not in <{...}>: upstream refuses properties on ops it
                # knows to have none (a newer op layout), but accepts any discardable attribute.
                raw = p.raw or b""
                value = self.elider.properties(raw) if self.elider is not None else None
                if value is None:
                    value = '"0x' + raw.hex().upper() + '"'
                fallback_props = FALLBACK_PROPS_KEY + " = " + value
        span = OpSpan(op, start_line, len(pad), start_line, 0, start_line, name_start, name_end)
        self.ops.append(span)
        tail = ""
        if fallback_props is not None:
            rest = ""
            if op.attributes is not None and op.attributes.entries:
                rest = ", " + self._attr_dict_text(op, op.attributes)[1:-1]
            tail += " {" + fallback_props + rest + "}"
        elif op.attributes is not None and op.attributes.entries:
            tail += " " + self._attr_dict_text(op, op.attributes)
        # Signatures and property dictionaries repeat across ops: print each distinct one once instead of
        # building (and uniquing) a function type or dictionary per op.
        sig_key = (tuple(v.type for v in op.operands), tuple(r.type for r in op.results))
        sig = self._signatures.get(sig_key)
        if sig is None:
            sig = self._signatures[sig_key] = print_type(FunctionType.get(*sig_key))
        tail += " : " + sig + " loc(" + print_location(op.location) + ")"
        if op.regions:
            self.lines.append(head + " (")
            self._find_parts(span, start_line)
            for ri, region in enumerate(op.regions):
                self.lines[-1] += "{"
                for bi, block in enumerate(region.blocks):
                    self.block(block, bi, indent + 1)
                close = pad + "}"
                if ri + 1 < len(op.regions):
                    self.lines.append(close + ", ")
                else:
                    self.lines.append(close + ")" + tail)
        else:
            self.lines.append(head + tail)
        span.end_line = len(self.lines) - 1
        span.end_col = len(self.lines[-1])
        if fallback_props is not None:
            at = self.lines[-1].rfind(" {" + fallback_props) + 2
            span.parts.append(PartSpan("properties", span.end_line, at, at + len(fallback_props),
                                       fallback_props))
        self._find_parts(span, span.end_line)

    def _attr_dict_text(self, op: Operation, attrs: DictionaryAttr) -> str:
        """The op's attribute dictionary; with elision, an op mlir-opt registers reads its inherent
        attributes from here (files before version 5), so its entries follow `Elider.for_properties`."""
        if self.elider is None or not self.elider.upstream_safe or \
                op.op_name.dialect not in mlir_opt_dialects():
            return print_attribute(attrs)
        return _props_text({k.text: v for k, v in attrs.entries},
                           self.elider.for_properties(op.op_name.dialect))

    def _find_parts(self, span: OpSpan, line_no: int) -> None:
        line = self.lines[line_no]
        if "mlirbc.fallback<" not in line:
            return
        for m in _FALLBACK_RE.finditer(line):
            kind = "attribute" if m.group(0)[0] == "#" else "type"
            span.parts.append(PartSpan(kind, line_no, m.start(), m.end(), m.group(0)))

    def block(self, block: Block, index: int, indent: int) -> None:
        pad = "  " * (indent - 1)
        # An empty entry block still needs its label, or the printed region would have no block.
        if index > 0 or block.arguments or not block.operations:
            label = pad + self.block_names.get(id(block), f"^bb{index}")
            if block.arguments:
                label += "(" + ", ".join(
                    f"{self.value(a)}: {print_type(a.type)} loc({print_location(a.location)})"
                    for a in block.arguments) + ")"
            label += ":"
            if index > 0:
                label += self._preds(block)
            self.lines.append(label)
            orders = [f"{a.index}={_order_text(a.use_order)}" for a in block.arguments
                      if a.use_order is not None]
            if orders:
                self.lines.append("  " * indent + BLOCK_USELIST_PREFIX + " ".join(orders))
        for op in block.operations:
            self.op(op, indent)

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
        if all(p is preds[0] for p in preds):
            return "  // pred: " + self.block_names.get(id(preds[0]), "?")
        preds.sort(key=lambda b: self.block_order.get(id(b), 0))
        return f"  // {len(preds)} preds: " + ", ".join(self.block_names.get(id(p), "?")
                                                      for p in preds)

    # -- resources -----------------------------------------------------------------------------
    def resources(self, groups: list[ResourceGroup]) -> None:
        dialect = [g for g in groups if g.is_dialect and _printable(g)]
        external = [g for g in groups if not g.is_dialect and _printable(g)]
        if not dialect and not external:
            return
        self.lines.append("")
        self.lines.append("{-#")
        sections = []
        if dialect:
            sections.append(("dialect_resources", dialect))
        if external:
            sections.append(("external_resources", external))
        for si, (title, gs) in enumerate(sections):
            self.lines.append(f"  {title}: {{")
            for gi, g in enumerate(gs):
                self.lines.append(f"    {_key(g.name)}: {{")
                entries = [e for e in g.entries if e.kind != RESOURCE_BLOB or e.blob is not None]
                # An elided blob is a comment line standing where its entry was; commas go between
                # the entries that remain.
                elided = [self.elider.blob(e) if self.elider is not None else None for e in entries]
                last = max((i for i, c in enumerate(elided) if c is None), default=-1)
                for ei, e in enumerate(entries):
                    comment = elided[ei]
                    if comment is not None:
                        self.lines.append("      " + comment)
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
                    self.lines.append(f"      {_key(e.key)}: {value}{comma}")
                self.lines.append("    }" + ("," if gi + 1 < len(gs) else ""))
            self.lines.append("  }" + ("," if si + 1 < len(sections) else ""))
        self.lines.append("#-}")


def _printable(g: ResourceGroup) -> bool:
    return any(e.kind != RESOURCE_BLOB or e.blob is not None for e in g.entries)


_BARE_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_$.-]*$")


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


def print_module(module: Module, header: bool = True, elide_larger_than: int = 0,
                 upstream_safe: bool = True) -> PrintResult:
    """Render `module` as the text view.  A module without a root prints only its header.

    Values whose payload is larger than `elide_larger_than` bytes (0: none) print as placeholders
    (`syntax.elision`); `PrintResult.elided` counts them.  `upstream_safe` keeps the properties of ops
    mlir-opt registers in full except their constant slots (`Elider.for_properties`)."""
    elider = Elider.for_module(module, elide_larger_than, upstream_safe) if elide_larger_than > 0 \
        else None
    p = _Printer(module, elider)
    if header:
        p.lines.append(HEADER_PREFIX + json.dumps(header_facts(module), sort_keys=True))
    header_lines = len(p.lines)
    with elision_scope(elider):
        if module.root is not None:
            p.number(module.root)
            p.op(module.root, 0)
        p.resources(module.resources)
    return PrintResult("\n".join(p.lines) + "\n", p.ops, p.names, p.block_names, header_lines,
                       elider.count if elider is not None else 0)
