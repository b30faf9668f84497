// What the graph panel shows of a graph, before any drawing: which clusters are open, how big blocks
// are cut into segments, which node stands for a hidden op, the ELK input for what is visible, and the
// node under a text position. Pure functions over the server's JSON (no DOM, no `vscode`), so the unit
// tests run them in Node and the webview bundles them.
//
// Big graphs: a layout of thousands of nodes takes far too long in the webview, so the first picture of a
// large function is an overview. Ops with regions are boxes ("+ 120 ops") until opened, and a block with
// more than SEGMENT_MIN ops is cut into segments of consecutive ops shown as boxes; both open on click.
// `initialState` opens, breadth first in text order, what fits in a budget of visible nodes.
import type { BlockJson, GraphJson, OpNode, Position, Range, RegionJson } from './protocol';

/** Visible nodes the first picture may hold (ops, segment boxes, block arguments, external values). */
export const DEFAULT_BUDGET = 120;
/** Blocks with more ops than this are cut into segments. */
export const SEGMENT_MIN = 120;

export interface ViewState {
  /** Ops with regions shown open (their regions and blocks drawn). The shown op is always open. */
  open: Set<string>;
  /** Segments shown open (`<block id>#<k>`). */
  segments: Set<string>;
}

export interface Segment {
  id: string;
  block: string;
  ops: OpNode[];
  first: number;
}

/** The graph with its tree made navigable. */
export class GraphIndex {
  readonly ops = new Map<string, OpNode>();
  readonly regions = new Map<string, RegionJson>();
  readonly blocks = new Map<string, BlockJson>();
  readonly children = new Map<string, OpNode[]>();
  /** Total ops nested under each op (itself excluded). */
  readonly inner = new Map<string, number>();
  readonly rootId: string;

  constructor(readonly graph: GraphJson) {
    for (const n of graph.nodes) if (n.kind === 'op') this.ops.set(n.id, n);
    for (const r of graph.regions) this.regions.set(r.id, r);
    for (const b of graph.blocks) this.blocks.set(b.id, b);
    for (const n of this.ops.values()) {
      if (n.parent === null) continue;
      const list = this.children.get(n.parent);
      if (list) list.push(n);
      else this.children.set(n.parent, [n]);
    }
    const top = [...this.ops.values()].filter((n) => n.parent === null || !this.blocks.has(n.parent));
    this.rootId = top.length ? top[0].id : 'o0';
    // ops come in text order, so children follow their parents: sum inner counts backwards
    const order = [...this.ops.values()].sort((a, b) => a.index - b.index);
    for (const n of order) this.inner.set(n.id, 0);
    for (let i = order.length - 1; i >= 0; i--) {
      const owner = this.ownerOf(order[i]);
      if (owner) this.inner.set(owner.id, (this.inner.get(owner.id) ?? 0) + 1 + (this.inner.get(order[i].id) ?? 0));
    }
  }

  /** The op whose region holds `n`'s block. */
  ownerOf(n: OpNode): OpNode | undefined {
    if (n.parent === null) return undefined;
    const block = this.blocks.get(n.parent);
    const region = block && this.regions.get(block.region);
    return region ? this.ops.get(region.op) : undefined;
  }

  blockOwner(blockId: string): OpNode | undefined {
    const block = this.blocks.get(blockId);
    const region = block && this.regions.get(block.region);
    return region ? this.ops.get(region.op) : undefined;
  }

  blocksOf(op: OpNode): BlockJson[] {
    const out: BlockJson[] = [];
    for (const rid of op.regions) {
      const r = this.regions.get(rid);
      for (const bid of r?.blocks ?? []) {
        const b = this.blocks.get(bid);
        if (b) out.push(b);
      }
    }
    return out;
  }

  private readonly segments = new Map<string, Segment[] | undefined>();
  private readonly segmentOfOp = new Map<string, Segment>();

  /** A block's ops as shown: directly, or cut into segments when there are many. */
  segmentsOf(blockId: string): Segment[] | undefined {
    if (this.segments.has(blockId)) return this.segments.get(blockId);
    const ops = this.children.get(blockId) ?? [];
    let out: Segment[] | undefined;
    if (ops.length > SEGMENT_MIN) {
      out = [];
      const size = Math.max(40, Math.ceil(Math.sqrt(ops.length) * 1.5));
      for (let k = 0, first = 0; first < ops.length; k++, first += size) {
        const seg = { id: `${blockId}#${k}`, block: blockId, ops: ops.slice(first, first + size), first };
        for (const op of seg.ops) this.segmentOfOp.set(op.id, seg);
        out.push(seg);
      }
    }
    this.segments.set(blockId, out);
    return out;
  }

