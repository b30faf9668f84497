// Entry point: wires the language client, the `mlirbc:` file system, the custom editor, the status bar
// and the commands together. Everything else lives in its own module.
import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/node';
import { BytecodeFileSystemProvider, workspaceFileAccess } from './bytecodeFs';
import { registerCommands } from './commands';
import { ServerConnection } from './connection';
import { registerCustomEditor } from './customEditor';
import { registerGraph } from './graphPanel';
import { INFO_SCHEME, InfoDocumentProvider, InfoStatusBar } from './info';
import { resolveServerCommand } from './serverCommand';
import { readLaunchSettings, readServerSettings, SECTION, withExtraSettings, type SettingGetter } from './settings';
import { CLIENT_ID, CLIENT_NAME, createClientOptions, createServerOptions } from './startup';
import { VIEW_SCHEME } from './uris';
import { registerValueCommands } from './values';
import { registerViewLanguage } from './views';

let connection: ServerConnection | undefined;

function workspaceFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

export function activate(context: vscode.ExtensionContext): { connection: ServerConnection } {
  const output = vscode.window.createOutputChannel('mlirbc');
  const log = (message: string) => output.appendLine(`[mlirbc ${new Date().toISOString()}] ${message}`);
  const setting: SettingGetter = (key) => vscode.workspace.getConfiguration(SECTION).get(key);
  const serverSettings = () =>
    withExtraSettings(vscode.workspace.getConfiguration().get(SECTION), readServerSettings(setting));

  const conn = new ServerConnection(
    (cmd) =>
      new LanguageClient(
        CLIENT_ID,
        CLIENT_NAME,
        createServerOptions(cmd, process.env, workspaceFolder()),
        createClientOptions(serverSettings, output),
      ),
    () => resolveServerCommand(readLaunchSettings(setting), undefined, workspaceFolder()),
    log,
  );
  connection = conn;

  const fsProvider = new BytecodeFileSystemProvider(conn, workspaceFileAccess(), {
    onSaveRefused: (err) => log(`save refused for ${err.file.toString()}: ${err.reason}`),
    // A text that parses but does not verify: offered to be saved as it is, as mlir-opt --verify-each=false.
    confirmUnverified: async (err) => {
      const anyway = 'Save anyway (unverified)';
      const choice = await vscode.window.showWarningMessage(
        `${err.file.path.split("/").pop()} does not verify`, { modal: true, detail: err.reason }, anyway);
      return choice === anyway;
    },
    onSaved: (file, size) => log(`saved ${file.toString()} (${size} bytes)`),
    // Opening a model-sized file shows in the status bar while the server maps and prints it.
    progress: (title, work) => Promise.resolve(vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title }, work)),
  });
  const info = (file: vscode.Uri) => conn.info(file);

  context.subscriptions.push(
    output,
    fsProvider,
    vscode.workspace.registerFileSystemProvider(VIEW_SCHEME, fsProvider, { isCaseSensitive: true }),
    registerCustomEditor(log),
    registerViewLanguage(),
    vscode.workspace.registerTextDocumentContentProvider(INFO_SCHEME, new InfoDocumentProvider(info)),
    new InfoStatusBar(info),
    registerCommands(conn, log),
    registerGraph(conn, context.extensionUri, log),
    registerValueCommands(conn),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.server`)) {
        log('server settings changed: restarting');
        conn.restart().catch((err: unknown) => log(`restart failed: ${String(err)}`));
      }
    }),
  );

  // Start now so the first file opens quickly; a failure is shown once and again on each open.
  conn.start().catch((err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    void vscode.window.showErrorMessage(`mlirbc: ${message}`, 'Show Output').then((choice) => {
      if (choice) output.show();
    });
  });
  return { connection: conn };
}

export async function deactivate(): Promise<void> {
  await connection?.stop();
  connection = undefined;
}
