"""What aliases cost the view: printing and reading the 112k-op corpus file in local scope and with aliases.

    python benchmarks/alias_bench.py [--runs R] [FILE ...]

In process, CPU seconds of this process, best of R runs (the machine is shared: read the ratios; CPU time
moves less than wall time when other work competes for the cores): `print_module` without and with
aliases (and the alias collection alone, `view.aliasing.collect_generic`), `parse_module` of each text,
the size of each text, and, when the oracle is installed, `mlir-opt --mlir-print-op-generic
--mlir-print-debuginfo` with and without `--mlir-print-local-scope` on the same file (whole processes) for
the same ratio upstream.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import CORPUS, mlir_opt, our_env  # noqa: E402

sys.path.insert(0, our_env()["PYTHONPATH"].split(":")[0])

from mlirbc.bytecode.reader import read_bytecode  # noqa: E402
from mlirbc.view.aliasing import alias_rules, collect_generic  # noqa: E402
from mlirbc.view.parser import parse_module  # noqa: E402
from mlirbc.view.printer import print_module  # noqa: E402


def best(runs: int, f: Callable[[], object], clock: Callable[[], float] = time.process_time) -> float:
    times = []
    for _ in range(runs):
        t = clock()
        f()
        times.append(clock() - t)
    return min(times)


def upstream(path: Path, local: bool, runs: int) -> float | None:
    tool = mlir_opt()
    if tool is None:
        return None
    exe, env = tool
    args = [exe, "--allow-unregistered-dialect", "--mlir-print-op-generic", "--mlir-print-debuginfo",
            str(path), "-o", "/dev/null"]
    if local:
        args.append("--mlir-print-local-scope")
    return best(runs, lambda: subprocess.run(args, env=env, check=True), time.perf_counter)


def measure(path: Path, runs: int) -> None:
    m = read_bytecode(path.read_bytes())
    root = m.root
    assert root is not None
    rules = alias_rules(m)
    local = print_module(m).text
    aliased = print_module(m, aliases=rules).text
    rows = [
        ("print (s)", best(runs, lambda: print_module(m)),
         best(runs, lambda: print_module(m, aliases=rules))),
        ("  of which collect (s)", 0.0, best(runs, lambda: collect_generic(root, rules))),
        ("parse (s)", best(runs, lambda: parse_module(local, template=m)),
         best(runs, lambda: parse_module(aliased, template=m))),
        ("text (MB)", len(local) / 1e6, len(aliased) / 1e6),
    ]
    up_local, up_aliased = upstream(path, True, runs), upstream(path, False, runs)
    if up_local is not None and up_aliased is not None:
        rows.append(("mlir-opt print (wall s)", up_local, up_aliased))
    for what, a, b in rows:
        ratio = f"{b / a:.2f}" if a else ""
        print(f"{path.name[:34]:34} {what:24} {a:12.2f} {b:12.2f} {ratio:>7}")
    print(f"{path.name[:34]:34} {'aliases':24} {'':>12} {len(collect_generic(root, rules)):12d}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    print(f"{'file':34} {'what':24} {'local scope':>12} {'aliases':>12} {'ratio':>7}")
    for path in args.files or [CORPUS / "large" / "synthetic_100k_ops.mlirbc"]:
        measure(path, args.runs)


if __name__ == "__main__":
    main()
