// Keeps one graph panel in step with its text document: asks the server for the graph (at the cursor,
// for the same function after an edit, for a chosen function or page), forwards the cursor as the node to
// highlight, and turns a click on a node into the op's range to select. Free of `vscode` so that the unit
// tests drive it with fakes; src/graphPanel.ts wires it to VS Code.
import { opAt, contains } from './model';
import { GRAPH_REQUEST, isGraph, type FromWebview, type GraphJson, type GraphParams, type Position, type Range, type ToWebview } from './protocol';

export interface ControllerHost {
  request(method: string, params: GraphParams): Promise<unknown>;
  post(msg: ToWebview): void;
  /** Select `range` in the document's editor (and show it). */
  select(range: Range): void;
  log(message: string): void;
}

export interface ControllerOptions {
  /** Delay after the last edit before the graph is asked for again. */
  debounceMs: number;
  /** Delay before following the cursor into another function. */
  followMs: number;
  /** Whether moving the cursor into another function shows that function's graph. */
  follow: boolean;
  /** Ops per answer (`limit`). */
  limit: number;
}

export const DEFAULT_OPTIONS: ControllerOptions = { debounceMs: 500, followMs: 400, follow: true, limit: 20000 };

export class GraphController {
  graph: GraphJson | undefined;
  /** The last rendering the webview reported (for tests and the log). */
  lastRender: Extract<FromWebview, { type: 'rendered' }> | undefined;
  private ready = false;
  private editTimer: ReturnType<typeof setTimeout> | undefined;
  private followTimer: ReturnType<typeof setTimeout> | undefined;
  private cursor: Position | undefined;
  private requestNo = 0;
  private offset = 0;

  constructor(
    readonly uri: string,
    private readonly host: ControllerHost,
    private readonly options: ControllerOptions = DEFAULT_OPTIONS,
  ) {}

  /** The first graph: the function around `position`, with the document's function list. */
  async open(position: Position | undefined): Promise<void> {
    this.cursor = position;
    await this.load({ uri: this.uri, position, functions: true }, false);
  }

  private async load(params: GraphParams, keepState: boolean): Promise<boolean> {
    const no = ++this.requestNo;
    this.host.post({ type: 'busy', message: 'asking the server for the graph…' });
    let result: unknown;
    try {
      result = await this.host.request(GRAPH_REQUEST, { limit: this.options.limit, ...params });
    } catch (err) {
      if (no !== this.requestNo) return false;
      const message = err instanceof Error ? err.message : String(err);
      this.host.log(`graph: ${message}`);
      this.host.post({ type: 'stale', message: this.graph ? `The graph shows an earlier version: ${message}` : `No graph: ${message}` });
      return false;
    }
    if (no !== this.requestNo) return false; // a newer request is under way
    if (!isGraph(result)) {
      this.host.post({ type: 'stale', message: 'The server answered mlirbc/graph with something that is not a graph.' });
      return false;
    }
    if (!result.functions && this.graph?.functions) result.functions = this.graph.functions;
    this.graph = result;
    this.offset = result.page.offset;
    this.sendGraph(keepState);
    return true;
  }

  private sendGraph(keepState: boolean): void {
    if (!this.ready || !this.graph) return;
    const cursor = this.cursor ? opAt(this.graph, this.cursor) : undefined;
    this.host.post({ type: 'graph', graph: this.graph, cursor, keepState });
  }

  /** The document changed: ask again for the same op (by path) once the edits pause. */
  edited(): void {
    if (this.editTimer) clearTimeout(this.editTimer);
    this.editTimer = setTimeout(() => {
      this.editTimer = undefined;
      const path = this.graph?.root.path;
      void this.load(path ? { uri: this.uri, path, offset: this.offset, functions: true } : { uri: this.uri, position: this.cursor, functions: true }, true);
    }, this.options.debounceMs);
  }

