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
import { describeCommand, type ServerCommand } from './serverCommand';

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
    super(
      `the mlirbc language server did not start (\`${describeCommand(command)}\`, chosen from ${command.source}): ${why}. ` +
        'Install mlirbc (it provides `mlirbc-lsp`) or set `mlirbc.server.command`, then run "mlirbc: Restart Server".',
    );
    this.name = 'ServerStartError';
  }
}

export class ServerConnection implements Converter {
  private client: ClientLike | undefined;
  private starting: Promise<ClientLike> | undefined;
  private startError: ServerStartError | undefined;

  constructor(
    private readonly createClient: ClientFactory,
    private readonly resolveCommand: () => ServerCommand,
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  /** Starts the server once; later calls share the same start. A failed start is kept until restart(). */
  start(): Promise<ClientLike> {
    if (this.startError) return Promise.reject(this.startError);
    if (!this.starting) {
      const cmd = this.resolveCommand();
      this.log(`starting: ${describeCommand(cmd)} (from ${cmd.source})`);
      const client = this.createClient(cmd);
      this.client = client;
      this.starting = client.start().then(
        () => {
          this.log('server started');
          return client;
        },
        (err: unknown) => {
          this.startError = new ServerStartError(cmd, err);
          this.log(this.startError.message);
          throw this.startError;
        },
      );
    }
    return this.starting;
  }

  get lastStartError(): ServerStartError | undefined {
    return this.startError;
  }

  async stop(): Promise<void> {
    const client = this.client;
    const starting = this.starting;
    this.client = undefined;
    this.starting = undefined;
    this.startError = undefined;
    if (client && starting) {
      try {
        await starting;
      } catch {
        // a client that never started still gets stop() to end its process
      }
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
