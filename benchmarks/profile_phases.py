"""Run one phase of the pipeline on a file, for a profiler to watch (see docs/profiling.md).

    python benchmarks/profile_phases.py FILE PHASE [--cprofile N]
    python benchmarks/profile_phases.py --summary PYSPY_RAW [N]

PHASE is cumulative: `none` (imports only), `decode` (decode_bytecode), `print` (decode, then print the text
view), `write` (decode, then write in template and fresh mode), `parse` (decode, print, parse the view),
`encode` (decode, print, parse, write the parsed module).  The difference between two phases under
`valgrind --tool=callgrind` is that step's instruction count, which stays the same on a loaded machine.
`--cprofile N` prints the N functions with the most own time.  `--summary` reads `py-spy record -f raw`
output and prints the lines and functions that take the most samples.
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import os
import pstats
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))

PHASES = ("none", "decode", "print", "write", "parse", "encode")


def run(data: bytes, phase: str) -> None:
    from mlirbc.bytecode.reader import decode_bytecode
    from mlirbc.bytecode.writer import encode_bytecode
    from mlirbc.view.parser import parse_module
    from mlirbc.view.printer import print_module

    if phase == "none":
        return
    m = decode_bytecode(data)
    if phase == "write":
        encode_bytecode(m)
        encode_bytecode(m, template=None)
        return
    if phase == "decode":
        return
    text = print_module(m).text
    if phase == "print":
        return
    parsed = parse_module(text, template=m)
    if phase == "encode" and parsed.module is not None:
        encode_bytecode(parsed.module, template=m)


def summary(path: str, n: int) -> None:
    """Own samples per source line and inclusive samples per function, from py-spy's raw output."""
    own: collections.Counter[str] = collections.Counter()
    inclusive: collections.Counter[str] = collections.Counter()
    total = 0
    with open(path) as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            k = int(count)
            total += k
            frames = stack.split(";")
            own[frames[-1]] += k
            for name in {fr.split(" (")[0] for fr in frames}:
                inclusive[name] += k
    print(f"{total} samples\n\nown time by line:")
    for name, k in own.most_common(n):
        print(f"{100 * k / total:5.1f}%  {name}")
    print("\ninclusive time by function:")
    for name, k in inclusive.most_common(n):
        print(f"{100 * k / total:5.1f}%  {name}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?")
    ap.add_argument("phase", nargs="?", choices=PHASES)
    ap.add_argument("--cprofile", type=int, metavar="N", help="profile with cProfile, print the top N")
    ap.add_argument("--summary", metavar="PYSPY_RAW", help="summarise py-spy raw output instead")
    ap.add_argument("n", nargs="?", type=int, default=25)
    args = ap.parse_args()
    if args.summary:
        summary(args.summary, args.n)
        return 0
    if not args.file or not args.phase:
        ap.error("FILE and PHASE are required")
    data = Path(args.file).read_bytes()
    if args.cprofile:
        prof = cProfile.Profile()
        prof.runcall(run, data, args.phase)
        pstats.Stats(prof).sort_stats("tottime").print_stats(args.cprofile)
        return 0
    run(data, args.phase)
    sys.stdout.flush()
    os._exit(0)  # without freeing the IR: that is not the phase being measured


if __name__ == "__main__":
    raise SystemExit(main())
