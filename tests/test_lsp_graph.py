"""`mlirbc/graph` through a real server: the function at a position, by symbol and by path, positions that
select the op in the client's text, the graph after an edit (and none for text that does not parse),
paging, the function list, and bad params."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from corpus import REPO
from lsp_support import (
    change,
    find,
    insert,
    open_bytecode,
    request,
    wait_diagnostics,
)

JAX = "jax/mlp2.mlirbc"
WHILE = "jax/rnn_scan_while.mlirbc"
CF = "upstream/Dialect__ControlFlow__canonicalize.p03.mlirbc"
SCHEMA = json.loads((REPO / "docs" / "graph-schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


async def graph(client: LanguageClient, params: dict[str, Any]) -> dict[str, Any]:
    g = await request(client, "mlirbc/graph", params)
    assert isinstance(g, dict)
    errors = list(VALIDATOR.iter_errors(g))
    assert not errors, f"{errors[0].message} at {list(errors[0].path)}"
    return g


def text_at(text: str, r: dict[str, Any]) -> str:
    lines = text.split("\n")
    s, e = r["start"], r["end"]
    if s["line"] == e["line"]:
        return lines[s["line"]][s["character"]:e["character"]]
    return "\n".join([lines[s["line"]][s["character"]:], *lines[s["line"] + 1:e["line"]],
                      lines[e["line"]][:e["character"]]])


def _pos(p: lsp.Position, dc: int = 0) -> dict[str, int]:
    return {"line": p.line, "character": p.character + dc}


async def test_function_at_position_with_ranges_in_the_text(client: LanguageClient,
                                                           tmp_path: Path) -> None:
    uri, text, _ = await open_bytecode(client, JAX, tmp_path)  # shown as StableHLO
    at = find(text, "stablehlo.add ")
    g = await graph(client, {"uri": uri, "position": _pos(at, 3)})
    assert g["uri"] == uri and g["version"] == 1
    assert g["root"]["name"] == "func.func" and g["root"]["kind"] == "function"
    ops = [n for n in g["nodes"] if n["kind"] == "op"]
    assert len(ops) == 12 and g["truncated"] is None
    # every node's range is that op's text in the view the client shows
    for n in ops:
        piece = text_at(text, n["range"])
        head = piece.split("\n")[0]
        short = n["name"].removeprefix("func.")  # func's ops print without their dialect inside a function
        assert head.startswith((n["name"], short)) or f"= {n['name']} " in head or f"= {short} " in head
        assert not n["fallback"]
    add = next(n for n in ops if n["name"] == "stablehlo.add")
    assert add["range"]["start"]["line"] == at.line
    # the region scope at the same place is the same function (no op with regions in between)
    g2 = await graph(client, {"uri": uri, "position": _pos(at, 3), "scope": "region"})
    assert g2["root"]["path"] == g["root"]["path"]
    # by path and by symbol-position in the function list
    g3 = await graph(client, {"uri": uri, "path": g["root"]["path"], "functions": True})
    assert g3["nodes"] == g["nodes"]
    assert [f["path"] for f in g3["functions"]][0] == g["root"]["path"]
    g4 = await graph(client, {"uri": uri, "symbol": "#2"})
    assert g4["root"]["path"] == g3["functions"][2]["path"]
    # outside any function: the whole module
    g5 = await graph(client, {"uri": uri, "position": {"line": 0, "character": 0}})
    assert g5["root"]["kind"] == "module" and g5["counts"]["ops"] == 38


async def test_region_scope_and_nested_regions(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, _ = await open_bytecode(client, WHILE, tmp_path)
    at = find(text, "stablehlo.while(")
    inner = lsp.Position(line=at.line + 2, character=8)
    fg = await graph(client, {"uri": uri, "position": _pos(inner)})
    rg = await graph(client, {"uri": uri, "position": _pos(inner), "scope": "region"})
    assert fg["root"]["name"] == "func.func"
    assert rg["root"]["kind"] == "region" and rg["root"]["name"] == "stablehlo.while"
    assert rg["counts"]["ops"] < fg["counts"]["ops"]
    assert any(n["kind"] == "external" for n in rg["nodes"])
    whiles = [n for n in fg["nodes"] if n.get("name") == "stablehlo.while"]
    assert whiles and len(whiles[0]["regions"]) == 2
    # every region of the while holds a block, and the blocks hold ops that name them as parent
    for rid in whiles[0]["regions"]:
        region = next(r for r in fg["regions"] if r["id"] == rid)
        assert region["blocks"]
        assert any(n.get("parent") == region["blocks"][0] for n in fg["nodes"])


async def test_graph_follows_edits(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, _ = await open_bytecode(client, CF, tmp_path)
    at = find(text, '"test.consumer1"')
    g = await graph(client, {"uri": uri, "position": _pos(at)})
    assert g["root"]["symbol"] == "branchCondProp"
    before = [n["name"] for n in g["nodes"] if n["kind"] == "op"]
    # add an op that uses the function's argument: one more node, one more edge from the block port
    line = text.split("\n")[at.line]
    indent = line[:len(line) - len(line.lstrip())]
    change(client, uri, 2, [insert(at.line, 0, indent + '"test.extra"(%arg0) : (i1) -> ()\n')])
    g2: dict[str, Any] = {}
    for _ in range(50):  # the parse of version 2 runs after the debounce
        try:
            g2 = await graph(client, {"uri": uri, "path": g["root"]["path"]})
        except Exception:
            g2 = {}
        if g2.get("version") == 2:
            break
    assert g2.get("version") == 2
    after = [n["name"] for n in g2["nodes"] if n["kind"] == "op"]
    assert len(after) == len(before) + 1 and "test.extra" in after
    extra = next(n for n in g2["nodes"] if n.get("name") == "test.extra")
    assert extra["range"]["start"]["line"] == at.line
    edge = next(e for e in g2["edges"] if e["target"] == {"node": extra["id"], "port": 0})
    assert "block" in edge["source"] and edge["value"] == "%arg0"
    # names and label ranges come from the text index of the edited text
    blocks = {b["label"]: b for b in g2["blocks"]}
    assert [a["name"] for a in blocks["^bb0"]["arguments"]] == ["%arg0"]
    # an edit that does not parse: an error, and the graph of the last good text stays the client's
    change(client, uri, 3, [insert(at.line, 0, indent + '"test.broken"(%nope) : (i1) -> ()\n')])
    await wait_diagnostics(client, uri, lambda ds: any(d.code == "parse-error" for d in ds))
    with pytest.raises(Exception, match="error"):
        await request(client, "mlirbc/graph", {"uri": uri, "path": g["root"]["path"]})


async def test_paging_and_limits(client: LanguageClient, tmp_path: Path) -> None:
    uri, _, _ = await open_bytecode(client, JAX, tmp_path)
    g = await graph(client, {"uri": uri, "limit": 10})
    assert g["truncated"] == "too large: showing ops 1-10 of 38 (limit 10 per page)"
    assert g["page"] == {"offset": 0, "limit": 10, "next": 10}
    seen = [n["index"] for n in g["nodes"] if n["kind"] == "op"]
    while g["page"]["next"] is not None:
        g = await graph(client, {"uri": uri, "limit": 10, "offset": g["page"]["next"]})
        seen += [n["index"] for n in g["nodes"] if n["kind"] == "op" and not n.get("offPage")]
    assert seen == list(range(38))


async def test_bad_params(client: LanguageClient, tmp_path: Path) -> None:
    uri, _, _ = await open_bytecode(client, JAX, tmp_path)
    for params, what in [({}, "uri"), ({"uri": uri, "limit": "x"}, "limit"),
                         ({"uri": uri, "path": ["a"]}, "path"),
                         ({"uri": uri, "scope": "file"}, "scope"),
                         ({"uri": uri, "symbol": "nope"}, "nope"),
                         ({"uri": "mlirbc:///not/open.mlirbc"}, "not open")]:
        with pytest.raises(Exception, match=what):
            await request(client, "mlirbc/graph", params)
