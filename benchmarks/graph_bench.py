"""Latency of the graph: the server's `mlirbc/graph` on the largest function of the 112k-op file, the builder
alone, the CLI's DOT next to upstream `mlir-opt --view-op-graph`, and the VS Code panel's layout in headless
Chromium (the largest function, and a generated 10,000-op function, whose first picture is an overview).

    PYTHONPATH=server python benchmarks/graph_bench.py [FILE] [--repeat N] [--no-webview]

The webview rows need Chromium and playwright-core (vscode-extension/scripts/e2e_code_server.sh --setup-only
installs both) and a built extension (`npm run build` in vscode-extension/). Prints a table; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "server"))
sys.path.insert(0, str(HERE))

from common import REPO, large_file, mlir_opt  # noqa: E402

from mlirbc.bytecode.reader import decode_bytecode  # noqa: E402
from mlirbc.graph.builder import build_graph  # noqa: E402
from mlirbc.graph.scope import functions  # noqa: E402
from mlirbc.graph.source import ViewSourceMap  # noqa: E402
from mlirbc.view.printer import print_module  # noqa: E402

EXT = REPO / "vscode-extension"
CACHE = Path(os.environ.get("MLIRBC_E2E_CACHE", Path(os.environ.get("XDG_CACHE_HOME", "/tmp")) /
                            "mlirbc-e2e"))

Row = tuple[str, str, str]
UPSTREAM_TIMEOUT_S = 600
"""mlir-opt's --view-op-graph on the whole 112k-op module is stopped after this long."""


def _ms(xs: list[float]) -> str:
    if len(xs) == 1:
        return f"{xs[0] * 1000:.1f} ms"
    return f"{statistics.median(xs) * 1000:.1f} ms (median of {len(xs)}, max {max(xs) * 1000:.1f})"


def _timed(fn: Callable[[], Any], repeat: int) -> tuple[list[float], Any]:
    out: list[float] = []
    result: Any = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        out.append(time.perf_counter() - t0)
    return out, result


def largest_function(path: Path) -> tuple[Any, Any, Any, int, int]:
    """(module, printed view, the function op, its index in the function list, its op count)."""
    module = decode_bytecode(path.read_bytes())
    assert module.root is not None
    printed = print_module(module)
    best, best_i, best_n = None, -1, -1
    for i, f in enumerate(functions(module.root)):
        n = sum(1 for _ in f.op.walk())
        if n > best_n:
            best, best_i, best_n = f.op, i, n
    assert best is not None
    return module, printed, best, best_i, best_n


async def server_rows(path: Path, printed_text_line: int, repeat: int) -> list[Row]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO / "server") + os.pathsep + env.get("PYTHONPATH", "")
    client = LanguageClient("graph-bench", "1")
    await client.start_io(sys.executable, "-m", "mlirbc.lsp", env=env)
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.initialized(lsp.InitializedParams())
    rows: list[Row] = []
    res = await client.protocol.send_request_async("mlir/convertFromBytecode", {"uri": path.as_uri()})
    text: str = res.output
    uri = "mlirbc://" + path.as_posix()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
        uri=uri, language_id="mlir", version=1, text=text)))
    params = {"uri": uri, "position": {"line": printed_text_line, "character": 6}}

    async def ask(p: dict[str, Any]) -> tuple[float, Any]:
        t0 = time.perf_counter()
        g = await client.protocol.send_request_async("mlirbc/graph", p)
        return time.perf_counter() - t0, g

    first, g = await ask(params)
    ops = g.counts.ops
    rows.append(("mlirbc/graph, first request (waits for the view's index)", f"{ops} ops",
                 _ms([first])))
    times = [(await ask(params))[0] for _ in range(repeat)]
    rows.append(("mlirbc/graph, function at the cursor (unchanged view)", f"{ops} ops", _ms(times)))
    t_list, g2 = await ask({**params, "functions": True})
    rows.append(("  ... with the function list", f"{len(g2.functions)} functions", _ms([t_list])))
    # an edit: the server parses the whole view (as diagnostics do), then builds the graph from the parse
    line = printed_text_line + 1
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[lsp.TextDocumentContentChangePartial(
            range=lsp.Range(start=lsp.Position(line=line, character=0),
                            end=lsp.Position(line=line, character=0)),
            text="    // an edit\n")]))
    t_edit, g3 = await ask({"uri": uri, "path": list(g.root.path)})
    rows.append(("mlirbc/graph after an edit (includes parsing the whole view)", f"{g3.counts.ops} ops",
                 _ms([t_edit])))
    times = [(await ask({"uri": uri, "path": list(g.root.path)}))[0] for _ in range(repeat)]
    rows.append(("mlirbc/graph after an edit, parse done", f"{g3.counts.ops} ops", _ms(times)))
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return rows


