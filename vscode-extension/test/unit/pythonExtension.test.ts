// Unit tests of reading the interpreter selected in the Python extension (a fake extension object).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { selectedInterpreter, type ExtensionLike, type PythonExtensionApi } from '../../src/pythonExtension';

function extension(api: PythonExtensionApi | undefined, active = true): ExtensionLike & { activated: number } {
  const ext = {
    isActive: active,
    exports: active ? api : undefined,
    activated: 0,
    activate: async () => {
      ext.activated++;
      ext.isActive = true;
      ext.exports = api;
      return api;
    },
  };
  return ext;
}

const FOLDER = vscode.Uri.file('/ws');

describe('selectedInterpreter', () => {
  it('is none when the Python extension is not installed', async () => {
    assert.deepStrictEqual(await selectedInterpreter(undefined, FOLDER), { problem: 'not installed' });
  });

  it('activates the extension and resolves the active environment of the folder', async () => {
    const asked: unknown[] = [];
    const ext = extension({
      environments: {
        getActiveEnvironmentPath: (resource) => {
          asked.push(resource);
          return { id: 'venv', path: '/ws/.venv' };
        },
        resolveEnvironment: async (env) => {
          asked.push(env);
          return { executable: { uri: vscode.Uri.file('/ws/.venv/bin/python') } };
        },
      },
    }, false);
    assert.deepStrictEqual(await selectedInterpreter(ext, FOLDER), { command: '/ws/.venv/bin/python' });
    assert.strictEqual(ext.activated, 1);
    assert.deepStrictEqual(asked, [FOLDER, { id: 'venv', path: '/ws/.venv' }]);
  });

  it('uses the environment path when it cannot be resolved', async () => {
    const ext = extension({
      environments: {
        getActiveEnvironmentPath: () => ({ id: 'x', path: '/usr/bin/python3.12' }),
        resolveEnvironment: async () => undefined,
      },
    });
    assert.deepStrictEqual(await selectedInterpreter(ext, FOLDER), { command: '/usr/bin/python3.12' });
    assert.strictEqual(ext.activated, 0, 'an active extension is not activated again');
  });

  it('falls back to the older settings API, with an interpreter path only', async () => {
    const single = extension({ settings: { getExecutionDetails: () => ({ execCommand: ['/opt/py/bin/python'] }) } });
    assert.deepStrictEqual(await selectedInterpreter(single, FOLDER), { command: '/opt/py/bin/python' });
    const conda = extension({ settings: { getExecutionDetails: () => ({ execCommand: ['conda', 'run', '-n', 'x', 'python'] }) } });
    assert.deepStrictEqual(await selectedInterpreter(conda, FOLDER), { problem: 'its API gives no interpreter' });
    assert.deepStrictEqual(await selectedInterpreter(extension(undefined), FOLDER), { problem: 'its API gives no interpreter' });
  });

  it('gives up on an extension that does not activate in time', async () => {
    const never: ExtensionLike = { isActive: false, exports: undefined, activate: () => new Promise(() => undefined) };
    const t0 = Date.now();
    assert.deepStrictEqual(await selectedInterpreter(never, FOLDER, 100), { problem: 'activating the Python extension took over 0.1 s' });
    assert.ok(Date.now() - t0 < 2000);
  });

  it('reports an API that throws', async () => {
    const ext = extension({
      environments: {
        getActiveEnvironmentPath: () => {
          throw new Error('no workspace');
        },
        resolveEnvironment: async () => undefined,
      },
    });
    assert.deepStrictEqual(await selectedInterpreter(ext, FOLDER), { problem: 'its API failed: no workspace' });
  });
});
