// FileSystemProvider for the `mlirbc:` scheme: reading a view converts the bytecode file to MLIR text
// through the server; writing a view asks the server to encode its own copy of the view and writes those
// bytes to the file. A refusal (invalid text) is reported and nothing is written.
import * as path from 'path';
import * as vscode from 'vscode';
import { fileUriFor, viewUriFor } from './uris';

/** The two conversions, implemented by the language client (or a fake in tests). */
export interface Converter {
  /** Text of the bytecode file at `fileUri` (`mlir/convertFromBytecode`). */
  fromBytecode(fileUri: vscode.Uri): Promise<string>;
  /** Bytes of the server's copy of the open view `viewUri` (`mlir/convertToBytecode`). */
  toBytecode(viewUri: vscode.Uri): Promise<Uint8Array>;
  /**
   * Has the server encode its copy of the view and write the file itself (`mlirbc/save`: streamed and
   * atomic, so a model-sized file never passes through the extension); returns the bytes written. With
   * `unverified`, a text that parses but does not verify is written anyway.
   */
  save?(viewUri: vscode.Uri, unverified?: boolean): Promise<number>;
}

/** Access to the real files (defaults to `vscode.workspace.fs`; replaced in tests). */
export interface FileAccess {
  stat(uri: vscode.Uri): Thenable<vscode.FileStat>;
  readDirectory(uri: vscode.Uri): Thenable<[string, vscode.FileType][]>;
  writeFile(uri: vscode.Uri, content: Uint8Array): Thenable<void>;
  /** Calls `onChange` when the file changes on disk. */
  watch(uri: vscode.Uri, onChange: () => void): vscode.Disposable;
}

export function workspaceFileAccess(): FileAccess {
  return {
    stat: (uri) => vscode.workspace.fs.stat(uri),
    readDirectory: (uri) => vscode.workspace.fs.readDirectory(uri),
    writeFile: (uri, content) => vscode.workspace.fs.writeFile(uri, content),
    watch: (uri, onChange) => {
      const pattern = new vscode.RelativePattern(
        vscode.Uri.joinPath(uri, '..'),
        path.posix.basename(uri.path),
      );
      const watcher = vscode.workspace.createFileSystemWatcher(pattern, true, false, false);
      const subs = [watcher.onDidChange(onChange), watcher.onDidDelete(onChange), watcher];
      return vscode.Disposable.from(...subs);
    },
  };
}

