"""Builds the diagnostics of each source: decode errors, fallback notes, text problems, save refusals.

Fallback diagnostics follow the current text: they come from the fallback parts of its source map, and
the decoded file (when there is one) supplies the reasons and file offsets.
"""

from __future__ import annotations

from lsprotocol import types as lsp

from ..bytecode.template import TableEntry, template_of
from ..errors import TextSpan
from ..ir.attributes import FallbackAttr
from ..ir.module import Module
from ..ir.operation import Properties
from ..ir.types import FallbackType
from ..view.edits import ViewState
from ..view.parser import TextDiagnostic
from ..view.sourcemap import (
    PART_FALLBACK_ATTRIBUTE,
    PART_FALLBACK_PROPERTIES,
    PART_FALLBACK_TYPE,
    Part,
)
from ..view.verification import VERIFY
from .documents import Decoded
from .positions import PositionCodec

NAME = "mlirbc"
CODE_FALLBACK_OP = "fallback-op"
CODE_FALLBACK_ATTR = "fallback-attribute"
CODE_FALLBACK_TYPE = "fallback-type"
CODE_DECODE = "decode-error"
CODE_PARSE = "parse-error"
CODE_SAVE = "save-refused"
CODE_VERIFY = "verify-error"
"""An op that does not verify (its definition, a trait, a symbol use); a save refused for these alone can
be forced (`mlirbc/save` with `unverified`)."""

_SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning,
             "information": lsp.DiagnosticSeverity.Information, "hint": lsp.DiagnosticSeverity.Hint}


def decode_diagnostics(decoded: Decoded, state: ViewState,
                       codec: PositionCodec) -> list[lsp.Diagnostic]:
    err = decoded.module.error
    if err is None:
        return []
    # The partial view ends where decoding stopped: point at the end of its root op.
    root = state.map.root
    span = state.map.op_span(root) if root is not None else None
    end = span.end if span is not None else 0
    pos = codec.position(end)
    if pos.character == 0 and pos.line > 0:
        pos = lsp.Position(line=pos.line, character=0)
    where = f"{err.section} section, " if err.section else ""
    return [lsp.Diagnostic(
        range=lsp.Range(start=pos, end=pos), severity=lsp.DiagnosticSeverity.Error, source=NAME,
        code=CODE_DECODE,
        message=f"decoding stopped at {where}byte {err.offset} (0x{err.offset:x}): {err.message}; "
                "this view shows only what was decoded before that point and cannot be saved",
        data={"offset": err.offset, "section": err.section})]


def table_entry(module: Module | None, value: object) -> TableEntry | None:
    """The decoded file's attribute/type table entry holding `value` (a fallback part), if any."""
    src = template_of(module) if module is not None else None
    if src is None:
        return None
    entries = src.attrs if isinstance(value, FallbackAttr) else src.types
    for e in entries:
        if e.value is value:
            return e
    return None


def fallback_diagnostics(uri: str, state: ViewState, decoded: Decoded | None, codec: PositionCodec,
                         limit: int) -> list[lsp.Diagnostic]:
    out: list[lsp.Diagnostic] = []
    module = decoded.module if decoded is not None else None
    smap = state.map
    reasons: dict[str, str] = {}
    src = template_of(module) if module is not None else None
    if src is not None:
        for n in src.fallbacks:
            if n.kind == "op":
                reasons.setdefault(n.name, n.reason)
    skipped = 0
    groups: dict[object, list[Part]] = {}
    for part in smap.parts():
        if part.kind in (PART_FALLBACK_ATTRIBUTE, PART_FALLBACK_TYPE):
            groups.setdefault(part.obj, []).append(part)
            continue
        if part.kind != PART_FALLBACK_PROPERTIES:
            continue
        if len(out) >= limit:
            skipped += 1
            continue
        op = part.op
        props = part.obj if isinstance(part.obj, Properties) else None
        name = op.name if op is not None else "op"
        reason = props.reason if props is not None and props.reason else reasons.get(
            name, "no model could decode them")
        size = len(props.raw) if props is not None and props.raw is not None else None
        where = f" at file offset {props.offset}" if props is not None and props.offset >= 0 else ""
        nbytes = f"{size} bytes" if size is not None else "bytes"
        name_span = smap.op_name_span(op) if op is not None else None
        at = name_span if name_span is not None else (part.start, part.end)
        out.append(lsp.Diagnostic(
            range=codec.range(at[0], at[1]),
            severity=lsp.DiagnosticSeverity.Information, source=NAME, code=CODE_FALLBACK_OP,
            message=f"{name}: properties kept verbatim ({nbytes}{where}) in "
                    f"`mlirbc.properties`, because {reason}",
            related_information=[lsp.DiagnosticRelatedInformation(
                location=lsp.Location(uri=uri, range=codec.range(part.start, part.end)),
                message="the verbatim properties payload")]))
    for value, occ in groups.items():
        if len(out) >= limit:
            skipped += 1
            continue
        assert isinstance(value, FallbackAttr | FallbackType)
        kind = "attribute" if isinstance(value, FallbackAttr) else "type"
        te = table_entry(module, value)
        reason = te.fallback_reason if te is not None and te.fallback_reason else \
            f"no model decodes '{value.dialect_name}' {kind}s"
        where = f" at file offset {te.offset}" if te is not None else ""
        related = [lsp.DiagnosticRelatedInformation(
            location=lsp.Location(uri=uri, range=codec.range(o.start, o.end)),
            message=f"also used here ({i + 2} of {len(occ)})") for i, o in enumerate(occ[1:11])]
        uses = f"; used {len(occ)} times" if len(occ) > 1 else ""
        out.append(lsp.Diagnostic(
            range=codec.range(occ[0].start, occ[0].end),
            severity=lsp.DiagnosticSeverity.Information, source=NAME,
            code=CODE_FALLBACK_ATTR if kind == "attribute" else CODE_FALLBACK_TYPE,
            message=f"'{value.dialect_name}' {kind} kept verbatim ({len(value.data)} bytes{where}), "
                    f"because {reason}{uses}",
            related_information=related or None))
    if skipped:
        out.append(lsp.Diagnostic(
            range=codec.range(0, 0), severity=lsp.DiagnosticSeverity.Information, source=NAME,
            code="fallback-more",
            message=f"{skipped} more fallback parts are not listed "
                    "(setting mlirbc.diagnostics.maxFallbacks); `mlirbc/info` counts them all"))
    return out


def text_diagnostics(problems: list[TextDiagnostic], codec: PositionCodec,
                     uri: str | None = None) -> list[lsp.Diagnostic]:
    out = []
    for p in problems:
        related = [lsp.DiagnosticRelatedInformation(location=lsp.Location(uri=uri, range=codec.span_range(s)),
                                                    message=m) for s, m in p.related] if uri else []
        out.append(lsp.Diagnostic(range=codec.span_range(p.span), severity=_SEVERITY.get(p.severity),
                                  source=NAME, code=CODE_VERIFY if p.code == VERIFY else CODE_PARSE,
                                  message=p.message, related_information=related or None))
    return out


def save_diagnostic(message: str, span: TextSpan | None,
                    codec: PositionCodec | None) -> lsp.Diagnostic:
    if span is not None and codec is not None:
        rng = codec.span_range(span)
    else:
        rng = lsp.Range(start=lsp.Position(line=0, character=0),
                        end=lsp.Position(line=0, character=0))
    return lsp.Diagnostic(range=rng, severity=lsp.DiagnosticSeverity.Error, source=NAME,
                          code=CODE_SAVE, message=message)
