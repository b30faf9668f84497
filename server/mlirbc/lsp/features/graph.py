"""`mlirbc/graph`: the data-flow graph of the function (or region) at a position, a symbol or a path.

Params: `{uri, position?, symbol?, path?, scope?: "function"|"region", limit?, offset?, functions?}`.
The shown op is the one at `path` (the `root.path` of an earlier answer: the same function after an
edit), else the function named `symbol` (`main`, `@main`, `#N`), else the function (or with
`scope: "region"` the innermost op with regions) around `position`, else the whole module.  The answer
is `graph.builder`'s JSON (docs/graph-schema.json) plus `uri` and `version`.

The IR and the positions come from the view's state for its current version (the printed view of the
decoded file while it is unchanged, else what the checks re-read: one op spliced in, or a full parse),
through its source map.  A text that does not parse gives an error naming its first problem: the
client keeps showing the last graph.
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
from ...graph.source import SourceMap, ViewSourceMap, elided_probe
from ...ir.module import Module
from ...ir.operation import Operation
from ...view.edits import ViewState
from ..analysis import state_of
from ..documents import View
from ..guard import WorkTimeout
from ..server import MlirbcServer, RequestFailed, key_of, param

GRAPH = "mlirbc/graph"
MAX_LIMIT = 200_000
MAX_FUNCTIONS = 5000


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


async def _ir(server: MlirbcServer, view: View) -> tuple[Module, ViewState, SourceMap]:
    """The module behind the view's current text, its state and where its ops are."""
    version = view.version
    try:
        state = await state_of(server, view)
    except WorkTimeout as exc:
        raise RequestFailed(str(exc)) from None
    if state is None or view.version != version:
        raise RequestFailed("the text changed while the graph was being built")
    if state.module is None or state.module.root is None:
        errors = state.errors
        first = ""
        if errors:
            line = view.codec.position(errors[0].span.start).line
            first = f": line {line + 1}: {errors[0].message}"
        raise RequestFailed(f"the text has {len(errors)} error(s){first}; no graph for this "
                            "version")
    cached = view.extra.get("graph-source")
    if not (isinstance(cached, tuple) and cached[0] is state):
        # the view's line table when it is of this very text (a large view is not scanned again)
        cached = (state, ViewSourceMap(state.map, state.text,
                                       view.lines if view.text is state.text else None))
        view.extra["graph-source"] = cached
    return state.module, state, cached[1]


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
        module, state, source = await _ir(server, view)
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
            op = state.map.op_at(view.codec.offset(position))
            if op is not None:
                shown = enclosing_region_owner(op) if scope == "region" else enclosing_function(op)
        if shown is None:
            shown = root
        target = shown
        text = state.text
        lines = source.lines if isinstance(source, ViewSourceMap) else None

        def work() -> dict[str, Any]:
            g = build_graph(target, source, limit=limit, offset=offset,
                            elided=elided_probe(text, source, lines))
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
