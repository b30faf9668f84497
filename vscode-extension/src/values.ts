// Elided values (model-sized files): "mlirbc: Show Full Value" fetches the value from the server in
// chunks, with progress, into a read-only document; "mlirbc: Export Value (.npy)" has the server write it.
// Both are the code actions the server offers on a placeholder, with arguments [view URI, position].
import * as path from 'path';
import * as vscode from 'vscode';

export const VALUE_SCHEME = 'mlirbc-value';
const CHUNK_LINES = 2000;

/** What the commands need of the server connection. */
export interface ValueRequests {
  request<R>(method: string, params: unknown): Promise<R>;
}

interface ValueText {
  title: string;
  header: string;
  text: string;
  nextLine: number;
  totalLines: number;
  done: boolean;
}

interface Target {
  uri: string;
  position: { line: number; character: number };
}

function target(uriArg: unknown, posArg: unknown): Target | undefined {
  if (typeof uriArg === 'string' && posArg && typeof posArg === 'object') {
    const p = posArg as { line?: unknown; character?: unknown };
    if (typeof p.line === 'number' && typeof p.character === 'number') {
      return { uri: uriArg, position: { line: p.line, character: p.character } };
    }
  }
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const pos = editor.selection.active;
  return { uri: editor.document.uri.toString(), position: { line: pos.line, character: pos.character } };
}

/** The read-only documents holding full values, by URI. */
class ValueDocuments implements vscode.TextDocumentContentProvider {
  readonly texts = new Map<string, string>();
  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
}

export function registerValueCommands(server: ValueRequests): vscode.Disposable {
  const docs = new ValueDocuments();
  let serial = 0;
  return vscode.Disposable.from(
    vscode.workspace.registerTextDocumentContentProvider(VALUE_SCHEME, docs),
    vscode.commands.registerCommand('mlirbc.showFullValue', async (uriArg?: unknown, posArg?: unknown) => {
      const t = target(uriArg, posArg);
      if (!t) return void vscode.window.showWarningMessage('mlirbc: put the cursor on an elided value.');
      try {
        const parts: string[] = [];
        let title = 'value';
        await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: 'mlirbc: Show Full Value', cancellable: true },
          async (progress, cancel) => {
            let from = 0;
            for (;;) {
              const res = await server.request<ValueText>('mlirbc/valueText', {
                ...t,
                fromLine: from,
                maxLines: CHUNK_LINES,
              });
              if (from === 0) {
                title = res.title;
                parts.push(res.header);
              }
              parts.push(res.text);
              const step = ((res.nextLine - from) / Math.max(1, res.totalLines)) * 100;
              from = res.nextLine;
              progress.report({ increment: step, message: `${from} of ${res.totalLines} lines` });
              if (res.done || cancel.isCancellationRequested) break;
            }
          },
        );
        serial += 1;
        const uri = vscode.Uri.from({ scheme: VALUE_SCHEME, path: `/${serial}/${title.replace(/[\\/]/g, '_')}.mlir` });
        docs.texts.set(uri.toString(), parts.join('\n') + '\n');
        const doc = await vscode.workspace.openTextDocument(uri);
        await vscode.languages.setTextDocumentLanguage(doc, 'mlir');
        await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
      } catch (err) {
        void vscode.window.showErrorMessage(`mlirbc: ${err instanceof Error ? err.message : String(err)}`);
      }
    }),
    vscode.commands.registerCommand('mlirbc.exportValue', async (uriArg?: unknown, posArg?: unknown) => {
      const t = target(uriArg, posArg);
      if (!t) return void vscode.window.showWarningMessage('mlirbc: put the cursor on an elided value.');
      const file = vscode.Uri.parse(t.uri);
      const dest = await vscode.window.showSaveDialog({
        defaultUri: vscode.Uri.file(path.join(path.dirname(file.path), 'value.npy')),
        filters: { NumPy: ['npy'] },
      });
      if (!dest) return;
      try {
        const res = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Window, title: 'mlirbc: exporting value' },
          () => server.request<{ written: string; bytes: number; note?: string }>('mlirbc/exportValue', {
            ...t,
            path: dest.fsPath,
          }),
        );
        const note = res.note ? ` (${res.note})` : '';
        void vscode.window.showInformationMessage(`mlirbc: wrote ${res.written}, ${res.bytes} bytes${note}`);
      } catch (err) {
        void vscode.window.showErrorMessage(`mlirbc: ${err instanceof Error ? err.message : String(err)}`);
      }
    }),
  );
}
