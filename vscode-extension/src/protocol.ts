// The wire contract between the extension and the mlirbc language server: request names and shapes.
// Kept free of `vscode` imports so the contract test can use the exact same definitions.

/** `mlir/convertFromBytecode`: bytecode file -> MLIR text (same shape as upstream mlir-lsp-server). */
export const CONVERT_FROM_BYTECODE = 'mlir/convertFromBytecode';
/** `mlir/convertToBytecode`: the server's copy of an open view document -> base64 bytecode. */
export const CONVERT_TO_BYTECODE = 'mlir/convertToBytecode';
/** `mlirbc/info`: header facts and fallback counts of a bytecode file. */
export const BYTECODE_INFO = 'mlirbc/info';

/** Params of all three requests: a document URI as a string. */
export interface UriParams {
  uri: string;
}

/** Result of both conversions: text for convertFromBytecode, base64 bytes for convertToBytecode. */
export interface ConversionResult {
  output: string;
}

/** Result of `mlirbc/info`. Only the fields the extension displays are typed; the rest is shown verbatim. */
export interface BytecodeInfo {
  version?: number;
  producer?: string;
  fallbacks?: { op?: number; attribute?: number; type?: number };
  sizes?: Record<string, number>;
  [key: string]: unknown;
}

/** Total number of fallback parts (ops, attributes, types) in an info result. */
export function fallbackCount(info: BytecodeInfo): number {
  const f = info.fallbacks ?? {};
  return (f.op ?? 0) + (f.attribute ?? 0) + (f.type ?? 0);
}

/** Decodes the base64 payload of `mlir/convertToBytecode`, rejecting anything that is not base64. */
export function decodeBase64Output(result: unknown): Uint8Array {
  const output = (result as Partial<ConversionResult> | null)?.output;
  if (typeof output !== 'string') {
    throw new Error('mlir/convertToBytecode returned no "output" string');
  }
  const compact = output.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) {
    throw new Error('mlir/convertToBytecode returned an "output" that is not base64');
  }
  return new Uint8Array(Buffer.from(compact, 'base64'));
}

/** Extracts the text of `mlir/convertFromBytecode`. */
export function textOutput(result: unknown): string {
  const output = (result as Partial<ConversionResult> | null)?.output;
  if (typeof output !== 'string') {
    throw new Error('mlir/convertFromBytecode returned no "output" string');
  }
  return output;
}
