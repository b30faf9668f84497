// Unit tests of the graph panel's model on graphs the server made from corpus files (test/fixtures, made
// with `mlirbc graph FILE --format json`) and on a generated 10,000-op function: what is open in the
// first picture, which node stands for a hidden op, the ELK input (and that ELK lays it out), lookups.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkNode } from 'elkjs/lib/elk-api';
import {
  DEFAULT_BUDGET,
  dialectHue,
  GraphIndex,
  initialState,
  opAt,
  representative,
  reveal,
  search,
  SEGMENT_MIN,
  visibleGraph,
  type ElkNodeIn,
} from '../../src/graph/model';
import { isGraph, type GraphJson, type OpNode } from '../../src/graph/protocol';

const FIXTURES = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures');
const load = (name: string): GraphJson => {
  const g = JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as unknown;
  assert.ok(isGraph(g), `${name} is a graph`);
  return g;
};

function elkIds(n: ElkNodeIn, out = new Set<string>()): Set<string> {
  out.add(n.id);
  for (const p of n.ports ?? []) out.add(p.id);
  for (const c of n.children ?? []) elkIds(c, out);
  return out;
}

/** A function of `n` ops in one block, each using the two before it (as a long JAX trace does). */
export function bigFunction(n: number): GraphJson {
  const nodes: OpNode[] = [{ id: 'o0', kind: 'op', index: 0, name: 'func.func', dialect: 'func', parent: null, operands: [], results: [], regions: ['r0.0'], fallback: false, elided: false, symbol: 'big', range: null }];
  const edges: GraphJson['edges'] = [];
  for (let i = 1; i <= n; i++) {
    const ops = i > 2 ? 2 : i - 1;
    nodes.push({ id: `o${i}`, kind: 'op', index: i, name: i % 7 ? 'arith.addf' : 'math.exp', dialect: i % 7 ? 'arith' : 'math', parent: 'b0.0.0', operands: Array(ops).fill('f32'), results: [{ name: `%${i}`, type: 'f32' }], regions: [], fallback: i % 50 === 0, elided: false, range: { start: { line: i, character: 4 }, end: { line: i, character: 40 } } });
    for (let k = 0; k < ops; k++) edges.push({ id: `e${i}.${k}`, kind: 'value', source: { node: `o${i - 1 - k}`, port: 0 }, target: { node: `o${i}`, port: k }, type: 'f32', value: `%${i - 1 - k}` });
  }
  return {
    schema: 'mlirbc-graph/1',
    root: { id: 'o0', name: 'func.func', symbol: 'big', kind: 'function', path: [0, 0, 0], range: null },
    nodes, regions: [{ id: 'r0.0', op: 'o0', index: 0, blocks: ['b0.0.0'] }],
    blocks: [{ id: 'b0.0.0', region: 'r0.0', index: 0, label: '^bb0', arguments: [], range: null }],
    edges, counts: { ops: n + 1, shownOps: n + 1, uses: edges.length, shownUses: edges.length, successors: 0, shownSuccessors: 0 },
    page: { offset: 0, limit: 20000, next: null }, truncated: null,
  };
}

