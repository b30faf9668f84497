"""The StableHLO view of JAX exports next to the stored (VHLO) view: open, edit + save, memory.

    PYTHONPATH=server python benchmarks/stablehlo_view.py [--runs R] [--jax-dir DIR] [--no-large] [--no-vhlo]

Files, in classes: the JAX corpus (`jax/*.mlirbc` of the corpus the tests use, `tests/corpus.py`: set
MLIRBC_CORPUS to the full one for the 12 MB file and all VHLO artifacts), the small
VHLO artifacts (`vhlo/*.mlirbc` but the 12 MB one; one summary row unless `--vhlo-rows`),
`vhlo/const_12mb.mlirbc`, and the 200 MB export `const_200mb.mlirbc` that
`vhlo/build_vhlo_corpus.py --large` builds (from --jax-dir, else built into a temporary folder when jax is
installed, else left out).

Each measurement runs in a fresh process (its peak RSS is the process's), as the server does it:
* open: decode the mapped file, show it (`view.forms.shown`: for `stablehlo`, the conversion), print it
  with the source map, values larger than 1024 bytes elided; the stored view is `--form generic`, what the
  server showed for these files before the StableHLO view;
* edit + save: one op's name changed in the text (`add` to `subtract`), the op that holds it re-read
  (`view.edits.reparse_edit`; the whole text when that cannot be), converted back
  (`view.forms.to_stored`) and written with the file as template to a new file
  (`files.access.atomic_write`, fsynced).
The opens of each process are timed.  `cold`: the first, which also loads what the form needs, once per
process (its modules, the conversion tables, the syntax data of the dialects printed); `warm`: the open
after it (for files under 1 MB the median of 5), what every later open costs.  Neither includes starting
the interpreter, importing every module of the package as the server does before it serves
(`lsp.guard.preload`; `--no-preload` leaves it to the first open, as a script that imports only what it
uses has it) and building the registry (the same for both forms; printed once, `process start`).  Our
sources are run from compiled bytecode, as installed (`common.our_env`, and `compileall` once here): with
PYTHONDONTWRITEBYTECODE set, each process would compile the view's modules in its first open.  Times are
wall clock (`--cpu`: the process' CPU time, steadier on a loaded machine), the median of R processes, on
whatever else the machine runs: read the ratios.
`one-time load`: the cold open minus the warm one, the view's minus the stored view's: what the view adds
to a process' first open, whatever the file.

Upstream, when jaxlib is installed: the two last columns, jaxlib's own open of the file in a fresh process
(`deserialize_portable_artifact` and its print with debug info and aliases; warm and first open).

Targets (issue 25): open at most 1.5x the stored view's, edit + save of the 200 MB export under 2 s,
memory as the stored view's.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import CORPUS, REPO, our_env  # noqa: E402

ELIDE = 1024
WARM_OPENS = 5
"""Warm opens timed per process for a file under 1 MB (their median), one for larger files."""
EDITS = {"stablehlo": ("= stablehlo.add ", "= stablehlo.subtract "),
         "generic": ('= "vhlo.add_v1"', '= "vhlo.subtract_v1"')}


def jaxlib_one(path: str) -> dict[str, float | int]:
    """jaxlib's open of the artifact in this process (the upstream row): `deserialize_portable_artifact`
    of the file's bytes, printed with debug info and aliases (what the view is compared with); its first open
    and the median of the warm ones, as for ours (its context is made before, as our registry is)."""
    clock = time.process_time if os.environ.get("MLIRBC_BENCH_CPU") else time.perf_counter
    sys.path.insert(0, str(REPO / "tests"))
    from jaxlib.mlir.dialects import stablehlo  # type: ignore[import-not-found,unused-ignore]

    from stablehlo_oracle import context

    ctx = context()

    def open_once() -> float:
        t0 = clock()
        data = Path(path).read_bytes()
        with ctx:
            stablehlo.deserialize_portable_artifact(ctx, data).operation.get_asm(enable_debug_info=True)
        return clock() - t0

    cold = open_once()
    warm = [open_once() for _ in range(WARM_OPENS if os.path.getsize(path) < 1_000_000 else 1)]
    return {"open": statistics.median(warm), "cold_open": cold}


def one(path: str, form: str, out_dir: str) -> dict[str, float | int]:
    """Open `path` in `form` and save one edit (in this process); returns the phases' seconds."""
    clock = time.process_time if os.environ.get("MLIRBC_BENCH_CPU") else time.perf_counter
    t_start = time.perf_counter()
    sys.path.insert(0, str(REPO / "server"))
    from mlirbc.bytecode.reader import read_bytecode_file
    from mlirbc.bytecode.writer import encode_bytecode_chunks
    from mlirbc.files.access import atomic_write
    from mlirbc.models.build import models
    from mlirbc.view.aliasing import alias_rules
    from mlirbc.view.edits import parse_state, printed_state, reparse_edit, unchanged_ops
    from mlirbc.view.forms import print_form, shown, to_stored
    from mlirbc.view.printer import ALIASES_BY_DEFAULT, print_module

    if not os.environ.get("MLIRBC_BENCH_NO_PRELOAD"):
        from mlirbc.lsp.guard import preload

        preload()  # the server imports all of itself before it serves (`mlirbc.lsp.__main__`)
    reg = models()
    started = time.perf_counter() - t_start + PROCESS_START[0]

    def open_once() -> tuple[object, object, object, dict[str, float]]:
        t0 = clock()
        module = read_bytecode_file(path, reg)
        t1 = clock()
        view = shown(module, reg, form)
        t2 = clock()
        printed = print_module(view.module, elide_larger_than=ELIDE, form=print_form(form, view),
                               registry=reg,
                               aliases=alias_rules(view.module, reg) if ALIASES_BY_DEFAULT else None)
        state = printed_state(view.module, printed)
        t3 = clock()
        return module, view, state, {"decode": t1 - t0, "convert": t2 - t1, "print": t3 - t2, "open": t3 - t0}

    # The first open in a process also loads what the form needs (modules, tables, syntax data): the
    # server pays that once, so it is reported apart (`cold_open`) from what every later open costs.
    _, _, _, cold = open_once()
    opens = [open_once() for _ in range(WARM_OPENS if os.path.getsize(path) < 1_000_000 else 1)]
    module, view, state, _ = opens[-1]
    warm = {k: statistics.median(o[3][k] for o in opens) for k in opens[0][3]}
    text = state.text  # type: ignore[attr-defined]
    result: dict[str, float | int] = {**warm, "cold_open": cold["open"], "chars": len(text),
                                      "start": started}
    old, new = EDITS["generic" if form == "generic" else "stablehlo"]
    at = text.find(old)
    if at < 0:
        return result
    t4 = clock()
    edited = text[:at] + new + text[at + len(old):]
    # as the server checks an edit: the op holding it re-read alone, else the whole text parsed
    after = reparse_edit(state, edited, at, at + len(old), view.module, reg) or \
        parse_state(edited, view.module, reg)  # type: ignore[arg-type,attr-defined]
    if after.module is None:
        raise SystemExit(f"{path}: the edited text has errors: {after.errors[:1]}")
    t5 = clock()
    stored = to_stored(after.module, reg, view)
    t6 = clock()
    chunks = encode_bytecode_chunks(stored, template=module, registry=reg,
                                    unchanged=unchanged_ops(stored, module))
    atomic_write(os.path.join(out_dir, "saved.mlirbc"), chunks)
    t7 = clock()
    result.update({"reparse": t5 - t4, "back": t6 - t5, "write": t7 - t6, "edit_save": t7 - t4})
    return result