  /** The segment op `n` is drawn in, when its block is cut into segments. */
  segmentOf(n: OpNode): Segment | undefined {
    if (n.parent === null) return undefined;
    this.segmentsOf(n.parent);
    return this.segmentOfOp.get(n.id);
  }
}

/** How many nodes opening `op` adds (its block arguments and its blocks' direct items). */
function openCost(index: GraphIndex, op: OpNode): number {
  let cost = 0;
  for (const b of index.blocksOf(op)) {
    cost += b.arguments.length + 1;
    const segs = index.segmentsOf(b.id);
    cost += segs ? segs.length : (index.children.get(b.id) ?? []).length;
  }
  return cost;
}

/** The first picture: everything when it fits in `budget` nodes, else breadth first what fits. */
export function initialState(index: GraphIndex, budget = DEFAULT_BUDGET): ViewState {
  const state: ViewState = { open: new Set([index.rootId]), segments: new Set() };
  const root = index.ops.get(index.rootId);
  if (!root) return state;
  let used = openCost(index, root) + index.graph.nodes.filter((n) => n.kind === 'external').length;
  // a breadth-first queue of what could open next: segments and ops with regions, in text order
  type Item = { kind: 'op'; op: OpNode } | { kind: 'segment'; seg: Segment };
  const queue: Item[] = [];
  const enqueueBlocks = (op: OpNode) => {
    for (const b of index.blocksOf(op)) {
      const segs = index.segmentsOf(b.id);
      if (segs) for (const seg of segs) queue.push({ kind: 'segment', seg });
      else for (const n of index.children.get(b.id) ?? []) if (n.regions.length) queue.push({ kind: 'op', op: n });
    }
  };
  enqueueBlocks(root);
  while (queue.length) {
    const item = queue.shift() as Item;
    if (item.kind === 'segment') {
      const cost = item.seg.ops.length - 1;
      if (used + cost > budget) continue;
      used += cost;
      state.segments.add(item.seg.id);
      for (const n of item.seg.ops) if (n.regions.length) queue.push({ kind: 'op', op: n });
    } else {
      const cost = openCost(index, item.op);
      if (used + cost > budget) continue;
      used += cost;
      state.open.add(item.op.id);
      enqueueBlocks(item.op);
    }
  }
  return state;
}

/** The visible node standing for op `id`: itself, its closed segment, or its nearest closed ancestor. */
export function representative(index: GraphIndex, state: ViewState, id: string): string | undefined {
  let n = index.ops.get(id);
  let best: string | undefined = n?.id;
  while (n) {
    const owner = index.ownerOf(n);
    if (!owner) break;
    if (!state.open.has(owner.id)) best = owner.id;
    else if (n.parent) {
      const seg = segmentOf(index, n);
      if (seg && !state.segments.has(seg.id)) best = seg.id;
    }
    n = owner;
  }
  return best;
}

export function segmentOf(index: GraphIndex, n: OpNode): Segment | undefined {
  return index.segmentOf(n);
}

/** Open everything needed to show op `id` itself. */
export function reveal(index: GraphIndex, state: ViewState, id: string): void {
  let n = index.ops.get(id);
  while (n) {
    const seg = segmentOf(index, n);
    if (seg) state.segments.add(seg.id);
    const owner = index.ownerOf(n);
    if (owner) state.open.add(owner.id);
    n = owner;
  }
}

/** The innermost op whose range holds `pos` (in the graph's text version), if any. */
export function opAt(graph: GraphJson, pos: Position): string | undefined {
  let best: OpNode | undefined;
  for (const n of graph.nodes) {
    if (n.kind !== 'op' || !n.range || !contains(n.range, pos)) continue;
    if (!best || n.index > best.index) best = n; // text order: a later op containing pos is nested deeper
  }
  return best?.id;
}

function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character <= b.character);
}

export function contains(r: Range, p: Position): boolean {
  return before(r.start, p) && before(p, r.end);
}

