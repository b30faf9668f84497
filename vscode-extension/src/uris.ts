// Mapping between a bytecode file (`file:///x/y.mlirbc`) and its editable text view (`mlirbc:/x/y.mlirbc`).
// The view keeps the file's path so the server (and people) can map one to the other by swapping the scheme.
import * as vscode from 'vscode';

export const VIEW_SCHEME = 'mlirbc';
export const LANGUAGE_ID = 'mlir';

export function isView(uri: vscode.Uri): boolean {
  return uri.scheme === VIEW_SCHEME;
}

/** The text view of a bytecode file. The original scheme is kept in the query when it is not `file`. */
export function viewUriFor(fileUri: vscode.Uri): vscode.Uri {
  if (isView(fileUri)) return fileUri;
  const query = fileUri.scheme === 'file' ? '' : `scheme=${encodeURIComponent(fileUri.scheme)}`;
  return fileUri.with({ scheme: VIEW_SCHEME, query });
}

/** The bytecode file behind a view (the inverse of `viewUriFor`). */
export function fileUriFor(viewUri: vscode.Uri): vscode.Uri {
  if (!isView(viewUri)) return viewUri;
  const match = /(?:^|&)scheme=([^&]+)/.exec(viewUri.query);
  const scheme = match ? decodeURIComponent(match[1]) : 'file';
  return viewUri.with({ scheme, query: '' });
}
