// Unit tests of the client start-up and the requests the extension sends (with a fake LanguageClient).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { ServerConnection, ServerStartError, type ClientLike } from '../../src/connection';
import { BYTECODE_INFO, CONVERT_FROM_BYTECODE, CONVERT_TO_BYTECODE } from '../../src/protocol';
import { PythonNotFoundError } from '../../src/python';
import type { ServerCommand } from '../../src/serverCommand';

class FakeClient implements ClientLike {
  started = 0;
  stopped = 0;
  requests: [string, unknown][] = [];
  constructor(
    readonly cmd: ServerCommand,
    private readonly startResult: Error | undefined,
    private readonly answer: (method: string, params: unknown) => unknown,
  ) {}
  async start(): Promise<void> {
    this.started++;
    await new Promise((r) => setTimeout(r, 5));
    if (this.startResult) throw this.startResult;
  }
  async stop(): Promise<void> {
    this.stopped++;
  }
  async sendRequest<R>(method: string, params: unknown): Promise<R> {
    this.requests.push([method, params]);
    const a = this.answer(method, params);
    if (a instanceof Error) throw a;
    return a as R;
  }
}

const PY: ServerCommand = {
  command: '/usr/bin/python3',
  args: ['/ext/bundled/tool/start_server.py'],
  source: 'bundled',
  python: { command: '/usr/bin/python3', origin: 'python3 on PATH', info: { version: [3, 11], executable: '/usr/bin/python3' } },
};
const NO_PYTHON = new PythonNotFoundError([{ origin: 'python3 on PATH', problem: 'not found' }]);

function setup(
  startErrors: (Error | undefined)[] = [],
  answer = (_m: string, _p: unknown): unknown => ({ output: '' }),
  resolve: () => ServerCommand | Promise<ServerCommand> = () => PY,
) {
  const clients: FakeClient[] = [];
  const log: string[] = [];
  const notified: Error[] = [];
  const conn = new ServerConnection(
    (cmd) => {
      const c = new FakeClient(cmd, startErrors[clients.length], answer);
      clients.push(c);
      return c;
    },
    resolve,
    (m) => log.push(m),
    (err) => notified.push(err),
  );
  return { conn, clients, log, notified };
}

const FILE = vscode.Uri.file('/w/a.mlirbc');
const VIEW = FILE.with({ scheme: 'mlirbc' });

