"""Writes a graph (the builder's JSON) as Graphviz DOT text.

Regions and blocks become nested clusters.  An op with regions becomes a cluster of its own holding a
node for the op (where its operands arrive and its results leave) and its regions; block arguments are
small nodes at the top of their block; control-flow edges are dashed and end at the target block's label
node.  Labels are cut to a readable length (the text view has everything) and escaped for DOT.
"""

from __future__ import annotations

from .builder import Json

MAX_LABEL = 48

DIALECT_COLOURS = (
    "#dbeafe", "#dcfce7", "#fef9c3", "#fce7f3", "#e0e7ff", "#ccfbf1", "#ffedd5", "#f3e8ff",
    "#e2e8f0", "#d9f99d", "#fde68a", "#bae6fd",
)


def dialect_colour(dialect: str) -> str:
    """A stable pastel colour per dialect (the same hash the VS Code view uses)."""
    h = 0
    for ch in dialect:
        h = (h * 31 + ord(ch)) & 0xFFFFFFFF
    return DIALECT_COLOURS[h % len(DIALECT_COLOURS)]


def _cut(s: str, n: int = MAX_LABEL) -> str:
    return s if len(s) <= n else s[:n - 1] + "…"


def quote(s: str) -> str:
    """A DOT double-quoted string: backslashes and quotes escaped, control characters dropped."""
    out = s.replace("\\", "\\\\").replace('"', '\\"')
    if not out.isprintable():
        out = "".join(ch if ch.isprintable() else " " for ch in out)
    return '"' + out + '"'


def _label(lines: list[str]) -> str:
    # `\n` between lines is DOT's own line break; each line is escaped on its own
    return quote("\x00".join(_cut(x) for x in lines)).replace("\x00", "\\n") if lines else '""'


def _op_label(node: Json) -> list[str]:
    lines = [node["name"]]
    if node.get("symbol"):
        lines[0] += " @" + node["symbol"]
    for r in node["results"][:3]:
        lines.append(f"{r['name'] or '%?'}: {r['type']}")
    if len(node["results"]) > 3:
        lines.append(f"… {len(node['results']) - 3} more results")
    if node["fallback"]:
        lines.append("[fallback: properties kept verbatim]")
    if node["elided"]:
        lines.append("[holds elided values]")
    return lines


def to_dot(graph: Json, title: str | None = None) -> str:
    regions = {r["id"]: r for r in graph["regions"]}
    blocks = {b["id"]: b for b in graph["blocks"]}
    children: dict[str | None, list[Json]] = {}
    for n in graph["nodes"]:
        if n["kind"] == "op":
            children.setdefault(n.get("parent"), []).append(n)
    control_targets = {e["target"]["block"] for e in graph["edges"] if e["kind"] == "control"}
    out: list[str] = []
    w = out.append
    root = graph["root"]
    name = title or (root["name"] + (" @" + root["symbol"] if root.get("symbol") else ""))
    w(f"digraph {quote(name)} {{")
    w("  compound=true; rankdir=TB; newrank=true;")
    w('  graph [fontname="Helvetica", fontsize=10, labeljust=l];')
    w('  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10, '
      'fillcolor="#f1f5f9"];')
    w('  edge [fontname="Helvetica", fontsize=8, color="#64748b"];')
    if graph.get("truncated"):
        w(f"  label={quote(graph['truncated'])}; labelloc=t;")

    def op_node(n: Json, indent: str) -> None:
        attrs = [f"label={_label(_op_label(n))}",
                 f'fillcolor="{dialect_colour(n["dialect"])}"']
        style = ["rounded", "filled"]
        if n["fallback"]:
            style.append("dashed")
            attrs.append('color="#c2410c"')
            attrs.append("penwidth=2")
        if n["elided"]:
            attrs.append('peripheries=2')
        if n.get("offPage"):
            style.append("dotted")
        attrs.append(f'style="{",".join(style)}"')
        w(f"{indent}{n['id']} [{', '.join(attrs)}];")

    def emit_op(n: Json, indent: str) -> None:
        if not n["regions"]:
            op_node(n, indent)
            return
        w(f"{indent}subgraph cluster_{_ident(n['id'])} {{")
        w(f'{indent}  label=""; style="rounded"; color="#94a3b8";')
        op_node(n, indent + "  ")
        for rid in n["regions"]:
            emit_region(regions[rid], indent + "  ")
        w(f"{indent}}}")

    def emit_region(r: Json, indent: str) -> None:
        w(f"{indent}subgraph cluster_{_ident(r['id'])} {{")
        w(f'{indent}  label={quote("region " + str(r["index"]))}; style="dashed"; color="#94a3b8";')
        for bid in r["blocks"]:
            emit_block(blocks[bid], indent + "  ")
        w(f"{indent}}}")

    def emit_block(b: Json, indent: str) -> None:
        bid = _ident(b["id"])
        w(f"{indent}subgraph cluster_{bid} {{")
        w(f'{indent}  label={quote(b["label"])}; style="rounded"; color="#cbd5e1";')
        inner = children.get(b["id"], [])
        if b["id"] in control_targets or (not inner and not b["arguments"]):
            w(f'{indent}  {bid}_label [label={quote(b["label"])}, shape=plaintext, style=""];')
        for k, a in enumerate(b["arguments"]):
            w(f"{indent}  {bid}_a{k} [label={_label([(a['name'] or '%?') + ': ' + a['type']])}, "
              'shape=ellipse, style="filled", fillcolor="#ffffff"];')
        for n in inner:
            emit_op(n, indent + "  ")
        w(f"{indent}}}")

    for n in graph["nodes"]:
        if n["kind"] == "external":
            what = (n["name"] or "%?") + ": " + n["type"]
            note = "(on another page)" if n.get("offPage") else "(defined outside)"
            w(f"  {n['id']} [label={_label([what, note])}, shape=ellipse, style=\"dashed\"];")
    for n in children.get(None, []):
        emit_op(n, "  ")
    for e in graph["edges"]:
        s, t = e["source"], e["target"]
        if e["kind"] == "control":
            tb = _ident(t["block"])
            w(f"  {s['node']} -> {tb}_label [style=dashed, color=\"#7c3aed\", lhead=cluster_{tb}];")
            continue
        src = s["node"] if "node" in s else f"{_ident(s['block'])}_a{s['port']}"
        tgt = t["node"]
        w(f"  {src} -> {tgt} [label={_label([e['type']])}];")
    w("}")
    return "\n".join(out) + "\n"


def _ident(graph_id: str) -> str:
    """Graph ids (`b3.0.1`) as DOT identifiers."""
    return graph_id.replace(".", "_")

