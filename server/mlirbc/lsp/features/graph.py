"""`mlirbc/graph`: the data-flow graph of the function (or region) at a position, a symbol or a path.

Params: `{uri, position?, symbol?, path?, scope?: "function"|"region", limit?, offset?, functions?}`.
The shown op is the one at `path` (the `root.path` of an earlier answer: the same function after an
edit), else the function named `symbol` (`main`, `@main`, `#N`), else the function (or with
`scope: "region"` the innermost op with regions) around `position`, else the whole module.  The answer
is `graph.builder`'s JSON (docs/graph-schema.json) plus `uri` and `version`.

The IR comes from the decoded file while the view is unchanged (positions from the printer's span map),
else from the parse of the current text, which the diagnostics already keep per version; positions
then come from the server's text index of that version (`IndexSourceMap`).  A text that does not
parse gives an error naming its first problem: the client keeps showing the last graph.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcInvalidParams

from ...graph.builder import DEFAULT_LIMIT, build_graph
from ...graph.scope import (
    enclosing_function,
    enclosing_region_owner,
    find_function,
    functions,
    resolve_path,
)
from ...graph.source import PrintSourceMap, SourceMap, TextRange, elided_probe
from ...ir.module import Module
from ...ir.operation import Block, BlockArgument, Operation, OpResult, Value
from ..analysis import ensure_index, ensure_parse
from ..documents import Snapshot, View, make_snapshot
from ..guard import WorkTimeout
from ..positions import LineIndex
from ..server import MlirbcServer, RequestFailed, key_of, param
from ..textindex import TextIndex

GRAPH = "mlirbc/graph"
MAX_LIMIT = 200_000
MAX_FUNCTIONS = 5000


class IndexSourceMap:
    """A SourceMap over the server's text index, for IR whose ops are in the index's op order."""

    def __init__(self, index: TextIndex, ops: list[Operation]) -> None:
        self._index = index
        self._lines: LineIndex = index.lines
        self._ops = ops
        self._pos: dict[int, int] | None = None

    def _entry(self, op: Operation) -> int | None:
        if self._pos is None:
            self._pos = {id(o): i for i, o in enumerate(self._ops)}
        return self._pos.get(id(op))

    def _range(self, start: int, end: int) -> TextRange:
        r = self._lines.range(start, end)
        return TextRange(r.start.line, r.start.character, r.end.line, r.end.character)

    def op_range(self, op: Operation) -> TextRange | None:
        i = self._entry(op)
        if i is None:
            return None
        e = self._index.ops[i]
        return self._range(e.start, max(e.end, e.name_end))

    def value_name(self, value: Value) -> str | None:
        occ = self._index.occurrences
        if isinstance(value, OpResult):
            i = self._entry(value.owner)
            if i is None:
                return None
            for k in self._index.ops[i].results:
                o = occ[k]
                if o.result <= value.index < o.result + o.count:
                    return o.name if o.count == 1 else f"{o.name}#{value.index - o.result}"
            return None
        if isinstance(value, BlockArgument):
            label = self._label(value.owner)
            if label is None:
                return None
            k = label + 1 + value.index
            if k < len(occ) and occ[k].is_def and occ[k].arg == value.index:
                return occ[k].name
        return None

    def _label(self, block: Block) -> int | None:
        """The occurrence index of the block's label."""
        region = block.parent
        owner = region.parent if region is not None else None
        if region is None or owner is None:
            return None
        i = self._entry(owner)
        if i is None:
            return None
        ri = next((n for n, r in enumerate(owner.regions) if r is region), -1)
        bi = next((n for n, b in enumerate(region.blocks) if b is block), -1)
        entry = self._index.ops[i]
        if not 0 <= ri < len(entry.regions) or bi < 0:
            return None
        reg = self._index.regions[entry.regions[ri]]
        li = bi - (1 if reg.has_entry_ops else 0)
        return reg.labels[li] if 0 <= li < len(reg.labels) else None

    def block_label(self, block: Block) -> str | None:
        k = self._label(block)
        return self._index.occurrences[k].name if k is not None else None

    def block_range(self, block: Block) -> TextRange | None:
        k = self._label(block)
        if k is None:
            return None
        o = self._index.occurrences[k]
        return self._range(o.start, o.end)


def _int(params: Any, name: str, default: int, lo: int, hi: int) -> int:
    v = param(params, name, default)
    if v is None:
        return default
    if isinstance(v, bool) or not isinstance(v, int):
        raise JsonRpcInvalidParams(f"`{name}` must be an integer")
    return min(max(v, lo), hi)