def cli_rows(path: Path, fn_index: int) -> list[Row]:
    rows: list[Row] = []
    env = dict(os.environ, PYTHONPATH=str(REPO / "server"))
    cmd = [sys.executable, "-m", "mlirbc.cli", "graph", str(path)]
    for label, extra in ((f"mlirbc graph --function '#{fn_index}' (DOT)", ["--function", f"#{fn_index}"]),
                         ("mlirbc graph, whole module (DOT, --limit 200000)", ["--limit", "200000"])):
        t0 = time.perf_counter()
        done = subprocess.run(cmd + extra, capture_output=True, env=env, timeout=3600)
        dt = time.perf_counter() - t0
        rows.append((label + " (CLI, incl. decode)", f"{len(done.stdout)} bytes of DOT", _ms([dt])))
    oracle = mlir_opt()
    if oracle is None:
        rows.append(("mlir-opt --view-op-graph (upstream)", "oracle not installed", "-"))
        return rows
    exe, oenv = oracle
    t0 = time.perf_counter()
    try:
        done = subprocess.run([exe, str(path), "--view-op-graph", "-o", os.devnull], capture_output=True,
                              env=oenv, timeout=UPSTREAM_TIMEOUT_S)
        dt = time.perf_counter() - t0
        rows.append(("mlir-opt --view-op-graph, whole module (upstream, incl. parse)",
                     f"{len(done.stderr)} bytes of DOT" if done.returncode == 0 else
                     f"exit {done.returncode}", _ms([dt])))
    except subprocess.TimeoutExpired:
        rows.append(("mlir-opt --view-op-graph, whole module (upstream, incl. parse)",
                     "stopped: no DOT", f"> {UPSTREAM_TIMEOUT_S} s"))
    return rows


def ten_thousand_op_graph(out: Path) -> None:
    """A function of 10,000 arith ops in one block (each using the two before), through our parser."""
    lines = ['"builtin.module"() ({', '  "func.func"() <{function_type = (f32, f32) -> f32, '
             'sym_name = "big"}> ({', '  ^bb0(%arg0: f32, %arg1: f32):']
    prev = ["%arg0", "%arg1"]
    for i in range(10_000):
        op = "arith.addf" if i % 3 else "arith.mulf"
        lines.append(f'    %{i} = "{op}"({prev[-1]}, {prev[-2]}) <{{fastmath = #arith.fastmath<none>}}> '
                     ": (f32, f32) -> f32")
        prev.append(f"%{i}")
    lines += [f'    "func.return"({prev[-1]}) : (f32) -> ()', "  }) : () -> ()", "}) : () -> ()", ""]
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write("\n".join(lines))
    env = dict(os.environ, PYTHONPATH=str(REPO / "server"))
    subprocess.run([sys.executable, "-m", "mlirbc.cli", "graph", f.name, "--function", "big", "--format",
                    "json", "-o", str(out)], check=True, env=env, timeout=600)
    os.unlink(f.name)


