// The interpreter selected in Microsoft's Python extension (`ms-python.python`), when it is installed. It is
// optional: not installed, slow to activate, or an API without what we need all mean "no interpreter from
// there" and the search goes on. Its current API (`environments`) is preferred; the older
// `settings.getExecutionDetails` is the fallback.
import type * as vscode from 'vscode';

export const PYTHON_EXTENSION_ID = 'ms-python.python';

interface EnvironmentPath {
  id: string;
  path: string;
}

/** The parts of the Python extension's exported API used here. */
export interface PythonExtensionApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): EnvironmentPath;
    resolveEnvironment(env: EnvironmentPath | string): Promise<{ executable?: { uri?: { fsPath: string } } } | undefined>;
    onDidChangeActiveEnvironmentPath?: vscode.Event<unknown>;
  };
  settings?: {
    getExecutionDetails?(resource?: vscode.Uri): { execCommand: string[] | undefined };
  };
}

/** What `vscode.extensions.getExtension` gives (a fake in unit tests). */
export interface ExtensionLike {
  isActive: boolean;
  exports: unknown;
  activate(): Thenable<unknown>;
}

export interface SelectedInterpreter {
  command?: string;
  /** Why there is none, for the "what was tried" list. */
  problem?: string;
}

function withTimeout<T>(work: Thenable<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms / 1000} s`)), ms);
  });
  return Promise.race([Promise.resolve(work), timeout]).finally(() => clearTimeout(timer));
}

function api(exports: unknown): PythonExtensionApi | undefined {
  return exports !== null && typeof exports === 'object' ? (exports as PythonExtensionApi) : undefined;
}

/** Activates the Python extension if needed (bounded by `timeoutMs`) and returns its API. */
export async function pythonExtensionApi(ext: ExtensionLike | undefined, timeoutMs: number): Promise<PythonExtensionApi | undefined> {
  if (!ext) return undefined;
  return api(ext.isActive ? ext.exports : await withTimeout(ext.activate(), timeoutMs, 'activating the Python extension'));
}

/** The selected interpreter's executable for `resource` (a workspace folder). */
export async function selectedInterpreter(
  ext: ExtensionLike | undefined,
  resource: vscode.Uri | undefined,
  timeoutMs = 10000,
): Promise<SelectedInterpreter> {
  if (!ext) return { problem: 'not installed' };
  let py: PythonExtensionApi | undefined;
  try {
    py = await pythonExtensionApi(ext, timeoutMs);
  } catch (err) {
    return { problem: err instanceof Error ? err.message : String(err) };
  }
  try {
    const envs = py?.environments;
    if (envs) {
      const active = envs.getActiveEnvironmentPath(resource);
      const resolved = await withTimeout(envs.resolveEnvironment(active), timeoutMs, 'resolving the selected environment');
      const command = resolved?.executable?.uri?.fsPath ?? active.path;
      return command ? { command } : { problem: 'no interpreter selected' };
    }
    const exec = py?.settings?.getExecutionDetails?.(resource).execCommand;
    // A command line of several words (`conda run ...`) is not an interpreter path.
    if (exec && exec.length === 1 && exec[0]) return { command: exec[0] };
    return { problem: 'its API gives no interpreter' };
  } catch (err) {
    return { problem: `its API failed: ${err instanceof Error ? err.message : String(err)}` };
  }
}
