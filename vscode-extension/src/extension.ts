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
import { findPython, probePython } from './python';
import { PYTHON_EXTENSION_ID, pythonExtensionApi, selectedInterpreter, type ExtensionLike } from './pythonExtension';
import { findOnPath, resolveServerCommand } from './serverCommand';
import { readLaunchSettings, readServerSettings, SECTION, withExtraSettings, type SettingGetter } from './settings';
import { showStartFailure } from './startFailure';
import { CLIENT_ID, CLIENT_NAME, createClientOptions, createServerOptions } from './startup';
import { VIEW_SCHEME } from './uris';
import { registerValueCommands } from './values';
import { registerViewLanguage } from './views';

let connection: ServerConnection | undefined;

function workspaceFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

function pythonExtension(): ExtensionLike | undefined {
  return vscode.extensions.getExtension(PYTHON_EXTENSION_ID);
}

/**
 * Restarts the server when the interpreter selected in the Python extension changes, if that choice is the
 * one the bundled server uses (neither `mlirbc.server.command` nor `mlirbc.server.pythonPath` is set).
 * Subscribes once, after the first start looked at the Python extension.
 */
class InterpreterWatch implements vscode.Disposable {
  private subscription: vscode.Disposable | undefined;

  constructor(
    private readonly usesSelection: () => boolean,
    private readonly restart: () => void,
  ) {}

  async watch(): Promise<void> {
    if (this.subscription) return;
    const ext = pythonExtension();
    if (!ext?.isActive) return;
    const event = (await pythonExtensionApi(ext, 0))?.environments?.onDidChangeActiveEnvironmentPath;
    if (!event || this.subscription) return;
    this.subscription = event(() => {
      if (this.usesSelection()) this.restart();
    });
  }

  dispose(): void {
    this.subscription?.dispose();
  }
}

export function activate(context: vscode.ExtensionContext): { connection: ServerConnection } {
  const output = vscode.window.createOutputChannel('mlirbc');
  const log = (message: string) => output.appendLine(`[mlirbc ${new Date().toISOString()}] ${message}`);
  const setting: SettingGetter = (key) => vscode.workspace.getConfiguration(SECTION).get(key);
  const serverSettings = () =>
    withExtraSettings(vscode.workspace.getConfiguration().get(SECTION), readServerSettings(setting));

  const launchSettings = () => readLaunchSettings(setting);
  const interpreterWatch = new InterpreterWatch(
    () => {
      const l = launchSettings();
      return l.command.length === 0 && l.pythonPath.length === 0;
    },
    () => {
      log('the Python extension selected another interpreter: restarting');
      conn.restart().catch((err: unknown) => log(`restart failed: ${String(err)}`));
    },
  );
  const resolveCommand = async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const cmd = await resolveServerCommand(launchSettings(), {
      extensionPath: context.extensionPath,
      workspaceFolder: workspaceFolder(),
      findPython: (pythonPath) =>
        findPython({
          setting: pythonPath,
          pythonExtension: () => selectedInterpreter(pythonExtension(), folder),
          which: (name) => findOnPath(name),
          probe: (command) => probePython(command),
        }),
    });
    void interpreterWatch.watch();
    return cmd;
  };

  const conn = new ServerConnection(
    (cmd) =>
      new LanguageClient(
        CLIENT_ID,
        CLIENT_NAME,
        createServerOptions(cmd, process.env, workspaceFolder()),
        createClientOptions(serverSettings, output),
      ),
    resolveCommand,
    log,
    (err) => void showStartFailure(err, output),
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
    interpreterWatch,
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

  // Start now so the first file opens quickly. A failure is notified once (onStartFailure above); each
  // file opened meanwhile shows the same reason in its editor.
  conn.start().catch(() => undefined);
  return { connection: conn };
}

export async function deactivate(): Promise<void> {
  await connection?.stop();
  connection = undefined;
}
