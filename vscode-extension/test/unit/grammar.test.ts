// Unit tests of the TextMate grammar, tokenized with the engine VS Code uses (vscode-textmate + oniguruma).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as oniguruma from 'vscode-oniguruma';
import * as vsctm from 'vscode-textmate';

const EXT_ROOT = path.resolve(__dirname, '..', '..', '..');
let grammar: vsctm.IGrammar;

/** The scopes of the token covering the first occurrence of `needle` in `line`. */
function scopesAt(line: string, needle: string): string[] {
  const at = line.indexOf(needle);
  assert.ok(at >= 0, `${needle} in ${line}`);
  const { tokens } = grammar.tokenizeLine(line, vsctm.INITIAL);
  const token = tokens.find((t) => t.startIndex <= at && at < t.endIndex);
  return token ? token.scopes : [];
}

function has(line: string, needle: string, scope: string): void {
  const scopes = scopesAt(line, needle);
  assert.ok(scopes.some((s) => s.startsWith(scope)), `${needle}: expected ${scope}, got ${scopes.join(' ')}`);
}

describe('TextMate grammar', () => {
  before(async () => {
    const wasm = fs.readFileSync(path.join(EXT_ROOT, 'node_modules', 'vscode-oniguruma', 'release', 'onig.wasm'));
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
    const registry = new vsctm.Registry({
      onigLib: Promise.resolve({
        createOnigScanner: (sources: string[]) => new oniguruma.OnigScanner(sources),
        createOnigString: (s: string) => new oniguruma.OnigString(s),
      }),
      loadGrammar: async () => {
        const file = path.join(EXT_ROOT, 'syntaxes', 'mlir.tmLanguage.json');
        return vsctm.parseRawGrammar(fs.readFileSync(file, 'utf8'), file);
      },
    });
    const g = await registry.loadGrammar('source.mlir');
    assert.ok(g);
    grammar = g;
  });

  const op = '    %19 = "vhlo.dot_general_v2"(%arg10, %arg8) <{mlirbc.properties = "0x0A0B"}> : (!vhlo.tensor_v1<8x784x!vhlo.f32_v1>) -> tensor<8x256xf32> loc("jit(mlp)/dot"("a.py":49:20))';

  it('values, op names, dialect prefixes, builtin types, shapes', () => {
    has(op, '%19', 'variable.other.ssa');
    has(op, '%arg10', 'variable.other.ssa');
    has(op, 'vhlo.dot_general_v2', 'entity.name.function.op');
    has(op, '!vhlo.tensor_v1', 'entity.name.type.dialect');
    has(op, 'tensor<8x256', 'storage.type.builtin');
    has(op, '8x256x', 'constant.numeric.shape');
    has(op, '->', 'keyword.operator.arrow');
  });

  it('mlirbc fallbacks stand out', () => {
    has(op, 'mlirbc.properties', 'entity.name.tag.fallback.properties');
    const attr = '%0 = "d.op"() {a = #mlirbc.fallback<"test", "0x01">, t = !mlirbc.fallback<"t", "0x02">} : () -> ()';
    has(attr, '#mlirbc.fallback', 'entity.name.tag.fallback.attribute');
    has(attr, '!mlirbc.fallback', 'entity.name.tag.fallback.type');
  });

  it('locations, strings, numbers, blocks, symbols, attributes, comments', () => {
    has(op, 'loc(', 'keyword.other.location');
    has(op, '"a.py"', 'meta.location');
    has(op, '"0x0A0B"', 'string.quoted.double');
    const line = '^bb1(%a: i32):  "func.call"() <{callee = @main, value = 42 : i64, f = -1.5e3 : f32, m = #map0}> : () -> () // trailing';
    has(line, '^bb1', 'entity.name.label.block');
    has(line, '@main', 'entity.name.function.symbol');
    has(line, '42', 'constant.numeric.integer');
    has(line, '-1.5e3', 'constant.numeric.float');
    has(line, '#map0', 'entity.other.attribute-name');
    has(line, '// trailing', 'comment.line.double-slash');
    has('// mlirbc: {"version": 6}', 'mlirbc:', 'keyword.other.mlirbc.directive');
  });

  it('a long nested location is closed on the same line', () => {
    const loc = '} : () -> () loc(callsite("f"("x.py":1:2) at callsite("g"("y.py":3:4) at "z"("z.py":5:6))))';
    const { ruleStack } = grammar.tokenizeLine(loc, vsctm.INITIAL);
    const next = grammar.tokenizeLine('%1 = "a.b"() : () -> ()', ruleStack);
    assert.ok(next.tokens.every((t) => !t.scopes.some((s) => s.startsWith('meta.location'))), 'location not left open');
  });
});
