// Unit tests of the search for the Python that runs the bundled server: the order of the sources, the
// version check, what the error says, and the probe run against real processes.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { findPython, probePython, PythonNotFoundError, type PythonInfo, type PythonSources } from '../../src/python';
import { findOnPath } from '../../src/serverCommand';

/** Sources backed by tables: interpreters by command, PATH by name; records what was asked. */
function sources(opts: {
  setting?: string;
  extension?: { command?: string; problem?: string } | Error;
  path?: Record<string, string>;
  pythons?: Record<string, [number, number] | Error>;
}) {
  const probed: string[] = [];
  let extensionAsked = 0;
  const src: PythonSources = {
    setting: opts.setting ?? '',
    pythonExtension: async () => {
      extensionAsked++;
      if (opts.extension instanceof Error) throw opts.extension;
      return opts.extension ?? { problem: 'not installed' };
    },
    which: (name) => opts.path?.[name],
    probe: async (command): Promise<PythonInfo> => {
      probed.push(command);
      const v = opts.pythons?.[command];
      if (v === undefined) throw new Error('not found');
      if (v instanceof Error) throw v;
      return { version: v, executable: `${command}-exe` };
    },
  };
  return { src, probed, extensionAsked: () => extensionAsked };
}

describe('findPython', () => {
  it('uses mlirbc.server.pythonPath when set, and asks nothing else', async () => {
    const t = sources({ setting: '/opt/py/bin/python', pythons: { '/opt/py/bin/python': [3, 12], '/usr/bin/python3': [3, 11] }, path: { python3: '/usr/bin/python3' } });
    const found = await findPython(t.src);
    assert.deepStrictEqual(found, { command: '/opt/py/bin/python', origin: 'setting', info: { version: [3, 12], executable: '/opt/py/bin/python-exe' } });
    assert.deepStrictEqual(t.probed, ['/opt/py/bin/python']);
    assert.strictEqual(t.extensionAsked(), 0);
  });

  it('does not fall back to another Python when the one in the setting is too old', async () => {
    const t = sources({ setting: '/old/python', pythons: { '/old/python': [3, 10], '/usr/bin/python3': [3, 12] }, path: { python3: '/usr/bin/python3' } });
    await assert.rejects(findPython(t.src), (err: Error) => {
      assert.ok(err instanceof PythonNotFoundError);
      assert.match(err.message, /`mlirbc\.server\.pythonPath` is `\/old\/python`/);
      assert.match(err.message, /Python 3\.10 is too old/);
      assert.match(err.message, /Python 3\.11 or newer/);
      return true;
    });
    assert.deepStrictEqual(t.probed, ['/old/python']);
  });

  it('reports a setting that does not run', async () => {
    const t = sources({ setting: '/nope/python' });
    await assert.rejects(findPython(t.src), /`\/nope\/python`, which cannot run the bundled language server: not found/);
  });

  it('else the interpreter selected in the Python extension', async () => {
    const t = sources({
      extension: { command: '/ws/.venv/bin/python' },
      pythons: { '/ws/.venv/bin/python': [3, 13], '/usr/bin/python3': [3, 11] },
      path: { python3: '/usr/bin/python3' },
    });
    const found = await findPython(t.src);
    assert.strictEqual(found.command, '/ws/.venv/bin/python');
    assert.strictEqual(found.origin, 'Python extension');
    assert.deepStrictEqual(t.probed, ['/ws/.venv/bin/python']);
  });

  it('passes over a selected interpreter that is too old, to python3 on PATH', async () => {
    const t = sources({
      extension: { command: '/ws/py39/bin/python' },
      pythons: { '/ws/py39/bin/python': [3, 9], '/usr/bin/python3': [3, 11] },
      path: { python3: '/usr/bin/python3', python: '/usr/bin/python' },
    });
    const found = await findPython(t.src);
    assert.deepStrictEqual([found.command, found.origin], ['/usr/bin/python3', 'python3 on PATH']);
    assert.deepStrictEqual(t.probed, ['/ws/py39/bin/python', '/usr/bin/python3']);
  });

  it('an extension that fails counts as no selection', async () => {
    const t = sources({ extension: new Error('activating the Python extension took over 10 s'), pythons: { '/usr/bin/python3': [3, 11] }, path: { python3: '/usr/bin/python3' } });
    assert.strictEqual((await findPython(t.src)).origin, 'python3 on PATH');
  });

  it('else python on PATH', async () => {
    const t = sources({ pythons: { 'C:\\Python312\\python.exe': [3, 12] }, path: { python: 'C:\\Python312\\python.exe' } });
    const found = await findPython(t.src);
    assert.deepStrictEqual([found.command, found.origin], ['C:\\Python312\\python.exe', 'python on PATH']);
  });

  it('accepts 3.11 and later, refuses 3.10 and Python 2', async () => {
    for (const [version, ok] of [
      [[3, 11], true],
      [[3, 14], true],
      [[4, 0], true],
      [[3, 10], false],
      [[2, 7], false],
    ] as [[number, number], boolean][]) {
      const t = sources({ pythons: { '/usr/bin/python3': version }, path: { python3: '/usr/bin/python3' } });
      if (ok) assert.strictEqual((await findPython(t.src)).command, '/usr/bin/python3', version.join('.'));
      else await assert.rejects(findPython(t.src), new RegExp(`Python ${version.join('\\.')} is too old`));
    }
  });

  it('when none will do, says what was tried and what to do', async () => {
    const t = sources({
      extension: { problem: 'not installed' },
      pythons: { '/usr/bin/python3': [3, 9], '/usr/bin/python': new Error('did not run: Permission denied') },
      path: { python3: '/usr/bin/python3', python: '/usr/bin/python' },
    });
    await assert.rejects(findPython(t.src), (err: Error) => {
      assert.ok(err instanceof PythonNotFoundError);
      assert.deepStrictEqual(
        err.tried.map((a) => [a.origin, a.command, a.problem]),
        [
          ['Python extension', undefined, 'not installed'],
          ['python3 on PATH', '/usr/bin/python3', 'Python 3.9 is too old'],
          ['python on PATH', '/usr/bin/python', 'did not run: Permission denied'],
        ],
      );
      assert.match(err.message, /needs Python 3\.11 or newer \(no packages\) and none was found/);
      assert.match(err.message, /Python extension: not installed; python3 on PATH \(\/usr\/bin\/python3\): Python 3\.9 is too old; python on PATH/);
      assert.match(err.message, /Install Python 3\.11 or newer/);
      assert.match(err.message, /`mlirbc\.server\.pythonPath`/);
      assert.match(err.message, /mlirbc: Restart Server/);
      return true;
    });
  });

  it('with nothing on PATH and no Python extension, says so', async () => {
    const t = sources({});
    await assert.rejects(findPython(t.src), /Python extension: not installed; python3 on PATH: not found; python on PATH: not found/);
  });
});

