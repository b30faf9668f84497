// A minimal LSP client for the contract test: starts the real server as a child process and speaks
// JSON-RPC over its stdio with vscode-jsonrpc (the library the extension's client is built on).
import { spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import { configurationFor, type ServerSettings } from '../../src/settings';

export interface ServerSpec {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** How the command was chosen, for skip messages. */
  origin: string;
}

/**
 * `MLIRBC_LSP` (a command line) if set, else `<python> -m mlirbc.lsp` with `<repo>/server` on PYTHONPATH, where
 * <python> is `MLIRBC_PYTHON`, else `<repo>/.venv/bin/python` when it exists (the venv `.ci/run` makes), else `python3`.
 */
export function serverSpec(repoRoot: string, env: NodeJS.ProcessEnv = process.env): ServerSpec {
  const pythonPath = [path.join(repoRoot, 'server'), env.PYTHONPATH].filter((p) => p).join(path.delimiter);
  const childEnv = { ...env, PYTHONPATH: pythonPath, PYTHONUNBUFFERED: '1' };
  const custom = env.MLIRBC_LSP?.trim();
  if (custom) {
    const [command, ...args] = custom.split(/\s+/);
    return { command, args, env: childEnv, origin: 'MLIRBC_LSP' };
  }
  const venv = path.join(repoRoot, '.venv', 'bin', 'python');
  const python = env.MLIRBC_PYTHON?.trim() || (fs.existsSync(venv) ? venv : 'python3');
  return { command: python, args: ['-m', 'mlirbc.lsp'], env: childEnv, origin: 'default (set MLIRBC_LSP or MLIRBC_PYTHON to change)' };
}

/** The server could not be started at all (spawn failure, or it exited before answering initialize). */
export class ServerUnavailable extends Error {}

export interface Diagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity?: number;
  code?: string | number;
  source?: string;
  message: string;
}

export class LspSession {
  readonly diagnostics = new Map<string, Diagnostic[]>();
  readonly configurationRequests: unknown[] = [];
  stderr = '';
  initializeResult: { capabilities: Record<string, unknown>; serverInfo?: { name: string; version?: string } } | undefined;
  private exited: { code: number | null; signal: string | null } | undefined;

  private constructor(
    readonly spec: ServerSpec,
    private readonly proc: ChildProcess,
    readonly connection: MessageConnection,
    private readonly settings: ServerSettings,
  ) {}

  static async start(spec: ServerSpec, settings: ServerSettings, rootUri: string, timeoutMs: number): Promise<LspSession> {
    const proc = spawn(spec.command, spec.args, { env: spec.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createMessageConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
    const session = new LspSession(spec, proc, connection, settings);
    proc.stderr!.on('data', (chunk: Buffer) => {
      session.stderr = (session.stderr + chunk.toString('utf8')).slice(-20000);
    });
    const exited = new Promise<never>((_resolve, reject) => {
      proc.on('error', (err) => reject(new ServerUnavailable(`cannot run ${spec.command}: ${err.message}`)));
      proc.on('exit', (code, signal) => {
        session.exited = { code, signal };
        reject(new ServerUnavailable(`server exited (code ${code}, signal ${signal}) before answering initialize:\n${session.stderrTail()}`));
      });
    });
    exited.catch(() => undefined);
    session.listen();
    const init = connection.sendRequest('initialize', {
      processId: process.pid,
      clientInfo: { name: 'mlirbc-contract-test', version: '0' },
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'contract' }],
      initializationOptions: settings,
      capabilities: {
        workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true }, workspaceFolders: true },
        textDocument: {
          synchronization: { dynamicRegistration: true, didSave: true, willSave: true },
          hover: { contentFormat: ['markdown', 'plaintext'] },
          publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true },
        },
        window: { workDoneProgress: true, showMessage: {} },
      },
    });
    const timeout = new Promise<never>((_r, reject) =>
      setTimeout(() => reject(new Error(`no answer to initialize within ${timeoutMs} ms:\n${session.stderrTail()}`)), timeoutMs).unref(),
    );
    try {
      session.initializeResult = (await Promise.race([init, exited, timeout])) as LspSession['initializeResult'];
    } catch (err) {
      session.kill();
      throw err;
    }
    await connection.sendNotification('initialized', {});
    return session;
  }

  private listen(): void {
    const c = this.connection;
    c.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: Diagnostic[] }) => {
      this.diagnostics.set(p.uri, p.diagnostics);
    });
    c.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) => {
      this.configurationRequests.push(p);
      return p.items.map((item) => configurationFor(item.section, this.settings) ?? null);
    });
    // registerCapability, workDoneProgress/create, refresh requests, showMessageRequest...: accept.
    c.onRequest(() => null);
    c.onNotification(() => undefined);
    c.onError(() => undefined);
    c.onClose(() => undefined);
    c.listen();
  }

  stderrTail(lines = 25): string {
    return this.stderr.split('\n').slice(-lines).join('\n');
  }

  get hasExited(): boolean {
    return this.exited !== undefined;
  }

  /** Sends a request and fails after `timeoutMs`. */
  async request<R>(method: string, params: unknown, timeoutMs = 60000): Promise<R> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_r, reject) => {
      timer = setTimeout(() => reject(new Error(`${method}: no answer within ${timeoutMs} ms\n${this.stderrTail()}`)), timeoutMs);
    });
    try {
      return (await Promise.race([this.connection.sendRequest<R>(method, params), timeout])) as R;
    } finally {
      clearTimeout(timer);
    }
  }

  notify(method: string, params: unknown): Promise<void> {
    return this.connection.sendNotification(method, params);
  }

  /** Waits until `predicate` holds for the diagnostics of `uri` (or the time runs out). */
  async waitForDiagnostics(uri: string, predicate: (d: Diagnostic[]) => boolean, timeoutMs: number): Promise<Diagnostic[] | undefined> {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      const d = this.diagnostics.get(uri);
      if (d && predicate(d)) return d;
      await new Promise((r) => setTimeout(r, 50));
    }
    return this.diagnostics.get(uri);
  }

  async shutdown(timeoutMs = 10000): Promise<{ code: number | null } | undefined> {
    if (this.hasExited) return this.exited;
    const exited = new Promise<{ code: number | null }>((resolve) => this.proc.on('exit', (code) => resolve({ code })));
    try {
      await this.request('shutdown', null, timeoutMs);
      await this.notify('exit', null);
    } catch {
      // fall through to kill
    }
    const result = await Promise.race([exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), timeoutMs).unref())]);
    this.kill();
    return result;
  }

  kill(): void {
    this.connection.dispose();
    if (!this.hasExited) this.proc.kill('SIGKILL');
  }
}
