// Options the language client is created with: how the server process is launched and what the
// client tells it (document selector, initializationOptions, answers to `workspace/configuration`).
// Only types come from vscode-languageclient here, so this module loads without VS Code.
import type * as vscode from 'vscode';
import type { Executable, LanguageClientOptions } from 'vscode-languageclient/node';
import type { ServerCommand } from './serverCommand';
import { configurationFor, SECTION, type ServerSettings } from './settings';
import { LANGUAGE_ID, VIEW_SCHEME } from './uris';

export const CLIENT_ID = 'mlirbc';
export const CLIENT_NAME = 'mlirbc Language Server';

export const DOCUMENT_SELECTOR = [
  { scheme: VIEW_SCHEME, language: LANGUAGE_ID },
  { scheme: 'file', language: LANGUAGE_ID },
];

/** The server is a plain executable speaking LSP over stdio (the default transport of an Executable). */
export function createServerOptions(cmd: ServerCommand, env: NodeJS.ProcessEnv = process.env, cwd?: string): Executable {
  return { command: cmd.command, args: [...cmd.args], options: { env: { ...env }, cwd } };
}

function ownsSection(section: string | undefined): boolean {
  return section === SECTION || (section?.startsWith(`${SECTION}.`) ?? false);
}

export function createClientOptions(
  settings: () => ServerSettings,
  outputChannel?: vscode.OutputChannel,
): LanguageClientOptions {
  return {
    documentSelector: DOCUMENT_SELECTOR,
    // A function, so that a restart sends the current settings.
    initializationOptions: () => settings(),
    outputChannel,
    // Tell the server when `mlirbc.*` changes; it pulls the new values through workspace/configuration.
    synchronize: { configurationSection: SECTION },
    middleware: {
      workspace: {
        configuration: async (params, token, next) => {
          const items = params.items;
          const own = items.map((item) => ownsSection(item.section));
          let others: unknown[] = items.map(() => null);
          if (own.some((o) => !o)) {
            const result = await next(params, token);
            if (Array.isArray(result)) others = result;
          }
          const current = settings();
          return items.map((item, i) => (own[i] ? configurationFor(item.section, current) : others[i]));
        },
      },
    },
  };
}
