"""The pretty view on IREE IR no test wrote: JAX programs through iree-compile's phases, against iree-opt.

    python benchmarks/iree_heldout.py [--inputs REGEX] [--phases P,P,...] [--keep DIR] [--target T]

The IREE corpus is 15 files of 4 small models; IREE's phases write many more op forms than those show.
This run compiles the StableHLO text of every program of the corpus (`vhlo/*.stablehlo.mlir`, one per
program, and `tests/data/iree/*.mlir`) for the CPU (`--target`: another device) with `iree-compile
--compile-to=PHASE --emit-mlir-bytecode` for each of IREE's phases; each distinct module (its view
without locations) is printed by mlirbc in the pretty form, local scope and with aliases, and compared
line for line with `iree-opt --mlir-print-debuginfo [--mlir-print-local-scope]`; its view is read back and
must encode to iree-compile's bytes.  Prints the counts and, by op, the first line that differs; `--keep
DIR` keeps each differing file's bytecode there.  Needs the `iree` extra (`iree-base-compiler`).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

from common import CORPUS, REPO

sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "server"))

from pretty_heldout import Tally, compare  # noqa: E402

from iree_support import iree_compile_path, run_iree  # noqa: E402
from mlirbc.models.build import models  # noqa: E402

PHASES = ["input", "abi", "preprocessing", "global-optimization", "dispatch-creation", "flow", "stream",
          "executable-sources", "executable-configurations", "executable-targets", "hal", "vm"]
TARGETS = {
    "cpu": ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
            "--iree-llvmcpu-target-triple=x86_64-unknown-linux-gnu", "--iree-llvmcpu-target-cpu=generic"],
    "vmvx": ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=vmvx"],
    "vulkan": ["--iree-hal-target-device=vulkan", "--iree-vulkan-target=rdna3"],
    "cuda": ["--iree-hal-target-device=cuda", "--iree-cuda-target=sm_80"],
    "rocm": ["--iree-hal-target-device=hip", "--iree-rocm-target=gfx942"],
    "rocm-gfx950": ["--iree-hal-target-device=hip", "--iree-rocm-target=gfx950"],
    "rocm-rdna3": ["--iree-hal-target-device=hip", "--iree-rocm-target=gfx1100"],
}
"""The devices compiled for (`--target`): each lowers the dispatches through its own dialects (llvm, vm,
spirv, nvvm, rocdl, gpu, ...); compiling needs no device."""


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
    ap.add_argument("--target", choices=sorted(TARGETS), default="cpu", help="the device compiled for")
    args = ap.parse_args()
    if iree_compile_path() is None:
        print("iree-compile is not installed (the `iree` extra)", file=sys.stderr)
        return 2
    reg = models()
    tally = Tally()
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.mlirbc"
        for src in inputs(args.inputs):
            for phase in args.phases.split(","):
                made = run_iree("iree-compile", [*TARGETS[args.target], f"--compile-to={phase}",
                                                 "--emit-mlir-bytecode", str(src), "-o", str(out)])
                if made.returncode != 0:
                    tally.counts["iree-compile refuses"] += 1
                    continue

                def printed(flags: list[str]) -> str | None:
                    proc = run_iree("iree-opt", [*flags, str(out)])
                    return proc.stdout.decode() if proc.returncode == 0 else None

                data = compare(out.read_bytes(), reg, printed, "iree-opt", f"{src.name} {phase}", tally)
                if data is not None and args.keep:
                    (args.keep / f"{src.stem}.{phase}.mlirbc").write_bytes(data)
            print(f"{src.name}: {dict(tally.counts)}", file=sys.stderr, flush=True)
    tally.report()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
