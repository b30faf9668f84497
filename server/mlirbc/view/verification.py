"""The verifier's findings as diagnostics of the text: located on the op, or on the part at fault (the
attribute's entry in the op's property or attribute dictionary, the operand's use, the region), with the
ops they relate to (a callee's definition, the enclosing function) as related locations.

Verifier diagnostics carry the code `verify` (`VERIFY`): a view with them still has its module, which may be
written when the user asks for it explicitly (`mlirbc encode --no-verify`, the editor's "Save anyway").
"""

from __future__ import annotations

import re

from ..ir.operation import Operation
from ..models.registry import Registry
from ..syntax.textlines import TextLines
from ..verifier.core import Finding
from ..verifier.incremental import ModuleVerification
from .parser import TextDiagnostic
from .sourcemap import PIECE_ATTRIBUTES, PIECE_PROPERTIES, SourceMap, Span

VERIFY = "verify"
"""`TextDiagnostic.code` of the verifier's diagnostics."""


def _attribute_span(smap: SourceMap, op: Operation, name: str) -> Span | None:
    for piece in (PIECE_PROPERTIES, PIECE_ATTRIBUTES):
        span = smap.piece_span(op, piece)
        if span is None:
            continue
        m = re.compile(r"(?<![\w.$\"])" + re.escape(name) + r"\s*=").search(smap.text, span.start, span.end)
        if m is None:
            m = re.compile(r"\"" + re.escape(name) + r"\"\s*=").search(smap.text, span.start, span.end)
        if m is not None:
            return Span(m.start(), m.end() - 1)
    return None


def _operand_span(smap: SourceMap, op: Operation, index: int) -> Span | None:
    if index >= len(op.operands):
        return None
    whole = smap.op_span(op)
    if whole is None:
        return None
    regions = smap.region_spans(op)
    limit = regions[0].start if regions else whole.end
    value = op.operands[index]
    nth = sum(1 for v in op.operands[:index] if v is value)
    spans = [s for s in smap.uses(value) if whole.start <= s.start < limit]
    return spans[nth] if nth < len(spans) else None


def finding_span(smap: SourceMap, f: Finding) -> Span | None:
    """Where a finding points in the text (the part at fault when the map knows it, else the op's name)."""
    op = f.op
    part = f.part
    span: Span | None = None
    if part is not None:
        kind, which = part
        if kind == "attribute" and isinstance(which, str):
            span = _attribute_span(smap, op, which)
        elif kind == "operand" and isinstance(which, int):
            span = _operand_span(smap, op, which)
        elif kind in ("region", "block") and isinstance(which, int):
            regions = smap.region_spans(op)
            if which < len(regions):
                span = Span(regions[which].start, regions[which].start + 1)
    if span is None:
        span = smap.op_name_span(op) or smap.op_span(op)
    return span


def finding_diagnostics(findings: list[Finding], smap: SourceMap, lines: TextLines) -> list[TextDiagnostic]:
    out: list[TextDiagnostic] = []
    for f in findings:
        span = finding_span(smap, f)
        if span is None:
            continue
        related = []
        for r in f.related:
            at = smap.op_name_span(r.op) or smap.op_span(r.op)
            if at is not None:
                related.append((lines.span(at.start, at.end), r.message))
        out.append(TextDiagnostic(f.message, lines.span(span.start, span.end), f.severity, code=VERIFY,
                                  related=tuple(related)))
    out.sort(key=lambda d: (d.span.start, d.span.end))
    return out


def verify_root(root: Operation, registry: Registry) -> ModuleVerification:
    """The whole module's verification (the registry bound to the module's model set)."""
    return ModuleVerification.of(root, registry)