def measure(path: Path, form: str, runs: int, work: Path) -> tuple[dict[str, float], int]:
    """Median phases over `runs` fresh processes, and the largest peak RSS (KiB)."""
    samples: list[dict[str, float]] = []
    rss = 0
    env = our_env()
    if CPU[0]:
        env["MLIRBC_BENCH_CPU"] = "1"
    if NO_PRELOAD[0]:
        env["MLIRBC_BENCH_NO_PRELOAD"] = "1"
    for _ in range(runs):
        proc = subprocess.Popen([sys.executable, __file__, "--one", str(path), form, str(work),
                                 repr(time.time())],
                                stdout=subprocess.PIPE, env=env, text=True)
        assert proc.stdout is not None
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)  # the child's own peak RSS
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode:
            raise SystemExit(f"{path} ({form}) failed")
        samples.append(json.loads(out))
        rss = max(rss, usage.ru_maxrss)
    keys = samples[0].keys()
    return {k: statistics.median(s[k] for s in samples) for k in keys}, rss


def large(given: str | None, tmp: Path) -> list[Path]:
    if given:
        found = list(Path(given).rglob("const_200mb.mlirbc"))
        if found:
            return found[:1]
    if importlib.util.find_spec("jax") is None:
        print("jax is not installed: the 200 MB export is left out", file=sys.stderr)
        return []
    subprocess.run([sys.executable, "build_vhlo_corpus.py", str(tmp), "--large", "--only", "const_200mb"],
                   cwd=CORPUS / "vhlo", check=True, stdout=subprocess.DEVNULL)
    return list(tmp.rglob("const_200mb.mlirbc"))[:1]


