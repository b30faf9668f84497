"""The IREE corpus with its models, next to iree-opt (iree-base-compiler 3.13, the test extra `iree`).

    python benchmarks/iree_bench.py [--runs N]

For each file of `../shared/corpus/iree`: ops, decoded ops, the model set, and the best of N in-process
times of mlirbc's decode + print and of parse + template encode (the save path), next to `iree-opt`
printing the same file in the generic form (a fresh process each run, as a user would run it; its
start-up is part of its time).  Prints a table; asserts nothing.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import CORPUS, REPO  # noqa: E402

sys.path.insert(0, str(REPO / "server"))

from mlirbc.bytecode.reader import read_bytecode  # noqa: E402
from mlirbc.bytecode.writer import encode_bytecode  # noqa: E402
from mlirbc.ir.module import Module  # noqa: E402
from mlirbc.ir.operation import PROPS_FALLBACK  # noqa: E402
from mlirbc.view.parser import parse_module  # noqa: E402
from mlirbc.view.printer import print_module  # noqa: E402


def iree_opt() -> str | None:
    spec = importlib.util.find_spec("iree.compiler")
    if spec is None or not spec.submodule_search_locations:
        return None
    exe = Path(list(spec.submodule_search_locations)[0]) / "_mlir_libs" / "iree-opt"
    return str(exe) if exe.exists() else None


def best(f: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def read_and_print(data: bytes) -> str:
    return print_module(read_bytecode(data)).text


def save(text: str, template: Module) -> bytes:
    parsed = parse_module(text, template=template)
    assert parsed.module is not None
    return encode_bytecode(parsed.module, template=template)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    exe = iree_opt()
    files = sorted((CORPUS / "iree").glob("*.mlirbc"))
    print(f"{'file':<42}{'size':>7}{'ops':>6}{'decoded':>8} set     {'decode+print s':>15}"
          f"{'parse+encode s':>15}{'iree-opt print s':>17}")
    totals = [0, 0]
    for path in files:
        data = path.read_bytes()
        m = read_bytecode(data)
        assert m.root is not None
        ops = list(m.root.walk())
        decoded = sum(1 for op in ops if op.properties is None or op.properties.kind != PROPS_FALLBACK)
        totals[0] += len(ops)
        totals[1] += decoded
        text = print_module(m).text
        t_read = best(partial(read_and_print, data), args.runs)
        t_save = best(partial(save, text, m), args.runs)
        t_theirs = "-"
        if exe is not None:
            cmd = [exe, "--mlir-print-op-generic", "--mlir-print-debuginfo", "--mlir-print-local-scope",
                   str(path), "-o", "/dev/null"]
            t_theirs = f"{best(partial(subprocess.run, cmd, check=True), args.runs):.3f}"
        print(f"{path.stem:<42}{len(data):>7}{len(ops):>6}{decoded:>8} {m.model_set or '-':<7}"
              f"{t_read:>15.3f}{t_save:>15.3f}{t_theirs:>17}")
    print(f"total ops {totals[0]}, decoded by a model {totals[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