/** Ops whose name, symbol, result names or types contain `query` (case-insensitive), in text order. */
export function search(graph: GraphJson, query: string): string[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const out: string[] = [];
  for (const n of graph.nodes) {
    if (n.kind !== 'op') continue;
    const hay = [n.name, n.symbol ?? '', ...n.results.map((r) => `${r.name ?? ''} ${r.type}`)].join('\n').toLowerCase();
    if (hay.includes(q)) out.push(n.id);
  }
  return out;
}

/** A dialect's hue (0-359): the same hash as the CLI's DOT colours, spread over the colour wheel. */
export function dialectHue(dialect: string): number {
  let h = 0;
  for (let i = 0; i < dialect.length; i++) h = (h * 31 + dialect.charCodeAt(i)) >>> 0;
  return (h % 12) * 30;
}

// ---------------------------------------------------------------------------------------------------
// The ELK input for what is visible.

export interface ElkPortIn {
  id: string;
  width: number;
  height: number;
  layoutOptions?: Record<string, string>;
}

export interface ElkNodeIn {
  id: string;
  width?: number;
  height?: number;
  children?: ElkNodeIn[];
  ports?: ElkPortIn[];
  layoutOptions?: Record<string, string>;
}

export interface ElkEdgeIn {
  id: string;
  sources: string[];
  targets: string[];
}

/** What each visible ELK id stands for, for drawing. */
export type Shape =
  | { kind: 'op'; op: OpNode }
  | { kind: 'collapsed'; op: OpNode; inner: number }
  | { kind: 'cluster'; op: OpNode }
  | { kind: 'region'; region: RegionJson }
  | { kind: 'block'; block: BlockJson }
  | { kind: 'argument'; block: BlockJson; index: number }
  | { kind: 'segment'; segment: Segment }
  | { kind: 'external'; name: string; type: string; offPage: boolean };

export interface EdgeInfo {
  kind: 'value' | 'control';
  /** How many uses this edge stands for (edges into boxes are merged). */
  count: number;
  label: string;
}

/** An edge as drawn: between ports of ops, block arguments, boxes and clusters at any depth. */
export interface DrawnEdge extends EdgeInfo {
  id: string;
  source: string;
  target: string;
  /** The layout edge between the same two ends, when ELK routed this one itself. */
  routed: boolean;
}

export interface VisibleGraph {
  /** The ELK input: every edge joins two children of one container (see `visibleGraph`). */
  elk: ElkNodeIn & { edges: ElkEdgeIn[] };
  shapes: Map<string, Shape>;
  edges: DrawnEdge[];
  /** Visible leaf nodes (ops, boxes, block arguments, externals): what the layout's cost grows with. */
  leaves: number;
}

export const CHAR_W = 7.2;
export const LINE_H = 16;
const PORT = 6;
const HEADER = 26;

export function opLines(op: OpNode): string[] {
  const head = op.name + (op.symbol ? ` @${op.symbol}` : '');
  const lines = [head];
  if (op.results.length) {
    const r = op.results[0];
    const more = op.results.length > 1 ? ` (+${op.results.length - 1})` : '';
    lines.push(clip(`${r.name ?? '%?'}: ${r.type}`, 44) + more);
  }
  return lines;
}

