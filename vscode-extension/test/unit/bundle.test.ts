// Unit tests of what the .vsix bundles for the server: bundled/requirements.txt pins, with a hash, every
// run-time dependency that mlirbc declares in pyproject.toml, within the range declared there.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';

const ext = path.resolve(__dirname, '..', '..', '..');
const pyproject = fs.readFileSync(path.join(ext, '..', 'pyproject.toml'), 'utf8');
const requirements = fs.readFileSync(path.join(ext, 'bundled', 'requirements.txt'), 'utf8');

/** `dependencies = [...]` of [project], as name -> specifier. */
function projectDependencies(): Map<string, string> {
  const block = /^dependencies = \[([^\]]*)\]/m.exec(pyproject);
  assert.ok(block, 'pyproject.toml has a dependencies list');
  const deps = new Map<string, string>();
  for (const m of block[1].matchAll(/"([A-Za-z0-9_.-]+)\s*([^"]*)"/g)) deps.set(m[1].toLowerCase(), m[2].trim());
  return deps;
}

/** name -> [version, has a sha256 hash] of the pinned requirements. */
function pins(): Map<string, [string, boolean]> {
  const out = new Map<string, [string, boolean]>();
  for (const entry of requirements.replace(/\\\n/g, ' ').split('\n')) {
    const m = /^([A-Za-z0-9_.-]+)==(\S+)(.*)$/.exec(entry.trim());
    if (m) out.set(m[1].toLowerCase().replace(/_/g, '-'), [m[2], /--hash=sha256:[0-9a-f]{64}/.test(m[3])]);
  }
  return out;
}

function versionTuple(v: string): number[] {
  return v.split('.').map((p) => Number.parseInt(p, 10));
}

function compare(a: string, b: string): number {
  const x = versionTuple(a);
  const y = versionTuple(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function satisfies(version: string, spec: string): boolean {
  return spec
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .every((s) => {
      const m = /^(>=|<=|==|<|>|!=)\s*(\S+)$/.exec(s);
      assert.ok(m, `specifier ${s}`);
      const c = compare(version, m[2]);
      return { '>=': c >= 0, '<=': c <= 0, '==': c === 0, '<': c < 0, '>': c > 0, '!=': c !== 0 }[m[1]]!;
    });
}

describe('bundled server requirements', () => {
  const deps = projectDependencies();
  const pinned = pins();

  it('reads pygls and lsprotocol from pyproject.toml', () => {
    assert.deepStrictEqual([...deps.keys()].sort(), ['lsprotocol', 'pygls']);
  });

  it('pins every run-time dependency of mlirbc with a hash, within its declared range', () => {
    for (const [name, spec] of deps) {
      const pin = pinned.get(name);
      assert.ok(pin, `${name} is missing from bundled/requirements.txt`);
      assert.ok(pin[1], `${name} has no sha256 hash`);
      assert.ok(satisfies(pin[0], spec), `${name}==${pin[0]} is outside ${spec}`);
    }
  });

  it('pins everything with a hash (pip --require-hashes needs it)', () => {
    assert.ok(pinned.size >= 5);
    for (const [name, [, hashed]] of pinned) assert.ok(hashed, name);
  });

  it('the range check itself works', () => {
    assert.ok(satisfies('2.1.1', '>=2.0,<3'));
    assert.ok(!satisfies('3.0.0', '>=2.0,<3'));
    assert.ok(!satisfies('2024.0.1', '>=2025.0.0'));
  });
});
