"""Start-up cost of the CLI: `mlirbc info` on a small file, and which model data it loads.

    python benchmarks/startup_bench.py [--runs N]

Prints a table of wall times (min / median over N fresh processes) for `mlirbc info` and `mlirbc decode`
on small corpus files, plus the dialect data files each run loaded (to show that unused dialects stay
unloaded).  The goal for `info` on a small file is under 0.3 s on the project machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import CORPUS, REPO  # noqa: E402

FILES = ["upstream/Bytecode__uselist_orders.p01.mlirbc", "upstream/Dialect__SCF__ops.f08.mlirbc",
         "jax/mlp2.mlirbc"]

_LOADED = r"""
import sys
sys.path.insert(0, sys.argv[1])
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.models.build import default_registry
reg = default_registry()
decode_bytecode(open(sys.argv[2], "rb").read(), reg)
print(",".join(sorted(reg.loaded_dialects)))
"""


def wall(cmd: list[str], runs: int) -> tuple[float, float]:
    env = dict(os.environ, PYTHONPATH=str(REPO / "server"))
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, env=env)
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    py = sys.executable
    t_min, t_med = wall([py, "-c", "pass"], args.runs)
    print(f"python itself: min {t_min:.3f} s, median {t_med:.3f} s")
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        # Then no run finds a cached .pyc: each compiles every module it imports (about 0.2 s here), which
        # an installed package (pip compiles at install) or a normal checkout never pays twice.
        print("note: PYTHONDONTWRITEBYTECODE is set, so every run compiles mlirbc's sources")
    print()
    print(f"{'file':<46} {'size':>7} {'command':<7} {'min s':>6} {'median s':>8}  dialect data loaded")
    for rel in FILES:
        f = CORPUS / rel
        loaded = subprocess.run([py, "-c", _LOADED, str(REPO / "server"), str(f)], check=True,
                                capture_output=True, text=True).stdout.strip()
        for command in ("info", "decode"):
            t_min, t_med = wall([py, "-m", "mlirbc.cli", command, str(f)], args.runs)
            print(f"{rel:<46} {f.stat().st_size:>7} {command:<7} {t_min:>6.3f} {t_med:>8.3f}  {loaded}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
