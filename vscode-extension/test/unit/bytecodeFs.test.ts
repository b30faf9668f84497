// Unit tests of the `mlirbc:` FileSystemProvider: conversion on read, encoding and writing on save,
// and the refusal path (invalid text: the error is reported and nothing is written).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { BytecodeFileSystemProvider, SaveRefusedError, type Converter, type FileAccess } from '../../src/bytecodeFs';

const FILE = vscode.Uri.file('/work/models/m p.mlirbc');
const VIEW = FILE.with({ scheme: 'mlirbc' });

class FakeConverter implements Converter {
  fromCalls: string[] = [];
  toCalls: string[] = [];
  text = '"builtin.module"() ({\n}) : () -> () // µ\n';
  bytes: Uint8Array | Error = new Uint8Array([0x4d, 0x4c, 0xef, 0x52, 6]);
  fromError: Error | undefined;

  async fromBytecode(fileUri: vscode.Uri): Promise<string> {
    this.fromCalls.push(fileUri.toString());
    if (this.fromError) throw this.fromError;
    return this.text;
  }
  async toBytecode(viewUri: vscode.Uri): Promise<Uint8Array> {
    this.toCalls.push(viewUri.toString());
    if (this.bytes instanceof Error) throw this.bytes;
    return this.bytes;
  }
}

class FakeFiles implements FileAccess {
  written: { uri: string; content: Uint8Array }[] = [];
  exists = true;
  readonly_ = false;
  watchers: (() => void)[] = [];
  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    if (!this.exists) throw vscode.FileSystemError.FileNotFound(uri);
    return { type: vscode.FileType.File, ctime: 1, mtime: 2, size: 1234,
      ...(this.readonly_ ? { permissions: vscode.FilePermission.Readonly } : {}) };
  }
  async readDirectory(): Promise<[string, vscode.FileType][]> {
    return [['m p.mlirbc', vscode.FileType.File]];
  }
  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    this.written.push({ uri: uri.toString(), content });
  }
  watch(_uri: vscode.Uri, onChange: () => void): vscode.Disposable {
    this.watchers.push(onChange);
    return new vscode.Disposable(() => undefined);
  }
}

function setup(options = {}) {
  const converter = new FakeConverter();
  const files = new FakeFiles();
  const provider = new BytecodeFileSystemProvider(converter, files, options);
  return { converter, files, provider };
}

const SAVE = { create: false, overwrite: true };

