// Unit tests of the client start-up: command resolution, launch options, settings sent to the server.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { ConfigurationParams } from 'vscode-languageclient';
import { PythonNotFoundError, type FoundPython } from '../../src/python';
import { describeCommand, describeSource, expandVariables, findOnPath, resolveServerCommand, type ResolveContext } from '../../src/serverCommand';
import { configurationFor, readLaunchSettings, readServerSettings, withExtraSettings, type SettingGetter } from '../../src/settings';
import { createClientOptions, createServerOptions, DOCUMENT_SELECTOR } from '../../src/startup';

function getter(values: Record<string, unknown>): SettingGetter {
  return <T>(key: string) => values[key] as T | undefined;
}

describe('server command resolution', () => {
  const EXT = '/home/u/.vscode/extensions/mlirbc.mlirbc-0.1.0';
  const SCRIPT = path.join(EXT, 'bundled', 'tool', 'start_server.py');
  const PY312: FoundPython = { command: '/usr/bin/python3', origin: 'python3 on PATH', info: { version: [3, 12], executable: '/usr/bin/python3.12' } };

  function context(found: FoundPython | Error = PY312, workspaceFolder?: string) {
    const asked: string[] = [];
    const ctx: ResolveContext = {
      extensionPath: EXT,
      workspaceFolder,
      findPython: async (setting) => {
        asked.push(setting);
        if (found instanceof Error) throw found;
        return found;
      },
    };
    return { ctx, asked };
  }

  it('uses mlirbc.server.command and mlirbc.server.args when set, and looks for no Python', async () => {
    const { ctx, asked } = context();
    const cmd = await resolveServerCommand({ command: '/opt/bin/my-lsp', args: ['--log', 'debug'], pythonPath: '/py' }, ctx);
    assert.deepStrictEqual(cmd, { command: '/opt/bin/my-lsp', args: ['--log', 'debug'], source: 'setting' });
    assert.deepStrictEqual(asked, []);
    assert.strictEqual(describeSource(cmd), 'from `mlirbc.server.command`');
  });

  it('else the bundled server run by the Python found (extra args after its script)', async () => {
    const { ctx, asked } = context();
    const cmd = await resolveServerCommand({ command: '', args: ['--log-level', 'INFO'], pythonPath: '' }, ctx);
    assert.deepStrictEqual(cmd, { command: '/usr/bin/python3', args: [SCRIPT, '--log-level', 'INFO'], source: 'bundled', python: PY312 });
    assert.deepStrictEqual(asked, ['']);
    assert.strictEqual(describeSource(cmd), 'the bundled server on Python 3.12, python3 on PATH');
    assert.strictEqual(describeCommand(cmd), `/usr/bin/python3 ${SCRIPT} --log-level INFO`);
  });

  it('passes mlirbc.server.pythonPath on with its variables expanded', async () => {
    const fromSetting: FoundPython = { ...PY312, command: '/ws/.venv/bin/python', origin: 'setting' };
    const { ctx, asked } = context(fromSetting, '/ws');
    const cmd = await resolveServerCommand({ command: '', args: [], pythonPath: '${workspaceFolder}/.venv/bin/python' }, ctx);
    assert.deepStrictEqual(asked, ['/ws/.venv/bin/python']);
    assert.strictEqual(describeSource(cmd), 'the bundled server on Python 3.12, from `mlirbc.server.pythonPath`');
    const selected = await resolveServerCommand({ command: '', args: [], pythonPath: '' }, context({ ...PY312, origin: 'Python extension' }).ctx);
    assert.strictEqual(describeSource(selected), 'the bundled server on Python 3.12, selected in the Python extension');
  });

  it('fails as the Python search fails', async () => {
    const { ctx } = context(new PythonNotFoundError([{ origin: 'python3 on PATH', problem: 'not found' }]));
    await assert.rejects(resolveServerCommand({ command: '', args: [], pythonPath: '' }, ctx), PythonNotFoundError);
  });

  it('the bundled script is where the .vsix puts it', () => {
    assert.ok(fs.existsSync(path.resolve(__dirname, '..', '..', '..', 'bundled', 'tool', 'start_server.py')));
  });

  it('expands ~, ${workspaceFolder} and ${env:X}', async () => {
    assert.strictEqual(expandVariables('~/x', undefined), path.join(os.homedir(), 'x'));
    assert.strictEqual(expandVariables('${workspaceFolder}/.venv/bin/mlirbc-lsp', '/ws'), '/ws/.venv/bin/mlirbc-lsp');
    assert.strictEqual(expandVariables('${env:MY_VAR}/y', undefined, { MY_VAR: '/m' }), '/m/y');
    const cmd = await resolveServerCommand({ command: '${workspaceFolder}/run', args: ['${workspaceFolder}'], pythonPath: '' }, context(PY312, '/ws').ctx);
    assert.deepStrictEqual([cmd.command, cmd.args], ['/ws/run', ['/ws']]);
  });

  it('findOnPath finds executables only', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlirbc-path-'));
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'mlirbc-path-'));
    try {
      fs.writeFileSync(path.join(other, 'mlirbc-lsp'), '#!/bin/sh\n', { mode: 0o644 }); // not executable
      fs.writeFileSync(path.join(dir, 'mlirbc-lsp'), '#!/bin/sh\n', { mode: 0o755 });
      const env = { PATH: [other, dir].join(path.delimiter) };
      assert.strictEqual(findOnPath('mlirbc-lsp', env), path.join(dir, 'mlirbc-lsp'));
      assert.strictEqual(findOnPath('mlirbc-lsp', { PATH: other }), undefined);
      assert.strictEqual(findOnPath('mlirbc-lsp', {}), undefined);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('client start-up options', () => {
  const values = {
    'server.command': ' mlirbc-lsp ',
    'server.args': ['--x', 3],
    'server.pythonPath': ' ~/py/bin/python ',
    'output.version': 5,
    'output.producer': '',
    'models.disabled': ['vhlo'],
    'models.odsJson': ['/a/ops.json'],
    'models.plugins': 'not-a-list',
    'models.set': 'mlir24',
  };
  const settings = readServerSettings(getter(values));

  it('reads and normalises settings', () => {
    assert.deepStrictEqual(readLaunchSettings(getter(values)), { command: 'mlirbc-lsp', args: ['--x'], pythonPath: '~/py/bin/python' });
    assert.deepStrictEqual(readLaunchSettings(getter({})), { command: '', args: [], pythonPath: '' });
    assert.deepStrictEqual(settings, {
      output: { version: 5, producer: null },
      models: { disabled: ['vhlo'], odsJson: ['/a/ops.json'], plugins: [], set: 'mlir24' },
    });
    assert.deepStrictEqual(readServerSettings(getter({})), {
      output: { version: null, producer: null },
      models: { disabled: [], odsJson: [], plugins: [], set: 'auto' },
    });
  });

  it('launches the executable over stdio with the environment', () => {
    const opts = createServerOptions({ command: 'python3', args: ['-m', 'mlirbc.lsp'], source: 'setting' }, { PYTHONPATH: '/r/server' }, '/ws');
    assert.deepStrictEqual(opts, { command: 'python3', args: ['-m', 'mlirbc.lsp'], options: { env: { PYTHONPATH: '/r/server' }, cwd: '/ws' } });
    assert.strictEqual((opts as { transport?: unknown }).transport, undefined, 'stdio is the default transport');
  });

  it('selects mlir documents of the mlirbc and file schemes', () => {
    assert.deepStrictEqual(DOCUMENT_SELECTOR, [
      { scheme: 'mlirbc', language: 'mlir' },
      { scheme: 'file', language: 'mlir' },
    ]);
    const opts = createClientOptions(() => settings);
    assert.strictEqual(opts.documentSelector, DOCUMENT_SELECTOR);
  });

  it('sends the settings as initializationOptions (re-read at each start)', () => {
    let current = settings;
    const opts = createClientOptions(() => current);
    const init = opts.initializationOptions as () => unknown;
    assert.deepStrictEqual(init(), settings);
    current = { ...settings, output: { version: 6, producer: 'me' } };
    assert.deepStrictEqual(init(), current);
  });

  it('answers workspace/configuration for mlirbc and defers other sections', async () => {
    const opts = createClientOptions(() => settings);
    const configuration = opts.middleware!.workspace!.configuration!;
    const params: ConfigurationParams = {
      items: [{ section: 'mlirbc' }, { section: 'editor' }, { section: 'mlirbc.models.disabled' }, { section: 'mlirbc.nope' }],
    };
    let forwarded: ConfigurationParams | undefined;
    const next = async (p: ConfigurationParams) => {
      forwarded = p;
      return p.items.map((i) => `next:${i.section}`);
    };
    const result = await configuration(params, { isCancellationRequested: false } as never, next as never);
    assert.deepStrictEqual(result, [settings, 'next:editor', ['vhlo'], null]);
    assert.ok(forwarded);
  });

  it('passes undeclared mlirbc.* settings through, but not the client-only server.*', () => {
    const raw = {
      server: { command: 'x', args: [] },
      output: { version: 'bad', producer: 'p', extra: 1 },
      limits: { maxFileMB: 4096 },
      diagnostics: { fallbacks: false },
    };
    const merged = withExtraSettings(raw, readServerSettings(getter({ 'output.producer': 'p' })));
    assert.deepStrictEqual(merged, {
      output: { version: null, producer: 'p', extra: 1 },
      models: { disabled: [], odsJson: [], plugins: [], set: 'auto' },
      limits: { maxFileMB: 4096 },
      diagnostics: { fallbacks: false },
    });
    assert.strictEqual(withExtraSettings(undefined, settings), settings);
  });

  it('configurationFor ignores foreign sections', () => {
    assert.strictEqual(configurationFor('mlirbcx', settings), undefined);
    assert.strictEqual(configurationFor(undefined, settings), undefined);
    assert.deepStrictEqual(configurationFor('mlirbc.output', settings), { version: 5, producer: null });
  });
});
