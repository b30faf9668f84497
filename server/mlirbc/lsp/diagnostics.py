"""Builds the diagnostics of each source: decode errors, fallback notes, text problems, save refusals.

Fallback diagnostics are computed from the current text (its index), so they follow edits; the IR behind
the text (when it lines up) supplies the reasons and file offsets.
"""

from __future__ import annotations

from lsprotocol import types as lsp

from ..errors import TextSpan
from ..ir.attributes import FallbackAttr
from ..ir.module import Module, TableEntry
from ..ir.types import FallbackType
from .backend import TextProblem
from .documents import Decoded, Snapshot, View
from .positions import LineIndex
from .textindex import Opaque, TextIndex

NAME = "mlirbc"
CODE_FALLBACK_OP = "fallback-op"
CODE_FALLBACK_ATTR = "fallback-attribute"
CODE_FALLBACK_TYPE = "fallback-type"
CODE_DECODE = "decode-error"
CODE_PARSE = "parse-error"
CODE_STRUCTURE = "structure"
CODE_SAVE = "save-refused"

_SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning,
             "information": lsp.DiagnosticSeverity.Information, "hint": lsp.DiagnosticSeverity.Hint}


def span_range(span: TextSpan) -> lsp.Range:
    return lsp.Range(start=lsp.Position(line=max(span.start_line, 0),
                                        character=max(span.start_col, 0)),
                     end=lsp.Position(line=max(span.end_line, 0), character=max(span.end_col, 0)))


def decode_diagnostics(decoded: Decoded, view: View) -> list[lsp.Diagnostic]:
    err = decoded.module.error
    if err is None:
        return []
    # The partial view ends where decoding stopped: point at its last op.
    index = view.index
    end = 0
    if index is not None and index.ops:
        end = index.ops[0].end if index.ops[0].end > 0 else len(view.text)
    rng = (index.lines if index is not None else view.lines).range(end, end)
    if rng.start.character == 0 and rng.start.line > 0:
        rng = lsp.Range(start=lsp.Position(line=rng.start.line, character=0),
                        end=lsp.Position(line=rng.start.line, character=0))
    where = f"{err.section} section, " if err.section else ""
    return [lsp.Diagnostic(
        range=rng, severity=lsp.DiagnosticSeverity.Error, source=NAME, code=CODE_DECODE,
        message=f"decoding stopped at {where}byte {err.offset} (0x{err.offset:x}): {err.message}; "
                "this view shows only what was decoded before that point and cannot be saved",
        data={"offset": err.offset, "section": err.section})]


def _entry_for(module: Module | None, o: Opaque) -> TableEntry | None:
    src = module.source if module is not None else None
    if src is None:
        return None
    if o.kind == "attribute":
        value: object = FallbackAttr.get(o.dialect, o.data)
        entries = src.attrs
    else:
        value = FallbackType.get(o.dialect, o.data)
        entries = src.types
    for e in entries:
        if e.value is value:
            return e
    return None


def fallback_diagnostics(uri: str, view: View, snap: Snapshot | None, decoded: Decoded | None,
                         limit: int) -> list[lsp.Diagnostic]:
    index = view.index
    if index is None:
        return []
    lines = index.lines
    out: list[lsp.Diagnostic] = []
    module = decoded.module if decoded is not None else None
    reasons: dict[str, str] = {}
    if module is not None:
        for n in module.fallbacks:
            if n.kind == "op":
                reasons.setdefault(n.name, n.reason)
    skipped = 0
    for entry in index.ops:
        if entry.fallback_props is None:
            continue
        if len(out) >= limit:
            skipped += 1
            continue
        op = snap.op(entry) if snap is not None else None
        props = op.properties if op is not None else None
        reason = props.reason if props is not None and props.reason else reasons.get(
            entry.name, "no model could decode them")
        size = (len(props.raw) if props is not None and props.raw is not None else None)
        where = ""
        if props is not None and props.offset >= 0:
            where = f" at file offset {props.offset}"
        nbytes = f"{size} bytes" if size is not None else "bytes"
        s, e = entry.fallback_props
        out.append(lsp.Diagnostic(
            range=lines.range(entry.name_start, entry.name_end),
            severity=lsp.DiagnosticSeverity.Information, source=NAME, code=CODE_FALLBACK_OP,
            message=f"{entry.name}: properties kept verbatim ({nbytes}{where}) in "
                    f"`mlirbc.properties`, because {reason}",
            related_information=[lsp.DiagnosticRelatedInformation(
                location=lsp.Location(uri=uri, range=lines.range(s, e)),
                message="the verbatim properties payload")]))
    groups: dict[tuple[str, str, bytes], list[Opaque]] = {}
    for o in index.opaque:
        groups.setdefault((o.kind, o.dialect, o.data), []).append(o)
    for (kind, dialect, data), occ in groups.items():
        if len(out) >= limit:
            skipped += 1
            continue
        te = _entry_for(module, occ[0])
        reason = te.fallback_reason if te is not None and te.fallback_reason else \
            f"no model decodes '{dialect}' {kind}s"
        where = f" at file offset {te.offset}" if te is not None else ""
        related = [lsp.DiagnosticRelatedInformation(
            location=lsp.Location(uri=uri, range=lines.range(o.start, o.end)),
            message=f"also used here ({i + 2} of {len(occ)})") for i, o in enumerate(occ[1:11])]
        uses = f"; used {len(occ)} times" if len(occ) > 1 else ""
        out.append(lsp.Diagnostic(
            range=lines.range(occ[0].start, occ[0].end),
            severity=lsp.DiagnosticSeverity.Information, source=NAME,
            code=CODE_FALLBACK_ATTR if kind == "attribute" else CODE_FALLBACK_TYPE,
            message=f"'{dialect}' {kind} kept verbatim ({len(data)} bytes{where}), because "
                    f"{reason}{uses}",
            related_information=related or None))
    if skipped:
        out.append(lsp.Diagnostic(
            range=lines.range(0, 0), severity=lsp.DiagnosticSeverity.Information, source=NAME,
            code="fallback-more",
            message=f"{skipped} more fallback parts are not listed "
                    "(setting mlirbc.diagnostics.maxFallbacks); `mlirbc/info` counts them all"))
    return out


def text_diagnostics(problems: list[TextProblem]) -> list[lsp.Diagnostic]:
    return [lsp.Diagnostic(range=span_range(p.span), severity=_SEVERITY.get(p.severity),
                           source=NAME, code=CODE_PARSE, message=p.message) for p in problems]


def structural_diagnostics(index: TextIndex, lines: LineIndex) -> list[lsp.Diagnostic]:
    """What the light index can tell about edited text when the full parser is not available."""
    out = [lsp.Diagnostic(range=lines.range(p.start, p.end), severity=lsp.DiagnosticSeverity.Error,
                          source=NAME, code=CODE_STRUCTURE, message=p.message)
           for p in index.problems[:200]]
    for o in index.undefined_uses():
        what = "value" if o.kind == "value" else "block"
        out.append(lsp.Diagnostic(
            range=lines.range(o.start, o.end), severity=lsp.DiagnosticSeverity.Error, source=NAME,
            code=CODE_STRUCTURE, message=f"use of undefined {what} {o.name}"))
    return out


def save_diagnostic(message: str, span: TextSpan | None) -> lsp.Diagnostic:
    rng = span_range(span) if span is not None else lsp.Range(
        start=lsp.Position(line=0, character=0), end=lsp.Position(line=0, character=0))
    return lsp.Diagnostic(range=rng, severity=lsp.DiagnosticSeverity.Error, source=NAME,
                          code=CODE_SAVE, message=message)
