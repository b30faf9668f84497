// Which Python runs the bundled server: `mlirbc.server.pythonPath` when set (and then only that one), else the
// first Python 3.11+ of: the interpreter selected in the Python extension, `python3` on PATH, `python` on PATH.
// Every candidate is asked for its version; when none will do, the error says what was tried and what to do.
// No `vscode` import: the Python extension is reached through a callback (src/pythonExtension.ts).
import { execFile } from 'child_process';
import type { ExecutableFinder } from './serverCommand';

export const MIN_PYTHON: readonly [number, number] = [3, 11];
export const PYTHON_PATH_SETTING = 'mlirbc.server.pythonPath';

export interface PythonInfo {
  /** `sys.executable` as the interpreter reports it. */
  executable: string;
  version: [number, number];
}

/** Asks `command` for its version; rejects with a short reason when it does not run. */
export type PythonProbe = (command: string) => Promise<PythonInfo>;

export type PythonOrigin = 'setting' | 'Python extension' | 'python3 on PATH' | 'python on PATH';

export interface FoundPython {
  command: string;
  info: PythonInfo;
  origin: PythonOrigin;
}

export interface PythonAttempt {
  origin: PythonOrigin;
  /** The command tried; undefined when the source gave none (extension not installed, not on PATH). */
  command?: string;
  problem: string;
}

export function versionText(v: readonly [number, number]): string {
  return `${v[0]}.${v[1]}`;
}

function describeAttempt(a: PythonAttempt): string {
  return a.command === undefined ? `${a.origin}: ${a.problem}` : `${a.origin} (${a.command}): ${a.problem}`;
}

/** No interpreter can run the bundled server; the message names what was tried and how to fix it. */
export class PythonNotFoundError extends Error {
  constructor(readonly tried: PythonAttempt[]) {
    const need = `Python ${versionText(MIN_PYTHON)} or newer`;
    const fromSetting = tried.length === 1 && tried[0].origin === 'setting';
    super(
      fromSetting
        ? `\`${PYTHON_PATH_SETTING}\` is \`${tried[0].command}\`, which cannot run the bundled language server: ` +
            `${tried[0].problem}. It needs ${need} (no packages). Correct or clear the setting, then run "mlirbc: Restart Server".`
        : `the bundled language server needs ${need} (no packages) and none was found ` +
            `(${tried.map(describeAttempt).join('; ')}). Install ${need} (python.org or your package manager) ` +
            `or select one in the Python extension, or set \`${PYTHON_PATH_SETTING}\` to one, then run "mlirbc: Restart Server".`,
    );
    this.name = 'PythonNotFoundError';
  }
}

export interface PythonSources {
  /** `mlirbc.server.pythonPath`, variables expanded; empty when unset. */
  setting: string;
  /** The Python extension's selected interpreter, when that extension is installed. */
  pythonExtension: () => Promise<{ command?: string; problem?: string }>;
  which: ExecutableFinder;
  probe: PythonProbe;
}

function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function check(origin: PythonOrigin, command: string, probe: PythonProbe): Promise<FoundPython | PythonAttempt> {
  let info: PythonInfo;
  try {
    info = await probe(command);
  } catch (err) {
    return { origin, command, problem: reasonOf(err) };
  }
  const [major, minor] = info.version;
  if (major < MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor < MIN_PYTHON[1])) {
    return { origin, command, problem: `Python ${versionText(info.version)} is too old` };
  }
  return { command, info, origin };
}

function isFound(r: FoundPython | PythonAttempt): r is FoundPython {
  return 'info' in r;
}

/** The interpreter for the bundled server; throws PythonNotFoundError when there is none. */
export async function findPython(src: PythonSources): Promise<FoundPython> {
  if (src.setting.length > 0) {
    // An interpreter the user named is the one they want: no silent fallback to another.
    const r = await check('setting', src.setting, src.probe);
    if (isFound(r)) return r;
    throw new PythonNotFoundError([r]);
  }
  const tried: PythonAttempt[] = [];
  let fromExtension: { command?: string; problem?: string };
  try {
    fromExtension = await src.pythonExtension();
  } catch (err) {
    fromExtension = { problem: reasonOf(err) };
  }
  const candidates: [PythonOrigin, string | undefined, string][] = [
    ['Python extension', fromExtension.command, fromExtension.problem ?? 'no interpreter selected'],
    ['python3 on PATH', src.which('python3'), 'not found'],
    ['python on PATH', src.which('python'), 'not found'],
  ];
  for (const [origin, command, missing] of candidates) {
    if (command === undefined) {
      tried.push({ origin, problem: missing });
      continue;
    }
    const r = await check(origin, command, src.probe);
    if (isFound(r)) return r;
    tried.push(r);
  }
  throw new PythonNotFoundError(tried);
}

// Runs on Python 2 as well, so that an old interpreter is reported by its version, not by a syntax error.
const PROBE = 'import sys; sys.stdout.write("%d %d %s\\n" % (sys.version_info[0], sys.version_info[1], sys.executable))';

/** Runs `command -c PROBE`; rejects with why it did not answer. */
export function probePython(command: string, timeoutMs = 15000): Promise<PythonInfo> {
  return new Promise((resolve, reject) => {
    execFile(command, ['-c', PROBE], { timeout: timeoutMs, windowsHide: true }, (err, stdout, stderr) => {
      if (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') reject(new Error('not found'));
        else if (code === 'EACCES') reject(new Error('not executable'));
        else if (err.killed) reject(new Error(`no answer within ${timeoutMs / 1000} s`));
        else reject(new Error(`did not run: ${(String(stderr).trim().split('\n').pop() ?? '') || err.message}`));
        return;
      }
      const m = /^(\d+) (\d+) (.*)$/.exec(String(stdout).trim());
      if (!m) {
        reject(new Error(`not a Python interpreter (it printed ${JSON.stringify(String(stdout).slice(0, 80))})`));
        return;
      }
      resolve({ version: [Number(m[1]), Number(m[2])], executable: m[3] });
    });
  });
}
