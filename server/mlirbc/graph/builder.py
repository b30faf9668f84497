"""Builds the data-flow graph of one op's regions (a function, or any op with regions) as plain JSON.

Nodes are the ops (the shown op itself first, then everything nested in it, in text order) and, for
values defined outside the shown op, `external` nodes.  Block arguments are ports of their block, op
operands and results ports of their op; regions and blocks are clusters (`regions`, `blocks`), so a
client can collapse them.  Edges are SSA uses (one per operand, carrying the value's type) and control
flow (one per successor, from the terminator to the target block).

The graph is bounded: at most `limit` ops per answer, in text order from `offset`, with a `truncated`
message ("showing ops 1-5000 of 12000") and `page.next` for the next page.  The ancestors of a page's
first op are shown too (marked `offPage`) so that nesting stays visible.  Building walks only the shown
op's subtree, so recomputing after an edit costs time in proportion to the function, not the file.
The JSON is described by docs/graph-schema.json (`SCHEMA_ID`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..ir.operation import Block, BlockArgument, Operation, OpResult, Value
from ..ir.types import Type
from ..syntax.attr_printer import print_type
from .scope import path_of, scope_kind, symbol_name
from .source import SourceMap

SCHEMA_ID = "mlirbc-graph/1"
DEFAULT_LIMIT = 20_000
MAX_TYPE_CHARS = 200
"""Longer type texts are cut in the graph (the text view has them whole)."""

Json = dict[str, Any]
ElidedProbe = Callable[[Operation], bool]


def _no_elision(op: Operation) -> bool:
    return False


class _TypeNames:
    """Type -> text, once per distinct (uniqued) type."""

    def __init__(self) -> None:
        self._cache: dict[int, str] = {}

    def __call__(self, t: Type) -> str:
        key = id(t)
        text = self._cache.get(key)
        if text is None:
            try:
                text = print_type(t)
            except Exception:  # a type the printer cannot render still gets a node
                text = f"<{type(t).__name__}>"
            if len(text) > MAX_TYPE_CHARS:
                text = text[:MAX_TYPE_CHARS - 1] + "…"
            self._cache[key] = text
        return text


def _walk(root: Operation) -> tuple[list[Operation], list[str | None]]:
    """Pre-order of `root`'s subtree with each op's parent block id (None for `root`)."""
    order: list[Operation] = []
    parents: list[str | None] = []
    stack: list[tuple[Operation, str | None]] = [(root, None)]
    while stack:
        op, parent = stack.pop()
        idx = len(order)
        order.append(op)
        parents.append(parent)
        if op.regions:
            pending: list[tuple[Operation, str | None]] = []
            for ri, region in enumerate(op.regions):
                for bi, block in enumerate(region.blocks):
                    bid = f"b{idx}.{ri}.{bi}"
                    pending.extend((child, bid) for child in block.operations)
            stack.extend(reversed(pending))
    return order, parents


def build_graph(root: Operation, source: SourceMap, *, limit: int = DEFAULT_LIMIT, offset: int = 0,
                elided: ElidedProbe = _no_elision) -> Json:
    """The graph of `root` and everything nested in it (see the module docstring)."""
    limit = max(1, limit)
    order, parents = _walk(root)
    total = len(order)
    offset = max(0, min(offset, max(total - 1, 0)))
    end = min(total, offset + limit)
    index_of = {id(op): i for i, op in enumerate(order)}
    shown = set(range(offset, end))
    # ancestors of the page's first op: the clusters its ops sit in
    context: list[int] = []
    if offset > 0:
        cur = order[offset]
        while True:
            block = cur.parent
            region = block.parent if block is not None else None
            owner = region.parent if region is not None else None
            if owner is None or id(owner) not in index_of:
                break
            context.append(index_of[id(owner)])
            cur = owner
    shown.update(context)
    type_text = _TypeNames()

    nodes: list[Json] = []
    regions: list[Json] = []
    blocks: list[Json] = []
    block_ids: dict[int, str] = {}
    for i in sorted(shown):
        op = order[i]
        for ri, region in enumerate(op.regions):
            rid = f"r{i}.{ri}"
            bids = []
            for bi, block in enumerate(region.blocks):
                bid = f"b{i}.{ri}.{bi}"
                block_ids[id(block)] = bid
                bids.append(bid)
                args = [{"name": source.value_name(a), "type": type_text(a.type)}
                        for a in block.arguments]
                brange = source.block_range(block)
                blocks.append({"id": bid, "region": rid, "index": bi,
                               "label": source.block_label(block) or f"^bb{bi}",
                               "arguments": args,
                               "range": brange.to_json() if brange is not None else None})
            regions.append({"id": rid, "op": f"o{i}", "index": ri, "blocks": bids})

    externals: dict[int, str] = {}
    ext_nodes: list[Json] = []

    def external(v: Value, off_page: bool) -> str:
        xid = externals.get(id(v))
        if xid is None:
            xid = externals[id(v)] = f"x{len(externals)}"
            ext_nodes.append({"id": xid, "kind": "external", "name": source.value_name(v),
                              "type": type_text(v.type), "offPage": off_page})
        return xid

    edges: list[Json] = []
    total_uses = 0
    total_succ = 0
    for i, op in enumerate(order):
        total_uses += len(op.operands)
        total_succ += len(op.successors)
        if not offset <= i < end:
            continue  # an off-page ancestor's own edges belong to its page
        oid = f"o{i}"
        for k, v in enumerate(op.operands):
            src: Json
            if isinstance(v, OpResult) and id(v.owner) in index_of:
                j = index_of[id(v.owner)]
                src = {"node": f"o{j}", "port": v.index} if j in shown else \
                    {"node": external(v, True), "port": 0}
            elif isinstance(v, BlockArgument) and id(v.owner) in block_ids:
                src = {"block": block_ids[id(v.owner)], "port": v.index}
            elif isinstance(v, BlockArgument) and _inside(v.owner, order[0]):
                src = {"node": external(v, True), "port": 0}
            else:
                src = {"node": external(v, False), "port": 0}
            edges.append({"id": f"e{i}.{k}", "kind": "value", "source": src,
                          "target": {"node": oid, "port": k}, "type": type_text(v.type),
                          "value": source.value_name(v)})
        for k, succ in enumerate(op.successors):
            target = block_ids.get(id(succ))
            if target is not None:  # a branch into a block that is not shown is counted, not drawn
                edges.append({"id": f"c{i}.{k}", "kind": "control",
                              "source": {"node": oid, "port": k}, "target": {"block": target}})
    for i in sorted(shown):
        op = order[i]
        rng = source.op_range(op)
        node: Json = {
            "id": f"o{i}", "kind": "op", "index": i, "name": op.name,
            "dialect": op.op_name.dialect, "parent": parents[i] if i > 0 else None,
            "operands": [type_text(v.type) for v in op.operands],
            "results": [{"name": source.value_name(r), "type": type_text(r.type)} for r in op.results],
            "regions": [f"r{i}.{ri}" for ri in range(len(op.regions))],
            "fallback": op.is_fallback, "elided": elided(op),
            "range": rng.to_json() if rng is not None else None,
        }
        if op.is_fallback and op.properties is not None:
            node["fallbackReason"] = op.properties.reason or "no model decodes its properties"
        sym = symbol_name(op)
        if sym is not None:
            node["symbol"] = sym
        if i < offset or i >= end:
            node["offPage"] = True
        nodes.append(node)
    nodes.extend(ext_nodes)

    shown_ops = end - offset
    value_edges = sum(1 for e in edges if e["kind"] == "value")
    truncated = None
    if offset > 0 or end < total:
        truncated = (f"too large: showing ops {offset + 1}-{end} of {total} "
                     f"(limit {limit} per page)")
    root_range = source.op_range(root)
    return {
        "schema": SCHEMA_ID,
        "root": {"id": "o0", "name": root.name, "symbol": symbol_name(root), "kind": scope_kind(root),
                 "path": path_of(root),
                 "range": root_range.to_json() if root_range is not None else None},
        "nodes": nodes,
        "regions": regions,
        "blocks": blocks,
        "edges": edges,
        "counts": {"ops": total, "shownOps": shown_ops, "uses": total_uses,
                   "shownUses": value_edges, "successors": total_succ,
                   "shownSuccessors": len(edges) - value_edges},
        "page": {"offset": offset, "limit": limit, "next": end if end < total else None},
        "truncated": truncated,
    }


def _inside(block: Block, root: Operation) -> bool:
    region = block.parent
    owner = region.parent if region is not None else None
    while owner is not None:
        if owner is root:
            return True
        b = owner.parent
        r = b.parent if b is not None else None
        owner = r.parent if r is not None else None
    return False
