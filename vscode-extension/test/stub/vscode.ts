// A small stand-in for the `vscode` module: just the classes and namespaces the unit-tested modules use.
/* eslint-disable @typescript-eslint/no-explicit-any */

interface UriParts {
  scheme: string;
  authority?: string;
  path?: string;
  query?: string;
  fragment?: string;
}

function encodePath(p: string): string {
  return p
    .split('/')
    .map((seg) => encodeURIComponent(seg))
    .join('/');
}

export class Uri {
  readonly scheme: string;
  readonly authority: string;
  readonly path: string;
  readonly query: string;
  readonly fragment: string;

  private constructor(parts: UriParts) {
    this.scheme = parts.scheme;
    this.authority = parts.authority ?? '';
    this.path = parts.path ?? '';
    this.query = parts.query ?? '';
    this.fragment = parts.fragment ?? '';
  }

  static from(parts: UriParts): Uri {
    return new Uri(parts);
  }

  static file(fsPath: string): Uri {
    return new Uri({ scheme: 'file', path: fsPath });
  }

  static parse(value: string): Uri {
    const m = /^([^:/?#]+):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(value);
    if (!m) throw new Error(`stub Uri.parse: bad URI ${value}`);
    return new Uri({
      scheme: m[1],
      authority: m[2] ?? '',
      path: decodeURIComponent(m[3] ?? ''),
      query: m[4] ?? '',
      fragment: m[5] ?? '',
    });
  }

  static joinPath(base: Uri, ...segments: string[]): Uri {
    const parts = base.path.split('/');
    for (const seg of segments.join('/').split('/')) {
      if (seg === '..') parts.pop();
      else if (seg !== '.' && seg !== '') parts.push(seg);
    }
    return base.with({ path: parts.join('/') || '/' });
  }

  get fsPath(): string {
    return this.path;
  }

  with(change: Partial<UriParts>): Uri {
    return new Uri({
      scheme: change.scheme ?? this.scheme,
      authority: change.authority ?? this.authority,
      path: change.path ?? this.path,
      query: change.query ?? this.query,
      fragment: change.fragment ?? this.fragment,
    });
  }

  toString(): string {
    let out = `${this.scheme}:`;
    if (this.authority || this.scheme === 'file') out += `//${this.authority}`;
    out += encodePath(this.path);
    if (this.query) out += `?${this.query}`;
    if (this.fragment) out += `#${this.fragment}`;
    return out;
  }

  toJSON(): unknown {
    return { scheme: this.scheme, path: this.path, query: this.query };
  }
}

export class Disposable {
  constructor(private readonly callOnDispose: () => unknown) {}
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((d) => d.dispose()));
  }
  dispose(): void {
    this.callOnDispose();
  }
}

export type Event<T> = (listener: (e: T) => unknown) => Disposable;

export class EventEmitter<T> {
  private listeners = new Set<(e: T) => unknown>();
  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return new Disposable(() => this.listeners.delete(listener));
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

export enum FileType {
  Unknown = 0,
  File = 1,
  Directory = 2,
  SymbolicLink = 64,
}

export enum FilePermission {
  Readonly = 1,
}

export enum FileChangeType {
  Changed = 1,
  Created = 2,
  Deleted = 3,
}

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

export enum ViewColumn {
  Active = -1,
  Beside = -2,
  One = 1,
}

export class FileSystemError extends Error {
  constructor(
    message: string,
    readonly code = 'Unknown',
  ) {
    super(message);
    this.name = `FileSystemError (${code})`;
  }
  static FileNotFound(what?: unknown): FileSystemError {
    return new FileSystemError(String(what ?? 'file not found'), 'FileNotFound');
  }
  static NoPermissions(what?: unknown): FileSystemError {
    return new FileSystemError(String(what ?? 'no permissions'), 'NoPermissions');
  }
  static Unavailable(what?: unknown): FileSystemError {
    return new FileSystemError(String(what ?? 'unavailable'), 'Unavailable');
  }
}

export class RelativePattern {
  constructor(
    readonly base: Uri | string,
    readonly pattern: string,
  ) {}
}

export class TabInputText {
  constructor(readonly uri: Uri) {}
}
export class TabInputCustom {
  constructor(
    readonly uri: Uri,
    readonly viewType: string,
  ) {}
}

const notInTests = (name: string) => () => {
  throw new Error(`vscode stub: ${name} is not available in unit tests`);
};

export const workspace: any = {
  fs: {
    stat: notInTests('workspace.fs.stat'),
    readDirectory: notInTests('workspace.fs.readDirectory'),
    writeFile: notInTests('workspace.fs.writeFile'),
  },
  textDocuments: [],
  workspaceFolders: undefined,
  getConfiguration: () => ({ get: () => undefined }),
  createFileSystemWatcher: notInTests('workspace.createFileSystemWatcher'),
  onDidOpenTextDocument: () => new Disposable(() => undefined),
  onDidSaveTextDocument: () => new Disposable(() => undefined),
};

export const window: any = {
  activeTextEditor: undefined,
  createOutputChannel: () => ({ appendLine: () => undefined, show: () => undefined, dispose: () => undefined }),
  showErrorMessage: async () => undefined,
  showWarningMessage: async () => undefined,
  showInformationMessage: async () => undefined,
  onDidChangeActiveTextEditor: () => new Disposable(() => undefined),
};

export const languages: any = {
  setTextDocumentLanguage: async (doc: unknown) => doc,
};

export const commands: any = {
  executeCommand: async () => undefined,
  registerCommand: () => new Disposable(() => undefined),
};
