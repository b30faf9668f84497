"""Hover: op names (model docs, decoded properties, types), fallback ops (reason, payload bytes and what
they would reference), SSA values and block arguments (type, definition), opaque attributes/types."""

from __future__ import annotations

from lsprotocol import types as lsp

from ...bytecode.stream import ByteReader
from ...errors import DecodeError
from ...ir.module import Module
from ...ir.operation import PROPS_ATTRIBUTE, PROPS_DECODED, PROPS_FALLBACK, BlockArgument, Operation
from ...models.registry import Registry
from .. import backend
from ..analysis import ensure_index
from ..diagnostics import _entry_for
from ..documents import Snapshot
from ..server import MlirbcServer
from ..textindex import BLOCK, SYMBOL, VALUE, Opaque, OpEntry
from .elided import elided_hover

MAX_HEX = 256
"""Payload bytes shown in a hover; longer payloads are cut (the view has them all)."""
MAX_VARINTS = 24


def _hex(data: bytes | memoryview) -> str:
    h = data[:MAX_HEX].hex(" ").upper()
    return h + (f" … (+{len(data) - MAX_HEX} bytes)" if len(data) > MAX_HEX else "")


def varint_refs(data: bytes | memoryview, module: Module | None, limit: int = MAX_VARINTS) -> list[str]:
    """Read `data` as a sequence of varints and say which attribute/type each would name.

    A fallback payload's layout is unknown; most dialects write attribute and type references as
    varint indices, so this is the likeliest reading (marked as a guess in the hover).
    """
    src = module.source if module is not None else None
    r = ByteReader(data, 0, len(data), "properties")
    out: list[str] = []
    while not r.at_end() and len(out) < limit:
        at = r.pos
        try:
            v = r.varint()
        except DecodeError:
            out.append(f"byte {at}: truncated varint")
            break
        names = []
        if src is not None and v < len(src.attrs):
            names.append(f"attr #{v} = `{_short(backend.safe_attr(src.attrs[v].value))}`")
        if src is not None and v < len(src.types):
            names.append(f"type #{v} = `{_short(backend.safe_type(src.types[v].value))}`")
        out.append(f"byte {at}: {v}" + (" → " + "; ".join(names) if names else ""))
    if not r.at_end():
        out.append("…")
    return out


def _short(s: str, n: int = 80) -> str:
    s = s.replace("`", "'")
    return s if len(s) <= n else s[:n - 1] + "…"


def _op_hover(server: MlirbcServer, entry: OpEntry, snap: Snapshot) -> str:
    op = snap.op(entry)
    module = snap.module
    registry = server.registry()
    if registry.model_set is None and module is not None and module.model_set is not None:
        registry = registry.with_set(module.model_set, module.model_set_note)
    lookup = registry.op(entry.name)
    parts = [f"### `{entry.name}`"]
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
    if op is None:
        if entry.fallback_props is not None:
            parts.append("Properties are kept verbatim (fallback).")
        return "\n\n".join(parts)
    parts.append(_props_section(op, module))
    if op.operands:
        parts.append("Operands: " + ", ".join(f"`{backend.safe_type(v.type)}`"
                                              for v in op.operands))
    if op.results:
        parts.append("Results: " + ", ".join(f"`{backend.safe_type(v.type)}`"
                                             for v in op.results))
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
            lines.append(f"- `{k}` = `{_short(backend.safe_attr(v), 200)}`")
        return "\n".join(lines)
    if p.kind == PROPS_ATTRIBUTE:
        return "Properties (unregistered op's attribute): " + \
            f"`{_short(backend.safe_attr(p.attribute), 200)}`"
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


def _opaque_hover(o: Opaque, module: Module | None) -> str:
    te = _entry_for(module, o)
    lines = [f"### Opaque {o.kind} of dialect `{o.dialect}`",
             f"{len(o.data)} bytes kept verbatim" + (
                 f", at file offset {te.offset} (0x{te.offset:x})" if te is not None else "")]
    if te is not None and te.fallback_reason:
        lines.append(f"Why: {te.fallback_reason}")
    lines.append(f"```\n{_hex(o.data)}\n```")
    refs = varint_refs(o.data, module)
    if refs:
        lines.append("Read as varints (a guess):\n" + "\n".join(f"- {r}" for r in refs))
    return "\n\n".join(lines)


def hover_at(server: MlirbcServer, snap: Snapshot, offset: int) -> tuple[str, int, int] | None:
    index = snap.index
    entry = index.op_name_at(offset)
    if entry is not None:
        return _op_hover(server, entry, snap), entry.name_start, entry.name_end
    opq = index.opaque_at(offset)
    if opq is not None:
        return _opaque_hover(opq, snap.module), opq.start, opq.end
    occ = index.occurrence_at(offset)
    if occ is not None:
        d = index.definition_of(occ)
        where = ""
        if d is not None:
            where = f"defined at line {snap.lines.position(d.start).line + 1}"
        if occ.kind == VALUE:
            v = snap.value(occ)
            lines = [f"### `{occ.name}" + (f"#{occ.result}`" if occ.result >= 0 and
                                           not occ.is_def else "`")]
            if v is not None:
                lines.append(f"Type: `{backend.safe_type(v.type)}`")
                if isinstance(v, BlockArgument):
                    lines.append(f"Block argument #{v.index}; location "
                                 f"`{_short(_loc(v.location), 200)}`")
                else:
                    owner = getattr(v, "owner", None)
                    if isinstance(owner, Operation):
                        lines.append(f"Result #{getattr(v, 'index', 0)} of `{owner.name}`")
            elif d is not None and d.op >= 0:
                lines.append(f"Result of `{index.ops[d.op].name}`")
            elif d is None:
                lines.append("**Not defined** in any enclosing region")
            if where:
                lines.append(where.capitalize())
            return "\n\n".join(lines), occ.start, occ.end
        if occ.kind == BLOCK:
            block = snap.block(*d.block) if d is not None else None
            lines = [f"### Block `{occ.name}`"]
            if block is not None:
                lines.append(f"{len(block.arguments)} arguments: " + ", ".join(
                    f"`{backend.safe_type(a.type)}`" for a in block.arguments))
            if where:
                lines.append(where.capitalize())
            elif d is None:
                lines.append("**Not defined** in any enclosing region")
            return "\n\n".join(lines), occ.start, occ.end
        if occ.kind == SYMBOL:
            target = index.symbol_op(occ)
            if target is None:
                return f"### Symbol `{occ.name}`\n\nNot found in any enclosing symbol table", \
                    occ.start, occ.end
            line = snap.lines.position(target.start).line + 1
            return (f"### Symbol `{occ.name}`\n\nDefined by `{target.name}` at line {line}",
                    occ.start, occ.end)
    return None


def _loc(a: object) -> str:
    try:
        return backend.print_location(a)
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
        await ensure_index(server, view)
        snap = server.snapshot(view.uri)
        if snap is None:
            return None
        found = hover_at(server, snap, snap.lines.offset(params.position))
        if found is None:
            return None
        text, s, e = found
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text),
                         range=snap.lines.range(s, e))