describe('BytecodeFileSystemProvider', () => {
  describe('readFile', () => {
    it('asks the server to convert the file: URI behind the view and returns UTF-8 text', async () => {
      const { converter, provider } = setup();
      const bytes = await provider.readFile(VIEW);
      assert.deepStrictEqual(converter.fromCalls, [FILE.toString()]);
      assert.ok(converter.fromCalls[0].startsWith('file:///work/models/'));
      assert.strictEqual(new TextDecoder().decode(bytes), converter.text);
    });

    it('reports a conversion error with the file and the server message', async () => {
      const { converter, provider } = setup();
      converter.fromError = new Error('decode error in section attr_type at byte 0x1f3');
      await assert.rejects(provider.readFile(VIEW), (err: Error) => {
        assert.match(err.message, /cannot open \/work\/models\/m p\.mlirbc/);
        assert.match(err.message, /byte 0x1f3/);
        return true;
      });
    });

    it('has no size cliff: a 64 MB text is returned whole', async () => {
      const { converter, provider } = setup();
      converter.text = 'x'.repeat(64 * 1024 * 1024);
      const bytes = await provider.readFile(VIEW);
      assert.strictEqual(bytes.byteLength, 64 * 1024 * 1024);
    });
  });

  describe('writeFile', () => {
    it('encodes the server copy of the view and writes those bytes to the file', async () => {
      const saved: [string, number][] = [];
      const { converter, files, provider } = setup({ onSaved: (u: vscode.Uri, n: number) => saved.push([u.toString(), n]) });
      await provider.writeFile(VIEW, new TextEncoder().encode('ignored: the server has its own copy'), SAVE);
      assert.deepStrictEqual(converter.toCalls, [VIEW.toString()]);
      assert.ok(converter.toCalls[0].startsWith('mlirbc:/work/models/'));
      assert.strictEqual(files.written.length, 1);
      assert.strictEqual(files.written[0].uri, FILE.toString());
      assert.deepStrictEqual([...files.written[0].content], [0x4d, 0x4c, 0xef, 0x52, 6]);
      assert.deepStrictEqual(saved, [[FILE.toString(), 5]]);
    });

    it('refuses invalid text: shows the server error and writes nothing', async () => {
      const refused: SaveRefusedError[] = [];
      const { converter, files, provider } = setup({ onSaveRefused: (e: SaveRefusedError) => refused.push(e) });
      converter.bytes = new Error("3:7: expected ')' in operand list");
      await assert.rejects(provider.writeFile(VIEW, new Uint8Array(), SAVE), (err: Error) => {
        assert.ok(err instanceof SaveRefusedError);
        assert.match(err.message, /not saved/);
        assert.match(err.message, /3:7: expected '\)' in operand list/);
        return true;
      });
      assert.strictEqual(files.written.length, 0);
      assert.strictEqual(refused.length, 1);
      assert.strictEqual(refused[0].file.toString(), FILE.toString());
    });

    it('does not create a missing file on a plain save', async () => {
      const { converter, files, provider } = setup();
      files.exists = false;
      await assert.rejects(provider.writeFile(VIEW, new Uint8Array(), SAVE), /FileNotFound|file not found|m%20p/);
      assert.strictEqual(converter.toCalls.length, 0);
      assert.strictEqual(files.written.length, 0);
    });
  });

  describe('writeFile through mlirbc/save', () => {
    it('lets the server write the file (nothing passes through the extension)', async () => {
      const { converter, files, provider } = setup();
      const saved: string[] = [];
      (converter as FakeConverter & { save?: (u: vscode.Uri) => Promise<number> }).save = async (u) => {
        saved.push(u.toString());
        return 42;
      };
      await provider.writeFile(VIEW, new Uint8Array(), SAVE);
      assert.deepStrictEqual(saved, [VIEW.toString()]);
      assert.strictEqual(converter.toCalls.length, 0);
      assert.strictEqual(files.written.length, 0);
    });

    it('a text that does not verify is saved unverified when the user confirms', async () => {
      const asked: SaveRefusedError[] = [];
      const { converter, provider } = setup({
        confirmUnverified: async (e: SaveRefusedError) => {
          asked.push(e);
          return true;
        },
      });
      const calls: (boolean | undefined)[] = [];
      (converter as FakeConverter & { save?: (u: vscode.Uri, unverified?: boolean) => Promise<number> }).save =
        async (_u, unverified) => {
          calls.push(unverified);
          if (!unverified) {
            throw Object.assign(new Error("3:9: 'arith.addf' op operand #0 must be floating-point-like"),
              { data: { unverifiedSaveAllowed: true } });
          }
          return 7;
        };
      await provider.writeFile(VIEW, new Uint8Array(), SAVE);
      assert.deepStrictEqual(calls, [undefined, true]);
      assert.strictEqual(asked.length, 1);
      assert.ok(asked[0].unverifiedAllowed);
      assert.match(asked[0].reason, /floating-point-like/);
    });

    it('declining, or a parse error, keeps the refusal and asks nothing for a parse error', async () => {
      let asked = 0;
      const { converter, provider } = setup({
        confirmUnverified: async () => {
          asked += 1;
          return false;
        },
      });
      const calls: (boolean | undefined)[] = [];
      let data: object | undefined = { unverifiedSaveAllowed: true };
      (converter as FakeConverter & { save?: (u: vscode.Uri, unverified?: boolean) => Promise<number> }).save =
        async (_u, unverified) => {
          calls.push(unverified);
          throw Object.assign(new Error('does not save'), { data });
        };
      await assert.rejects(provider.writeFile(VIEW, new Uint8Array(), SAVE), SaveRefusedError);
      assert.strictEqual(asked, 1);
      data = undefined; // a parse error: never offered
      await assert.rejects(provider.writeFile(VIEW, new Uint8Array(), SAVE), SaveRefusedError);
      assert.strictEqual(asked, 1);
      assert.deepStrictEqual(calls, [undefined, undefined]);
    });

    it('a refusal is a SaveRefusedError', async () => {
      const { converter, provider } = setup();
      (converter as FakeConverter & { save?: (u: vscode.Uri) => Promise<number> }).save = async () => {
        throw new Error('3:7: elided elements placeholder does not belong to this file');
      };
      await assert.rejects(provider.writeFile(VIEW, new Uint8Array(), SAVE), SaveRefusedError);
    });
  });

  describe('stat, readDirectory, watch', () => {
    it('stat describes the bytecode file', async () => {
      const { provider } = setup();
      const st = await provider.stat(VIEW);
      assert.deepStrictEqual(st, { type: vscode.FileType.File, ctime: 1, mtime: 2, size: 1234 });
    });

    it('a read-only file gives a read-only view', async () => {
      const { provider, files } = setup();
      files.readonly_ = true;
      const st = await provider.stat(VIEW);
      assert.strictEqual(st.permissions, vscode.FilePermission.Readonly);
    });

    it('readDirectory lists the folder of the file', async () => {
      const { provider } = setup();
      assert.deepStrictEqual(await provider.readDirectory(VIEW.with({ path: '/work/models' })), [
        ['m p.mlirbc', vscode.FileType.File],
      ]);
    });

    it('reports outside changes of the file as changes of the view, but not the echo of our own save', async () => {
      const { files, provider } = setup({ ownWriteQuietMs: 60_000 });
      const events: string[] = [];
      provider.onDidChangeFile((evs) => evs.forEach((e) => events.push(`${e.type} ${e.uri.toString()}`)));
      provider.watch(VIEW);
      files.watchers[0]();
      assert.deepStrictEqual(events, [`${vscode.FileChangeType.Changed} ${VIEW.toString()}`]);
      await provider.writeFile(VIEW, new Uint8Array(), SAVE);
      files.watchers[0]();
      assert.strictEqual(events.length, 1);
    });

    it('refuses folder operations', () => {
      const { provider } = setup();
      assert.throws(() => provider.delete(), /NoPermissions|cannot delete/);
      assert.throws(() => provider.rename(), /cannot rename/);
      assert.throws(() => provider.createDirectory(), /cannot create/);
    });
  });
});