JAXLIB = importlib.util.find_spec("jaxlib") is not None
"""Whether jaxlib's own open (the upstream tool's) is measured beside ours, per file row."""
CPU = [False]
"""Time the phases in CPU seconds (`--cpu`)."""
NO_PRELOAD = [False]
"""Leave importing the view's modules to the first open (`--no-preload`)."""
PROCESS_START = [0.0]
"""Seconds from the measuring script's launch of this process to the start of `one` (the interpreter)."""


def row(name: str, mb: float, stored: dict[str, float], view: dict[str, float], rss0: int, rss1: int,
        upstream: dict[str, float] | None) -> str:
    es0 = f"{stored['edit_save']:.3f} s" if "edit_save" in stored else "-"
    es1 = f"{view['edit_save']:.3f} s" if "edit_save" in view else "-"
    load = (view["cold_open"] - view["open"]) - (stored["cold_open"] - stored["open"])
    return (f"{name:<34} {mb:>6.1f} {stored['open'] * 1e3:>8.1f} {view['open'] * 1e3:>8.1f} "
            f"{view['open'] / stored['open']:>5.2f} {view['convert'] * 1e3:>7.1f} "
            f"{stored['cold_open'] * 1e3:>8.1f} {view['cold_open'] * 1e3:>8.1f} "
            f"{view['cold_open'] / stored['cold_open']:>5.2f} {load * 1e3:>7.1f} "
            f"{rss0 / 1024:>6.0f} {rss1 / 1024:>6.0f} {es0:>10} {es1:>10}"
            + ("" if upstream is None else
               f" {upstream['open'] * 1e3:>8.1f} {upstream['cold_open'] * 1e3:>8.1f}"))


