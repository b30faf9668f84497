"""Hover: op names (model docs, decoded properties, types), fallback ops (reason, payload bytes and what
they would reference), SSA values and block arguments (type, definition), symbols, opaque attributes and
types, aliases (what they stand for); everything found through the view's source map."""

from __future__ import annotations

from lsprotocol import types as lsp

from ...bytecode.template import payload_words, template_of
from ...ir.attributes import Attribute, FallbackAttr
from ...ir.module import Module
from ...ir.operation import (
    PROPS_ATTRIBUTE,
    PROPS_DECODED,
    PROPS_FALLBACK,
    Block,
    BlockArgument,
    Operation,
    OpResult,
    Value,
)
from ...ir.types import FallbackType, Type
from ...models.asm.api import describe
from ...models.registry import Registry
from ...syntax.attr_printer import print_attribute, print_location, print_type
from ...view.edits import ViewState
from ...view.forms import Shown
from ...view.sourcemap import PART_FALLBACK_ATTRIBUTE, PART_FALLBACK_TYPE, SourceMap
from ..analysis import state_of
from ..diagnostics import table_entry
from ..documents import View
from ..positions import PositionCodec
from ..server import MlirbcServer
from .elided import elided_hover
from .lexnames import lex_name_at

MAX_HEX = 256
"""Payload bytes shown in a hover; longer payloads are cut (the view has them all)."""
MAX_VARINTS = 24


def _hex(data: bytes | memoryview) -> str:
    h = data[:MAX_HEX].hex(" ").upper()
    return h + (f" … (+{len(data) - MAX_HEX} bytes)" if len(data) > MAX_HEX else "")


def safe_attr(a: Attribute | Type | None) -> str:
    """Text of an attribute (or type) for hover; never raises."""
    try:
        if isinstance(a, Type):
            return print_type(a)
        return print_attribute(a) if a is not None else ""
    except Exception:
        return repr(a)


def safe_type(t: Type) -> str:
    try:
        return print_type(t)
    except Exception:
        return repr(t)


def varint_refs(data: bytes | memoryview, module: Module | None, limit: int = MAX_VARINTS) -> list[str]:
    """The payload read as references to the file's attribute and type entries (a guess, said so in
    the hover), one line each."""
    words, more = payload_words(data, template_of(module) if module is not None else None, limit)
    out: list[str] = []
    for w in words:
        if w.value is None:
            out.append(f"byte {w.offset}: truncated varint")
            continue
        names = []
        if w.attr is not None:
            names.append(f"attr #{w.value} = `{_short(safe_attr(w.attr))}`")
        if w.type is not None:
            names.append(f"type #{w.value} = `{_short(safe_attr(w.type))}`")
        out.append(f"byte {w.offset}: {w.value}" + (" → " + "; ".join(names) if names else ""))
    if more:
        out.append("…")
    return out


def _short(s: str, n: int = 80) -> str:
    s = s.replace("`", "'")
    return s if len(s) <= n else s[:n - 1] + "…"


def _op_hover(server: MlirbcServer, op: Operation, module: Module | None,
              shown_as: Shown | None = None) -> str:
    registry = server.registry()
    if registry.model_set is None and module is not None and module.model_set is not None:
        registry = registry.with_set(module.model_set, module.model_set_note)
    lookup = registry.op(op.name)
    parts = [f"### `{op.name}`"]
    if lookup.model is not None:
        try:
            info = lookup.model.info()
        except Exception:
            info = None
        if info is not None:
            if info.summary:
                parts.append(f"**{info.summary}**")
            if info.description:
                desc = info.description.strip()
                parts.append(desc if len(desc) < 3000 else desc[:3000] + " …")
        parts.append(f"Model: {lookup.origin}{_set_text(registry)}")
    else:
        parts.append(f"No model: {lookup.reason}{_set_text(registry)}")
    syntax = registry.op_syntax(op.name)
    if syntax.model is not None:
        parts.append(f"Syntax: {describe(syntax.model)} [{syntax.origin}]")
    parts.extend(line for note in registry.op_notes(op, op.name) for line in note.lines)
    if shown_as is not None and shown_as.view is not None and shown_as.conversion is not None:
        # A dialect-level view's op: what it is stored as, in the file's dialect and version.
        try:
            parts.extend(shown_as.view.describe(shown_as.conversion, op))
        except Exception as exc:  # a view model's bug must not take the hover down
            parts.append(f"(the {shown_as.view.name} view cannot describe this op: {exc})")
        parts.append(f"View: {shown_as.view.name} [{shown_as.origin}]")
    parts.append(_props_section(op, module))
    if op.operands:
        parts.append("Operands: " + ", ".join(f"`{safe_type(v.type)}`" for v in op.operands))
    if op.results:
        parts.append("Results: " + ", ".join(f"`{safe_type(v.type)}`" for v in op.results))
    if op.offset >= 0:
        parts.append(f"Read at file offset {op.offset}")
    return "\n\n".join(p for p in parts if p)


