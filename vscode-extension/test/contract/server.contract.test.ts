// Contract test: the real Python server, driven over JSON-RPC stdio with the requests the extension
// sends (initialize, convertFromBytecode, didOpen/didChange of the view, convertToBytecode, mlirbc/info).
// Skips with a message when the server cannot be started; MLIRBC_CONTRACT_REQUIRED=1 turns that into a failure.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import {
  BYTECODE_INFO,
  CONVERT_FROM_BYTECODE,
  CONVERT_TO_BYTECODE,
  decodeBase64Output,
  fallbackCount,
  textOutput,
  type BytecodeInfo,
} from '../../src/protocol';
import { GraphIndex, initialState, opAt, visibleGraph } from '../../src/graph/model';
import { GRAPH_REQUEST, isGraph } from '../../src/graph/protocol';
import { readServerSettings, type SettingGetter } from '../../src/settings';
import { LspSession, serverSpec, ServerUnavailable } from './lspSession';

const EXT_ROOT = path.resolve(__dirname, '..', '..', '..');
const REPO_ROOT = path.resolve(EXT_ROOT, '..');
// The full shared corpus beside the checkout when it is there, else the core corpus shipped in tests/corpus.
const SHARED_CORPUS = path.resolve(REPO_ROOT, '..', 'shared', 'corpus');
const CORPUS =
  process.env.MLIRBC_CORPUS ??
  (fs.existsSync(path.join(SHARED_CORPUS, 'MANIFEST.tsv')) ? SHARED_CORPUS : path.join(REPO_ROOT, 'tests', 'corpus'));
const REQUIRED = process.env.MLIRBC_CONTRACT_REQUIRED === '1';
const START_TIMEOUT_MS = 60000;

/** Bytecode version and producer from the file header (magic, prefix varint, NUL-terminated string). */
export function readHeader(bytes: Uint8Array): { version: number; producer: string } {
  assert.deepStrictEqual([...bytes.subarray(0, 4)], [0x4d, 0x4c, 0xef, 0x52], 'not MLIR bytecode');
  let pos = 4;
  const first = bytes[pos];
  let extra = first === 0 ? 8 : 0;
  if (first !== 0) while (((first >> extra) & 1) === 0) extra++;
  let value = 0n;
  for (let i = extra; i >= 0; i--) value = (value << 8n) | BigInt(bytes[pos + i]);
  const version = Number(first === 0 ? value >> 8n : value >> BigInt(extra + 1));
  pos += extra + 1;
  const end = bytes.indexOf(0, pos);
  return { version, producer: Buffer.from(bytes.subarray(pos, end)).toString('utf8') };
}

/** Where the extension puts the view of a file: same path, scheme `mlirbc` (see src/uris.ts). */
function viewUriOf(fileUri: string): string {
  return fileUri.replace(/^file:\/\//, 'mlirbc:');
}

interface SyncOptions {
  change?: number;
}

/** TextDocumentSyncKind the server announced: a number, or `change` of TextDocumentSyncOptions. */
function syncKind(session: LspSession): number {
  const sync = session.initializeResult?.capabilities.textDocumentSync;
  if (typeof sync === 'number') return sync;
  return (sync as SyncOptions | undefined)?.change ?? 0;
}

/** didChange content that inserts `line` (ending in a newline) before line 0, the way VS Code's client
 * sends it: a ranged edit for incremental sync, else the full text. */
function insertFirstLine(session: LspSession, text: string, line: string): unknown[] {
  if (syncKind(session) === 2) return [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: line }];
  return [{ text: line + text }];
}

/** didChange content that removes the line inserted by `insertFirstLine`, giving back `text`. */
function removeFirstLine(session: LspSession, text: string): unknown[] {
  if (syncKind(session) === 2) return [{ range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, text: '' }];
  return [{ text }];
}

function copyToTemp(rel: string): { file: string; uri: string; bytes: Buffer } | undefined {
  const src = path.join(CORPUS, rel);
  if (!fs.existsSync(src)) return undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlirbc-contract-'));
  const file = path.join(dir, path.basename(rel));
  fs.copyFileSync(src, file);
  fs.chmodSync(file, 0o644); // the shared corpus is read-only, and a copy keeps its mode; a save would be refused
  return { file, uri: pathToFileURL(file).href, bytes: fs.readFileSync(file) };
}

