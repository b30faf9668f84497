// Puts the language server into the extension: bundled/libs gets mlirbc (built from this repository) and
// its run-time dependencies (bundled/requirements.txt: pure-Python wheels, pinned with hashes), installed
// with pip --target for any Python 3.11+ and any platform, without bytecode. bundled/tool/start_server.py
// runs it. Called by `vscode:prepublish` (so by `npm run package`).
//
// MLIRBC_BUNDLE_PYTHON: the Python whose pip installs (default <repo>/.venv's python, else python3/python).
// It only runs pip (-qq: errors only): the result does not depend on its version.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ext = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repo = path.resolve(ext, '..');
const libs = path.join(ext, 'bundled', 'libs');
const requirements = path.join(ext, 'bundled', 'requirements.txt');

function runs(cmd, args) {
  return spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
}

function pickPython() {
  if (process.env.MLIRBC_BUNDLE_PYTHON) return process.env.MLIRBC_BUNDLE_PYTHON;
  const venv = process.platform === 'win32' ? path.join(repo, '.venv', 'Scripts', 'python.exe') : path.join(repo, '.venv', 'bin', 'python');
  for (const c of [venv, 'python3', 'python']) {
    if ((c !== venv || existsSync(c)) && runs(c, ['-m', 'pip', '--version'])) return c;
  }
  throw new Error('bundle_server: no Python with pip found (set MLIRBC_BUNDLE_PYTHON)');
}

function pip(python, args) {
  const all = ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '-qq', '--target', libs, '--no-deps', '--no-compile', ...args];
  const r = spawnSync(python, all, { stdio: 'inherit', env: { ...process.env, PIP_ROOT_USER_ACTION: 'ignore', PYTHONDONTWRITEBYTECODE: '1' } });
  if (r.status !== 0) throw new Error(`bundle_server: ${python} ${all.join(' ')} failed (exit ${r.status ?? r.signal})`);
}

/** Removes what the server never uses: console scripts (their shebang names the build's Python), bytecode,
 * and pip's install records (one of them holds this machine's path to the repository). */
function prune(dir) {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    const isDir = statSync(p).isDirectory();
    if (isDir && (name === '__pycache__' || (dir === libs && name === 'bin'))) {
      rmSync(p, { recursive: true, force: true });
    } else if (isDir) {
      prune(p);
    } else if (name.endsWith('.pyc') || (dir.endsWith('.dist-info') && ['INSTALLER', 'REQUESTED', 'RECORD', 'direct_url.json'].includes(name))) {
      rmSync(p);
    }
  }
}

function sizeOf(dir) {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    const st = statSync(p);
    total += st.isDirectory() ? sizeOf(p) : st.size;
  }
  return total;
}

const python = pickPython();
rmSync(libs, { recursive: true, force: true });
// Wheels for any Python 3.11+ implementation and platform, never an sdist built here.
pip(python, ['--only-binary=:all:', '--implementation', 'py', '--python-version', '3.11', '--require-hashes', '-r', requirements]);
// mlirbc itself from this checkout (hatchling builds it; offline when the Python already has hatchling).
pip(python, [...(runs(python, ['-c', 'import hatchling']) ? ['--no-build-isolation'] : []), repo]);
prune(libs);
for (const need of ['mlirbc', 'pygls', 'lsprotocol']) {
  if (!existsSync(path.join(libs, need, '__init__.py'))) throw new Error(`bundle_server: ${need} is missing from ${libs}`);
}
const dists = readdirSync(libs).filter((n) => n.endsWith('.dist-info')).map((n) => n.slice(0, -'.dist-info'.length));
console.log(`bundled/libs: ${dists.join(', ')} (${(sizeOf(libs) / 1e6).toFixed(1)} MB, with ${python})`);
