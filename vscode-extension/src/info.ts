// Bytecode facts from `mlirbc/info`: the status bar item of the active view (version, producer,
// fallback parts) and the read-only JSON document of "mlirbc: Show Bytecode Info".
import * as vscode from 'vscode';
import { fallbackCount, type BytecodeInfo } from './protocol';
import { fileUriFor, isView } from './uris';

export const INFO_SCHEME = 'mlirbc-info';

export type InfoSource = (fileUri: vscode.Uri) => Promise<BytecodeInfo>;

export function statusText(info: BytecodeInfo): string {
  const parts = ['$(file-binary) MLIR bc'];
  if (info.version !== undefined) parts.push(`v${info.version}`);
  if (info.producer) parts.push(info.producer);
  const n = fallbackCount(info);
  parts.push(n === 1 ? '1 fallback' : `${n} fallbacks`);
  return parts.join(' · ');
}

export function statusTooltip(info: BytecodeInfo): string {
  const f = info.fallbacks ?? {};
  const lines = [
    `bytecode version: ${info.version ?? '?'}`,
    `producer: ${info.producer ?? '?'}`,
    `fallbacks: ${f.op ?? 0} ops, ${f.attribute ?? 0} attributes, ${f.type ?? 0} types (kept verbatim)`,
  ];
  for (const [k, v] of Object.entries(info.sizes ?? {})) lines.push(`${k}: ${v}`);
  lines.push('Click for all bytecode info');
  return lines.join('\n');
}

/** The `mlirbc-info:` URI that shows the info of `fileUri` as JSON. */
export function infoUriFor(fileUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.from({
    scheme: INFO_SCHEME,
    path: `${fileUri.path}.info.json`,
    query: encodeURIComponent(fileUri.toString()),
  });
}

export class InfoDocumentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly source: InfoSource) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const fileUri = vscode.Uri.parse(decodeURIComponent(uri.query));
    try {
      return JSON.stringify(await this.source(fileUri), null, 2) + '\n';
    } catch (err) {
      return JSON.stringify({ file: fileUri.toString(), error: err instanceof Error ? err.message : String(err) }, null, 2);
    }
  }
}

/** Keeps the status bar item in step with the active editor; refreshes after saves. */
export class InfoStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subscriptions: vscode.Disposable[] = [];
  private generation = 0;

  constructor(private readonly source: InfoSource) {
    this.item = vscode.window.createStatusBarItem('mlirbc.info', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'mlirbc bytecode info';
    this.item.command = 'mlirbc.showInfo';
    this.subscriptions.push(
      this.item,
      vscode.window.onDidChangeActiveTextEditor(() => void this.refresh()),
      vscode.workspace.onDidSaveTextDocument((doc) => {
        if (doc === vscode.window.activeTextEditor?.document) void this.refresh();
      }),
    );
    void this.refresh();
  }

  async refresh(): Promise<void> {
    const doc = vscode.window.activeTextEditor?.document;
    const generation = ++this.generation;
    if (!doc || !isView(doc.uri)) {
      this.item.hide();
      return;
    }
    this.item.text = '$(file-binary) MLIR bc …';
    this.item.tooltip = 'mlirbc: asking the server';
    this.item.show();
    try {
      const info = await this.source(fileUriFor(doc.uri));
      if (generation !== this.generation) return;
      this.item.text = statusText(info);
      this.item.tooltip = statusTooltip(info);
    } catch (err) {
      if (generation !== this.generation) return;
      this.item.text = '$(file-binary) MLIR bc';
      this.item.tooltip = `mlirbc/info failed: ${err instanceof Error ? err.message : String(err)}`;
    }
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
  }
}
