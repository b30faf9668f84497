// Unit tests of the start-failure notification: the message and where its buttons lead.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { PythonNotFoundError } from '../../src/python';
import { OPEN_SETTINGS, SHOW_OUTPUT, showStartFailure } from '../../src/startFailure';

describe('start-failure notification', () => {
  const window = vscode.window as { showErrorMessage: unknown };
  const commands = vscode.commands as { executeCommand: unknown };
  const saved = { show: window.showErrorMessage, exec: commands.executeCommand };
  afterEach(() => {
    window.showErrorMessage = saved.show;
    commands.executeCommand = saved.exec;
  });

  function run(choice: string | undefined) {
    const shown: unknown[][] = [];
    const executed: unknown[][] = [];
    let outputShown = 0;
    window.showErrorMessage = async (...args: unknown[]) => {
      shown.push(args);
      return choice;
    };
    commands.executeCommand = async (...args: unknown[]) => {
      executed.push(args);
    };
    const err = new PythonNotFoundError([{ origin: 'python3 on PATH', command: '/usr/bin/python3', problem: 'Python 3.9 is too old' }]);
    return showStartFailure(err, { show: () => outputShown++ }).then(() => ({ shown, executed, outputShown: () => outputShown, err }));
  }

  it('shows the reason and what to do, with two buttons', async () => {
    const { shown, executed, outputShown, err } = await run(undefined);
    assert.deepStrictEqual(shown, [[`mlirbc: ${err.message}`, OPEN_SETTINGS, SHOW_OUTPUT]]);
    assert.match(String(shown[0][0]), /^mlirbc: the bundled language server needs Python 3\.11 or newer/);
    assert.deepStrictEqual(executed, []);
    assert.strictEqual(outputShown(), 0);
  });

  it('"Open Settings" opens the server settings', async () => {
    const { executed } = await run(OPEN_SETTINGS);
    assert.deepStrictEqual(executed, [['workbench.action.openSettings', 'mlirbc.server']]);
  });

  it('"Show Output" shows the output channel', async () => {
    const { executed, outputShown } = await run(SHOW_OUTPUT);
    assert.strictEqual(outputShown(), 1);
    assert.deepStrictEqual(executed, []);
  });
});
