// "mlirbc: Show Graph": a webview panel beside the text with the data-flow graph of the function under
// the cursor (src/graph/controller.ts keeps it in step with the document; webview/graph.ts draws it).
import * as vscode from 'vscode';
import type { ServerConnection } from './connection';
import { DEFAULT_OPTIONS, GraphController, graphHtml } from './graph/controller';
import type { FromWebview, Range } from './graph/protocol';
import { isView, LANGUAGE_ID, viewUriFor } from './uris';
import { showView } from './views';

export const SHOW_GRAPH = 'mlirbc.showGraph';
export const GRAPH_VIEW_TYPE = 'mlirbc.graph';

function nonce(): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  for (let i = 0; i < 32; i++) out += chars[Math.floor(Math.random() * chars.length)];
  return out;
}

function toVsRange(r: Range): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}

/** The text document a command applies to: its argument (a view or a .mlirbc file), else the active editor. */
async function targetDocument(arg: unknown): Promise<vscode.TextDocument | undefined> {
  if (arg instanceof vscode.Uri) {
    if (arg.path.endsWith('.mlirbc') || isView(arg)) return (await showView(viewUriFor(arg))).document;
    return vscode.workspace.openTextDocument(arg);
  }
  const doc = vscode.window.activeTextEditor?.document;
  if (doc && (isView(doc.uri) || doc.languageId === LANGUAGE_ID)) return doc;
  return undefined;
}

class GraphPanel {
  readonly controller: GraphController;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    readonly doc: vscode.TextDocument,
    readonly panel: vscode.WebviewPanel,
    connection: ServerConnection,
    extensionUri: vscode.Uri,
    log: (message: string) => void,
    onDispose: () => void,
  ) {
    const config = vscode.workspace.getConfiguration('mlirbc.graph');
    this.controller = new GraphController(doc.uri.toString(), {
      request: (method, params) => connection.request(method, params),
      post: (msg) => void panel.webview.postMessage(msg),
      select: (range) => void this.select(range),
      log,
    }, {
      ...DEFAULT_OPTIONS,
      debounceMs: config.get<number>('debounceMs') ?? DEFAULT_OPTIONS.debounceMs,
      follow: config.get<boolean>('followCursor') ?? DEFAULT_OPTIONS.follow,
      limit: config.get<number>('maxOps') ?? DEFAULT_OPTIONS.limit,
    });
    const media = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    panel.webview.options = { enableScripts: true, localResourceRoots: [media] };
    panel.webview.html = graphHtml({
      cspSource: panel.webview.cspSource,
      nonce: nonce(),
      script: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'graph.js')).toString(),
      style: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'graph.css')).toString(),
      title: 'mlirbc graph',
    });
    this.disposables.push(
      panel.webview.onDidReceiveMessage((msg: FromWebview) => void this.controller.received(msg)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === doc && e.contentChanges.length) this.controller.edited();
      }),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (e.textEditor.document === doc) {
          const p = e.selections[0].active;
          this.controller.cursorMoved({ line: p.line, character: p.character });
        }
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (d === doc) panel.dispose();
      }),
    );
    panel.onDidDispose(() => {
      this.controller.dispose();
      for (const d of this.disposables) d.dispose();
      onDispose();
    });
  }

  private async select(range: Range): Promise<void> {
    const editor = vscode.window.visibleTextEditors.find((e) => e.document === this.doc);
    const shown = await vscode.window.showTextDocument(this.doc, { viewColumn: editor?.viewColumn, preserveFocus: false, preview: false });
    const r = toVsRange(range);
    shown.selection = new vscode.Selection(r.start, r.end);
    shown.revealRange(r, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
}

export function registerGraph(connection: ServerConnection, extensionUri: vscode.Uri, log: (message: string) => void): vscode.Disposable {
  const panels = new Map<string, GraphPanel>();
  return vscode.Disposable.from(
    vscode.commands.registerCommand(SHOW_GRAPH, async (arg?: unknown) => {
      const doc = await targetDocument(arg);
      if (!doc) {
        void vscode.window.showWarningMessage('mlirbc: open a .mlirbc file (or MLIR text) first.');
        return;
      }
      const key = doc.uri.toString();
      const editor = vscode.window.visibleTextEditors.find((e) => e.document === doc);
      const cursor = editor?.selection.active;
      const position = cursor ? { line: cursor.line, character: cursor.character } : undefined;
      const existing = panels.get(key);
      if (existing) {
        existing.panel.reveal(undefined, true);
        await existing.controller.open(position);
        return;
      }
      const name = doc.uri.path.split('/').pop() ?? 'graph';
      const panel = vscode.window.createWebviewPanel(GRAPH_VIEW_TYPE, `Graph: ${name}`, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
        enableScripts: true,
        retainContextWhenHidden: true,
        localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview')],
      });
      const gp = new GraphPanel(doc, panel, connection, extensionUri, log, () => panels.delete(key));
      panels.set(key, gp);
      await gp.controller.open(position);
    }),
    new vscode.Disposable(() => {
      for (const p of panels.values()) p.panel.dispose();
    }),
  );
}
