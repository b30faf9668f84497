"""The pretty view's cost next to the generic view's, and next to mlir-opt's, in one run.

    python benchmarks/pretty_bench.py [--runs R] [--no-server]

Tables (the machine is shared: read the ratios, measured in the same run, rather than the seconds):

1. in one process per row (a fresh one: a row measured after another would share its heap), CPU seconds
   (best of R rounds, at least 15 for the IREE corpus's small files; each round times every phase once):
   decode, then print the view generic, pretty with `--local-scope`, and pretty with aliases (the default
   pretty view); the ratio of decode + pretty print
   to decode + generic print (target: at most 1.25), for the 112k-op corpus file and the IREE corpus
   (default-version files, together); and iree-opt's own parse and print of the IREE corpus
   (`--mlir-timing`, wall seconds, each file's best of max(R, 5) runs: upstream's ratios of the same forms);
2. whole processes (median of R): `mlirbc decode --form generic` / `--form pretty --local-scope` /
   `--form pretty` of the 112k-op file, next to `mlir-opt --mlir-print-op-generic` and mlir-opt's pretty
   print with the same debug-info flags; the pretty-to-upstream ratio should be no worse than the
   generic-to-upstream one;
3. server open: `mlir/convertFromBytecode` with the generic view of old (`mlirbc.view.form: generic`,
   `mlirbc.view.aliases: false`) and with no view settings (the default: pretty with aliases), a fresh
   server each, the forms alternating (median of R; of 15 for the IREE file, whose open takes ~25 ms).

Keystroke and save latencies on the pretty view: `python benchmarks/lsp_latency.py --form generic
--form pretty`.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import CORPUS, REPO, load_note, lsp_convert, median_of, mlir_tool, our_env, ours  # noqa: E402
from iree_bench import iree_opt  # noqa: E402

sys.path.insert(0, str(REPO / "server"))

from mlirbc.bytecode.reader import read_bytecode_file  # noqa: E402
from mlirbc.ir.module import Module  # noqa: E402
from mlirbc.models.build import default_registry  # noqa: E402
from mlirbc.models.registry import Registry  # noqa: E402
from mlirbc.view.aliasing import alias_rules  # noqa: E402
from mlirbc.view.printer import print_module  # noqa: E402

MODES = {"generic": {"form": "generic", "aliases": False},
         "pretty --local-scope": {"form": "pretty", "aliases": False},
         "pretty": {"form": "pretty", "aliases": True}}
"""Each mode names its form and scope (the CLI's and the server's default is `pretty` with aliases)."""
SERVER_MODES = {"generic --local-scope": {"view": {"form": "generic", "aliases": False}},
                "default (pretty, aliases)": {}}
"""Server settings: the generic view of old, and no view settings at all (the default)."""
"""print_module's keywords per mode (`aliases: True`: the registry's alias rules)."""


SMALL_BYTES = 4_000_000
SMALL_ROUNDS = 15


def _table(title: str, header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    print(f"\n{title}")
    print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(header, widths,
                                                                                         strict=True))))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths,
                                                                                             strict=True))))


def _print(m: Module, reg: Registry, kw: dict[str, object]) -> object:
    form = str(kw["form"])
    rules = alias_rules(m, reg) if kw.get("aliases") else None
    return print_module(m, registry=reg, form=form, aliases=rules)


def _cpu(fn: object, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        gc.collect()
        t = time.process_time()
        fn()  # type: ignore[operator]
        best = min(best, time.process_time() - t)
    return best


def in_process(files: list[Path], runs: int) -> list[str]:
    """Decode and each mode's print, timed in rounds (each round: decode, then every mode once), the
    best of each over the rounds: on a shared machine a pause lands on one round, not on every sample of
    one mode.  Sets of small files, whose print takes a tenth of a second, get at least `SMALL_ROUNDS`."""
    reg = default_registry()
    modules = [read_bytecode_file(str(f), reg) for f in files]
    for m in modules:  # warm: syntax data read, caches filled as a server's first print fills them
        print_module(m, registry=reg, form="pretty", aliases=alias_rules(m, reg))
    rounds = runs if sum(f.stat().st_size for f in files) > SMALL_BYTES else max(runs, SMALL_ROUNDS)
    decode = float("inf")
    prints = dict.fromkeys(MODES, float("inf"))
    for _ in range(rounds):
        decode = min(decode, _cpu(lambda: [read_bytecode_file(str(f), reg) for f in files], 1))
        for name, kw in MODES.items():
            prints[name] = min(prints[name], _cpu(lambda kw=kw: [_print(m, reg, kw) for m in modules], 1))
    base = decode + prints["generic"]
    return [f"{decode:.2f}", *(f"{prints[n]:.2f}" for n in MODES),
            *(f"{(decode + prints[n]) / base:.2f}" for n in ("pretty --local-scope", "pretty"))]


IREE_OPT_MODES = {"generic": ["--mlir-print-op-generic", "--mlir-print-local-scope"],
                  "pretty --local-scope": ["--mlir-print-local-scope"], "pretty": []}
_TIMING = re.compile(r"([\d.]+) \(\s*[\d.]+%\)\s+(Parser|Output)")


def iree_opt_row(files: list[Path], runs: int) -> list[str] | None:
    """iree-opt's own times for the same files (`--mlir-timing`: its parse of the bytecode and its print,
    each file's best of the rounds, summed): upstream's cost of each form, without its start-up."""
    exe = iree_opt()
    if exe is None:
        return None
    parse = dict.fromkeys(IREE_OPT_MODES, 0.0)
    output = dict.fromkeys(IREE_OPT_MODES, 0.0)
    for f in files:
        for name, flags in IREE_OPT_MODES.items():
            best_parse = best_output = float("inf")
            for _ in range(max(runs, 5)):
                proc = subprocess.run([exe, str(f), "--mlir-timing", "--mlir-print-debuginfo", *flags, "-o",
                                       os.devnull], capture_output=True, text=True, check=False)
                found = dict((what, float(t)) for t, what in _TIMING.findall(proc.stderr))
                if proc.returncode or len(found) != 2:
                    return None
                best_parse = min(best_parse, found["Parser"])
                best_output = min(best_output, found["Output"])
            parse[name] += best_parse
            output[name] += best_output
    base = parse["generic"] + output["generic"]
    return [f"{parse['generic']:.3f}", *(f"{output[n]:.3f}" for n in IREE_OPT_MODES),
            *(f"{(parse[n] + output[n]) / base:.2f}" for n in ("pretty --local-scope", "pretty"))]


def in_fresh_process(files: list[Path], runs: int) -> list[str]:
    """`in_process` in a process of its own: a row measured after another shares its heap (the small files
    measured after the 112k-op file print 2-4% slower, the pretty print more than the generic one)."""
    proc = subprocess.run([sys.executable, __file__, "--runs", str(runs), "--in-process", *map(str, files)],
                          capture_output=True, text=True, check=True)
    return list(json.loads(proc.stdout))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-server", action="store_true")
    ap.add_argument("--in-process", nargs="+", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.in_process:
        print(json.dumps(in_process(args.in_process, args.runs)))
        return 0
    print(f"python {sys.version.split()[0]}; {load_note()}")
    large = CORPUS / "large" / "synthetic_100k_ops.mlirbc"
    iree = sorted(p for p in (CORPUS / "iree").glob("*.mlirbc") if not re.search(r"\.v\d$", p.stem))
    rows = [[large.name, *in_fresh_process([large], args.runs)],
            [f"iree ({len(iree)} files)", *in_fresh_process(iree, args.runs)]]
    upstream = iree_opt_row(iree, args.runs)
    if upstream is not None:
        rows.append([f"iree, iree-opt's own ({len(iree)})", *upstream])
    _table(f"in one process, CPU seconds (best of {args.runs} rounds, IREE {max(args.runs, SMALL_ROUNDS)}); "
           "ratio: decode + pretty print over decode + generic print (target <= 1.25)",
           ["file", "decode", *MODES, "ratio local", "ratio aliased"], rows)

    env = our_env()
    opt = mlir_tool("mlir-opt")
    rows = []
    ours_t = {name: median_of(args.runs, ours("decode", str(large), "--form", str(kw["form"]),
                                              "--aliases" if kw["aliases"] else "--local-scope"),
                              env)[0] for name, kw in MODES.items()}
    cells = [large.name, *(f"{ours_t[n]:.2f}" for n in MODES)]
    if opt is not None:
        exe, oenv = opt
        flags = ["--allow-unregistered-dialect", "--mlir-print-debuginfo", str(large), "-o", "/dev/null"]
        generic = median_of(args.runs, [exe, "--mlir-print-op-generic", "--mlir-print-local-scope", *flags],
                            oenv)[0]
        local = median_of(args.runs, [exe, "--mlir-print-local-scope", *flags], oenv)[0]
        aliased = median_of(args.runs, [exe, *flags], oenv)[0]
        cells += [f"{generic:.2f}", f"{local:.2f}", f"{aliased:.2f}", f"{ours_t['generic'] / generic:.1f}x",
                  f"{ours_t['pretty --local-scope'] / local:.1f}x", f"{ours_t['pretty'] / aliased:.1f}x"]
    else:
        cells += ["n/a"] * 6
    rows.append(cells)
    _table(f"whole processes, wall seconds (median of {args.runs}): mlirbc decode next to mlir-opt's print "
           "of the same form", ["file", "generic", "pretty local", "pretty", "mlir-opt generic",
                                "local", "aliased", "ratio generic", "ratio local", "ratio aliased"], rows)

    if not args.no_server:
        cmd = [sys.executable, "-m", "mlirbc.lsp"]
        rows = []
        for f in (large, *iree[:1]):
            # A small file's open takes a few tens of ms: more servers, alternating, for a steady median.
            n = args.runs if f.stat().st_size > SMALL_BYTES else max(args.runs, SMALL_ROUNDS)
            times: list[list[float]] = [[] for _ in SERVER_MODES]
            for _ in range(n):
                for i, options in enumerate(SERVER_MODES.values()):
                    times[i].append(lsp_convert(cmd, env, f, False, options)[0])
            got = [statistics.median(t) for t in times]
            rows.append([f.name, *(f"{t * 1e3:.1f}" for t in got), f"{got[1] / got[0]:.2f}x"])
        _table(f"server open: mlir/convertFromBytecode (median of {args.runs}, of {SMALL_ROUNDS} for the "
               "small file, the forms alternating; wall ms; target <= 1.25x)",
               ["file", *SERVER_MODES, "ratio"], rows)
    print(f"\n{load_note()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
