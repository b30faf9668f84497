"""Parsing hostile text views: CPU time as the input doubles (linear means the time doubles too).

    .venv/bin/python benchmarks/hostile_text.py

Cases: an unterminated string of 12.5 to 50 MB, 25,000 to 100,000 nested regions (past the reader's 512
levels the text is skipped with one error), views of 240 to 960 ops with one unbalanced bracket per 17
characters (about a thousand errors per 17.5 KB to recover from), and decimal literals of 5,000 to 20,000
digits.  CPU time of `parse_module` (process time, so other work on the machine does not count), best of 3.
"""

from __future__ import annotations

import random
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "server"))

from mlirbc.view.parser import parse_module  # noqa: E402


def unterminated(mb: float) -> str:
    return '"builtin.module"() ({\n  "t.x"() {a = "' + "x" * int(mb * 1_000_000)


def nested(depth: int) -> str:
    return '"builtin.module"() ({\n' + '"t.r"() ({\n' * depth + '}) : () -> ()\n' * depth + '}) : () -> ()\n'


def unbalanced(ops: int) -> str:
    rng = random.Random(15)
    lines = ['"builtin.module"() ({']
    lines += [f'  %{i} = "arith.constant"() <{{value = {i} : i32}}> : () -> i32 loc("f":{i}:1)'
              for i in range(ops)]
    text = "\n".join(lines + ["}) : () -> () loc(unknown)"]) + "\n"
    spots = [m.start() for m in re.finditer(r"[(){}<>]", text)]
    chars = list(text)
    for at in sorted(rng.sample(spots, len(text) // 17), reverse=True):
        chars.insert(at, rng.choice(")]}"))
    return "".join(chars)


def literal(digits: int) -> str:
    body = f'  "t.x"() {{v = {"7" * digits} : i{digits * 4}}} : () -> ()\n'
    return '"builtin.module"() ({\n' + body + "}) : () -> ()\n"


CASES: list[tuple[str, Callable[[float], str], tuple[float, ...]]] = [
    ("unterminated string (MB)", unterminated, (12.5, 25, 50)),
    ("nested regions", lambda n: nested(int(n)), (25_000, 50_000, 100_000)),
    ("ops with ~1 unbalanced bracket per 17 chars", lambda n: unbalanced(int(n)), (240, 480, 960)),
    ("decimal literal digits", lambda n: literal(int(n)), (5_000, 10_000, 20_000)),
]


def cpu(text: str) -> tuple[float, int]:
    best = float("inf")
    errors = 0
    for _ in range(3):
        start = time.process_time()
        result = parse_module(text)
        best = min(best, time.process_time() - start)
        errors = len(result.errors)
    return best, errors


def main() -> None:
    parse_module("")  # imports and model loading out of the way
    print("| input | size | characters | errors | CPU s | CPU s per MB |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, make, sizes in CASES:
        for size in sizes:
            text = make(size)
            seconds, errors = cpu(text)
            print(f"| {name} | {size:g} | {len(text):,} | {errors} | {seconds:.3f} | "
                  f"{seconds / (len(text) / 1e6):.3f} |")


if __name__ == "__main__":
    main()
