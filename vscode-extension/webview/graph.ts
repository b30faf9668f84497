// The graph panel's page: lays the visible part of a graph out with ELK (bundled, run in the page: no
// network, no worker) and draws it as SVG with pan and zoom, search, dialect colours and the fallback /
// elided marks; talks to the extension through postMessage (see src/graph/protocol.ts).
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import {
  clip,
  dialectHue,
  GraphIndex,
  initialState,
  LINE_H,
  opLines,
  representative,
  reveal,
  search,
  visibleGraph,
  type DrawnEdge,
  type Shape,
  type ViewState,
} from '../src/graph/model';
import type { FromWebview, GraphJson, OpNode, ToWebview } from '../src/graph/protocol';

declare function acquireVsCodeApi(): { postMessage(msg: FromWebview): void };

const vscode = acquireVsCodeApi();
const SVG_NS = 'http://www.w3.org/2000/svg';
const elk = new ELK();

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const svg = document.getElementById('graph') as unknown as SVGSVGElement;
const viewport = document.getElementById('viewport') as unknown as SVGGElement;
const status = $<HTMLSpanElement>('status');
const banner = $<HTMLDivElement>('banner');
const searchBox = $<HTMLInputElement>('search');
const functionsBox = $<HTMLSelectElement>('functions');

let graph: GraphJson | undefined;
let index: GraphIndex | undefined;
let state: ViewState | undefined;
let cursorId: string | undefined;
let matches: string[] = [];
let matchAt = -1;
let view = { x: 0, y: 0, k: 1 };
let size = { w: 0, h: 0 };
let layoutRun = 0;
const elements = new Map<string, SVGGElement>();

function post(msg: FromWebview): void {
  vscode.postMessage(msg);
}

function el<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, parent?: Element): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  parent?.appendChild(e);
  return e;
}

function title(parent: Element, text: string): void {
  el('title', {}, parent).textContent = text;
}

function applyView(): void {
  viewport.setAttribute('transform', `translate(${view.x},${view.y}) scale(${view.k})`);
}

function fit(): void {
  const box = svg.getBoundingClientRect();
  if (!size.w || !size.h || !box.width) return;
  const k = Math.min(1.5, Math.min(box.width / (size.w + 40), box.height / (size.h + 40)));
  view = { k, x: (box.width - size.w * k) / 2, y: Math.max(10, (box.height - size.h * k) / 2) };
  applyView();
}

/** The first view of a graph: all of it when that stays readable, else the cursor's op (or the top). */
function firstView(): void {
  const box = svg.getBoundingClientRect();
  const k = Math.min(box.width / (size.w + 40), box.height / (size.h + 40));
  if (k >= 0.45) return fit();
  const at = cursorId && index && state ? representative(index, state, cursorId) : undefined;
  if (at && elements.has(at)) return centreOn(at);
  view = { k: 0.8, x: Math.max(10, (box.width - size.w * 0.8) / 2), y: 10 };
  applyView();
}

function centreOn(id: string): void {
  const e = elements.get(id);
  if (!e) return;
  const b = e.getBBox();
  const box = svg.getBoundingClientRect();
  const k = Math.max(view.k, 0.8);
  view = { k, x: box.width / 2 - (b.x + b.width / 2) * k, y: box.height / 2 - (b.y + b.height / 2) * k };
  applyView();
}

function describe(op: OpNode): string {
  const lines = [op.name + (op.symbol ? ` @${op.symbol}` : '')];
  for (const r of op.results) lines.push(`${r.name ?? '%?'}: ${r.type}`);
  if (op.fallback) lines.push(`fallback: properties kept verbatim (${op.fallbackReason ?? 'no model'})`);
  if (op.elided) lines.push('holds values the text shows elided');
  return lines.join('\n');
}

function hueClass(op: OpNode): string {
  return `h${dialectHue(op.dialect) / 30}`;
}

