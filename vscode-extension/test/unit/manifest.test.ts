// Unit tests of package.json's contributions: custom editor, language, settings and commands stay in step
// with the code.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { VIEW_TYPE } from '../../src/customEditor';
import { SECTION } from '../../src/settings';

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
const contributes = manifest.contributes;

describe('package.json', () => {
  it('opens *.mlirbc with the custom editor by default', () => {
    const editor = contributes.customEditors.find((e: { viewType: string }) => e.viewType === VIEW_TYPE);
    assert.ok(editor);
    assert.strictEqual(editor.priority, 'default');
    assert.deepStrictEqual(editor.selector, [{ filenamePattern: '*.mlirbc' }]);
  });

  it('contributes the mlir language with its grammar and configuration', () => {
    const lang = contributes.languages.find((l: { id: string }) => l.id === 'mlir');
    assert.ok(lang && fs.existsSync(path.resolve(__dirname, '..', '..', '..', lang.configuration)));
    assert.ok(!lang.extensions.includes('.mlirbc'), 'raw .mlirbc files are not mlir text');
    assert.strictEqual(contributes.grammars[0].scopeName, 'source.mlir');
  });

  it('has the settings that mirror the server options', () => {
    const keys = Object.keys(contributes.configuration.properties).sort();
    assert.deepStrictEqual(
      keys,
      [
        'graph.debounceMs',
        'graph.followCursor',
        'graph.maxOps',
        'models.disabled',
        'models.odsJson',
        'models.plugins',
        'models.set',
        'output.producer',
        'output.version',
        'server.args',
        'server.command',
        'server.pythonPath',
        'view.aliases',
        'view.elideLargerThan',
        'view.form',
      ]
        .map((k) => `${SECTION}.${k}`)
        .sort(),
    );
  });

  it('defaults the view to the server\'s defaults: auto form (pretty, or a dialect-level view), aliases on', () => {
    const props = contributes.configuration.properties;
    const server = path.resolve(__dirname, '..', '..', '..', '..', 'server', 'mlirbc');
    const printer = fs.readFileSync(path.join(server, 'view', 'printer.py'), 'utf8');
    const settings = fs.readFileSync(path.join(server, 'lsp', 'settings.py'), 'utf8');
    const aliases = /^ALIASES_BY_DEFAULT = (True|False)$/m.exec(printer);
    const form = /^ {4}view_form: str = "(\w+)"$/m.exec(settings);
    assert.ok(aliases && form, 'the server states its defaults');
    assert.strictEqual(props[`${SECTION}.view.aliases`].default, aliases[1] === 'True');
    assert.strictEqual(props[`${SECTION}.view.aliases`].default, true);
    assert.strictEqual(props[`${SECTION}.view.form`].default, form[1]);
    assert.strictEqual(props[`${SECTION}.view.form`].default, 'auto');
    assert.match(props[`${SECTION}.view.form`].enumDescriptions[0], /else the pretty form/);
  });

  it('has the commands', () => {
    const commands = contributes.commands.map((c: { command: string; title: string }) => `${c.command}: ${c.title}`);
    assert.deepStrictEqual(commands, [
      'mlirbc.showInfo: Show Bytecode Info',
      'mlirbc.reopenRaw: Reopen as Raw Bytes/Text',
      'mlirbc.reopenAsText: Reopen as MLIR Text',
      'mlirbc.restartServer: Restart Server',
      'mlirbc.showFullValue: Show Full Value',
      'mlirbc.exportValue: Export Value (.npy)',
      'mlirbc.showGraph: Show Graph',
    ]);
  });

  it('offers Show Graph in the editor title bar, the context menu and the palette', () => {
    for (const menu of ['editor/title', 'editor/context', 'commandPalette']) {
      const item = contributes.menus[menu].find((m: { command: string }) => m.command === 'mlirbc.showGraph');
      assert.ok(item, menu);
      assert.match(item.when, /resourceScheme == mlirbc/);
    }
    const cmd = contributes.commands.find((c: { command: string }) => c.command === 'mlirbc.showGraph');
    assert.ok(cmd.icon, 'an icon for the title bar');
  });

  it('packages the graph page with its stylesheet and the layout library\'s licence', () => {
    const ignore = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', '.vscodeignore'), 'utf8');
    for (const f of ['graph.js', 'graph.css', 'elkjs-LICENSE.md']) assert.match(ignore, new RegExp(`^!dist/webview/${f.replace('.', '\\.')}$`, 'm'));
    assert.ok(manifest.devDependencies.elkjs, 'elkjs is bundled (a devDependency)');
  });

  it('packages the bundled server: its start script and libs, no bytecode; built before each package', () => {
    const ignore = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', '.vscodeignore'), 'utf8').split('\n');
    assert.ok(ignore.includes('!bundled/tool/start_server.py'));
    assert.ok(ignore.includes('!bundled/libs/**'));
    assert.ok(ignore.includes('bundled/**/__pycache__/**') && ignore.includes('bundled/**/*.pyc'));
    assert.ok(ignore.indexOf('bundled/**/*.pyc') > ignore.indexOf('!bundled/libs/**'), 'the exclusion comes after the inclusion');
    assert.match(manifest.scripts['vscode:prepublish'], /node scripts\/bundle_server\.mjs/);
  });

  it('bundles to dist/extension.js without install scripts', () => {
    assert.strictEqual(manifest.main, './dist/extension.js');
    for (const hook of ['preinstall', 'install', 'postinstall']) assert.ok(!(hook in manifest.scripts), hook);
  });
});