describe('probePython', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlirbc-probe-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function script(name: string, body: string, mode = 0o755): string {
    const p = path.join(dir, name);
    fs.writeFileSync(p, `#!/bin/sh\n${body}\n`, { mode });
    return p;
  }

  it('reads the version and sys.executable of a real interpreter', async function () {
    const python = process.env.MLIRBC_PYTHON || findOnPath('python3');
    if (!python) this.skip();
    const info = await probePython(python!);
    assert.ok(info.version[0] === 3 && info.version[1] >= 0, JSON.stringify(info));
    assert.ok(path.isAbsolute(info.executable), info.executable);
  });

  it('runs the probe program it is given (an interpreter that answers like Python 3.9)', async () => {
    const fake = script('python', 'case "$2" in *sys.version_info*) echo "3 9 /opt/py39/bin/python";; *) exit 9;; esac');
    assert.deepStrictEqual(await probePython(fake), { version: [3, 9], executable: '/opt/py39/bin/python' });
  });

  it('says why a command is no interpreter', async () => {
    await assert.rejects(probePython(path.join(dir, 'missing')), /^Error: not found$/);
    await assert.rejects(probePython(script('noexec', 'exit 0', 0o644)), /not executable/);
    await assert.rejects(probePython(script('fails', 'echo "boom: broken install" >&2; exit 1')), /did not run: boom: broken install/);
    await assert.rejects(probePython(script('other', 'echo hello')), /not a Python interpreter \(it printed "hello\\n"\)/);
    await assert.rejects(probePython(script('slow', 'exec sleep 5'), 300), /no answer within 0\.3 s/);
  });
});