def main() -> int:
    if len(sys.argv) == 6 and sys.argv[1] == "--one":
        PROCESS_START[0] = time.time() - float(sys.argv[5])
        print(json.dumps(jaxlib_one(sys.argv[2]) if sys.argv[3] == "jaxlib" else
                         one(sys.argv[2], sys.argv[3], sys.argv[4])))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jax-dir", help="a folder holding const_200mb.mlirbc")
    ap.add_argument("--no-large", action="store_true", help="leave out the 200 MB export")
    ap.add_argument("--no-vhlo", action="store_true", help="leave out the small VHLO artifacts")
    ap.add_argument("--vhlo-rows", action="store_true", help="a row for each small VHLO artifact")
    ap.add_argument("--cpu", action="store_true", help="time the process' CPU seconds, not wall clock")
    ap.add_argument("--no-preload", action="store_true",
                    help="do not import the whole package before the opens (the server does)")
    a = ap.parse_args()
    CPU[0] = a.cpu
    NO_PRELOAD[0] = a.no_preload
    # compiled bytecode for every module, as an installed package has it (a first open must not time
    # Python compiling the view's sources)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "server" / "mlirbc")], env=our_env(),
                   check=True, stdout=subprocess.DEVNULL)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; times in ms "
          f"({'CPU time' if a.cpu else 'wall clock'}, median of {a.runs} processes)")
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        classes: list[tuple[str, list[Path]]] = [("JAX corpus", sorted((CORPUS / "jax").glob("*.mlirbc")))]
        if not a.no_vhlo:
            small = [f for f in sorted((CORPUS / "vhlo").glob("*.mlirbc")) if f.stat().st_size < 1_000_000]
            classes.append(("small VHLO artifacts", small))
        big = [CORPUS / "vhlo" / "const_12mb.mlirbc"]
        if not a.no_large:
            big += large(a.jax_dir, tmp / "large")
        for f in big:
            if not f.is_file():
                print(f"{f} is not in this corpus: left out (MLIRBC_CORPUS names the full one)",
                      file=sys.stderr)
        classes.append(("large exports", [f for f in big if f.is_file()]))
        print(f"{'':<34} {'':>6} {'-- warm open --':>23} {'':>7} {'-- cold (first) open --':>23} "
              f"{'one-time':>7} {'-- RSS MB --':>13} {'-- edit+save --':>21}"
              + (f" {'warm':>8} {'cold':>8}" if JAXLIB else ""))
        print(f"{'file':<34} {'MB':>6} {'stored':>8} {'shlo':>8} {'ratio':>5} {'convert':>7} "
              f"{'stored':>8} {'shlo':>8} {'ratio':>5} {'load':>7} {'stored':>6} {'shlo':>6} "
              f"{'stored':>10} {'shlo':>10}" + (f" {'jaxlib':>8} {'jaxlib':>8}" if JAXLIB else ""))
        summary: list[tuple[str, list[float], list[float], list[float]]] = []
        starts: list[float] = []
        for name, files in classes:
            warm: list[float] = []
            cold: list[float] = []
            loads: list[float] = []
            for f in files:
                stored, rss0 = measure(f, "generic", a.runs, tmp)
                view, rss1 = measure(f, "auto", a.runs, tmp)
                starts += [stored["start"], view["start"]]
                warm.append(view["open"] / stored["open"])
                cold.append(view["cold_open"] / stored["cold_open"])
                loads.append((view["cold_open"] - view["open"]) - (stored["cold_open"] - stored["open"]))
                if name != "small VHLO artifacts" or a.vhlo_rows:
                    upstream = measure(f, "jaxlib", a.runs, tmp)[0] if JAXLIB else None
                    print(row(f.name, f.stat().st_size / 1e6, stored, view, rss0, rss1, upstream))
            if files:
                summary.append((f"{name} ({len(files)})", warm, cold, loads))
        what = "imports" if a.no_preload else "imports of the whole package"
        print(f"\nprocess start (interpreter, {what}, registry; the same for both forms, not in the opens): "
              f"{statistics.median(starts) * 1e3:.0f} ms")
        print(f"\n{'class':<28} {'warm ratio median':>17} {'max':>5} {'cold ratio median':>17} {'max':>5} "
              f"{'one-time load ms':>16}")
        for name, warm, cold, loads in summary:
            load_ms = statistics.median(loads) * 1e3
            print(f"{name:<28} {statistics.median(warm):>17.2f} {max(warm):>5.2f} "
                  f"{statistics.median(cold):>17.2f} {max(cold):>5.2f} {load_ms:>16.1f}")
    return 0

if __name__ == "__main__":
    sys.exit(main())
