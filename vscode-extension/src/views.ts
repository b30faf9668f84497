// Opening views: a bytecode file's text view in an editor column, with language `mlir`
// (a view's path ends in `.mlirbc`, which VS Code would otherwise open as plain text).
import * as vscode from 'vscode';
import { fileUriFor, isView, LANGUAGE_ID, viewUriFor } from './uris';

export async function ensureMlirLanguage(doc: vscode.TextDocument): Promise<vscode.TextDocument> {
  if (isView(doc.uri) && doc.languageId !== LANGUAGE_ID) {
    return vscode.languages.setTextDocumentLanguage(doc, LANGUAGE_ID);
  }
  return doc;
}

/** Opens the text view of `fileUri` (converting through the server) and shows it. */
export async function showView(fileUri: vscode.Uri, viewColumn?: vscode.ViewColumn): Promise<vscode.TextEditor> {
  const doc = await ensureMlirLanguage(await vscode.workspace.openTextDocument(viewUriFor(fileUri)));
  return vscode.window.showTextDocument(doc, { viewColumn, preview: false });
}

/** Reopens a bytecode file with VS Code's default (text/binary) editor. */
export async function showRaw(uri: vscode.Uri, viewColumn?: vscode.ViewColumn): Promise<void> {
  await vscode.commands.executeCommand('vscode.openWith', fileUriFor(uri), 'default', viewColumn);
}

/** Gives every view that opens (also restored ones) the `mlir` language. */
export function registerViewLanguage(): vscode.Disposable {
  for (const doc of vscode.workspace.textDocuments) void ensureMlirLanguage(doc);
  return vscode.workspace.onDidOpenTextDocument((doc) => void ensureMlirLanguage(doc));
}
