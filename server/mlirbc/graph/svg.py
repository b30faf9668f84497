"""Renders a graph as SVG: with Graphviz's `dot` when it is installed (or asked for), else with the
project's own layout (`layout.py`).  Either way the drawing uses the same colours as the DOT output."""

from __future__ import annotations

import shutil
import subprocess
from xml.sax.saxutils import escape

from .builder import Json
from .dot import dialect_colour, to_dot
from .layout import HEADER_H, LINE_H, PAD, Box, layout

LAYOUT_AUTO = "auto"
LAYOUT_GRAPHVIZ = "graphviz"
LAYOUT_BUILTIN = "builtin"


class GraphvizError(Exception):
    pass


def graphviz_available() -> bool:
    return shutil.which("dot") is not None


def to_svg(graph: Json, how: str = LAYOUT_AUTO, timeout: float = 300.0) -> tuple[str, str]:
    """(svg text, which layout made it: "graphviz" or "builtin")."""
    if how == LAYOUT_GRAPHVIZ or (how == LAYOUT_AUTO and graphviz_available()):
        return graphviz_svg(to_dot(graph), timeout), LAYOUT_GRAPHVIZ
    return builtin_svg(graph), LAYOUT_BUILTIN


def graphviz_svg(dot_text: str, timeout: float = 300.0) -> str:
    exe = shutil.which("dot")
    if exe is None:
        raise GraphvizError("Graphviz's `dot` is not installed (or not on PATH)")
    try:
        done = subprocess.run([exe, "-Tsvg"], input=dot_text.encode(), capture_output=True,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise GraphvizError(f"`dot -Tsvg` took longer than {timeout:g} s") from None
    if done.returncode != 0:
        raise GraphvizError("`dot -Tsvg` failed: " + done.stderr.decode(errors="replace").strip())
    return done.stdout.decode("utf-8", errors="replace")


def builtin_svg(graph: Json) -> str:
    lay = layout(graph)
    w, h = lay.width + 2 * PAD, lay.height + 2 * PAD + (LINE_H * 2 if graph.get("truncated") else 0)
    out: list[str] = []
    o = out.append
    o('<?xml version="1.0" encoding="UTF-8"?>')
    o(f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
      f'viewBox="0 0 {w:.0f} {h:.0f}" font-family="Helvetica, Arial, sans-serif" font-size="11">')
    o('<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
      'markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" '
      'fill="#64748b"/></marker></defs>')
    o(f'<rect width="{w:.0f}" height="{h:.0f}" fill="#ffffff"/>')
    dy = PAD
    if graph.get("truncated"):
        o(f'<text x="{PAD}" y="{PAD + LINE_H}" fill="#b91c1c">{escape(graph["truncated"])}</text>')
        dy += LINE_H * 2
    o(f'<g transform="translate({PAD},{dy})">')
    for b in lay.boxes:
        o(_box(b))
    for r in lay.routes:
        (x1, y1), (x2, y2) = r.points[0], r.points[-1]
        if r.kind == "control":
            path = f"M {x1:.1f} {y1:.1f} C {x1 + 40:.1f} {y1:.1f}, {x2 - 40:.1f} {y2:.1f}, {x2:.1f} {y2:.1f}"
            style = 'stroke="#7c3aed" stroke-dasharray="5 3"'
        else:
            my = (y1 + y2) / 2
            path = f"M {x1:.1f} {y1:.1f} C {x1:.1f} {my:.1f}, {x2:.1f} {my:.1f}, {x2:.1f} {y2:.1f}"
            style = 'stroke="#64748b"'
        o(f'<path d="{path}" fill="none" {style} marker-end="url(#arrow)">'
          f"<title>{escape(r.title)}</title></path>")
    o("</g></svg>")
    return "\n".join(out) + "\n"


def _box(b: Box) -> str:
    x, y, w, h = b.x, b.y, b.w, b.h
    title = escape(" / ".join(b.lines))
    if b.kind in ("op", "cluster"):
        n = b.node or {}
        fill = dialect_colour(n.get("dialect", "")) if b.kind == "op" else "#f8fafc"
        stroke = '#c2410c" stroke-width="2" stroke-dasharray="6 3' if n.get("fallback") else "#64748b"
        parts = [f'<g><title>{title}</title><rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" '
                 f'height="{h:.1f}" rx="6" fill="{fill}" stroke="{stroke}"/>']
        if n.get("elided"):
            parts.append(f'<rect x="{x + 3:.1f}" y="{y + 3:.1f}" width="{w - 6:.1f}" height="{h - 6:.1f}" '
                         'rx="4" fill="none" stroke="#0369a1"/>')
        if b.kind == "cluster":
            parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{HEADER_H + LINE_H:.1f}" '
                         f'rx="6" fill="{dialect_colour(n.get("dialect", ""))}"/>')
        for k, line in enumerate(b.lines):
            weight = ' font-weight="bold"' if k == 0 else ""
            parts.append(f'<text x="{x + PAD:.1f}" y="{y + PAD / 2 + LINE_H * (k + 1) - 2:.1f}"{weight}>'
                         f"{escape(line)}</text>")
        parts.append("</g>")
        return "".join(parts)
    if b.kind in ("argument", "external"):
        dash = ' stroke-dasharray="4 3"' if b.kind == "external" else ""
        return (f'<g><title>{title}</title><rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
                f'rx="{h / 2:.1f}" fill="#ffffff" stroke="#94a3b8"{dash}/>'
                f'<text x="{x + PAD:.1f}" y="{y + h / 2 + 4:.1f}">{escape(b.lines[0])}</text></g>')
    if b.kind == "region":
        return (f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="4" fill="none" '
                f'stroke="#cbd5e1" stroke-dasharray="4 3"><title>{title}</title></rect>')
    if b.kind == "block":
        return (f'<g><rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="4" '
                f'fill="#f8fafc" fill-opacity="0.6" stroke="#cbd5e1"/>'
                f'<text x="{x + PAD / 2:.1f}" y="{y + LINE_H:.1f}" fill="#64748b">'
                f"{escape(b.lines[0])}</text></g>")
    return ""

