// The default editor for `*.mlirbc`: it immediately replaces itself with the file's editable text view.
// If the server cannot convert the file, the panel stays and shows the error with ways out.
import * as vscode from 'vscode';
import { showView } from './views';

export const VIEW_TYPE = 'mlirbc.bytecodeEditor';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function commandLink(command: string, uri: vscode.Uri, label: string): string {
  const args = encodeURIComponent(JSON.stringify([uri.toString()]));
  return `<a href="command:${command}?${args}">${escapeHtml(label)}</a>`;
}

export function errorHtml(fileUri: vscode.Uri, message: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';">
<style>body{font-family:var(--vscode-font-family);padding:1em}pre{white-space:pre-wrap}</style></head>
<body><h3>mlirbc: cannot show ${escapeHtml(fileUri.path.split('/').pop() ?? '')} as MLIR text</h3>
<pre id="mlirbc-error">${escapeHtml(message)}</pre>
<p>${commandLink('mlirbc.reopenAsText', fileUri, 'Try again')} &middot;
${commandLink('mlirbc.reopenRaw', fileUri, 'Reopen as raw bytes')} &middot;
<a href="command:mlirbc.restartServer">Restart server</a></p></body></html>`;
}

export class BytecodeEditorProvider implements vscode.CustomReadonlyEditorProvider {
  constructor(private readonly log: (message: string) => void) {}

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  async resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): Promise<void> {
    panel.webview.options = { enableCommandUris: true, enableScripts: false };
    panel.webview.html = '<!DOCTYPE html><html><body><p>mlirbc: converting…</p></body></html>';
    try {
      await showView(document.uri, panel.viewColumn);
      panel.dispose();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.log(`open ${document.uri.toString()}: ${message}`);
      panel.webview.html = errorHtml(document.uri, message);
    }
  }
}

export function registerCustomEditor(log: (message: string) => void): vscode.Disposable {
  return vscode.window.registerCustomEditorProvider(VIEW_TYPE, new BytecodeEditorProvider(log), {
    supportsMultipleEditorsPerDocument: true,
  });
}
