// Unit tests of the graph controller with a fake server and webview: the first request, following edits
// (debounced, same op by path), a text that does not parse, the cursor, clicks, the CSP of the page.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { graphHtml, GraphController, type ControllerHost } from '../../src/graph/controller';
import type { GraphJson, GraphParams, ToWebview } from '../../src/graph/protocol';

const FIXTURES = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures');
const graph = (name: string): GraphJson => JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as GraphJson;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class FakeHost implements ControllerHost {
  requests: GraphParams[] = [];
  posted: ToWebview[] = [];
  selected: unknown[] = [];
  logs: string[] = [];
  answer: (p: GraphParams) => unknown = () => graph('cf-branch.json');
  async request(_method: string, params: GraphParams): Promise<unknown> {
    this.requests.push(params);
    const a = this.answer(params);
    if (a instanceof Error) throw a;
    return JSON.parse(JSON.stringify(a));
  }
  post(msg: ToWebview): void {
    this.posted.push(msg);
  }
  select(range: unknown): void {
    this.selected.push(range);
  }
  log(m: string): void {
    this.logs.push(m);
  }
  graphs(): Extract<ToWebview, { type: 'graph' }>[] {
    return this.posted.filter((m): m is Extract<ToWebview, { type: 'graph' }> => m.type === 'graph');
  }
}

const OPTIONS = { debounceMs: 30, followMs: 20, follow: true, limit: 100 };

describe('graph controller', () => {
  it('asks for the function at the cursor and sends it once the page is ready', async () => {
    const host = new FakeHost();
    const c = new GraphController('mlirbc:/x.mlirbc', host, OPTIONS);
    const consumer = graph('cf-branch.json').nodes.find((n) => n.kind === 'op' && n.name === 'test.consumer1');
    assert.ok(consumer && consumer.kind === 'op' && consumer.range);
    const at = { line: consumer.range.start.line, character: consumer.range.start.character + 3 };
    await c.open(at);
    assert.deepStrictEqual(host.requests[0], { limit: 100, uri: 'mlirbc:/x.mlirbc', position: at, functions: true });
    assert.strictEqual(host.graphs().length, 0, 'not before the page says ready');
    await c.received({ type: 'ready' });
    const sent = host.graphs()[0];
    assert.strictEqual(sent.graph.root.symbol, 'branchCondProp');
    assert.strictEqual(sent.cursor, consumer.id);
  });

  it('follows edits after a pause, by path, and keeps the last graph when the text does not parse', async () => {
    const host = new FakeHost();
    const c = new GraphController('u', host, OPTIONS);
    await c.open(undefined);
    await c.received({ type: 'ready' });
    c.edited();
    c.edited();
    c.edited();
    await sleep(80);
    assert.strictEqual(host.requests.length, 2, 'three edits in a row: one request');
    assert.deepStrictEqual(host.requests[1].path, [0, 0, 0]);
    assert.strictEqual(host.graphs()[1].keepState, true);
    host.answer = () => new Error('the text has 1 error(s): line 3: use of undefined value %nope');
    c.edited();
    await sleep(80);
    const stale = host.posted.filter((m) => m.type === 'stale');
    assert.match((stale[0] as { message: string }).message, /earlier version.*undefined value %nope/);
    assert.strictEqual(c.graph?.root.symbol, 'branchCondProp', 'the last good graph stays');
  });

  it('highlights the op under the cursor and selects a clicked op', async () => {
    const host = new FakeHost();
    const c = new GraphController('u', host, OPTIONS);
    await c.open(undefined);
    await c.received({ type: 'ready' });
    const g = c.graph as GraphJson;
    const op = g.nodes.find((n) => n.kind === 'op' && n.name === 'test.consumer2');
    assert.ok(op && op.kind === 'op' && op.range);
    c.cursorMoved(op.range.start);
    assert.deepStrictEqual(host.posted[host.posted.length - 1], { type: 'cursor', id: op.id });
    await c.received({ type: 'select', id: op.id });
    assert.deepStrictEqual(host.selected, [op.range]);
    // outside the function, the cursor's own function is asked for after a pause
    c.cursorMoved({ line: 9999, character: 0 });
    await sleep(60);
    assert.deepStrictEqual(host.requests[host.requests.length - 1].position, { line: 9999, character: 0 });
  });

  it('drops the answer of a cursor that moved back into the shown function while the server answered', async () => {
    const host = new FakeHost();
    const c = new GraphController('file:///x.mlirbc', host, OPTIONS);
    await c.open({ line: 0, character: 0 });
    await c.received({ type: 'ready' });
    const shown = c.graph as GraphJson;
    assert.ok(shown.root.range);
    const inside = shown.root.range.start;
    let release: () => void = () => undefined;
    const answered = new Promise<void>((r) => { release = r; });
    // the other function's answer comes only after the cursor went back
    host.answer = () => graph('jax-mlp2-fn2.json');
    const slow = host.request.bind(host);
    host.request = async (method, params) => { const a = slow(method, params); await answered; return a; };
    c.cursorMoved({ line: 9999, character: 0 });  // a click outside the shown function ...
    await sleep(60);  // ... is followed: the request is under way
    assert.deepStrictEqual(host.requests.length, 2);
    c.cursorMoved(inside);  // ... then Go to Line brings it back before the answer
    release();
    await sleep(60);
    assert.deepStrictEqual((c.graph as GraphJson).root.path, shown.root.path);
    assert.ok(host.logs.every((m) => !m.includes('showing it')));
    // the same move without the way back does switch
    c.cursorMoved({ line: 30, character: 0 });
    await sleep(60);
    assert.deepStrictEqual((c.graph as GraphJson).root.path, [0, 0, 2]);
  });

  it('serves the page with a strict Content-Security-Policy and local assets only', () => {
    const html = graphHtml({ cspSource: 'https://file+.vscode-resource.vscode-cdn.net', nonce: 'abc123', script: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/graph.js', style: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/graph.css', title: 't' });
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-abc123'/);
    assert.doesNotMatch(csp, /unsafe-eval|unsafe-inline|\*/);
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    assert.ok(scripts.length === 1 && scripts[0].includes('nonce="abc123"') && scripts[0].includes('vscode-resource'));
    assert.doesNotMatch(html, /https?:\/\/(?!file\+\.vscode-resource)[^"' ]+\.(js|css)/);
  });
});