def _set_text(registry: Registry) -> str:
    if registry.model_set is None:
        return ""
    note = f" ({registry.model_set_note})" if registry.model_set_note else ""
    return f" · model set {registry.model_set}{note}"


def _props_section(op: Operation, module: Module | None) -> str:
    p = op.properties
    if p is None:
        return ""
    if p.kind == PROPS_DECODED:
        lines = [f"Properties decoded by **{p.model or 'a model'}**:"]
        for k, v in p.values.items():
            lines.append(f"- `{k}` = `{_short(safe_attr(v), 200)}`")
        return "\n".join(lines)
    if p.kind == PROPS_ATTRIBUTE:
        return "Properties (unregistered op's attribute): " + \
            f"`{_short(safe_attr(p.attribute), 200)}`"
    if p.kind == PROPS_FALLBACK:
        raw = p.raw or b""
        dialect = op.op_name.dialect
        dv = module.dialect_version(dialect) if module is not None else None
        lines = [
            "**Fallback op**: properties kept verbatim.",
            f"Why: {p.reason or 'no model decodes them'}",
            f"Dialect `{dialect}` version: " + (f"`{dv.hex().upper()}`" if dv else "none recorded"),
            f"Payload: {len(raw)} bytes" + (f" at file offset {p.offset} (0x{p.offset:x})"
                                            if p.offset >= 0 else ""),
            f"```\n{_hex(raw)}\n```",
        ]
        refs = varint_refs(raw, module)
        if refs:
            lines.append("Read as varints (a guess: most encodings reference attributes and "
                         "types by index):\n" + "\n".join(f"- {r}" for r in refs))
        return "\n\n".join(lines)
    return ""


def _opaque_hover(value: FallbackAttr | FallbackType, module: Module | None) -> str:
    kind = "attribute" if isinstance(value, FallbackAttr) else "type"
    te = table_entry(module, value)
    lines = [f"### Opaque {kind} of dialect `{value.dialect_name}`",
             f"{len(value.data)} bytes kept verbatim" + (
                 f", at file offset {te.offset} (0x{te.offset:x})" if te is not None else "")]
    if te is not None and te.fallback_reason:
        lines.append(f"Why: {te.fallback_reason}")
    lines.append(f"```\n{_hex(value.data)}\n```")
    refs = varint_refs(value.data, module)
    if refs:
        lines.append("Read as varints (a guess):\n" + "\n".join(f"- {r}" for r in refs))
    return "\n\n".join(lines)


def _line(codec: PositionCodec, offset: int) -> int:
    return codec.lines.line_of(offset) + 1


def _value_hover(smap: SourceMap, target: Value | Block | None, name: str, is_block: bool,
                 codec: PositionCodec) -> str:
    if is_block:
        lines = [f"### Block `{name}`"]
        if isinstance(target, Block):
            lines.append(f"{len(target.arguments)} arguments: " + ", ".join(
                f"`{safe_type(a.type)}`" for a in target.arguments))
    else:
        lines = [f"### `{name}`"]
        if isinstance(target, Value):
            lines.append(f"Type: `{safe_type(target.type)}`")
            if isinstance(target, BlockArgument):
                lines.append(f"Block argument #{target.index}; location "
                             f"`{_short(_loc(target.location), 200)}`")
            elif isinstance(target, OpResult):
                lines.append(f"Result #{target.index} of `{target.owner.name}`")
    d = smap.definition(target) if target is not None else None
    if d is not None:
        lines.append(f"Defined at line {_line(codec, d.start)}")
    elif target is None:
        lines.append("**Not defined** in any enclosing region")
    return "\n\n".join(lines)


