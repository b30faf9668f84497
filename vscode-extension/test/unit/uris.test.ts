// Unit tests of the file <-> view URI mapping.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { fileUriFor, isView, viewUriFor } from '../../src/uris';

describe('uris', () => {
  it('a view keeps the file path under the mlirbc scheme', () => {
    const file = vscode.Uri.file('/a/b/c.mlirbc');
    const view = viewUriFor(file);
    assert.strictEqual(view.toString(), 'mlirbc:/a/b/c.mlirbc');
    assert.ok(isView(view));
    assert.strictEqual(fileUriFor(view).toString(), file.toString());
  });

  it('round-trips a non-file scheme through the query', () => {
    const remote = vscode.Uri.parse('vscode-remote://host/a/c.mlirbc');
    const view = viewUriFor(remote);
    assert.strictEqual(view.scheme, 'mlirbc');
    assert.strictEqual(fileUriFor(view).toString(), remote.toString());
  });

  it('is idempotent', () => {
    const view = viewUriFor(vscode.Uri.file('/x.mlirbc'));
    assert.strictEqual(viewUriFor(view), view);
    const file = vscode.Uri.file('/x.mlirbc');
    assert.strictEqual(fileUriFor(file), file);
  });
});
