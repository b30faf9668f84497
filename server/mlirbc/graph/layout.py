"""A small layered layout of a graph (the builder's JSON), for SVG output without Graphviz.

Each block is laid out on its own, bottom-up: its items (block arguments, ops, and ops with regions as
boxes holding their regions side by side, each region's blocks stacked) get layers by longest path over
the uses between them (a use deep inside a nested op counts for the item that contains it), are ordered
in each layer by the mean position of what they use, and are centred row by row.  Edges are then routed
as curves between the absolute positions.  It is meant to be readable and fast (linear in the graph
apart from one sort per layer), not optimal: Graphviz's `dot` gives better pictures when it is installed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .builder import Json

CHAR_W = 6.6
LINE_H = 14.0
PAD = 10.0
GAP_X = 18.0
GAP_Y = 34.0
HEADER_H = 22.0
MIN_W = 70.0
MAX_W = 340.0


@dataclass
class Box:
    """A positioned rectangle: an op, a block argument, an external value, a block, a region or an op
    with regions (`kind`); `x`/`y` are absolute once `place` has run."""

    id: str
    kind: str
    lines: list[str]
    w: float = 0.0
    h: float = 0.0
    x: float = 0.0
    y: float = 0.0
    node: Json | None = None
    children: list[Box] = field(default_factory=list)
    """For a block: its items; for an op with regions: its regions; for a region: its blocks."""
    layer: int = 0


@dataclass
class Route:
    id: str
    kind: str
    points: list[tuple[float, float]]
    title: str


@dataclass
class Layout:
    width: float
    height: float
    boxes: list[Box]
    """Every box, outermost first."""
    routes: list[Route]


def _text_w(lines: list[str]) -> float:
    return min(MAX_W, max(MIN_W, max((len(s) for s in lines), default=0) * CHAR_W + 2 * PAD))


def _cut(s: str, n: int = 48) -> str:
    return s if len(s) <= n else s[:n - 1] + "…"


def op_lines(node: Json) -> list[str]:
    lines = [node["name"] + (" @" + node["symbol"] if node.get("symbol") else "")]
    if node["results"]:
        first = node["results"][0]
        more = f" (+{len(node['results']) - 1})" if len(node["results"]) > 1 else ""
        lines.append(_cut(f"{first['name'] or '%?'}: {first['type']}") + more)
    return [_cut(x) for x in lines]


def layout(graph: Json) -> Layout:
    nodes = {n["id"]: n for n in graph["nodes"]}
    regions = {r["id"]: r for r in graph["regions"]}
    blocks = {b["id"]: b for b in graph["blocks"]}
    region_block_parent: dict[str, str | None] = {}  # block id -> the block holding its region's op
    for b in graph["blocks"]:
        owner = nodes.get(regions[b["region"]]["op"])
        region_block_parent[b["id"]] = owner.get("parent") if owner is not None else None
    in_block: dict[str | None, list[Json]] = {}
    for n in graph["nodes"]:
        if n["kind"] == "op":
            in_block.setdefault(n.get("parent"), []).append(n)

    def chain(endpoint: Json) -> list[tuple[str | None, str]]:
        """(block, item id in that block) from the endpoint up to the top."""
        out: list[tuple[str | None, str]] = []
        if "block" in endpoint:
            bid = endpoint["block"]
            out.append((bid, f"{bid}/a{endpoint.get('port', 0)}"))
            item_block: str | None = region_block_parent.get(bid)
            op_id = regions[blocks[bid]["region"]]["op"]
        else:
            node = nodes.get(endpoint["node"])
            if node is None or node["kind"] != "op":
                return [(None, endpoint["node"])]
            op_id = node["id"]
            item_block = node.get("parent")
        while True:
            out.append((item_block, op_id))
            if item_block is None:
                break
            reg = regions[blocks[item_block]["region"]]
            op_id = reg["op"]
            item_block = nodes[op_id].get("parent") if op_id in nodes else None
        return out

    deps: dict[str | None, list[tuple[str, str]]] = {}
    for e in graph["edges"]:
        if e["kind"] != "value":
            continue
        cs = chain(e["source"])
        ct = chain(e["target"])
        tblocks = {blk: item for blk, item in ct}
        for blk, sitem in cs:
            titem = tblocks.get(blk, "")
            if titem and titem != sitem:
                deps.setdefault(blk, []).append((sitem, titem))
                break

    all_boxes: list[Box] = []

    def op_box(n: Json) -> Box:
        if not n["regions"]:
            lines = op_lines(n)
            return Box(n["id"], "op", lines, _text_w(lines), LINE_H * len(lines) + PAD, node=n)
        box = Box(n["id"], "cluster", op_lines(n), node=n)
        x = PAD
        height = 0.0
        for rid in n["regions"]:
            rbox = region_box(regions[rid])
            rbox.x, rbox.y = x, HEADER_H + LINE_H + PAD
            x += rbox.w + GAP_X
            height = max(height, rbox.h)
            box.children.append(rbox)
        box.w = max(_text_w(box.lines), x - GAP_X + PAD)
        box.h = HEADER_H + LINE_H + PAD + height + PAD
        return box

    def region_box(r: Json) -> Box:
        box = Box(r["id"], "region", [f"region {r['index']}"])
        y = PAD
        width = 0.0
        for bid in r["blocks"]:
            bbox = block_box(blocks[bid])
            bbox.x, bbox.y = PAD, y
            y += bbox.h + GAP_Y / 2
            width = max(width, bbox.w)
            box.children.append(bbox)
        box.w = width + 2 * PAD
        box.h = y - GAP_Y / 2 + PAD
        return box

    def block_box(b: Json) -> Box:
        box = Box(b["id"], "block", [b["label"]])
        items: list[Box] = []
        for k, a in enumerate(b["arguments"]):
            lines = [_cut(f"{a['name'] or '%?'}: {a['type']}")]
            items.append(Box(f"{b['id']}/a{k}", "argument", lines, _text_w(lines), LINE_H + PAD))
        for n in in_block.get(b["id"], []):
            items.append(op_box(n))
        arrange(box, items, deps.get(b["id"], []), HEADER_H)
        return box

    def arrange(box: Box, items: list[Box], edges: list[tuple[str, str]], top: float) -> None:
        pos = {it.id: i for i, it in enumerate(items)}
        preds: dict[int, list[int]] = {}
        for s, t in edges:
            si, ti = pos.get(s), pos.get(t)
            if si is not None and ti is not None and si < ti:  # text order: later uses earlier
                preds.setdefault(ti, []).append(si)
        for i, it in enumerate(items):
            it.layer = max((items[p].layer + 1 for p in preds.get(i, [])), default=0)
        rows: dict[int, list[int]] = {}
        for i, it in enumerate(items):
            rows.setdefault(it.layer, []).append(i)
        centre: dict[int, float] = {}
        y = top + PAD
        width = 0.0
        placed_rows: list[tuple[list[int], float]] = []
        for layer in sorted(rows):
            row = rows[layer]
            # order by the mean position of what each item uses (text order breaks ties)
            row.sort(key=lambda i: (sum(centre[p] for p in preds.get(i, []) if p in centre) /
                                    max(1, sum(1 for p in preds.get(i, []) if p in centre))
                                    if preds.get(i) else float(i), i))
            x = 0.0
            h = 0.0
            for i in row:
                it = items[i]
                it.x, it.y = x, y
                centre[i] = x + it.w / 2
                x += it.w + GAP_X
                h = max(h, it.h)
            width = max(width, x - GAP_X)
            placed_rows.append((row, x - GAP_X))
            y += h + GAP_Y
        width = max(width, _text_w(box.lines))
        for row, row_w in placed_rows:
            shift = PAD + (width - row_w) / 2
            for i in row:
                items[i].x += shift
        box.children = items
        box.w = width + 2 * PAD
        box.h = (y - GAP_Y + PAD) if items else top + PAD

    # The top: external values in a row, then the shown op.
    root_nodes = in_block.get(None, [])
    top_items: list[Box] = []
    for n in graph["nodes"]:
        if n["kind"] == "external":
            lines = [_cut(f"{n['name'] or '%?'}: {n['type']}")]
            top_items.append(Box(n["id"], "external", lines, _text_w(lines), LINE_H + PAD, node=n))
    top_items.extend(op_box(n) for n in root_nodes)
    canvas = Box("canvas", "canvas", [])
    top_deps = [(s, t) for s, t in deps.get(None, [])]
    arrange(canvas, top_items, top_deps, 0.0)

    positions: dict[str, Box] = {}

    def place(box: Box, ox: float, oy: float) -> None:
        box.x += ox
        box.y += oy
        positions[box.id] = box
        all_boxes.append(box)
        for c in box.children:
            place(c, box.x, box.y)

    for it in canvas.children:
        place(it, 0.0, 0.0)

    routes: list[Route] = []
    for e in graph["edges"]:
        s, t = e["source"], e["target"]
        if e["kind"] == "control":
            src = positions.get(s["node"])
            dst = positions.get(t["block"])
            if src is None or dst is None:
                continue
            routes.append(Route(e["id"], "control", [(src.x + src.w, src.y + src.h / 2),
                                                     (dst.x, dst.y + HEADER_H / 2)], "branch"))
            continue
        sid = f"{s['block']}/a{s['port']}" if "block" in s else s["node"]
        src = positions.get(sid)
        dst = positions.get(t["node"])
        if src is None or dst is None:
            continue
        n_in = max(1, len(dst.node["operands"]) if dst.node is not None else 1)
        tx = dst.x + dst.w * (t["port"] + 1) / (n_in + 1)
        n_out = max(1, len(src.node["results"])) if src.node is not None and src.kind != "external" \
            else 1
        sx = src.x + src.w * (s.get("port", 0) + 1) / (n_out + 1) if "node" in s else src.x + src.w / 2
        sy = src.y + src.h
        ty = dst.y
        routes.append(Route(e["id"], "value", [(sx, sy), (tx, ty)],
                            f"{e.get('value') or ''}: {e['type']}"))
    return Layout(canvas.w, canvas.h, all_boxes, routes)