describe('graph model', () => {
  it('opens a small function completely', () => {
    const g = load('jax-mlp2-fn2.json');
    const index = new GraphIndex(g);
    const state = initialState(index);
    const vis = visibleGraph(index, state);
    const ops = [...vis.shapes.values()].filter((s) => s.kind === 'op' || s.kind === 'cluster');
    assert.strictEqual(ops.length, g.counts.ops, 'every op drawn');
    // every value edge is drawn once; ends exist in the ELK input
    const ids = elkIds(vis.elk);
    assert.strictEqual(vis.edges.length, g.edges.length);
    for (const e of vis.edges) assert.ok(ids.has(e.source) && ids.has(e.target), `${e.source} -> ${e.target}`);
    // layout edges join two children of one container (ELK cannot take the others, see model.ts)
    for (const e of vis.elk.edges) assert.ok(ids.has(e.sources[0]) && ids.has(e.targets[0]));
  });

  it('counts ops inside regions and finds the op under a position', () => {
    const g = load('jax-rnn-scan-while.json');
    const index = new GraphIndex(g);
    const whileOp = g.nodes.find((n) => n.kind === 'op' && n.name === 'vhlo.while_v1') as OpNode;
    const inside = g.nodes.filter((n) => n.kind === 'op' && n.index > whileOp.index && index.ownerOf(n) !== undefined);
    assert.ok((index.inner.get(whileOp.id) ?? 0) > 0 && (index.inner.get(whileOp.id) ?? 0) < inside.length);
    const body = g.nodes.find((n) => n.kind === 'op' && index.ownerOf(n)?.id === whileOp.id) as OpNode;
    assert.strictEqual(opAt(g, body.range!.start), body.id);
    assert.strictEqual(opAt(g, whileOp.range!.start), whileOp.id);
    assert.strictEqual(opAt(g, { line: 0, character: 0 }), undefined);
  });

  it('closed ops and segments stand for what they hide, and reveal opens the way', () => {
    const g = load('jax-rnn-scan-while.json');
    const index = new GraphIndex(g);
    const state = { open: new Set([index.rootId]), segments: new Set<string>() };
    const whileOp = g.nodes.find((n) => n.kind === 'op' && n.name === 'vhlo.while_v1') as OpNode;
    const body = g.nodes.find((n) => n.kind === 'op' && index.ownerOf(n)?.id === whileOp.id) as OpNode;
    const func = index.ownerOf(whileOp) as OpNode;
    assert.strictEqual(representative(index, state, body.id), func.id, 'the closed function stands for it');
    reveal(index, state, body.id);
    assert.strictEqual(representative(index, state, body.id), body.id);
    const vis = visibleGraph(index, state);
    assert.strictEqual(vis.shapes.get(whileOp.id)?.kind, 'cluster');
    // uses crossing into the while's regions are drawn to their real ends
    assert.ok(vis.edges.some((e) => e.target.startsWith(`${body.id}:i`)));
  });

  it('a 10,000-op function starts as an overview of segments within the budget', () => {
    const g = bigFunction(10000);
    const index = new GraphIndex(g);
    const segs = index.segmentsOf('b0.0.0');
    assert.ok(segs && segs.length > 10 && segs.every((s) => s.ops.length < 10000 / 10));
    assert.strictEqual(segs.reduce((n, s) => n + s.ops.length, 0), 10000);
    const state = initialState(index);
    const vis = visibleGraph(index, state);
    assert.ok(vis.leaves <= DEFAULT_BUDGET, `${vis.leaves} visible`);
    assert.ok([...vis.shapes.values()].some((s) => s.kind === 'segment'));
    // edges between segments are merged: far fewer than the 20,000 uses
    assert.ok(vis.edges.length < 2 * vis.leaves, `${vis.edges.length} edges`);
    // the uses between two closed segments (the last ops of one, used by the first of the next) are one edge
    const merged = vis.edges.filter((e) => e.count > 1);
    assert.ok(merged.length > 0 && merged.every((e) => vis.shapes.get(e.source)?.kind === 'segment' || vis.shapes.get(e.target)?.kind === 'segment'));
    assert.ok(merged.every((e) => e.count === 3 && e.label === '3 uses'), JSON.stringify(merged.slice(0, 2)));
    // a search hit inside a closed segment is revealed by opening its segment only
    const hit = search(g, '%9999')[0];
    assert.strictEqual(hit, 'o9999');
    const before = state.segments.size;
    reveal(index, state, hit);
    assert.strictEqual(state.segments.size, before + 1);
    assert.strictEqual(representative(index, state, hit), hit);
    assert.ok(SEGMENT_MIN < 10000);
  });

  it('ELK lays out the visible graphs of real files', async function () {
    this.timeout(300000);
    const elk = new ELK();
    for (const name of ['jax-mlp2-fn2.json', 'jax-rnn-scan-while.json', 'cf-branch.json', 'synthetic-f3.json']) {
      const g = load(name);
      const index = new GraphIndex(g);
      const vis = visibleGraph(index, initialState(index));
      const laid = (await elk.layout(vis.elk as ElkNode)) as ElkNode;
      const placed = new Set<string>();
      const walk = (n: ElkNode) => {
        if (typeof n.x === 'number' && typeof n.y === 'number') placed.add(n.id);
        for (const c of n.children ?? []) walk(c);
      };
      walk(laid);
      for (const id of vis.shapes.keys()) assert.ok(placed.has(id), `${name}: ${id} placed`);
    }
  });

  it('search and dialect colours', () => {
    const g = load('cf-branch.json');
    assert.deepStrictEqual(search(g, 'CF.BR').length, 2);
    assert.deepStrictEqual(search(g, ''), []);
    assert.strictEqual(dialectHue('arith'), dialectHue('arith'));
    assert.ok(dialectHue('arith') % 30 === 0 && dialectHue('arith') < 360);
  });
});
