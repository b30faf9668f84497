// The commands of the extension: show bytecode info, reopen as raw bytes or as text, restart the server.
import * as vscode from 'vscode';
import type { ServerConnection } from './connection';
import { infoUriFor } from './info';
import { fileUriFor, isView } from './uris';
import { showRaw, showView } from './views';

/** The bytecode file a command applies to: its argument, else the active editor or tab. */
export function targetFile(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return fileUriFor(arg);
  if (typeof arg === 'string' && arg.length > 0) return fileUriFor(vscode.Uri.parse(arg));
  const editor = vscode.window.activeTextEditor;
  if (editor && (isView(editor.document.uri) || editor.document.uri.path.endsWith('.mlirbc'))) {
    return fileUriFor(editor.document.uri);
  }
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (input instanceof vscode.TabInputCustom || input instanceof vscode.TabInputText) {
    return fileUriFor(input.uri);
  }
  return undefined;
}

async function closeActiveIfShowing(fileUri: vscode.Uri): Promise<void> {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  const uri = input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom ? input.uri : undefined;
  if (uri && fileUriFor(uri).toString() === fileUri.toString()) {
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  }
}

export function registerCommands(connection: ServerConnection, log: (message: string) => void): vscode.Disposable {
  const noTarget = () => void vscode.window.showWarningMessage('mlirbc: open a .mlirbc file first.');
  return vscode.Disposable.from(
    vscode.commands.registerCommand('mlirbc.showInfo', async (arg?: unknown) => {
      const file = targetFile(arg);
      if (!file) return noTarget();
      const doc = await vscode.workspace.openTextDocument(infoUriFor(file));
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
    }),
    vscode.commands.registerCommand('mlirbc.reopenRaw', async (arg?: unknown) => {
      const file = targetFile(arg);
      if (!file) return noTarget();
      const column = vscode.window.tabGroups.activeTabGroup.viewColumn;
      await closeActiveIfShowing(file);
      await showRaw(file, column);
    }),
    vscode.commands.registerCommand('mlirbc.reopenAsText', async (arg?: unknown) => {
      const file = targetFile(arg);
      if (!file) return noTarget();
      const column = vscode.window.tabGroups.activeTabGroup.viewColumn;
      try {
        await showView(file, column);
      } catch (err) {
        void vscode.window.showErrorMessage(err instanceof Error ? err.message : String(err));
      }
    }),
    vscode.commands.registerCommand('mlirbc.restartServer', async () => {
      try {
        await connection.restart();
        void vscode.window.showInformationMessage('mlirbc: language server restarted.');
      } catch (err) {
        // A failed start was already notified by the connection (once per start); only the log gets it here.
        log(`restart failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }),
  );
}