function drawShape(id: string, shape: Shape, node: ElkNode, layer: Record<string, SVGGElement>): void {
  const x = node.x ?? 0;
  const y = node.y ?? 0;
  const w = node.width ?? 0;
  const h = node.height ?? 0;
  if (shape.kind === 'region') {
    el('rect', { x, y, width: w, height: h, rx: 4, class: 'region' }, layer.clusters);
    return;
  }
  if (shape.kind === 'block') {
    const g = el('g', { class: 'block' }, layer.clusters);
    el('rect', { x, y, width: w, height: h, rx: 4 }, g);
    const args = shape.block.arguments.map((a) => `${a.name ?? '%?'}: ${a.type}`);
    el('text', { x: x + 8, y: y + 17, class: 'label' }, g).textContent =
      clip(shape.block.label + (args.length ? `(${args.join(', ')})` : ''), Math.max(8, Math.floor(w / 7.2) - 2));
    title(g, [shape.block.label, ...args].join('\n'));
    elements.set(id, g);
    return;
  }
  if (shape.kind === 'cluster') {
    const op = shape.op;
    const g = el('g', { class: `cluster ${op.fallback ? 'fallback' : ''} ${op.elided ? 'elided' : ''}`, 'data-id': id, 'data-line': op.range?.start.line ?? '' }, layer.clusters);
    el('rect', { x, y, width: w, height: h, rx: 6, class: 'frame' }, g);
    const head = el('g', { class: `head ${hueClass(op)}` }, g);
    el('rect', { x, y, width: w, height: 26 + LINE_H, rx: 6 }, head);
    lines(head, opLines(op), x, y, w);
    mark(head, op, x, y, w);
    title(g, `${describe(op)}\n(double-click to close)`);
    head.addEventListener('click', (ev) => {
      ev.stopPropagation();
      post({ type: 'select', id: op.id });
    });
    head.addEventListener('dblclick', (ev) => {
      ev.stopPropagation();
      if (state && op.id !== index?.rootId) {
        state.open.delete(op.id);
        void relayout();
      }
    });
    elements.set(id, g);
    return;
  }
  const g = el('g', { 'data-id': id }, layer.nodes);
  elements.set(id, g);
  if (shape.kind === 'argument') {
    const a = shape.block.arguments[shape.index];
    g.setAttribute('class', 'argument');
    el('rect', { x, y, width: w, height: h, rx: h / 2 }, g);
    el('text', { x: x + 8, y: y + h / 2 + 4 }, g).textContent = clip(`${a.name ?? '%?'}: ${a.type}`, Math.max(6, Math.floor((w - 12) / 7.2)));
    title(g, `block argument ${shape.index} of ${shape.block.label}\n${a.name ?? '%?'}: ${a.type}`);
    return;
  }
  if (shape.kind === 'external') {
    g.setAttribute('class', `external ${shape.offPage ? 'offpage' : ''}`);
    el('rect', { x, y, width: w, height: h, rx: h / 2 }, g);
    el('text', { x: x + 10, y: y + h / 2 + 4 }, g).textContent = clip(`${shape.name}: ${shape.type}`, 44);
    title(g, `${shape.name}: ${shape.type}\n${shape.offPage ? 'defined on another page' : 'defined outside this graph'}`);
    return;
  }
  if (shape.kind === 'segment') {
    const seg = shape.segment;
    g.setAttribute('class', 'segment box');
    el('rect', { x, y, width: w, height: h, rx: 6 }, g);
    const first = seg.ops[0];
    const last = seg.ops[seg.ops.length - 1];
    el('text', { x: x + 10, y: y + 20, class: 'name' }, g).textContent = `+ ${seg.ops.length} ops`;
    el('text', { x: x + 10, y: y + 20 + LINE_H }, g).textContent = clip(`${first.name} … ${last.name}`, 32);
    title(g, `ops ${first.index}-${last.index} of this block (click to open)`);
    g.addEventListener('click', () => {
      state?.segments.add(seg.id);
      void relayout();
    });
    return;
  }
  const op = shape.op;
  if (op.range) g.setAttribute('data-line', String(op.range.start.line));
  g.setAttribute('class', `op ${hueClass(op)} ${op.fallback ? 'fallback' : ''} ${op.elided ? 'elided' : ''} ${shape.kind === 'collapsed' ? 'box' : ''}`);
  el('rect', { x, y, width: w, height: h, rx: 6 }, g);
  const text = opLines(op);
  if (shape.kind === 'collapsed') text.push(`+ ${shape.inner} ops inside`);
  lines(g, text, x, y, w);
  mark(g, op, x, y, w);
  title(g, describe(op) + (shape.kind === 'collapsed' ? '\n(click to open)' : ''));
  g.addEventListener('click', (ev) => {
    ev.stopPropagation();
    post({ type: 'select', id: op.id });
    if (shape.kind === 'collapsed' && state) {
      state.open.add(op.id);
      void relayout();
    }
  });
}

function lines(g: SVGGElement, text: string[], x: number, y: number, w: number): void {
  const max = Math.max(8, Math.floor((w - 20) / 7.2));
  text.forEach((t, k) => {
    el('text', { x: x + 10, y: y + 18 + k * LINE_H, class: k === 0 ? 'name' : '' }, g).textContent = clip(t, max);
  });
}

/** The marks the text view shows: a warning sign for fallback ops, an ellipsis for elided values. */
function mark(g: SVGGElement, op: OpNode, x: number, y: number, w: number): void {
  let at = x + w - 16;
  if (op.fallback) {
    el('text', { x: at, y: y + 17, class: 'badge fallback-badge' }, g).textContent = '⚠';
    at -= 16;
  }
  if (op.elided) el('text', { x: at, y: y + 17, class: 'badge elided-badge' }, g).textContent = '…';
}

