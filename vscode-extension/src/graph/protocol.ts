// The `mlirbc/graph` request and its answer (docs/graph-schema.json in the repository). Free of `vscode`
// and DOM imports: the extension, the webview bundle and the tests share it.

export const GRAPH_REQUEST = 'mlirbc/graph';

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface GraphParams {
  uri: string;
  position?: Position;
  symbol?: string;
  path?: number[];
  scope?: 'function' | 'region';
  limit?: number;
  offset?: number;
  functions?: boolean;
}

export interface NamedValue {
  name: string | null;
  type: string;
}

export interface OpNode {
  id: string;
  kind: 'op';
  index: number;
  name: string;
  dialect: string;
  parent: string | null;
  operands: string[];
  results: NamedValue[];
  regions: string[];
  fallback: boolean;
  fallbackReason?: string;
  elided: boolean;
  symbol?: string;
  offPage?: true;
  range: Range | null;
}

export interface ExternalNode {
  id: string;
  kind: 'external';
  name: string | null;
  type: string;
  offPage: boolean;
}

export type GraphNode = OpNode | ExternalNode;

export interface RegionJson {
  id: string;
  op: string;
  index: number;
  blocks: string[];
}

export interface BlockJson {
  id: string;
  region: string;
  index: number;
  label: string;
  arguments: NamedValue[];
  range: Range | null;
}

export type Endpoint = { node: string; port: number } | { block: string; port: number };

export interface ValueEdge {
  id: string;
  kind: 'value';
  source: Endpoint;
  target: { node: string; port: number };
  type: string;
  value: string | null;
}

export interface ControlEdge {
  id: string;
  kind: 'control';
  source: { node: string; port: number };
  target: { block: string };
}

export type GraphEdge = ValueEdge | ControlEdge;

export interface FunctionEntry {
  name: string;
  symbol: string | null;
  path: number[];
  range: Range | null;
}

export interface GraphJson {
  schema: 'mlirbc-graph/1';
  uri?: string;
  version?: number | null;
  root: { id: string; name: string; symbol: string | null; kind: 'module' | 'function' | 'region'; path: number[]; range: Range | null };
  functions?: FunctionEntry[];
  nodes: GraphNode[];
  regions: RegionJson[];
  blocks: BlockJson[];
  edges: GraphEdge[];
  counts: { ops: number; shownOps: number; uses: number; shownUses: number; successors: number; shownSuccessors: number };
  page: { offset: number; limit: number; next: number | null };
  truncated: string | null;
}

/** A first check of an answer's shape (the server validates against the schema in its tests). */
export function isGraph(x: unknown): x is GraphJson {
  const g = x as Partial<GraphJson> | null;
  return (
    !!g &&
    g.schema === 'mlirbc-graph/1' &&
    Array.isArray(g.nodes) &&
    Array.isArray(g.edges) &&
    Array.isArray(g.blocks) &&
    Array.isArray(g.regions) &&
    !!g.root
  );
}

// Messages between the extension and the webview.
export type ToWebview =
  | { type: 'graph'; graph: GraphJson; cursor?: string; keepState: boolean }
  | { type: 'cursor'; id: string | undefined }
  | { type: 'stale'; message: string }
  | { type: 'busy'; message: string };

export type FromWebview =
  | { type: 'ready' }
  | { type: 'select'; id: string }
  | { type: 'function'; path: number[] }
  | { type: 'page'; offset: number }
  | { type: 'rendered'; ms: number; layoutMs: number; visible: number; ops: number; edges: number };