def hover_at(server: MlirbcServer, view: View, state: ViewState,
             offset: int) -> tuple[str, int, int] | None:
    smap = state.map
    decoded = server.decoded_for(view)
    file_module = decoded.module if decoded is not None else None
    shown_as = decoded.shown if decoded is not None else None
    codec = view.codec
    op = smap.op_name_at(offset)
    span = smap.op_name_span(op) if op is not None else None
    if op is not None and span is not None:
        return _op_hover(server, op, file_module, shown_as), span.start, span.end
    # (An op the map shows that the IR no longer holds where it was, an edit being re-read meanwhile, has
    # no record to answer from: the other kinds of hover below still do.)
    part = smap.part_at(offset)
    if part is not None and part.kind in (PART_FALLBACK_ATTRIBUTE, PART_FALLBACK_TYPE) and \
            isinstance(part.obj, FallbackAttr | FallbackType):
        return _opaque_hover(part.obj, decoded.file_module if decoded is not None else None), \
            part.start, part.end
    occ = smap.occurrence_at(offset)
    lexed = lex_name_at(view, state, offset)
    if occ is not None and (occ.target is not None or lexed is None):
        name = state.text[occ.start:occ.end]
        return _value_hover(smap, occ.target, name, occ.is_block, codec), occ.start, occ.end
    ref = smap.symbol_at(offset)
    if ref is not None:
        text = "::".join("@" + n for n in ref.names)
        target = smap.resolve_symbol(ref)
        span = smap.op_span(target) if target is not None else None
        if target is None or span is None:
            msg = f"### Symbol `{text}`\n\nNot found in any enclosing symbol table"
        else:
            msg = f"### Symbol `{text}`\n\nDefined by `{target.name}` at line {_line(codec, span.start)}"
        return msg, ref.spans[0].start, ref.spans[-1].end
    alias = smap.alias_at(offset)
    if alias is not None:
        name, span = alias
        value = (smap.aliases[0] if name[0] == "#" else smap.aliases[1])[name[1:]]
        lines = [f"### Alias `{name}`", f"`{_short(smap.distincts.numbered(safe_attr(value)), 300)}`"]
        where = smap.alias_definition(name)
        if where is not None:
            lines.append(f"Defined at line {_line(codec, where.start)}")
        return "\n\n".join(lines), span.start, span.end
    hit = smap.attribute_at(offset)
    if hit is not None:
        what = type(hit.value).__name__
        text = _short(smap.distincts.numbered(safe_attr(hit.value)), 300)
        lines = [f"### {what}", f"`{text}`"]
        typ = getattr(hit.value, "type", None)
        if isinstance(typ, Type) and not isinstance(hit.value, Type):
            lines.append(f"Type: `{safe_type(typ)}`")
        return "\n\n".join(lines), hit.start, hit.end
    if lexed is not None:
        index, lexname = lexed
        lexdef = index.definition(lexname)
        lines = [f"### `{lexname.name}`", "In text that does not parse."]
        if lexdef is not None:
            lines.append(f"Defined at line {_line(codec, lexdef.start)}")
        else:
            lines.append("**Not defined** in any enclosing region")
        return "\n\n".join(lines), lexname.start, lexname.end
    return None


def _loc(a: Attribute) -> str:
    try:
        return print_location(a)
    except Exception:
        return repr(a)


def register(server: MlirbcServer) -> None:
    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    async def hover(params: lsp.HoverParams) -> lsp.Hover | None:
        view = server.view(params.text_document.uri)
        if view is None:
            return None
        elided = await elided_hover(server, view, params.position)
        if elided is not None:
            return elided
        state = await state_of(server, view)
        if state is None:
            return None
        codec = view.codec
        found = hover_at(server, view, state, codec.offset(params.position))
        if found is None:
            return None
        text, s, e = found
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text),
                         range=codec.range(s, e))