describe('ServerConnection', () => {
  it('starts the client once for concurrent requests', async () => {
    const { conn, clients, log } = setup();
    await Promise.all([conn.fromBytecode(FILE), conn.fromBytecode(FILE), conn.start()]);
    assert.strictEqual(clients.length, 1);
    assert.strictEqual(clients[0].started, 1);
    assert.ok(log.includes('starting: /usr/bin/python3 /ext/bundled/tool/start_server.py (the bundled server on Python 3.11, python3 on PATH)'), log.join('\n'));
  });

  it('sends convertFromBytecode with the file URI and returns the text', async () => {
    const { conn, clients } = setup([], () => ({ output: 'module {}' }));
    assert.strictEqual(await conn.fromBytecode(FILE), 'module {}');
    assert.deepStrictEqual(clients[0].requests, [[CONVERT_FROM_BYTECODE, { uri: 'file:///w/a.mlirbc' }]]);
  });

  it('sends convertToBytecode with the view URI and decodes base64', async () => {
    const bytes = Buffer.from([0x4d, 0x4c, 0xef, 0x52, 0, 255]);
    const { conn, clients } = setup([], () => ({ output: bytes.toString('base64') }));
    assert.deepStrictEqual(Buffer.from(await conn.toBytecode(VIEW)), bytes);
    assert.deepStrictEqual(clients[0].requests, [[CONVERT_TO_BYTECODE, { uri: 'mlirbc:/w/a.mlirbc' }]]);
  });

  it('rejects a convertToBytecode answer that is not base64', async () => {
    const { conn } = setup([], () => ({ output: 'not base64!' }));
    await assert.rejects(conn.toBytecode(VIEW), /not base64/);
  });

  it('passes the server error of a refused encode through unchanged', async () => {
    const { conn } = setup([], () => new Error('parse error at 2:3: unknown SSA value %9'));
    await assert.rejects(conn.toBytecode(VIEW), /2:3: unknown SSA value %9/);
  });

  it('sends mlirbc/info with the file URI', async () => {
    const info = { version: 6, producer: 'MLIR22.1.8', fallbacks: { op: 2, attribute: 0, type: 1 } };
    const { conn, clients } = setup([], () => info);
    assert.deepStrictEqual(await conn.info(FILE), info);
    assert.deepStrictEqual(clients[0].requests, [[BYTECODE_INFO, { uri: 'file:///w/a.mlirbc' }]]);
  });

  it('a failed start names the command, is notified once, is remembered, and restart tries again', async () => {
    const { conn, clients, notified } = setup([new Error('spawn /usr/bin/python3 ENOENT')]);
    const requests = [conn.fromBytecode(FILE), conn.info(FILE), conn.start()];
    for (const r of requests) {
      await assert.rejects(r, (err: Error) => {
        assert.ok(err instanceof ServerStartError);
        assert.match(err.message, /\/usr\/bin\/python3 \/ext\/bundled\/tool\/start_server\.py/);
        assert.match(err.message, /the bundled server on Python 3\.11, python3 on PATH/);
        assert.match(err.message, /ENOENT/);
        assert.match(err.message, /mlirbc\.server\.pythonPath/);
        assert.match(err.message, /mlirbc\.server\.command/);
        return true;
      });
    }
    await assert.rejects(conn.fromBytecode(FILE), ServerStartError);
    assert.strictEqual(clients.length, 1, 'no new process per request after a failure');
    assert.strictEqual(notified.length, 1, 'one notification, not one per request');
    await conn.restart();
    assert.strictEqual(clients.length, 2);
    assert.strictEqual(clients[0].stopped, 1);
    assert.strictEqual(await conn.fromBytecode(FILE), '');
    assert.strictEqual(notified.length, 1);
  });

  it('a failed start of the user\'s own command points at mlirbc.server.command', async () => {
    const own: ServerCommand = { command: 'my-lsp', args: [], source: 'setting' };
    const { conn } = setup([new Error('spawn my-lsp ENOENT')], undefined, () => own);
    await assert.rejects(conn.start(), /\(`my-lsp`, from `mlirbc\.server\.command`\): spawn my-lsp ENOENT\. Correct `mlirbc\.server\.command` or clear it/);
  });

  it('no Python: no process, one notification for all waiting requests, again after a restart that fails again', async () => {
    let python: ServerCommand | Error = NO_PYTHON;
    let resolved = 0;
    const { conn, clients, notified, log } = setup([], undefined, async () => {
      resolved++;
      await new Promise((r) => setTimeout(r, 5));
      if (python instanceof Error) throw python;
      return python;
    });
    const results = await Promise.allSettled([conn.fromBytecode(FILE), conn.fromBytecode(VIEW), conn.info(FILE)]);
    assert.deepStrictEqual(results.map((r) => r.status), ['rejected', 'rejected', 'rejected']);
    for (const r of results) assert.strictEqual((r as PromiseRejectedResult).reason, NO_PYTHON);
    await assert.rejects(conn.save(VIEW), PythonNotFoundError);
    assert.strictEqual(resolved, 1, 'the search is not repeated per file');
    assert.deepStrictEqual(notified, [NO_PYTHON]);
    assert.strictEqual(clients.length, 0);
    assert.ok(log.includes(NO_PYTHON.message));
    assert.strictEqual(conn.lastStartError, NO_PYTHON);

    await assert.rejects(conn.restart(), PythonNotFoundError);
    assert.strictEqual(notified.length, 2, 'a restart is a new attempt');

    python = PY;
    await conn.restart();
    assert.strictEqual(clients.length, 1);
    assert.strictEqual(notified.length, 2);
    assert.strictEqual(conn.lastStartError, undefined);
  });

  it('a stop while the Python is being looked for starts no process and notifies nothing', async () => {
    let release: (c: ServerCommand) => void = () => undefined;
    const { conn, clients, notified } = setup([], undefined, () => new Promise<ServerCommand>((r) => (release = r)));
    const first = conn.start();
    await new Promise((r) => setTimeout(r, 1));
    const stopped = conn.stop();
    release(PY);
    await stopped;
    await assert.rejects(first, /stopped before it started/);
    assert.strictEqual(clients.length, 0);
    assert.deepStrictEqual(notified, []);
  });

  it('restart stops the running client and starts a new one', async () => {
    const { conn, clients } = setup();
    await conn.start();
    await conn.restart();
    assert.strictEqual(clients.length, 2);
    assert.strictEqual(clients[0].stopped, 1);
    assert.strictEqual(clients[1].started, 1);
  });
});
