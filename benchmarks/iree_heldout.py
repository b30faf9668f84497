"""The pretty view on IREE IR no test wrote: JAX programs through iree-compile's phases, against iree-opt.

    python benchmarks/iree_heldout.py [--inputs REGEX] [--phases P,P,...] [--keep DIR]

The IREE corpus is 15 files of 4 small models; IREE's phases write many more op forms than those show.
This run compiles the StableHLO text of every program of the corpus (`vhlo/*.stablehlo.mlir`, one per
program, and `tests/data/iree/*.mlir`) for the CPU with `iree-compile --compile-to=PHASE
--emit-mlir-bytecode` for each of IREE's phases; each distinct module (its view without locations) is
printed by mlirbc in the pretty form, local scope and with aliases, and compared line for line with
`iree-opt --mlir-print-debuginfo [--mlir-print-local-scope]`; its view is read back and must encode to
iree-compile's bytes.  Prints the counts and, by op, the first line that differs; `--keep DIR` keeps each
differing file's bytecode there.  Needs the `iree` extra (`iree-base-compiler`).
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

from common import CORPUS, REPO

sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "server"))

from iree_support import iree_compile_path, run_iree  # noqa: E402
from mlirbc.bytecode.reader import decode_bytecode  # noqa: E402
from mlirbc.bytecode.writer import encode_bytecode  # noqa: E402
from mlirbc.models.build import models  # noqa: E402
from mlirbc.view.aliasing import alias_rules  # noqa: E402
from mlirbc.view.parser import parse_module  # noqa: E402
from mlirbc.view.printer import print_module  # noqa: E402
from pretty_oracle import ALIASED, LOCAL, first_difference, view_lines  # noqa: E402

PHASES = ["input", "abi", "preprocessing", "global-optimization", "dispatch-creation", "flow", "stream",
          "executable-sources", "executable-configurations", "executable-targets", "hal", "vm"]
TARGET = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
          "--iree-llvmcpu-target-triple=x86_64-unknown-linux-gnu", "--iree-llvmcpu-target-cpu=generic"]
_OP_AT_LINE = re.compile(r'\s*(?:%[^=]*= )?"?([\w.$-]+)')
_LOCATIONS = re.compile(r"loc\([^\n]*")


def inputs(pattern: str) -> list[Path]:
    found = [p for p in sorted((CORPUS / "vhlo").glob("*.stablehlo.mlir"))
             if not re.search(r"\.v\d+_\d+_\d+\.stablehlo\.mlir$", p.name)]
    found += sorted((REPO / "tests" / "data" / "iree").glob("*.mlir"))
    return [p for p in found if re.search(pattern, p.name)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--inputs", default="", help="only inputs whose name matches this regex")
    ap.add_argument("--phases", default=",".join(PHASES), help="comma-separated iree-compile phases")
    ap.add_argument("--keep", type=Path, help="keep the bytecode of each differing module here")
    args = ap.parse_args()
    if iree_compile_path() is None:
        print("iree-compile is not installed (the `iree` extra)", file=sys.stderr)
        return 2
    reg = models()
    seen: set[str] = set()
    counts: Counter[str] = Counter()
    by_op: Counter[tuple[str, str]] = Counter()
    examples: dict[tuple[str, str], str] = {}
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.mlirbc"
        for src in inputs(args.inputs):
            for phase in args.phases.split(","):
                made = run_iree("iree-compile", [*TARGET, f"--compile-to={phase}", "--emit-mlir-bytecode",
                                                 str(src), "-o", str(out)])
                if made.returncode != 0:
                    counts["iree-compile refuses"] += 1
                    continue
                data = out.read_bytes()
                module = decode_bytecode(data, reg)
                if module.error is not None:
                    counts["mlirbc refuses"] += 1
                    continue
                local = print_module(module, form="pretty", registry=reg, with_map=False).text
                key = hashlib.sha1(_LOCATIONS.sub("", view_lines(local)).encode()).hexdigest()
                if key in seen:
                    continue
                seen.add(key)
                counts["modules"] += 1
                same = True
                for mode, flags in (("local", LOCAL), ("aliased", ALIASED)):
                    printed = run_iree("iree-opt", [*flags, str(out)])
                    if printed.returncode != 0:
                        counts[f"iree-opt refuses ({mode})"] += 1
                        continue
                    theirs = printed.stdout.decode()
                    ours = local if mode == "local" else print_module(
                        module, form="pretty", registry=reg, with_map=False,
                        aliases=alias_rules(module, reg)).text
                    diff = first_difference(view_lines(ours), theirs)
                    if diff is None:
                        counts[f"identical ({mode})"] += 1
                        continue
                    same = False
                    line, a, b = diff
                    m = _OP_AT_LINE.match(b)
                    op = m.group(1) if m else "?"
                    by_op[mode, op] += 1
                    examples.setdefault((mode, op), f"{src.name} {phase} line {line}\n"
                                                     f"      ours:   {a[:200]}\n      theirs: {b[:200]}")
                back = parse_module(local, template=module, registry=reg, with_map=False)
                if back.module is None or encode_bytecode(back.module, template=module, registry=reg) != data:
                    counts["does not read back"] += 1
                    same = False
                if not same and args.keep:
                    (args.keep / f"{src.stem}.{phase}.mlirbc").write_bytes(data)
            print(f"{src.name}: {dict(counts)}", file=sys.stderr, flush=True)
    print("| what | count |\n|---|---|")
    for what, n in sorted(counts.items()):
        print(f"| {what} | {n} |")
    print("\n| mode | op at the first differing line | modules | first example |\n|---|---|---|---|")
    for (mode, op), n in by_op.most_common():
        print(f"| {mode} | `{op}` | {n} | {examples[mode, op].splitlines()[0]} |")
    for (mode, op), text in examples.items():
        print(f"\n{mode} {op}: {text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
