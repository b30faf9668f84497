"""`mlirbc graph`: DOT, JSON (the server's schema) and SVG (own layout and Graphviz) on real files,
function selection by name, index and position, text views as input, paging and usage errors."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from corpus import CORPUS, REPO
from large_module import LargeModule

JAX = CORPUS / "jax" / "mlp2.mlirbc"
CF = CORPUS / "upstream" / "Dialect__ControlFlow__canonicalize.p03.mlirbc"
SCHEMA = json.loads((REPO / "docs" / "graph-schema.json").read_text())
SVG = "{http://www.w3.org/2000/svg}"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO / "server"))
    return subprocess.run([sys.executable, "-m", "mlirbc.cli", "graph", *args], capture_output=True,
                          text=True, env=env, timeout=300)


def test_list_and_json_by_function(tmp_path: Path) -> None:
    proc = run(str(JAX), "--list")
    assert proc.returncode == 0
    rows = [line.split("\t") for line in proc.stdout.splitlines()]
    assert [r[0] for r in rows] == ["#0", "#1", "#2"] and [r[3] for r in rows] == \
        ["12 ops", "5 ops", "20 ops"]
    out = tmp_path / "g.json"
    proc = run(str(JAX), "--function", "#2", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    g = json.loads(out.read_text())
    jsonschema.validate(g, SCHEMA)
    assert g["counts"]["ops"] == 20 and g["root"]["path"] == [0, 0, 2]


def test_function_by_symbol_and_at_position(tmp_path: Path) -> None:
    proc = run(str(CF), "--function", "@branchCondProp", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    g = json.loads(proc.stdout)
    assert g["root"]["symbol"] == "branchCondProp"
    assert sum(1 for e in g["edges"] if e["kind"] == "control") == 4
    # line 6 of the view (1-based) is "test.consumer1" in ^bb1: the function around it
    proc = run(str(CF), "--at", "6:5", "--format", "json")
    assert json.loads(proc.stdout)["root"]["symbol"] == "branchCondProp"
    proc = run(str(CF), "--function", "nope")
    assert proc.returncode == 2 and "no function 'nope'" in proc.stderr and "@branchCondProp" in proc.stderr


def test_text_view_input_gives_the_same_graph(tmp_path: Path) -> None:
    view = tmp_path / "v.mlir"
    env = dict(os.environ, PYTHONPATH=str(REPO / "server"))
    subprocess.run([sys.executable, "-m", "mlirbc.cli", "decode", str(JAX), "-o", str(view)],
                   check=True, env=env, timeout=300)
    a = json.loads(run(str(JAX), "--format", "json").stdout)
    b = json.loads(run(str(view), "--format", "json").stdout)
    assert [n["name"] for n in a["nodes"]] == [n["name"] for n in b["nodes"]]
    assert a["edges"] == b["edges"]
    assert [n["range"] for n in a["nodes"]] == [n["range"] for n in b["nodes"]]
    bad = tmp_path / "bad.mlir"
    bad.write_text('"builtin.module"() ({\n  "x.y"(%nope) : (i32) -> ()\n}) : () -> ()\n')
    proc = run(str(bad))
    assert proc.returncode == 2 and "bad.mlir:2:" in proc.stderr


def test_dot_and_svg(tmp_path: Path) -> None:
    proc = run(str(JAX))
    assert proc.returncode == 0 and proc.stdout.startswith('digraph "builtin.module @jit_mlp" {')
    assert proc.stdout.count("subgraph cluster_") >= 6
    out = tmp_path / "g.svg"
    proc = run(str(JAX), "--function", "#0", "--layout", "builtin", "-v", "-o", str(out))
    assert proc.returncode == 0 and "laid out by mlirbc" in proc.stderr
    root = ET.parse(out).getroot()
    assert root.tag == SVG + "svg"
    texts = [t.text for t in root.iter(SVG + "text")]
    # the ops of the StableHLO view (what `mlirbc decode` shows), or of the stored VHLO with --form generic
    assert "stablehlo.dot_general" in texts and texts.count("stablehlo.add") == 2
    stored = run(str(JAX), "--function", "#0", "--format", "json", "--form", "generic")
    names = [n["name"] for n in json.loads(stored.stdout)["nodes"] if n["kind"] == "op"]
    assert names.count("vhlo.add_v1") == 2
    uses = json.loads(run(str(JAX), "--function", "#0", "--format", "json").stdout)["counts"]["uses"]
    assert uses == 15
    assert len(list(root.iter(SVG + "path"))) == 1 + uses  # the arrow marker and one curve per use
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed")
    proc = run(str(JAX), "--function", "#0", "--format", "svg", "--layout", "graphviz", "-v")
    assert proc.returncode == 0 and "laid out by Graphviz dot" in proc.stderr
    assert ET.fromstring(proc.stdout).tag == SVG + "svg"


def test_elided_values_are_marked() -> None:
    # (with the StableHLO models off: the fallback properties are what a small threshold elides)
    plain = json.loads(run(str(JAX), "--format", "json", "--disable-model", "vhlo").stdout)
    assert not any(n.get("elided") for n in plain["nodes"])
    g = json.loads(run(str(JAX), "--format", "json", "--elide-larger-than", "8", "--disable-model",
                       "vhlo").stdout)
    jsonschema.validate(g, SCHEMA)
    marked = [n["name"] for n in g["nodes"] if n.get("elided")]
    assert marked and all(n == "vhlo.dot_general_v2" for n in marked)
    # With the StableHLO models on, `#vhlo.tensor_v1` values over 8 bytes are elided (here the
    # broadcast dimensions; the dot's properties are decoded, nothing opaque is left); in the StableHLO
    # view, the broadcast dimensions (`array<i64>`) over 8 bytes.
    on = json.loads(run(str(JAX), "--format", "json", "--elide-larger-than", "8", "--form",
                        "generic").stdout)
    marked = {n["name"] for n in on["nodes"] if n.get("elided")}
    assert marked == {"vhlo.broadcast_in_dim_v1"}, marked
    on = json.loads(run(str(JAX), "--format", "json", "--elide-larger-than", "8").stdout)
    assert {n["name"] for n in on["nodes"] if n.get("elided")} == {"stablehlo.broadcast_in_dim"}


def test_pages_of_a_large_module(large: LargeModule) -> None:
    proc = run(str(large.path), "--format", "json", "--limit", "2000", "--offset", "50000")
    assert proc.returncode == 0, proc.stderr
    assert f"too large: showing ops 50001-52000 of {large.ops}" in proc.stderr
    assert "--offset 52000 for the next page" in proc.stderr
    g = json.loads(proc.stdout)
    jsonschema.validate(g, SCHEMA)
    assert g["counts"]["shownOps"] == 2000 and g["page"]["next"] == 52000