def _position(params: Any) -> lsp.Position | None:
    p = param(params, "position")
    if p is None:
        return None
    line, char = param(p, "line"), param(p, "character")
    if not isinstance(line, int) or not isinstance(char, int):
        raise JsonRpcInvalidParams("`position` must be {line, character}")
    return lsp.Position(line=max(line, 0), character=max(char, 0))


async def _ir(server: MlirbcServer, view: View) -> tuple[Module, Snapshot, SourceMap]:
    """The module behind the view's current text, its snapshot and where its ops are."""
    await ensure_index(server, view)
    decoded = server.decoded_for(view)
    if decoded is not None and view.text == decoded.text:
        snap = make_snapshot(view, decoded)
        if snap is None or snap.ops is None:
            raise RequestFailed("the view is too large to index (setting mlirbc.limits.maxIndexMB)")
        cached = view.extra.get("graph-source")
        if not (isinstance(cached, tuple) and cached[0] is decoded.printed):
            cached = (decoded.printed, PrintSourceMap(decoded.printed))
            view.extra["graph-source"] = cached
        return decoded.module, snap, cached[1]
    version = view.version
    try:
        outcome = await ensure_parse(server, view)
    except WorkTimeout as exc:
        raise RequestFailed(str(exc)) from None
    if outcome is None:
        raise RequestFailed("the text parser is not available in this build")
    if outcome.module is None or outcome.module.root is None:
        errors = outcome.errors
        first = f": line {errors[0].span.start_line + 1}: {errors[0].message}" if errors else ""
        raise RequestFailed(f"the text has {len(errors)} error(s){first}; no graph for this "
                            "version")
    await ensure_index(server, view)
    if view.version != version:
        raise RequestFailed("the text changed while the graph was being built")
    snap = make_snapshot(view, decoded)
    if snap is None or snap.ops is None or snap.module is not outcome.module:
        raise RequestFailed("the text index and the parse of this version disagree")
    return outcome.module, snap, IndexSourceMap(snap.index, snap.ops)


def register(server: MlirbcServer) -> None:
    @server.feature(GRAPH)
    async def graph(params: Any) -> dict[str, Any]:
        uri = param(params, "uri")
        if not isinstance(uri, str) or not uri:
            raise JsonRpcInvalidParams("expected params {uri: string, position?, symbol?, path?}")
        view = server.view(uri)
        if view is None:
            raise RequestFailed(f"{uri} is not open" if key_of(uri) is not None else
                                f"{uri} does not name a local file")
        position = _position(params)
        symbol = param(params, "symbol")
        path = param(params, "path")
        scope = param(params, "scope", "function")
        if symbol is not None and not isinstance(symbol, str):
            raise JsonRpcInvalidParams("`symbol` must be a string")
        if path is not None and not (isinstance(path, list) and
                                     all(isinstance(x, int) and not isinstance(x, bool)
                                         for x in path)):
            raise JsonRpcInvalidParams("`path` must be a list of integers")
        if scope not in ("function", "region"):
            raise JsonRpcInvalidParams('`scope` must be "function" or "region"')
        limit = _int(params, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT)
        offset = _int(params, "offset", 0, 0, 1 << 40)
        want_functions = param(params, "functions", False) is True
        version = view.version
        module, snap, source = await _ir(server, view)
        root = module.root
        if root is None:
            raise RequestFailed("the module has no operations")
        shown: Operation | None = None
        if path is not None:
            shown = resolve_path(root, path)
        if shown is None and symbol:
            shown = find_function(root, symbol)
            if shown is None:
                raise RequestFailed(f"no function {symbol!r} in {uri}")
        if shown is None and position is not None:
            entry = snap.index.op_at(snap.lines.offset(position))
            op = snap.op(entry) if entry is not None else None
            if op is not None:
                shown = enclosing_region_owner(op) if scope == "region" else enclosing_function(op)
        if shown is None:
            shown = root
        target = shown
        text = snap.index.text

        def work() -> dict[str, Any]:
            g = build_graph(target, source, limit=limit, offset=offset,
                            elided=elided_probe(text, source))
            if want_functions:
                fl = []
                for f in functions(root, MAX_FUNCTIONS):
                    r = source.op_range(f.op)
                    fl.append({"name": f.op.name, "symbol": f.symbol, "path": f.path,
                               "range": r.to_json() if r is not None else None})
                g["functions"] = fl
            return g

        try:
            result = await server.run_job(work, "building the graph", "mlirbc: graph")
        except WorkTimeout as exc:
            raise RequestFailed(str(exc)) from None
        result["uri"] = uri
        result["version"] = version
        return result