type Box = { x: number; y: number; w: number; h: number };

function pathOf(points: { x: number; y: number }[]): string {
  let d = `M ${points[0].x} ${points[0].y}`;
  for (const p of points.slice(1)) d += ` L ${p.x} ${p.y}`;
  return d;
}

/** One drawn edge: ELK's route when ELK laid this very edge out, else a curve between its ends. */
function drawEdge(edge: DrawnEdge, routed: Map<string, ElkExtendedEdge>, boxes: Map<string, Box>, layer: SVGGElement): void {
  let d = '';
  const laid = edge.routed ? routed.get(edge.id) : undefined;
  if (laid?.sections?.length) {
    d = laid.sections.map((s) => pathOf([s.startPoint, ...(s.bendPoints ?? []), s.endPoint])).join(' ');
  } else {
    const a = boxes.get(edge.source);
    const b = boxes.get(edge.target);
    if (!a || !b) return;
    const x1 = a.x + a.w / 2;
    const y1 = a.y + a.h;
    const x2 = edge.kind === 'control' && !edge.target.includes(':') ? b.x + 14 : b.x + b.w / 2;
    const y2 = b.y;
    const dy = Math.max(30, Math.abs(y2 - y1) / 2);
    d = `M ${x1} ${y1} C ${x1} ${y1 + dy}, ${x2} ${y2 - dy}, ${x2} ${y2}`;
  }
  const path = el('path', { d, class: `edge ${edge.kind} ${edge.count > 1 ? 'merged' : ''}`, 'marker-end': 'url(#arrow)' }, layer);
  title(path, edge.label);
}

function collect(node: ElkNode, out: ElkNode[]): void {
  out.push(node);
  for (const c of node.children ?? []) collect(c, out);
}

async function relayout(fitAfter = false): Promise<void> {
  if (!graph || !index || !state) return;
  const run = ++layoutRun;
  const t0 = performance.now();
  const vis = visibleGraph(index, state);
  status.textContent = `laying out ${vis.leaves} nodes…`;
  let laid: ElkNode;
  try {
    laid = await elk.layout(vis.elk as ElkNode);
  } catch (err) {
    status.textContent = `layout failed: ${err instanceof Error ? err.message : String(err)}`;
    return;
  }
  if (run !== layoutRun) return; // a newer layout started meanwhile
  const t1 = performance.now();
  viewport.replaceChildren();
  elements.clear();
  const layer = {
    clusters: el('g', { class: 'clusters' }, viewport),
    edges: el('g', { class: 'edges' }, viewport),
    nodes: el('g', { class: 'nodes' }, viewport),
  };
  const all: ElkNode[] = [];
  for (const c of laid.children ?? []) collect(c, all);
  const boxes = new Map<string, Box>();
  for (const n of all) {
    const shape = vis.shapes.get(n.id);
    if (shape) drawShape(n.id, shape, n, layer);
    boxes.set(n.id, { x: n.x ?? 0, y: n.y ?? 0, w: n.width ?? 0, h: n.height ?? 0 });
    for (const p of n.ports ?? []) boxes.set(p.id, { x: p.x ?? 0, y: p.y ?? 0, w: p.width ?? 0, h: p.height ?? 0 });
  }
  const routed = new Map<string, ElkExtendedEdge>();
  for (const e of (laid.edges ?? []) as ElkExtendedEdge[]) routed.set(e.id, e);
  for (const e of vis.edges) drawEdge(e, routed, boxes, layer.edges);
  size = { w: laid.width ?? 0, h: laid.height ?? 0 };
  svg.setAttribute('data-layout-ms', String(Math.round(t1 - t0)));
  svg.setAttribute('data-visible', String(vis.leaves));
  svg.setAttribute('data-ops', String(graph.counts.shownOps));
  svg.setAttribute('data-version', String(graph.version ?? ''));
  svg.setAttribute('data-root', `${graph.root.name} ${JSON.stringify(graph.root.path ?? null)}`);
  highlight();
  if (fitAfter) firstView();
  const t2 = performance.now();
  const hidden = graph.counts.shownOps - [...vis.shapes.values()].filter((s) => s.kind === 'op' || s.kind === 'cluster' || s.kind === 'collapsed').length;
  status.textContent = `${graph.counts.shownOps} ops${hidden > 0 ? ` (${hidden} in closed boxes: click to open)` : ''} · laid out in ${Math.round(t2 - t0)} ms`;
  post({ type: 'rendered', ms: Math.round(t2 - t0), layoutMs: Math.round(t1 - t0), visible: vis.leaves, ops: graph.counts.shownOps, edges: vis.edges.length });
}