  /** The cursor moved: highlight its op; outside the shown op, follow it into its function. */
  cursorMoved(position: Position): void {
    this.cursor = position;
    const g = this.graph;
    if (!g) return;
    this.host.post({ type: 'cursor', id: opAt(g, position) });
    if (this.followTimer) clearTimeout(this.followTimer);
    if (!this.options.follow || (g.root.range && contains(g.root.range, position)) || g.root.kind === 'module') return;
    this.followTimer = setTimeout(() => {
      this.followTimer = undefined;
      void this.follow(position);
    }, this.options.followMs);
  }

  private async follow(position: Position): Promise<void> {
    const no = this.requestNo + 1;
    let result: unknown;
    try {
      result = await this.host.request(GRAPH_REQUEST, { uri: this.uri, position, limit: this.options.limit });
    } catch {
      return; // an edit in progress: the edit's own request reports problems
    }
    // a module-wide graph is not what following the cursor between functions should bring up
    if (no !== this.requestNo + 1 || !isGraph(result) || result.root.kind === 'module') return;
    // The cursor moved on while the server answered (a click, then Go to Line): its own move decides.
    if (this.cursor?.line !== position.line || this.cursor?.character !== position.character) return;
    if (JSON.stringify(result.root.path) === JSON.stringify(this.graph?.root.path)) return;
    this.host.log(`graph: the cursor (${position.line + 1}:${position.character + 1}, version ${result.version ?? '?'}) is in ${result.root.name} ${JSON.stringify(result.root.path)}: showing it`);
    this.requestNo++;
    result.functions = this.graph?.functions;
    this.graph = result;
    this.offset = 0;
    this.sendGraph(false);
  }

  /** A message from the webview. */
  async received(msg: FromWebview): Promise<void> {
    switch (msg.type) {
      case 'ready':
        this.ready = true;
        this.sendGraph(false);
        break;
      case 'select': {
        const node = this.graph?.nodes.find((n) => n.id === msg.id);
        if (node && node.kind === 'op' && node.range) this.host.select(node.range);
        break;
      }
      case 'function':
        await this.load({ uri: this.uri, path: msg.path }, false);
        break;
      case 'page':
        await this.load({ uri: this.uri, path: this.graph?.root.path, offset: msg.offset }, false);
        break;
      case 'rendered':
        this.lastRender = msg;
        this.host.log(`graph: ${msg.visible} nodes laid out in ${msg.layoutMs} ms (${msg.ops} ops, drawn in ${msg.ms} ms)`);
        break;
    }
  }

  dispose(): void {
    if (this.editTimer) clearTimeout(this.editTimer);
    if (this.followTimer) clearTimeout(this.followTimer);
    this.requestNo++;
  }
}

/** The webview's page: local script and style only, everything else refused by the CSP. */
export function graphHtml(p: { cspSource: string; nonce: string; script: string; style: string; title: string }): string {
  const csp = [
    "default-src 'none'",
    `style-src ${p.cspSource}`,
    `script-src 'nonce-${p.nonce}'`,
    `img-src ${p.cspSource} data:`,
    `font-src ${p.cspSource}`,
  ].join('; ');
  const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${esc(p.style)}">
<title>${esc(p.title)}</title>
</head>
<body>
<div id="toolbar">
  <select id="functions" title="Function"></select>
  <input id="search" type="search" placeholder="Search ops, values, types (Enter)" aria-label="Search">
  <button id="zoomout" title="Zoom out">−</button><button id="zoomin" title="Zoom in">+</button><button id="fit" title="Fit to window">Fit</button>
  <span id="status"></span>
</div>
<div id="banner" class="banner"></div>
<svg id="graph" xmlns="http://www.w3.org/2000/svg">
  <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z"/></marker></defs>
  <g id="viewport"></g>
</svg>
<script nonce="${p.nonce}" src="${esc(p.script)}"></script>
</body>
</html>`;
}
