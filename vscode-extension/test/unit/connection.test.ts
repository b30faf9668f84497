// Unit tests of the client start-up and the requests the extension sends (with a fake LanguageClient).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { ServerConnection, ServerStartError, type ClientLike } from '../../src/connection';
import { BYTECODE_INFO, CONVERT_FROM_BYTECODE, CONVERT_TO_BYTECODE } from '../../src/protocol';
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

const PY: ServerCommand = { command: 'python3', args: ['-m', 'mlirbc.lsp'], source: 'python' };

function setup(startErrors: (Error | undefined)[] = [], answer = (_m: string, _p: unknown): unknown => ({ output: '' })) {
  const clients: FakeClient[] = [];
  const log: string[] = [];
  const conn = new ServerConnection(
    (cmd) => {
      const c = new FakeClient(cmd, startErrors[clients.length], answer);
      clients.push(c);
      return c;
    },
    () => PY,
    (m) => log.push(m),
  );
  return { conn, clients, log };
}

const FILE = vscode.Uri.file('/w/a.mlirbc');
const VIEW = FILE.with({ scheme: 'mlirbc' });

describe('ServerConnection', () => {
  it('starts the client once for concurrent requests', async () => {
    const { conn, clients, log } = setup();
    await Promise.all([conn.fromBytecode(FILE), conn.fromBytecode(FILE), conn.start()]);
    assert.strictEqual(clients.length, 1);
    assert.strictEqual(clients[0].started, 1);
    assert.ok(log.some((l) => l.includes('python3 -m mlirbc.lsp')));
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

  it('a failed start names the command, is remembered, and restart tries again', async () => {
    const { conn, clients } = setup([new Error('spawn python3 ENOENT')]);
    await assert.rejects(conn.fromBytecode(FILE), (err: Error) => {
      assert.ok(err instanceof ServerStartError);
      assert.match(err.message, /python3 -m mlirbc\.lsp/);
      assert.match(err.message, /ENOENT/);
      assert.match(err.message, /mlirbc\.server\.command/);
      return true;
    });
    await assert.rejects(conn.fromBytecode(FILE), ServerStartError);
    assert.strictEqual(clients.length, 1, 'no new process per request after a failure');
    await conn.restart();
    assert.strictEqual(clients.length, 2);
    assert.strictEqual(clients[0].stopped, 1);
    assert.strictEqual(await conn.fromBytecode(FILE), '');
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