describe('contract: mlirbc language server over stdio', function () {
  this.timeout(180000);
  let session: LspSession | undefined;

  before(async function () {
    const spec = serverSpec(REPO_ROOT);
    const root = pathToFileURL(os.tmpdir()).href;
    try {
      // The StableHLO models off: the JAX export stands for a file with fallback parts (as in the Python tests).
      const get: SettingGetter = <T,>(key: string) => (key === 'models.disabled' ? ['vhlo'] : undefined) as T | undefined;
      session = await LspSession.start(spec, readServerSettings(get), root, START_TIMEOUT_MS);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      const what = `${[spec.command, ...spec.args].join(' ')} (${spec.origin}; PYTHONPATH=${spec.env.PYTHONPATH})`;
      if (err instanceof ServerUnavailable && !REQUIRED) {
        console.log(`\n    SKIPPED: the mlirbc language server cannot be started: ${what}\n    ${why.replace(/\n/g, '\n    ')}\n`);
        this.skip();
      }
      throw new Error(`the mlirbc language server did not initialize: ${what}\n${why}`);
    }
  });

  after(async () => {
    if (session) {
      const exit = await session.shutdown();
      assert.ok(exit, 'server exits after shutdown/exit');
    }
  });

  it('initialize: answers with capabilities and text document sync', () => {
    const caps = session!.initializeResult!.capabilities;
    assert.ok(caps, 'capabilities');
    assert.ok(caps.textDocumentSync !== undefined, 'textDocumentSync');
    // Incremental: VS Code's language client then sends each edit as the range it replaced.
    assert.strictEqual(syncKind(session!), 2, `sync kind incremental, got ${syncKind(session!)}`);
  });

  for (const rel of ['upstream/Bytecode__uselist_orders.p01.mlirbc', 'jax/mlp2.mlirbc']) {
    describe(rel, function () {
      let fixture: ReturnType<typeof copyToTemp>;
      let text = '';
      let version = 1;
      const isJax = rel.startsWith('jax/');

      before(function () {
        fixture = copyToTemp(rel);
        if (!fixture) {
          console.log(`\n    SKIPPED: corpus file ${path.join(CORPUS, rel)} not found (set MLIRBC_CORPUS)\n`);
          this.skip();
        }
      });

      after(() => {
        if (fixture) fs.rmSync(path.dirname(fixture.file), { recursive: true, force: true });
      });

      it('convertFromBytecode {uri: file:} gives the MLIR text', async () => {
        text = textOutput(await session!.request(CONVERT_FROM_BYTECODE, { uri: fixture!.uri }));
        assert.ok(text.length > 0, 'non-empty text');
        assert.match(text, /builtin\.module|module/);
        if (isJax) assert.match(text, /mlirbc\.properties/, 'vhlo ops fall back with their properties bytes kept');
      });

      it('didOpen + didChange of the view, then convertToBytecode gives the identical bytes', async () => {
        const uri = viewUriOf(fixture!.uri);
        await session!.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'mlir', version, text } });
        const edit = insertFirstLine(session!, text, '// an edit the server must keep in sync\n');
        await session!.notify('textDocument/didChange', { textDocument: { uri, version: ++version }, contentChanges: edit });
        const undo = removeFirstLine(session!, text);
        await session!.notify('textDocument/didChange', { textDocument: { uri, version: ++version }, contentChanges: undo });
        const bytes = decodeBase64Output(await session!.request(CONVERT_TO_BYTECODE, { uri }));
        assert.strictEqual(Buffer.compare(Buffer.from(bytes), fixture!.bytes), 0, `bytes differ (${bytes.length} vs ${fixture!.bytes.length})`);
      });

      it('a ranged change inside an op is reported at its place, and its undo clears it', async () => {
        const uri = viewUriOf(fixture!.uri);
        const lines = text.split('\n');
        const line = lines.findIndex((l, i) => i > 2 && /\(%[0-9a-z]+[,)]/.test(l));
        assert.ok(line > 0, 'a line with an operand');
        const col = lines[line].search(/\(%[0-9a-z]+[,)]/) + 2; // just after the '%'
        const at = { line, character: col };
        await session!.notify('textDocument/didChange', {
          textDocument: { uri, version: ++version },
          contentChanges: [{ range: { start: at, end: at }, text: 'undefined_' }],
        });
        const broken = await session!.waitForDiagnostics(uri, (ds) => ds.some((d) => d.severity === 1), 60000);
        const err = (broken ?? []).find((d) => d.severity === 1);
        assert.ok(err, 'an error for the undefined value');
        assert.strictEqual(err!.range.start.line, line);
        assert.strictEqual(err!.range.start.character, col - 1);
        await session!.notify('textDocument/didChange', {
          textDocument: { uri, version: ++version },
          contentChanges: [{ range: { start: at, end: { line, character: col + 'undefined_'.length } }, text: '' }],
        });
        const clean = await session!.waitForDiagnostics(uri, (ds) => !ds.some((d) => d.severity === 1), 60000);
        assert.ok(clean && !clean.some((d) => d.severity === 1), 'the error is gone after the undo');
        const info = await session!.request<{ views?: { uri: string; ranged_changes: number; whole_changes: number }[] }>(
          BYTECODE_INFO, { uri: fixture!.uri });
        const mine = (info.views ?? []).find((v) => v.uri === uri);
        assert.ok(mine && mine.ranged_changes >= 4 && mine.whole_changes === 0, `changes as sent: ${JSON.stringify(info.views)}`);
      });

      it('mlirbc/graph gives the graph of the function at a position, in the shape the panel reads', async () => {
        const uri = viewUriOf(fixture!.uri);
        const lines = text.split('\n');
        const line = lines.findIndex((l, i) => i > 2 && /^\s+(%\S+ = )?"/.test(l));
        const result = await session!.request<unknown>(GRAPH_REQUEST, { uri, position: { line, character: lines[line].length - 1 }, functions: true });
        assert.ok(isGraph(result), 'a graph');
        assert.strictEqual(result.uri, uri);
        const index = new GraphIndex(result);
        const ops = result.nodes.filter((n) => n.kind === 'op');
        assert.strictEqual(ops.length, result.counts.ops);
        assert.ok(result.functions && result.functions.length >= 1);
        assert.ok(opAt(result, { line, character: 4 }), 'the op under the position is a node');
        if (isJax) assert.ok(ops.some((n) => n.kind === 'op' && n.fallback), 'fallback ops are marked');
        const vis = visibleGraph(index, initialState(index));
        assert.ok(vis.leaves > 0);
      });

      it('mlirbc/info gives version, producer and fallback counts', async () => {
        const info = await session!.request<BytecodeInfo>(BYTECODE_INFO, { uri: fixture!.uri });
        const header = readHeader(fixture!.bytes);
        assert.strictEqual(info.version, header.version);
        assert.strictEqual(info.producer, header.producer);
        assert.ok(info.fallbacks && typeof info.fallbacks === 'object', 'fallbacks object');
        for (const k of ['op', 'attribute', 'type'] as const) assert.strictEqual(typeof info.fallbacks[k], 'number', `fallbacks.${k}`);
        if (isJax) assert.ok((info.fallbacks.op ?? 0) > 0 && fallbackCount(info) > 0, 'vhlo ops are fallbacks');
        assert.ok(info.sizes === undefined || typeof info.sizes === 'object', 'sizes object');
      });

      if (isJax) {
        it('hover on a fallback op answers (when the server offers hover)', async function () {
          if (!session!.initializeResult!.capabilities.hoverProvider) {
            console.log('      (the server does not advertise hoverProvider yet)');
            this.skip();
          }
          const uri = viewUriOf(fixture!.uri);
          const lines = text.split('\n');
          const line = lines.findIndex((l) => l.includes('mlirbc.properties'));
          assert.ok(line >= 0);
          const character = lines[line].indexOf('"') + 2;
          const hover = await session!.request<{ contents: unknown } | null>('textDocument/hover', {
            textDocument: { uri },
            position: { line, character },
          });
          assert.ok(hover && hover.contents, `a hover at ${line}:${character}`);
        });
      }

      it('an invalid edit is refused with an error naming it, and a fixed text saves again', async () => {
        const uri = viewUriOf(fixture!.uri);
        const bad = insertFirstLine(session!, text, '%broken = "x.y"(%nope) : (i32) -> i32 {{{\n');
        await session!.notify('textDocument/didChange', { textDocument: { uri, version: ++version }, contentChanges: bad });
        await assert.rejects(session!.request(CONVERT_TO_BYTECODE, { uri }), (err: Error) => {
          assert.ok(err.message.length > 0, 'a message naming the first error');
          return true;
        });
        const fix = removeFirstLine(session!, text);
        await session!.notify('textDocument/didChange', { textDocument: { uri, version: ++version }, contentChanges: fix });
        const bytes = decodeBase64Output(await session!.request(CONVERT_TO_BYTECODE, { uri }));
        assert.strictEqual(Buffer.compare(Buffer.from(bytes), fixture!.bytes), 0);
        await session!.notify('textDocument/didClose', { textDocument: { uri } });
      });
    });
  }

  describe('afterwards', () => {
    it('the server is still running', () => {
      assert.ok(!session!.hasExited, session!.stderrTail());
    });
  });
});
