"""The Python API on the 112k-op file: load, walk, save, a rename and save, and memory.

    python benchmarks/api_bench.py [FILE] [--runs N]

Prints one table.  Times are in-process, after one warm-up, min and median of N runs (the machine is
shared: read the ratios, measured in the same run); each save is the first one after a fresh `load`, as
a program's would be.  Memory is the peak RSS of fresh processes: `mlirbc decode FILE` against a program
that loads the file and walks every op.

* load vs decode's reading: `mlirbc.load(FILE)` in a fresh program against what `mlirbc decode` does
  before printing (its `_decode`, with the CLI's registry, under the CLI's collector pause), each timed
  inside a fresh process (imports excluded): the goal is at most 1.1x;
* walk: every op of the module, each as its `Operation` (goal: under 0.5 s);
* unchanged save: `module.save(OUT)` right after `load` (goal: under 0.5 s, and the file read byte for
  byte);
* rename + save: one function renamed with its call sites and saved (goal: under 1.5x the unchanged save);
  and the same with the program's own search for those ops (a walk of every op) in the time.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import REPO, large_file, load_note, measure, our_env, ours  # noqa: E402

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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", type=Path, default=None,
                    help="default: the 112k-op file (the full corpus', else tests/large_module.py's)")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    path: Path = args.file if args.file is not None else large_file()
    original = path.read_bytes()

    read, load = [], []
    for _ in range(args.runs):
        read.append(in_fresh_process(_CLI_READ, path))
        load.append(in_fresh_process(_API_LOAD, path))
    module = mlirbc.load(path)
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

    def row(what: str, times: list[float], note: str = "") -> str:
        return f"| {what} | {min(times):.3f} | {statistics.median(times):.3f} | {note} |"

    r_read, r_save = statistics.median(read), statistics.median(save)
    print(f"{path.name}: {path.stat().st_size} bytes, {n_ops} ops; {load_note()}\n")
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
    print(f"\nthe renamed file is {grown} bytes longer than the original (a new string and two entries)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
