// The running language server as the rest of the extension sees it: started lazily, restartable,
// and the one place that sends our requests (conversions and `mlirbc/info`).
import type * as vscode from 'vscode';
import type { Converter } from './bytecodeFs';
import {
  BYTECODE_INFO,
  CONVERT_FROM_BYTECODE,
  CONVERT_TO_BYTECODE,
  decodeBase64Output,
  textOutput,
  type BytecodeInfo,
} from './protocol';
import { describeCommand, describeSource, type ServerCommand } from './serverCommand';

/** The subset of `LanguageClient` used here (a fake in unit tests). */
export interface ClientLike {
  start(): Promise<void>;
  stop(timeout?: number): Promise<void>;
  sendRequest<R>(method: string, params: unknown): Promise<R>;
}

export type ClientFactory = (cmd: ServerCommand) => ClientLike;

export class ServerStartError extends Error {
  constructor(
    readonly command: ServerCommand,
    readonly cause: unknown,
  ) {
    const why = cause instanceof Error ? cause.message : String(cause);
    const fix =
      command.source === 'setting'
        ? 'Correct `mlirbc.server.command` or clear it to use the bundled server'
        : 'Set `mlirbc.server.pythonPath` to another Python 3.11+, or `mlirbc.server.command` to your own server';
    super(
      `the mlirbc language server did not start (\`${describeCommand(command)}\`, ${describeSource(command)}): ${why}. ` +
        `${fix}, then run "mlirbc: Restart Server". The output channel "mlirbc" has the server's messages.`,
    );
    this.name = 'ServerStartError';
  }
}

/**
 * Why a start failed: a ServerStartError (the server did not start), a PythonNotFoundError (no interpreter
 * for the bundled server), or whatever else stopped the command from being chosen.
 */
export type StartFailure = Error;

export class ServerConnection implements Converter {
  private client: ClientLike | undefined;
  private starting: Promise<ClientLike> | undefined;
  private startError: StartFailure | undefined;
  /** Bumped by stop(): a start that began before it must not leave a client behind or report its failure. */
  private generation = 0;

  /**
   * `onStartFailure` is called once per failed start (not once per request that waits for it), so a user who
   * opens several files sees one notification; a restart that fails again calls it again.
   */
  constructor(
    private readonly createClient: ClientFactory,
    private readonly resolveCommand: () => ServerCommand | Promise<ServerCommand>,
    private readonly log: (message: string) => void = () => undefined,
    private readonly onStartFailure: (err: StartFailure) => void = () => undefined,
  ) {}

  /** Starts the server once; later calls share the same start. A failed start is kept until restart(). */
  start(): Promise<ClientLike> {
    if (this.startError) return Promise.reject(this.startError);
    if (!this.starting) this.starting = this.launch(this.generation);
    return this.starting;
  }

  private async launch(generation: number): Promise<ClientLike> {
    let cmd: ServerCommand;
    try {
      cmd = await this.resolveCommand();
    } catch (err) {
      throw this.failed(generation, err instanceof Error ? err : new Error(String(err)));
    }
    if (generation !== this.generation) throw new Error('the server was stopped before it started');
    this.log(`starting: ${describeCommand(cmd)} (${describeSource(cmd)})`);
    const client = this.createClient(cmd);
    this.client = client;
    try {
      await client.start();
    } catch (err) {
      throw this.failed(generation, new ServerStartError(cmd, err));
    }
    this.log('server started');
    return client;
  }

  private failed(generation: number, err: StartFailure): StartFailure {
    if (generation === this.generation) {
      this.startError = err;
      this.log(err.message);
      this.onStartFailure(err);
    }
    return err;
  }

  get lastStartError(): StartFailure | undefined {
    return this.startError;
  }

  async stop(): Promise<void> {
    const client = this.client;
    const starting = this.starting;
    this.generation++;
    this.client = undefined;
    this.starting = undefined;
    this.startError = undefined;
    if (starting) {
      try {
        await starting;
      } catch {
        // a client that never started still gets stop() to end its process
      }
    }
    if (client) {
      try {
        await client.stop(5000);
      } catch (err) {
        this.log(`stop: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  async restart(): Promise<ClientLike> {
    await this.stop();
    return this.start();
  }

  async request<R>(method: string, params: unknown): Promise<R> {
    const client = await this.start();
    return client.sendRequest<R>(method, params);
  }

  async fromBytecode(fileUri: vscode.Uri): Promise<string> {
    return textOutput(await this.request<unknown>(CONVERT_FROM_BYTECODE, { uri: fileUri.toString() }));
  }

  async toBytecode(viewUri: vscode.Uri): Promise<Uint8Array> {
    return decodeBase64Output(await this.request<unknown>(CONVERT_TO_BYTECODE, { uri: viewUri.toString() }));
  }

  async save(viewUri: vscode.Uri, unverified = false): Promise<number> {
    const params = unverified ? { uri: viewUri.toString(), unverified: true } : { uri: viewUri.toString() };
    const result = await this.request<{ bytes?: unknown } | null>('mlirbc/save', params);
    return typeof result?.bytes === 'number' ? result.bytes : 0;
  }

  async info(fileUri: vscode.Uri): Promise<BytecodeInfo> {
    const result = await this.request<unknown>(BYTECODE_INFO, { uri: fileUri.toString() });
    if (result === null || typeof result !== 'object') {
      throw new Error('mlirbc/info returned no object');
    }
    return result as BytecodeInfo;
  }
}