def webview_rows(path: Path, fn_index: int) -> list[Row]:
    chromium = os.environ.get("MLIRBC_CHROMIUM", "/usr/bin/chromium")
    pw = CACHE / "playwright-core-1.55.0" / "node_modules"
    page_js = EXT / "dist" / "webview" / "graph.js"
    controller = EXT / "out" / "src" / "graph" / "controller.js"
    missing = [str(p) for p in (Path(chromium), pw, page_js, controller) if not p.exists()]
    if missing or shutil.which("node") is None:
        return [("webview layout (headless Chromium)", "skipped: missing " + ", ".join(missing), "-")]
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "ten-thousand.json"
        ten_thousand_op_graph(big)
        largest = Path(tmp) / "largest.json"
        env = dict(os.environ, PYTHONPATH=str(REPO / "server"))
        subprocess.run([sys.executable, "-m", "mlirbc.cli", "graph", str(path), "--function",
                        f"#{fn_index}", "--format", "json", "-o", str(largest)], check=True, env=env,
                       timeout=600)
        done = subprocess.run(["node", str(EXT / "test" / "webview" / "render_graph.cjs"), "--chromium",
                               chromium, "--click-first-box", str(largest), str(big)],
                              capture_output=True, text=True, timeout=1800,
                              env=dict(os.environ, NODE_PATH=str(pw)))
        if done.returncode != 0:
            return [("webview layout (headless Chromium)", "failed: " + done.stderr[-300:], "-")]
        for line in done.stdout.splitlines():
            r = json.loads(line)
            what = "largest function" if r["file"] == "largest.json" else "generated 10,000-op function"
            rows.append((f"webview: first picture of the {what}",
                         f"{r['ops']} ops, {r['visible']} nodes drawn",
                         f"{r['layoutMs']} ms layout, {r['ms']} ms drawn"))
            if r.get("opened"):
                o = r["opened"]
                rows.append(("  ... then one closed box opened by a click",
                             f"{o['visible']} nodes drawn", f"{o['layoutMs']} ms layout, {o['ms']} ms drawn"))
            if r["cspViolations"]:
                rows.append(("  CSP violations", "; ".join(r["cspViolations"])[:80], "-"))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("file", nargs="?", help="default: the 112k-op file")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-webview", action="store_true")
    ap.add_argument("--webview-only", action="store_true", help="only the headless Chromium rows")
    args = ap.parse_args()
    path = Path(args.file) if args.file else large_file()
    if args.webview_only:
        module = decode_bytecode(path.read_bytes())
        assert module.root is not None
        sizes = [(sum(1 for _ in f.op.walk()), i) for i, f in enumerate(functions(module.root))]
        n, fn_index = max(sizes)
        _table(path, fn_index, n, webview_rows(path, fn_index))
        return 0
    t0 = time.perf_counter()
    module, printed, fn, fn_index, n = largest_function(path)
    t_load = time.perf_counter() - t0
    source = ViewSourceMap(printed.map, printed.text)
    n_ops = sum(1 for _ in printed.map.ops())
    rows: list[Row] = [("decode + print (not part of a graph request)", f"{n_ops} ops",
                        _ms([t_load]))]
    times, g = _timed(lambda: build_graph(fn, source), args.repeat)
    rows.append((f"builder: largest function (#{fn_index})", f"{n} ops, {len(g['edges'])} edges",
                 _ms(times)))
    assert module.root is not None
    times, g = _timed(lambda: build_graph(module.root, source), 1)
    rows.append(("builder: whole module, first page", g["truncated"] or "", _ms(times)))
    span = source.op_range(fn)
    assert span is not None
    rows += asyncio.run(server_rows(path, span.start_line + 2, args.repeat))
    rows += cli_rows(path, fn_index)
    if not args.no_webview:
        rows += webview_rows(path, fn_index)
    _table(path, fn_index, n, rows)
    return 0


def _table(path: Path, fn_index: int, n: int, rows: list[Row]) -> None:
    load = os.getloadavg()
    print(f"{path.name}: largest function #{fn_index} with {n} ops; load average {load[0]:.1f} "
          f"on {os.cpu_count()} CPUs\n")
    rows = [(a, b if len(b) <= 70 else b[:69] + "…", c) for a, b, c in rows]
    w = max(len(r[0]) for r in rows)
    w2 = max(len(r[1]) for r in rows)
    print(f"{'what':<{w}}  {'size':<{w2}}  time")
    print(f"{'-' * w}  {'-' * w2}  ----")
    for a, b, c in rows:
        print(f"{a:<{w}}  {b:<{w2}}  {c}")


if __name__ == "__main__":
    raise SystemExit(main())
