// Which process the extension starts as the language server: `mlirbc.server.command` if set (the user's own
// server), else the server bundled in the extension (bundled/tool/start_server.py) run by a Python 3.11+ that
// src/python.ts finds.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { versionText, type FoundPython, type PythonOrigin } from './python';
import type { ServerLaunchSettings } from './settings';

/** The bundled server's start script, relative to the extension's folder. */
export const BUNDLED_SCRIPT = path.join('bundled', 'tool', 'start_server.py');

export interface ServerCommand {
  command: string;
  args: string[];
  /** How the command was chosen, for the output channel and error messages. */
  source: 'setting' | 'bundled';
  /** The interpreter running the bundled server. */
  python?: FoundPython;
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

export interface ResolveContext {
  /** The extension's folder (holds BUNDLED_SCRIPT). */
  extensionPath: string;
  /** Finds the interpreter, given `mlirbc.server.pythonPath` with its variables expanded. */
  findPython: (pythonPathSetting: string) => Promise<FoundPython>;
  workspaceFolder?: string;
}

export async function resolveServerCommand(settings: ServerLaunchSettings, ctx: ResolveContext): Promise<ServerCommand> {
  const args = settings.args.map((a) => expandVariables(a, ctx.workspaceFolder));
  if (settings.command.length > 0) {
    return { command: expandVariables(settings.command, ctx.workspaceFolder), args, source: 'setting' };
  }
  const python = await ctx.findPython(expandVariables(settings.pythonPath, ctx.workspaceFolder));
  return { command: python.command, args: [path.join(ctx.extensionPath, BUNDLED_SCRIPT), ...args], source: 'bundled', python };
}

const ORIGIN_WORDS: Partial<Record<PythonOrigin, string>> = {
  setting: 'from `mlirbc.server.pythonPath`',
  'Python extension': 'selected in the Python extension',
};

/** Where the command came from, in words: `mlirbc.server.command`, or the bundled server and its Python. */
export function describeSource(cmd: ServerCommand): string {
  if (cmd.source === 'setting') return 'from `mlirbc.server.command`';
  const py = cmd.python;
  if (!py) return 'the bundled server';
  const where = ORIGIN_WORDS[py.origin] ?? py.origin;
  return `the bundled server on Python ${versionText(py.info.version)}, ${where}`;
}

export function describeCommand(cmd: ServerCommand): string {
  return [cmd.command, ...cmd.args].map((p) => (/\s/.test(p) ? JSON.stringify(p) : p)).join(' ');
}
