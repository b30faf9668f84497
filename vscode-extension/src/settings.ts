// The extension's settings (`mlirbc.*`) and the object the server receives for them, both as
// `initializationOptions` and as the answer to `workspace/configuration` for section `mlirbc`.
// No `vscode` import: settings are read through a small getter so tests and the contract test share it.

export const SECTION = 'mlirbc';

/** Reads one setting below `mlirbc.` (like `WorkspaceConfiguration.get`). */
export type SettingGetter = <T>(key: string) => T | undefined;

export interface ServerLaunchSettings {
  command: string;
  args: string[];
  /** `mlirbc.server.pythonPath`: the interpreter for the bundled server ('' = search). */
  pythonPath: string;
}

/**
 * What the server is told; mirrors the `mlirbc.output.*` and `mlirbc.models.*` settings. Other `mlirbc.*`
 * keys the server may know (limits, diagnostics, ...) are passed through by `withExtraSettings`.
 */
export interface ServerSettings {
  output: { version: number | null; producer: string | null };
  models: { disabled: string[]; odsJson: string[]; plugins: string[]; set: string };
  [key: string]: unknown;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function optionalNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function optionalString(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/** `mlirbc.models.set`: a known set name, else `auto` (each file's producer chooses). */
function modelSet(value: unknown): string {
  return value === 'mlir22' || value === 'mlir24' ? value : 'auto';
}

export function readLaunchSettings(get: SettingGetter): ServerLaunchSettings {
  const command = get<unknown>('server.command');
  const pythonPath = get<unknown>('server.pythonPath');
  return {
    command: typeof command === 'string' ? command.trim() : '',
    args: stringList(get<unknown>('server.args')),
    pythonPath: typeof pythonPath === 'string' ? pythonPath.trim() : '',
  };
}

export function readServerSettings(get: SettingGetter): ServerSettings {
  return {
    output: {
      version: optionalNumber(get<unknown>('output.version')),
      producer: optionalString(get<unknown>('output.producer')),
    },
    models: {
      disabled: stringList(get<unknown>('models.disabled')),
      odsJson: stringList(get<unknown>('models.odsJson')),
      plugins: stringList(get<unknown>('models.plugins')),
      set: modelSet(get<unknown>('models.set')),
    },
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Adds the other keys of the raw `mlirbc` configuration object (everything but the client-only `server`)
 * below the normalised settings, so that settings this extension does not declare still reach the server.
 */
export function withExtraSettings(raw: unknown, settings: ServerSettings): ServerSettings {
  if (!isObject(raw)) return settings;
  const merged: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'server' || typeof value === 'function') continue;
    merged[key] = JSON.parse(JSON.stringify(value ?? null)) as unknown;
  }
  for (const [key, value] of Object.entries(settings)) {
    const base = merged[key];
    merged[key] = isObject(base) && isObject(value) ? { ...base, ...value } : value;
  }
  return merged as ServerSettings;
}

/**
 * Answers one `workspace/configuration` item: `mlirbc` gives the whole settings object,
 * `mlirbc.output` / `mlirbc.models.odsJson` a part of it; any other section gives `undefined`.
 */
export function configurationFor(section: string | undefined, settings: ServerSettings): unknown {
  if (section === undefined) return undefined;
  if (section === SECTION) return settings;
  if (!section.startsWith(`${SECTION}.`)) return undefined;
  let node: unknown = settings;
  for (const part of section.slice(SECTION.length + 1).split('.')) {
    if (node === null || typeof node !== 'object' || !(part in node)) return null;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}
