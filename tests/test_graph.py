"""The graph builder on the corpus: nodes and edges are exactly the ops and uses of the IR, every node's
range is its op's text, fallback flags agree with the text, regions nest as in the IR, paging covers
every op once, the JSON follows docs/graph-schema.json, and Graphviz accepts the DOT of every file."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from corpus import CORPUS, REPO, expect, valid_files
from large_module import LargeModule
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.graph.builder import build_graph
from mlirbc.graph.dot import to_dot
from mlirbc.graph.scope import (
    enclosing_function,
    enclosing_region_owner,
    find_function,
    functions,
    path_of,
    resolve_path,
)
from mlirbc.graph.source import TextRange, ViewSourceMap, elided_probe
from mlirbc.ir.attributes import StringAttr
from mlirbc.ir.module import Module
from mlirbc.ir.operation import Operation
from mlirbc.models.build import models
from mlirbc.models.registry import Registry
from mlirbc.syntax.attr_printer import print_attribute
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import FALLBACK_PROPS_KEY, PrintResult, print_module

JAX = CORPUS / "jax" / "mlp2.mlirbc"
WHILE = CORPUS / "jax" / "rnn_scan_while.mlirbc"
CF = CORPUS / "upstream" / "Dialect__ControlFlow__canonicalize.p03.mlirbc"
SCHEMA = json.loads((REPO / "docs" / "graph-schema.json").read_text())


@cache
def registry() -> Registry:
    # The StableHLO models off: the JAX exports stand for files with fallback parts (the graph's marks).
    return models(disabled=["vhlo"])


def load(path: Path) -> tuple[Module, PrintResult]:
    m = decode_bytecode(path.read_bytes(), registry())
    assert m.root is not None
    return m, print_module(m)


def corpus_files() -> list[Path]:
    return [f for f in valid_files() if "/large/" not in str(f)]


@cache
def corpus_graphs() -> list[tuple[Path, Operation, str, dict[str, Any]]]:
    """Every corpus file's whole-module graph with its root op and view text (decoded once for the
    two corpus-wide tests)."""
    out = []
    for f in corpus_files():
        m, printed = load(f)
        assert m.root is not None
        out.append((f, m.root, printed.text, build_graph(m.root, ViewSourceMap(printed.map, printed.text))))
    return out


def _slice(lines: list[str], r: dict[str, Any]) -> str:
    s, e = r["start"], r["end"]
    if s["line"] == e["line"]:
        return lines[s["line"]][s["character"]:e["character"]]
    return "\n".join([lines[s["line"]][s["character"]:], *lines[s["line"] + 1:e["line"]],
                      lines[e["line"]][:e["character"]]])


_HEAD = re.compile(r'^(?:%[\w$.\-]+(?::\d+)? = )?("(?:[^"\\]|\\.)*")\(')


def check_graph(root: Operation, graph: dict[str, Any], text: str) -> None:
    """Everything a one-page graph of `root` must satisfy against the IR and the text."""
    ops = list(root.walk())
    op_nodes = [n for n in graph["nodes"] if n["kind"] == "op"]
    value_edges = [e for e in graph["edges"] if e["kind"] == "value"]
    control = [e for e in graph["edges"] if e["kind"] == "control"]
    assert len(op_nodes) == len(ops)
    assert len(value_edges) == sum(len(op.operands) for op in ops)
    assert len(control) == sum(len(op.successors) for op in ops)
    assert graph["counts"]["ops"] == graph["counts"]["shownOps"] == len(ops)
    assert graph["truncated"] is None
    lines = text.split("\n")
    nodes = {n["id"]: n for n in graph["nodes"]}
    regions = {r["id"]: r for r in graph["regions"]}
    blocks = {b["id"]: b for b in graph["blocks"]}
    index = {id(op): i for i, op in enumerate(ops)}
    for i, (op, node) in enumerate(zip(ops, op_nodes, strict=True)):
        assert node["id"] == f"o{i}" and node["name"] == op.name
        assert node["dialect"] == op.op_name.dialect
        # the node's range is the op's text: it starts with the op (results, quoted name) ...
        piece = _slice(lines, node["range"])
        head = _HEAD.match(piece)
        assert head is not None, piece[:200]
        assert head.group(1) == print_attribute(StringAttr.get(op.name))
        # ... ends with its location, and says mlirbc.properties exactly when the op is a fallback
        assert piece.endswith(")")
        last = piece.rsplit("\n", 1)[-1]
        own = last if op.regions else piece
        assert node["fallback"] == (f'{FALLBACK_PROPS_KEY} = "0x' in own.split(" loc(")[0]) == \
            op.is_fallback
        assert node["elided"] is False
        assert len(node["results"]) == len(op.results) and len(node["operands"]) == len(op.operands)
        # nesting: the node's parent block belongs to the region of the op that holds it in the IR
        if i == 0:
            assert node["parent"] is None
        else:
            block = blocks[node["parent"]]
            region = regions[block["region"]]
            assert op.parent is not None and op.parent.parent is not None
            owner = op.parent.parent.parent
            assert owner is not None and region["op"] == f"o{index[id(owner)]}"
            assert owner.regions[region["index"]].blocks[block["index"]] is op.parent
            assert block["id"] in region["blocks"] and region["id"] in nodes[region["op"]]["regions"]
    # every use is an edge from its definition (result port, block argument port) to its operand port
    for e in value_edges:
        tgt = ops[int(e["target"]["node"][1:])]
        v = tgt.operands[e["target"]["port"]]
        src = e["source"]
        if "block" in src:
            blk = blocks[src["block"]]
            owner_op = ops[int(regions[blk["region"]]["op"][1:])]
            assert owner_op.regions[regions[blk["region"]]["index"]].blocks[blk["index"]] \
                .arguments[src["port"]] is v
        elif nodes[src["node"]]["kind"] == "op":
            assert ops[int(src["node"][1:])].results[src["port"]] is v
        else:
            assert nodes[src["node"]]["offPage"] is False  # defined outside the shown op
    for e in control:
        term = ops[int(e["source"]["node"][1:])]
        blk = blocks[e["target"]["block"]]
        owner_op = ops[int(regions[blk["region"]]["op"][1:])]
        assert term.successors[e["source"]["port"]] is \
            owner_op.regions[regions[blk["region"]]["index"]].blocks[blk["index"]]


def test_builder_matches_the_ir_on_every_corpus_file() -> None:
    validator = jsonschema.Draft202012Validator(SCHEMA)
    graphs = corpus_graphs()
    assert len(graphs) > expect(full=4000, core=500)
    checked = fallback_nodes = control_edges = nested = 0
    for f, root, text, g in graphs:
        try:
            check_graph(root, g, text)
        except AssertionError as exc:
            raise AssertionError(f"{f.name}: {exc}") from exc
        errors = list(validator.iter_errors(g))
        assert not errors, f"{f.name}: {errors[0].message} at {list(errors[0].path)}"
        checked += 1
        fallback_nodes += sum(1 for n in g["nodes"] if n["kind"] == "op" and n["fallback"])
        control_edges += g["counts"]["successors"]
        nested += sum(1 for r in g["regions"] if r["op"] != "o0" and
                      any(b["region"] == r["id"] for b in g["blocks"]))
    # the corpus exercises what the checks are about
    assert checked == len(graphs) and fallback_nodes > 100 and control_edges > 100 and nested > 1000


def test_jax_export_functions_fallbacks_and_names() -> None:
    m, printed = load(JAX)
    assert m.root is not None
    fs = list(functions(m.root))
    assert [f.op.name for f in fs] == ["vhlo.func_v1"] * 3
    main = find_function(m.root, "#0")
    assert main is fs[0].op and find_function(m.root, "#3") is None
    g = build_graph(main, ViewSourceMap(printed.map, printed.text))
    assert g["root"]["kind"] == "function" and g["root"]["path"] == path_of(main) == [0, 0, 0]
    assert resolve_path(m.root, g["root"]["path"]) is main
    entry = g["blocks"][0]
    assert [a["name"] for a in entry["arguments"]][:2] == ["%arg6", "%arg7"]
    dots = [n for n in g["nodes"] if n.get("name") == "vhlo.dot_general_v2"]
    assert dots and all(n["fallback"] and "vhlo" in n["fallbackReason"] for n in dots)
    adds = [n for n in g["nodes"] if n.get("name") == "vhlo.add_v1"]
    assert adds and not any(n["fallback"] for n in adds)
    # the edge into the first dot_general comes from the function's argument %arg10 (block port 4)
    e = next(e for e in g["edges"] if e["target"] == {"node": dots[0]["id"], "port": 0})
    assert e["source"] == {"block": entry["id"], "port": 4} and e["value"] == "%arg10"
    assert e["type"] == entry["arguments"][4]["type"]


def test_enclosing_function_and_region_scopes() -> None:
    m, printed = load(WHILE)
    assert m.root is not None
    whiles = [op for op in m.root.walk() if op.name == "vhlo.while_v1"]
    assert whiles
    w = whiles[0]
    inner = w.regions[1].blocks[0].operations[0]
    assert enclosing_region_owner(inner) is w
    func = enclosing_function(inner)
    assert func.name == "vhlo.func_v1" and enclosing_function(func) is func
    assert enclosing_function(m.root) is m.root
    # the graph of a region: values from outside the while are external nodes, every use still an edge
    g = build_graph(w, ViewSourceMap(printed.map, printed.text))
    assert g["root"]["kind"] == "region"
    ops = list(w.walk())
    assert len([e for e in g["edges"] if e["kind"] == "value"]) == sum(len(o.operands) for o in ops)
    externals = [n for n in g["nodes"] if n["kind"] == "external"]
    inside = {id(v) for o in ops for r in o.regions for b in r.blocks for v in b.arguments} | \
        {id(v) for o in ops for v in o.results}
    outside = {id(v) for o in ops for v in o.operands if id(v) not in inside}
    assert len(externals) == len(outside) > 0
    assert all(n["offPage"] is False for n in externals)


def test_control_flow_edges_go_to_blocks() -> None:
    m, printed = load(CF)
    assert m.root is not None
    f = find_function(m.root, "@branchCondProp")
    assert f is not None
    g = build_graph(f, ViewSourceMap(printed.map, printed.text))
    control = [(e["source"], e["target"]["block"]) for e in g["edges"] if e["kind"] == "control"]
    labels = {b["id"]: b["label"] for b in g["blocks"]}
    assert [labels[b] for _, b in control] == ["^bb1", "^bb2", "^bb3", "^bb3"]
    ranges = {b["label"]: b["range"] for b in g["blocks"]}
    lines = printed.text.split("\n")
    assert ranges["^bb0"] is not None
    for label in ("^bb0", "^bb1", "^bb2", "^bb3"):
        assert _slice(lines, ranges[label]).startswith(label)
    dot = to_dot(g)
    assert dot.count("style=dashed") == 4 and "lhead=cluster_" in dot


def test_paging_covers_every_op_once(large: LargeModule) -> None:
    m, printed = load(large.path)
    assert m.root is not None
    f = find_function(m.root, "f7")
    assert f is not None
    source = ViewSourceMap(printed.map, printed.text)
    ops = list(f.walk())
    seen: list[int] = []
    uses = 0
    offset: int | None = 0
    validator = jsonschema.Draft202012Validator(SCHEMA)
    pages = 0
    while offset is not None:
        g = build_graph(f, source, limit=100, offset=offset)
        assert not list(validator.iter_errors(g))
        assert g["truncated"] is not None and f"of {len(ops)}" in g["truncated"]
        on_page = [n for n in g["nodes"] if n["kind"] == "op" and not n.get("offPage")]
        seen.extend(n["index"] for n in on_page)
        uses += g["counts"]["shownUses"]
        # an ancestor shown for nesting is really an ancestor of the page's first op
        for n in g["nodes"]:
            if n.get("offPage") and n["kind"] == "op":
                assert n["index"] < offset
        offset = g["page"]["next"]
        pages += 1
    assert seen == list(range(len(ops))) and pages == (len(ops) + 99) // 100
    assert uses == sum(len(o.operands) for o in ops)


def test_parsed_text_gives_the_same_graph() -> None:
    """A view read back by the parser (its source map) names and places everything as printed."""
    for path in (JAX, CF, WHILE):
        m, printed = load(path)
        assert m.root is not None
        parsed = parse_module(printed.text, m, registry())
        assert parsed.module is not None and parsed.module.root is not None
        a = build_graph(m.root, ViewSourceMap(printed.map, printed.text))
        b = build_graph(parsed.module.root, ViewSourceMap(parsed.map, printed.text))
        # a parsed fallback op's reason is "kept verbatim from the text view": compare the rest
        def strip(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
            return [{k: v for k, v in n.items() if k != "fallbackReason"} for n in nodes]

        assert strip(a["nodes"]) == strip(b["nodes"]) and a["edges"] == b["edges"]
        assert [x["arguments"] for x in a["blocks"]] == [x["arguments"] for x in b["blocks"]]
        for x, y in zip(a["blocks"], b["blocks"], strict=True):
            if x["range"] is not None:
                assert x["range"] == y["range"]


def test_utf16_ranges() -> None:
    """Columns are UTF-16 code units, as LSP wants: a location with astral characters before an op
    on the same line cannot happen, but the end of a line holding one must count two units for it."""
    text = '"test.op"() : () -> () loc("\U0001F600")\n'
    parsed = parse_module('"builtin.module"() ({\n' + text + '}) : () -> ()\n', None, registry())
    assert parsed.module is not None and parsed.module.root is not None
    op = parsed.module.root.regions[0].blocks[0].operations[0]
    src = ViewSourceMap(parsed.map, '"builtin.module"() ({\n' + text + '}) : () -> ()\n')
    r = src.op_range(op)
    assert r == TextRange(1, 0, 1, len(text.rstrip("\n")) + 1)


def test_graphviz_accepts_the_dot_of_every_corpus_file(tmp_path: Path) -> None:
    dot = shutil.which("dot")
    if dot is None:
        if os.environ.get("CI"):
            pytest.fail("Graphviz's dot is not installed (.ci/editors.sh installs Debian's graphviz)")
        pytest.skip("Graphviz's dot is not installed")
    batch: list[tuple[Path, str]] = []

    def run(items: list[tuple[Path, str]]) -> None:
        # dot reads many graphs from one input; on an error, find the file by halving the batch
        done = subprocess.run([dot, "-Tsvg", "-o", os.devnull], input="".join(t for _, t in items),
                              capture_output=True, text=True, timeout=600)
        if done.returncode == 0 and "Error" not in done.stderr:
            return
        if len(items) == 1:
            pytest.fail(f"dot rejects the graph of {items[0][0].name}: {done.stderr[:500]}")
        half = len(items) // 2
        run(items[:half])
        run(items[half:])

    for f, _, _, g in corpus_graphs():
        batch.append((f, to_dot(g)))
        if len(batch) == 400:
            run(batch)
            batch = []
    run(batch)


@pytest.mark.parametrize("rel", ["jax/mlp2.mlirbc", "jax/convnet.mlirbc", "iree/mlp2.flow.mlirbc"])
def test_elided_flags_match_the_view(rel: str) -> None:
    """An op is `elided` exactly when eliding values changes its own text (with a threshold low enough
    that the corpus has such values)."""
    data = (CORPUS / rel).read_bytes()
    m = decode_bytecode(data, registry())
    assert m.root is not None
    full = print_module(m)
    short = print_module(m, elide_larger_than=8)
    assert short.elided > 0
    source = ViewSourceMap(short.map, short.text)
    g = build_graph(m.root, source, elided=elided_probe(short.text, source))
    full_lines, short_lines = full.text.split("\n"), short.text.split("\n")
    flagged = 0
    for op, node in zip(m.root.walk(), [n for n in g["nodes"] if n["kind"] == "op"], strict=True):
        r = node["range"]
        s, e = r["start"]["line"], r["end"]["line"]
        own = [s, e] if op.regions else list(range(s, e + 1))
        changed = any(full_lines[i] != short_lines[i] for i in own)
        assert node["elided"] == changed, (node["name"], s)
        flagged += changed
    assert flagged > 0
