// Bundles src/extension.ts and its dependencies (vscode-languageclient) into dist/extension.js, and the
// graph panel's page (webview/graph.ts with elkjs) into dist/webview/graph.js next to its stylesheet and
// elkjs's licence. `--production` minifies and drops source maps (used by `vsce package`); `--watch`
// rebuilds on change.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const extension = {
  entryPoints: ['src/extension.ts'],
  bundle: true,
  outfile: 'dist/extension.js',
  external: ['vscode'],
  format: 'cjs',
  platform: 'node',
  target: 'node18',
  minify: production,
  sourcemap: !production,
  logLevel: 'info',
};

// The webview runs in the browser, offline: everything it needs is in this one file.
const webview = {
  entryPoints: ['webview/graph.ts'],
  bundle: true,
  outfile: 'dist/webview/graph.js',
  format: 'iife',
  platform: 'browser',
  target: 'es2020',
  minify: production,
  sourcemap: !production,
  logLevel: 'info',
};

if (production) rmSync('dist', { recursive: true, force: true }); // no stale source maps in the package
mkdirSync('dist/webview', { recursive: true });
copyFileSync('webview/graph.css', 'dist/webview/graph.css');
copyFileSync('node_modules/elkjs/LICENSE.md', 'dist/webview/elkjs-LICENSE.md');

if (watch) {
  for (const options of [extension, webview]) await (await esbuild.context(options)).watch();
} else {
  await Promise.all([esbuild.build(extension), esbuild.build(webview)]);
}