function highlight(): void {
  for (const e of viewport.querySelectorAll('.cursor, .match, .current')) e.classList.remove('cursor', 'match', 'current');
  if (!index || !state) return;
  if (cursorId) {
    const rep = representative(index, state, cursorId);
    if (rep) elements.get(rep)?.classList.add('cursor');
  }
  for (const id of matches) {
    const rep = representative(index, state, id);
    if (rep) elements.get(rep)?.classList.add('match');
  }
  if (matchAt >= 0 && matches[matchAt]) elements.get(matches[matchAt])?.classList.add('current');
}

function showGraph(next: GraphJson, keepState: boolean, cursor?: string): void {
  const sameRoot = !!graph && JSON.stringify(graph.root.path) === JSON.stringify(next.root.path);
  const old = state;
  graph = next;
  index = new GraphIndex(next);
  state = initialState(index);
  if (keepState && sameRoot && old) {
    for (const id of old.open) if (index.ops.has(id)) state.open.add(id);
    for (const id of old.segments) state.segments.add(id);
  }
  cursorId = cursor;
  if (cursor) reveal(index, state, cursor);
  matches = [];
  matchAt = -1;
  banner.textContent = next.truncated ?? '';
  banner.className = next.truncated ? 'banner info' : 'banner';
  if (next.truncated && next.page.next !== null) {
    const more = document.createElement('button');
    more.textContent = 'next page';
    more.addEventListener('click', () => post({ type: 'page', offset: next.page.next as number }));
    banner.append(' ', more);
  }
  if (next.functions) {
    functionsBox.replaceChildren();
    next.functions.forEach((f, i) => {
      const o = document.createElement('option');
      o.value = JSON.stringify(f.path);
      o.textContent = f.symbol ? `@${f.symbol}` : `#${i} ${f.name}`;
      functionsBox.append(o);
    });
  }
  functionsBox.value = JSON.stringify(next.root.path);
  void relayout(!keepState || !sameRoot);
}

function runSearch(step: number): void {
  if (!graph || !index || !state) return;
  const found = search(graph, searchBox.value);
  if (JSON.stringify(found) !== JSON.stringify(matches)) {
    matches = found;
    matchAt = -1;
  }
  if (!matches.length) {
    status.textContent = searchBox.value ? `no op matches "${searchBox.value}"` : '';
    highlight();
    return;
  }
  matchAt = (matchAt + step + matches.length) % matches.length;
  const id = matches[matchAt];
  status.textContent = `match ${matchAt + 1} of ${matches.length}`;
  if (representative(index, state, id) !== id) {
    reveal(index, state, id);
    void relayout().then(() => centreOn(id));
  } else {
    highlight();
    centreOn(id);
  }
}

// --- input ---------------------------------------------------------------------------------------
svg.addEventListener('wheel', (ev) => {
  ev.preventDefault();
  const r = svg.getBoundingClientRect();
  const px = ev.clientX - r.left;
  const py = ev.clientY - r.top;
  const k = Math.min(4, Math.max(0.02, view.k * Math.exp(-ev.deltaY * 0.0015)));
  view = { k, x: px - ((px - view.x) * k) / view.k, y: py - ((py - view.y) * k) / view.k };
  applyView();
}, { passive: false });
let drag: { x: number; y: number } | undefined;
svg.addEventListener('mousedown', (ev) => {
  drag = { x: ev.clientX - view.x, y: ev.clientY - view.y };
});
window.addEventListener('mousemove', (ev) => {
  if (!drag) return;
  view = { ...view, x: ev.clientX - drag.x, y: ev.clientY - drag.y };
  applyView();
});
window.addEventListener('mouseup', () => {
  drag = undefined;
});
$('fit').addEventListener('click', fit);
$('zoomin').addEventListener('click', () => {
  view = { ...view, k: Math.min(4, view.k * 1.25) };
  applyView();
});
$('zoomout').addEventListener('click', () => {
  view = { ...view, k: Math.max(0.02, view.k / 1.25) };
  applyView();
});
searchBox.addEventListener('keydown', (ev) => {
  if (ev.key === 'Enter') runSearch(ev.shiftKey ? -1 : 1);
});
functionsBox.addEventListener('change', () => {
  post({ type: 'function', path: JSON.parse(functionsBox.value) as number[] });
});

window.addEventListener('message', (ev: MessageEvent<ToWebview>) => {
  const msg = ev.data;
  if (msg.type === 'graph') showGraph(msg.graph, msg.keepState, msg.cursor);
  else if (msg.type === 'cursor') {
    cursorId = msg.id;
    highlight();
  } else if (msg.type === 'stale') {
    banner.textContent = msg.message;
    banner.className = 'banner warning';
  } else if (msg.type === 'busy') status.textContent = msg.message;
});
post({ type: 'ready' });
