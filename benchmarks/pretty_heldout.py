"""The pretty view on IR no test wrote: upstream test inputs through mlir-opt's passes, against mlir-opt.

    python benchmarks/pretty_heldout.py [--inputs REGEX] [--pipelines N] [--keep DIR] [--seed S] [--more]

The corpus's files are all printed exactly; real files from other producers hold ops the corpus lacks.  This
run makes such IR with the oracle: every upstream input of the corpus (`upstream/*.mlir`) through each of
`PIPELINES` (lowerings to llvm, emitc, openmp, bufferization, canonicalization, ...), written as bytecode by
mlir-opt.  Each distinct module (its text without locations) is printed by mlirbc in the pretty form, local
scope and with aliases, and compared line for line with `mlir-opt --mlir-print-debuginfo
[--mlir-print-local-scope]`; its view is read back and must encode to mlir-opt's bytes.  Prints the counts
and, by op, the first line that differs; `--keep DIR` keeps each differing file's bytecode there.
mlir-opt reading bytecode drops a `{-# dialect_resources #-}` trailer the view keeps: not a difference.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from common import CORPUS, REPO

sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "server"))

from mlirbc.bytecode.reader import decode_bytecode  # noqa: E402
from mlirbc.bytecode.writer import encode_bytecode  # noqa: E402
from mlirbc.models.build import models  # noqa: E402
from mlirbc.models.registry import Registry  # noqa: E402
from mlirbc.view.aliasing import alias_rules  # noqa: E402
from mlirbc.view.parser import parse_module  # noqa: E402
from mlirbc.view.printer import print_module  # noqa: E402
from oracle import run_mlir_opt  # noqa: E402
from pretty_oracle import ALIASED, LOCAL, first_difference, view_lines  # noqa: E402

PIPELINES: list[list[str]] = [
    [], ["--canonicalize"], ["--cse", "--canonicalize"], ["--convert-scf-to-cf"], ["--lower-affine"],
    ["--convert-to-llvm"], ["--convert-linalg-to-loops"], ["--inline"], ["--linalg-generalize-named-ops"],
    ["--expand-strided-metadata"], ["--convert-vector-to-scf"], ["--convert-vector-to-llvm"],
    ["--tosa-to-linalg-named", "--tosa-to-linalg", "--tosa-to-arith", "--tosa-to-tensor"],
    ["--convert-linalg-to-affine-loops"], ["--one-shot-bufferize=bufferize-function-boundaries"],
    ["--convert-math-to-llvm", "--convert-arith-to-llvm", "--convert-func-to-llvm", "--convert-cf-to-llvm",
     "--finalize-memref-to-llvm", "--reconcile-unrealized-casts"],
    ["--sccp"], ["--loop-invariant-code-motion"], ["--affine-loop-fusion"], ["--convert-math-to-funcs"],
    ["--symbol-dce"], ["--mem2reg"], ["--sroa"], ["--remove-dead-values"], ["--convert-complex-to-standard"],
    ["--convert-index-to-llvm"], ["--arith-expand"], ["--convert-shape-to-std"],
    ["--sparsification-and-bufferization"], ["--gpu-kernel-outlining"], ["--convert-gpu-to-nvvm"],
    ["--convert-gpu-to-rocdl"], ["--async-to-async-runtime"], ["--convert-async-to-llvm"],
    ["--convert-openmp-to-llvm"], ["--convert-tensor-to-linalg"], ["--convert-elementwise-to-linalg"],
    ["--linalg-fuse-elementwise-ops"], ["--affine-super-vectorize=virtual-vector-size=4"],
    ["--convert-vector-to-gpu"], ["--convert-amdgpu-to-rocdl"], ["--convert-nvgpu-to-nvvm"],
    ["--convert-arith-to-emitc", "--convert-func-to-emitc"], ["--convert-to-emitc"],
    ["--convert-scf-to-openmp"], ["--convert-affine-for-to-gpu"], ["--tosa-to-scf"],
    ["--convert-arm-sme-to-llvm"], ["--lift-cf-to-scf"], ["--convert-bufferization-to-memref"],
    ["--buffer-deallocation-pipeline"], ["--ownership-based-buffer-deallocation"],
]
"""mlir-opt 22.1.8 passes that turn test inputs into the IR real pipelines write (most inputs fail most)."""
MORE_PIPELINES: list[list[str]] = [[p] for p in (
    "--gpu-to-llvm", "--convert-gpu-to-spirv", "--convert-scf-to-spirv", "--convert-index-to-spirv",
    "--convert-math-to-libm", "--convert-math-to-rocdl", "--math-uplift-to-fma", "--llvm-legalize-for-export",
    "--affine-loop-tile", "--affine-loop-unroll", "--scf-for-loop-peeling", "--convert-shape-constraints",
    "--tosa-infer-shapes", "--tosa-layerwise-constant-fold", "--sharding-propagation",
    "--convert-pdl-to-pdl-interp", "--convert-openacc-to-scf", "--convert-vector-to-arm-sme",
    "--convert-arm-sme-to-scf", "--lower-host-to-llvm", "--convert-complex-to-llvm",
    "--convert-complex-to-libm",
    "--affine-data-copy-generate", "--affine-scalrep", "--linalg-specialize-generic-ops",
    "--linalg-fold-unit-extent-dims", "--lower-vector-multi-reduction", "--convert-linalg-to-parallel-loops",
    "--memref-expand", "--fold-memref-alias-ops", "--normalize-memrefs", "--convert-vector-to-xegpu",
    "--convert-xegpu-to-xevm", "--convert-ub-to-llvm", "--eliminate-empty-tensors",
    "--empty-tensor-to-alloc-tensor", "--loop-invariant-subset-hoisting", "--topological-sort",
    "--convert-scf-to-emitc", "--convert-memref-to-emitc", "--convert-math-to-emitc", "--gpu-async-region",
    "--gpu-launch-sink-index-computations", "--gpu-map-parallel-loops", "--shard-partition",
    "--convert-shard-to-mpi")] + [["--convert-func-to-spirv", "--convert-arith-to-spirv"]]
"""A second set (`--more`): passes the first run did not use (SPIR-V, GPU to LLVM, loop transforms, ...)."""

_OP_AT_LINE = re.compile(r'\s*(?:%[^=]*= )?"?([\w.$-]+)')
_LOCATIONS = re.compile(r"loc\([^\n]*")


def _without_trailer(ours: str, theirs: str) -> str:
    if "{-#" in ours and "{-#" not in theirs:
        ours = ours[:ours.index("{-#")].rstrip("\n")
    return ours


class Tally:
    """The counts of a held-out run, the op at each first differing line, and one example of each."""

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self.counts: Counter[str] = Counter()
        self.by_op: Counter[tuple[str, str]] = Counter()
        self.examples: dict[tuple[str, str], str] = {}

    def report(self) -> None:
        print("| what | count |\n|---|---|")
        for what, n in sorted(self.counts.items()):
            print(f"| {what} | {n} |")
        print("\n| mode | op at the first differing line | modules | first example |\n|---|---|---|---|")
        for (mode, op), n in self.by_op.most_common():
            print(f"| {mode} | `{op}` | {n} | {self.examples[mode, op].splitlines()[0]} |")
        for (mode, op), text in self.examples.items():
            print(f"\n{mode} {op}: {text}")


def compare(data: bytes, reg: Registry, printed: Callable[[list[str]], str | None], tool: str, where: str,
            tally: Tally) -> bytes | None:
    """One module a tool wrote: its pretty view in both modes against the tool's print (`printed(flags)`,
    None when the tool refuses), and read back against its bytes, counted in `tally` unless a module of the
    same text was seen; returns the bytes when something differed."""
    module = decode_bytecode(data, reg)
    if module.error is not None:
        tally.counts["mlirbc refuses"] += 1
        return None
    local = print_module(module, form="pretty", registry=reg, with_map=False).text
    key = hashlib.sha1(_LOCATIONS.sub("", view_lines(local)).encode()).hexdigest()
    if key in tally.seen:
        return None
    tally.seen.add(key)
    tally.counts["modules"] += 1
    same = True
    for mode, flags in (("local", LOCAL), ("aliased", ALIASED)):
        theirs = printed(flags)
        if theirs is None:
            tally.counts[f"{tool} refuses ({mode})"] += 1
            continue
        ours = local if mode == "local" else print_module(
            module, form="pretty", registry=reg, with_map=False, aliases=alias_rules(module, reg)).text
        diff = first_difference(_without_trailer(view_lines(ours), theirs), theirs)
        if diff is None:
            tally.counts[f"identical ({mode})"] += 1
            continue
        same = False
        line, a, b = diff
        m = _OP_AT_LINE.match(b)
        op = m.group(1) if m else "?"
        tally.by_op[mode, op] += 1
        tally.examples.setdefault((mode, op), f"{where} line {line}\n      ours:   {a[:150]}\n"
                                              f"      theirs: {b[:150]}")
    back = parse_module(local, template=module, registry=reg, with_map=False)
    if back.module is None or encode_bytecode(back.module, template=module, registry=reg) != data:
        tally.counts["does not read back"] += 1
        same = False
    return None if same else data


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--inputs", default="", help="only upstream inputs whose name matches this regex")
    ap.add_argument("--pipelines", type=int, default=None, help="the first N pipelines only")
    ap.add_argument("--keep", type=Path, help="keep the bytecode of each differing module here")
    ap.add_argument("--seed", type=int, default=7, help="the order the inputs are taken in")
    ap.add_argument("--more", action="store_true", help="the second set of pipelines (MORE_PIPELINES)")
    args = ap.parse_args()
    pipelines = MORE_PIPELINES if args.more else PIPELINES
    reg = models()
    inputs = sorted(p for p in (CORPUS / "upstream").glob("*.mlir") if re.search(args.inputs, p.name))
    random.Random(args.seed).shuffle(inputs)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    tally = Tally()
    for src in inputs:
        for pipe in pipelines[:args.pipelines]:
            try:
                made = run_mlir_opt(["--allow-unregistered-dialect", *pipe, "--emit-bytecode", str(src)], b"")
            except subprocess.TimeoutExpired:
                tally.counts["oracle timed out"] += 1  # a pipeline mlir-opt does not finish: no input
                continue
            if made.returncode != 0:
                continue

            def printed(flags: list[str], data: bytes = made.stdout) -> str | None:
                try:
                    proc = run_mlir_opt(["--allow-unregistered-dialect", *flags, "-"], data)
                except subprocess.TimeoutExpired:
                    return None
                return proc.stdout.decode() if proc.returncode == 0 else None

            data = compare(made.stdout, reg, printed, "mlir-opt", f"{src.name} {' '.join(pipe)}", tally)
            if data is not None and args.keep:
                (args.keep / f"{hashlib.sha1(data).hexdigest()[:10]}.mlirbc").write_bytes(data)
        print(f"{src.name}: {dict(tally.counts)}", file=sys.stderr, flush=True)
    tally.report()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