/** Error raised when the server refuses to encode a view; nothing was written. */
export class SaveRefusedError extends Error {
  constructor(
    readonly file: vscode.Uri,
    readonly reason: string,
    /** The text parses but does not verify: the server writes it if asked to (`unverified`). */
    readonly unverifiedAllowed = false,
  ) {
    super(`not saved (the file on disk is unchanged): ${reason}`);
    // VS Code shows "<name>: <message>" in its "Failed to save" notification.
    this.name = 'mlirbc';
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Whether a refusal says the text only fails verification (error data `unverifiedSaveAllowed`). */
function unverifiedAllowed(err: unknown): boolean {
  const data = (err as { data?: unknown } | null)?.data;
  return typeof data === 'object' && data !== null && (data as { unverifiedSaveAllowed?: unknown }).unverifiedSaveAllowed === true;
}

export interface BytecodeFsOptions {
  /** Reports a refused save to the user (the thrown error is shown by VS Code too). */
  onSaveRefused?: (err: SaveRefusedError) => void;
  /**
   * Asked when a save is refused only because the text does not verify: true writes it anyway
   * ("Save anyway (unverified)"); false or absent keeps the refusal.
   */
  confirmUnverified?: (err: SaveRefusedError) => Promise<boolean>;
  /** Called after bytes were written to `fileUri`. */
  onSaved?: (fileUri: vscode.Uri, size: number) => void;
  /** Milliseconds during which change events caused by our own write are ignored. */
  ownWriteQuietMs?: number;
  /** Runs long work with visible progress (the status bar in VS Code). */
  progress?: <T>(title: string, work: () => Promise<T>) => Promise<T>;
}

/** Views of bytecode files from this size on report the size of their text, not of the file, so that VS
 * Code's large-file guards look at what it really holds (an elided view of a 1 GB model is small). */
const LARGE_FILE = 50 * 1024 * 1024;

export class BytecodeFileSystemProvider implements vscode.FileSystemProvider {
  private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changes.event;
  /** File URI (string) -> time of our last write, to ignore the watcher echo of our own saves. */
  private readonly recentWrites = new Map<string, number>();
  /** File URI (string) -> bytes of its view's text, once read. */
  private readonly viewSizes = new Map<string, number>();

  constructor(
    private readonly converter: Converter,
    private readonly files: FileAccess = workspaceFileAccess(),
    private readonly options: BytecodeFsOptions = {},
  ) {}

  watch(viewUri: vscode.Uri): vscode.Disposable {
    const fileUri = fileUriFor(viewUri);
    return this.files.watch(fileUri, () => {
      const wroteAt = this.recentWrites.get(fileUri.toString());
      if (wroteAt !== undefined && Date.now() - wroteAt < (this.options.ownWriteQuietMs ?? 1500)) return;
      this.changes.fire([{ type: vscode.FileChangeType.Changed, uri: viewUriFor(fileUri) }]);
    });
  }

  async stat(viewUri: vscode.Uri): Promise<vscode.FileStat> {
    const fileUri = fileUriFor(viewUri);
    const st = await this.files.stat(fileUri);
    const text = this.viewSizes.get(fileUri.toString());
    const size = text ?? (st.size < LARGE_FILE ? st.size : 0);
    // A read-only file gives a read-only view: the server refuses to save over it (mlirbc/save).
    const readonly = st.permissions !== undefined && (st.permissions & vscode.FilePermission.Readonly) !== 0;
    return { type: st.type, ctime: st.ctime, mtime: st.mtime, size,
      ...(readonly ? { permissions: vscode.FilePermission.Readonly } : {}) };
  }

  async readDirectory(viewUri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    return [...(await this.files.readDirectory(fileUriFor(viewUri)))];
  }

  async readFile(viewUri: vscode.Uri): Promise<Uint8Array> {
    const fileUri = fileUriFor(viewUri);
    let text: string;
    const name = path.posix.basename(fileUri.path);
    const convert = () => this.converter.fromBytecode(fileUri);
    try {
      text = await (this.options.progress ? this.options.progress(`mlirbc: opening ${name}`, convert) : convert());
    } catch (err) {
      throw new Error(`mlirbc: cannot open ${fileUri.fsPath || fileUri.toString()}: ${messageOf(err)}`);
    }
    const bytes = new TextEncoder().encode(text);
    this.viewSizes.set(fileUri.toString(), bytes.byteLength);
    return bytes;
  }

  async writeFile(
    viewUri: vscode.Uri,
    _content: Uint8Array,
    options: { readonly create: boolean; readonly overwrite: boolean },
  ): Promise<void> {
    const fileUri = fileUriFor(viewUri);
    if (!options.create) {
      await this.files.stat(fileUri); // throws FileNotFound when the file is gone
    }
    if (this.converter.save) {
      let size: number;
      this.recentWrites.set(fileUri.toString(), Date.now());
      try {
        size = await this.converter.save(viewUri);
      } catch (err) {
        const refused = new SaveRefusedError(fileUri, messageOf(err), unverifiedAllowed(err));
        this.options.onSaveRefused?.(refused);
        if (!refused.unverifiedAllowed || !(await this.options.confirmUnverified?.(refused))) {
          this.recentWrites.delete(fileUri.toString());
          throw refused;
        }
        try {
          this.recentWrites.set(fileUri.toString(), Date.now());
          size = await this.converter.save(viewUri, true);
        } catch (again) {
          this.recentWrites.delete(fileUri.toString());
          const still = new SaveRefusedError(fileUri, messageOf(again));
          this.options.onSaveRefused?.(still);
          throw still;
        }
      }
      this.options.onSaved?.(fileUri, size);
      return;
    }
    let bytes: Uint8Array;
    try {
      // The server encodes its own copy of the view (kept in sync by didOpen/didChange).
      bytes = await this.converter.toBytecode(viewUri);
    } catch (err) {
      const refused = new SaveRefusedError(fileUri, messageOf(err));
      this.options.onSaveRefused?.(refused);
      throw refused;
    }
    this.recentWrites.set(fileUri.toString(), Date.now());
    await this.files.writeFile(fileUri, bytes);
    this.options.onSaved?.(fileUri, bytes.byteLength);
  }

  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions('mlirbc views cannot create folders');
  }

  delete(): void {
    throw vscode.FileSystemError.NoPermissions('mlirbc views cannot delete files; delete the .mlirbc file');
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions('mlirbc views cannot rename files; rename the .mlirbc file');
  }

  dispose(): void {
    this.changes.dispose();
  }
}
