// The one notification shown when the server cannot start (no usable Python, or the server failed): the
// reason and what to do, with buttons to the server settings and to the output channel. ServerConnection
// calls it once per failed start, not per file that waits for the server.
import * as vscode from 'vscode';

export const OPEN_SETTINGS = 'Open Settings';
export const SHOW_OUTPUT = 'Show Output';

export async function showStartFailure(err: Error, output: { show(): void }): Promise<void> {
  const choice = await vscode.window.showErrorMessage(`mlirbc: ${err.message}`, OPEN_SETTINGS, SHOW_OUTPUT);
  if (choice === OPEN_SETTINGS) {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'mlirbc.server');
  } else if (choice === SHOW_OUTPUT) {
    output.show();
  }
}
