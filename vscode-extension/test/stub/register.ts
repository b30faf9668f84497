// Mocha `require` hook: makes `import 'vscode'` resolve to the stub in this folder.
import Module = require('module');

const stubPath = require.resolve('./vscode');
type Resolve = (request: string, ...rest: unknown[]) => string;
const mod = Module as unknown as { _resolveFilename: Resolve };
const original = mod._resolveFilename;
mod._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]): string {
  return request === 'vscode' ? stubPath : original.call(this, request, ...rest);
};
