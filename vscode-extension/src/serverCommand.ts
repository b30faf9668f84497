// Which process the extension starts as the language server:
// `mlirbc.server.command` if set, else `mlirbc-lsp` from PATH, else `python3 -m mlirbc.lsp`.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { ServerLaunchSettings } from './settings';

export const DEFAULT_EXECUTABLE = 'mlirbc-lsp';
export const PYTHON_FALLBACK = { command: 'python3', args: ['-m', 'mlirbc.lsp'] };

export interface ServerCommand {
  command: string;
  args: string[];
  /** How the command was chosen, for the output channel and error messages. */
  source: 'setting' | 'path' | 'python';
}

export type ExecutableFinder = (name: string) => string | undefined;

/** Finds an executable on PATH (like `which`); returns its full path. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dirs = (env.PATH ?? '').split(path.delimiter).filter((d) => d.length > 0);
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of dirs) {
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      try {
        if (fs.statSync(candidate).isFile()) {
          fs.accessSync(candidate, fs.constants.X_OK);
          return candidate;
        }
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/** Expands a leading `~` and `${workspaceFolder}` / `${env:NAME}` in a setting value. */
export function expandVariables(
  value: string,
  workspaceFolder: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string {
  let out = value;
  if (out === '~' || out.startsWith('~/')) out = os.homedir() + out.slice(1);
  out = out.replace(/\$\{workspaceFolder\}/g, workspaceFolder ?? '');
  out = out.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, n: string) => env[n] ?? '');
  return out;
}

export function resolveServerCommand(
  settings: ServerLaunchSettings,
  find: ExecutableFinder = (n) => findOnPath(n),
  workspaceFolder?: string,
): ServerCommand {
  const args = settings.args.map((a) => expandVariables(a, workspaceFolder));
  if (settings.command.length > 0) {
    return { command: expandVariables(settings.command, workspaceFolder), args, source: 'setting' };
  }
  const onPath = find(DEFAULT_EXECUTABLE);
  if (onPath !== undefined) {
    return { command: onPath, args, source: 'path' };
  }
  return { command: PYTHON_FALLBACK.command, args: [...PYTHON_FALLBACK.args, ...args], source: 'python' };
}

export function describeCommand(cmd: ServerCommand): string {
  return [cmd.command, ...cmd.args].map((p) => (/\s/.test(p) ? JSON.stringify(p) : p)).join(' ');
}
