"""How much verification costs: the large file's whole-module verification against its parse, and one
keystroke's re-read with and without verification (the in-place re-read verifies the function it read and
the symbol uses that may depend on it).

    python benchmarks/verify_bench.py [--file LARGE.mlirbc] [--repeat N]

Prints a table of medians (wall time on this machine; the server's keystroke-to-diagnostics time, which
includes this, is what `benchmarks/lsp_latency.py` measures).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from common import REPO, large_file

sys.path.insert(0, str(REPO / "server"))

from mlirbc.bytecode.reader import read_bytecode_file  # noqa: E402
from mlirbc.models.build import models  # noqa: E402
from mlirbc.verifier.incremental import ModuleVerification  # noqa: E402
from mlirbc.view.edits import parse_state, reparse_edit  # noqa: E402
from mlirbc.view.parser import parse_module  # noqa: E402
from mlirbc.view.printer import print_module  # noqa: E402


def _median(xs: list[float]) -> float:
    return statistics.median(xs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--file", type=Path, default=None,
                    help="default: the 112k-op file (the full corpus', else tests/large_module.py's)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    reg = models()
    path: Path = args.file if args.file is not None else large_file()
    module = read_bytecode_file(str(path), reg)
    assert module.root is not None
    ops = sum(1 for _ in module.root.walk())
    text = print_module(module, with_map=False).text
    parse_s, verify_s = [], []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        result = parse_module(text, template=module, registry=reg)
        t1 = time.perf_counter()
        assert result.module is not None and result.module.root is not None
        found = ModuleVerification.of(result.module.root, reg).findings()
        t2 = time.perf_counter()
        assert not found, [f.message for f in found[:3]]
        parse_s.append(t1 - t0)
        verify_s.append(t2 - t1)
    # one keystroke inside a function: a character typed into an op's name and taken back
    base = parse_state(text, module, reg)
    at = text.index('"arith.', len(text) // 2) + 1
    plain, checked = [], []
    for _ in range(args.repeat):
        for verify, into in ((False, plain), (True, checked)):
            edited = text[:at] + "x" + text[at:]
            t0 = time.perf_counter()
            state = reparse_edit(base, edited, at, at, module, reg, verify=verify)
            into.append(time.perf_counter() - t0)
            assert state is not None and state.how == "spliced"
    p, v = _median(parse_s), _median(verify_s)
    print(f"{path.name}: {ops} ops, {len(text) / 1e6:.1f} MB of text; medians of {args.repeat}\n")
    print("| what | time | share |")
    print("|---|---|---|")
    print(f"| parse the view | {p:.2f} s | |")
    print(f"| verify the module | {v:.2f} s | {100 * v / p:.0f}% of the parse |")
    kp, kc = _median(plain), _median(checked)
    print(f"| keystroke: re-read one function | {1000 * kp:.1f} ms | |")
    print(f"| keystroke: re-read and verify it | {1000 * kc:.1f} ms | +{1000 * (kc - kp):.1f} ms |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