export function clip(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n - 1)}…`;
}

function textWidth(lines: string[]): number {
  return Math.min(420, Math.max(90, Math.max(...lines.map((l) => l.length)) * CHAR_W + 24));
}

const OPTIONS_ROOT: Record<string, string> = {
  'elk.algorithm': 'layered',
  'elk.direction': 'DOWN',
  'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
  'elk.json.edgeCoords': 'ROOT',
  'elk.json.shapeCoords': 'ROOT',
  'elk.layered.spacing.nodeNodeBetweenLayers': '28',
  'elk.spacing.nodeNode': '18',
  'elk.layered.thoroughness': '1',
  'elk.layered.nodePlacement.strategy': 'LINEAR_SEGMENTS',
  'elk.edgeRouting': 'POLYLINE',
};

/**
 * The visible part of the graph and its ELK input. ELK's layered layout fails (a null dereference deep
 * inside) on some graphs whose edges cross cluster borders, such as a while loop's body using values
 * from outside, so the layout never sees such an edge: each is lifted to the two children of the
 * innermost common container that hold its ends (merged when several lift to the same pair). Block
 * arguments are small nodes at the top of their block. The drawn edges keep their real ends; those
 * that were lifted are drawn as curves between the laid-out ends.
 */
export function visibleGraph(index: GraphIndex, state: ViewState): VisibleGraph {
  const shapes = new Map<string, Shape>();
  const parent = new Map<string, string>(); // ELK node or port id -> its container (or port owner)
  let leaves = 0;
  const portOptions = { 'elk.portConstraints': 'FIXED_ORDER' };
  const opPorts = (op: OpNode): ElkPortIn[] => {
    const ports = [
      ...op.operands.map((_, k) => ({ id: `${op.id}:i${k}`, width: PORT, height: PORT, layoutOptions: { 'elk.port.side': 'NORTH' } })),
      ...op.results.map((_, k) => ({ id: `${op.id}:o${k}`, width: PORT, height: PORT, layoutOptions: { 'elk.port.side': 'SOUTH' } })),
    ];
    for (const p of ports) parent.set(p.id, op.id);
    return ports;
  };
  const adopt = (container: string, children: ElkNodeIn[]): ElkNodeIn[] => {
    for (const c of children) parent.set(c.id, container);
    return children;
  };

  const opNode = (op: OpNode): ElkNodeIn => {
    if (op.regions.length && state.open.has(op.id)) {
      shapes.set(op.id, { kind: 'cluster', op });
      return {
        id: op.id,
        layoutOptions: { 'elk.padding': `[top=${HEADER + LINE_H},left=12,bottom=12,right=12]` },
        children: adopt(op.id, op.regions.map((rid) => regionNode(index.regions.get(rid) as RegionJson))),
      };
    }
    const lines = opLines(op);
    leaves++;
    if (op.regions.length) {
      shapes.set(op.id, { kind: 'collapsed', op, inner: index.inner.get(op.id) ?? 0 });
      lines.push('');
    } else shapes.set(op.id, { kind: 'op', op });
    return { id: op.id, width: textWidth(lines), height: lines.length * LINE_H + 12, ports: opPorts(op), layoutOptions: portOptions };
  };

  const regionNode = (r: RegionJson): ElkNodeIn => {
    shapes.set(r.id, { kind: 'region', region: r });
    return {
      id: r.id,
      layoutOptions: { 'elk.padding': '[top=8,left=8,bottom=8,right=8]' },
      children: adopt(r.id, r.blocks.map((bid) => blockNode(index.blocks.get(bid) as BlockJson))),
    };
  };

  const blockNode = (b: BlockJson): ElkNodeIn => {
    shapes.set(b.id, { kind: 'block', block: b });
    const children: ElkNodeIn[] = b.arguments.map((a, k) => {
      const id = `${b.id}:a${k}`;
      shapes.set(id, { kind: 'argument', block: b, index: k });
      leaves++;
      return { id, width: textWidth([clip(`${a.name ?? '%?'}: ${a.type}`, 32)]) - 8, height: LINE_H + 6, layoutOptions: { 'elk.layered.layering.layerConstraint': 'FIRST' } };
    });
    const segs = index.segmentsOf(b.id);
    if (segs) {
      for (const seg of segs) {
        if (state.segments.has(seg.id)) children.push(...seg.ops.map(opNode));
        else {
          shapes.set(seg.id, { kind: 'segment', segment: seg });
          leaves++;
          children.push({ id: seg.id, width: 240, height: 2 * LINE_H + 12 });
        }
      }
    } else children.push(...(index.children.get(b.id) ?? []).map(opNode));
    // a terminator without results (return, yield, branch) closes its block: the last layer, even
    // when nothing flows into it
    const last = children[children.length - 1];
    const lastOp = last && index.ops.get(last.id);
    if (lastOp && !lastOp.results.length && !lastOp.regions.length && children.length > 1) {
      last.layoutOptions = { ...last.layoutOptions, 'elk.layered.layering.layerConstraint': 'LAST' };
    }
    return {
      id: b.id,
      layoutOptions: { 'elk.padding': `[top=${HEADER},left=10,bottom=10,right=10]` },
      children: adopt(b.id, children),
    };
  };

  const top: ElkNodeIn[] = [];
  for (const n of index.graph.nodes) {
    if (n.kind !== 'external') continue;
    const lines = [clip(`${n.name ?? '%?'}: ${n.type}`, 44)];
    shapes.set(n.id, { kind: 'external', name: n.name ?? '%?', type: n.type, offPage: n.offPage });
    leaves++;
    top.push({ id: n.id, width: textWidth(lines), height: LINE_H + 12 });
  }
  const root = index.ops.get(index.rootId);
  if (root) top.push(opNode(root));
  adopt('graph', top);

  // The drawn edges: between what stands for each end; uses hidden inside one box are dropped, uses
  // into or out of a box merged per pair of ends.
  const drawn: DrawnEdge[] = [];
  const mergedAt = new Map<string, DrawnEdge>();
  const visibleBlock = (bid: string): boolean => {
    const owner = index.blockOwner(bid);
    return !!owner && shapes.get(owner.id)?.kind === 'cluster';
  };
  const hidden = (opId: string) => {
    const owner = index.ops.get(opId);
    return owner ? representative(index, state, owner.id) : undefined;
  };
  const endOf = (ep: { node: string; port: number } | { block: string; port: number }, out: boolean): string | undefined => {
    if ('block' in ep) {
      if (visibleBlock(ep.block)) return `${ep.block}:a${ep.port}`;
      const owner = index.blockOwner(ep.block);
      return owner ? hidden(owner.id) : undefined;
    }
    if (!index.ops.has(ep.node)) return shapes.has(ep.node) ? ep.node : undefined;
    const rep = representative(index, state, ep.node);
    if (rep === ep.node && shapes.get(rep)?.kind !== 'cluster') return `${ep.node}:${out ? 'o' : 'i'}${ep.port}`;
    return rep;
  };
  const owner = (end: string): string => (parent.has(end) && !shapes.has(end) ? (parent.get(end) as string) : end);
  for (const e of index.graph.edges) {
    let src: string | undefined;
    let dst: string | undefined;
    if (e.kind === 'value') {
      src = endOf(e.source, true);
      dst = endOf(e.target, false);
    } else {
      src = endOf(e.source, true);
      if (src) src = owner(src); // a successor leaves the terminator itself, not a result port
      dst = visibleBlock(e.target.block) ? e.target.block : (() => {
        const o = index.blockOwner(e.target.block);
        return o ? hidden(o.id) : undefined;
      })();
    }
    if (!src || !dst || owner(src) === owner(dst)) continue;
    const label = e.kind === 'value' ? `${e.value ?? ''}: ${e.type}` : 'branch';
    // uses into or out of a box (a closed op, a segment) are merged per pair of ends
    const boxEnd = (end: string) => !end.includes(':') && shapes.get(end)?.kind !== 'external';
    if (e.kind === 'value' && (boxEnd(src) || boxEnd(dst))) {
      const key = `${src}->${dst}`;
      const m = mergedAt.get(key);
      if (m) {
        m.count++;
        m.label = `${m.count} uses`;
        continue;
      }
      const d: DrawnEdge = { id: `m:${e.id}`, source: src, target: dst, kind: 'value', count: 1, label, routed: false };
      mergedAt.set(key, d);
      drawn.push(d);
      continue;
    }
    drawn.push({ id: e.id, source: src, target: dst, kind: e.kind, count: 1, label, routed: false });
  }

  // The layout edges: each drawn edge lifted to the children of the innermost common container.
  const chain = (end: string): string[] => {
    const out: string[] = [];
    let cur: string | undefined = owner(end);
    while (cur !== undefined) {
      out.push(cur);
      cur = parent.get(cur);
    }
    return out;
  };
  const layoutEdges: ElkEdgeIn[] = [];
  const seen = new Set<string>();
  for (const d of drawn) {
    const cs = chain(d.source);
    const ct = chain(d.target);
    const inT = new Set(ct);
    const li = cs.findIndex((x) => inT.has(x));
    const tj = li > 0 ? ct.indexOf(cs[li]) : -1;
    if (tj <= 0) continue; // one end holds the other: drawn, but no constraint for the layout
    const s = cs[li - 1];
    const t = ct[tj - 1];
    const src = s === owner(d.source) ? d.source : s;
    const dst = t === owner(d.target) ? d.target : t;
    const key = `${src}->${dst}`;
    if (seen.has(key)) continue;
    seen.add(key);
    d.routed = src === d.source && dst === d.target;
    layoutEdges.push({ id: d.routed ? d.id : `l:${d.id}`, sources: [src], targets: [dst] });
  }
  return { elk: { id: 'graph', layoutOptions: OPTIONS_ROOT, children: top, edges: layoutEdges }, shapes, edges: drawn, leaves };
}
