"""The pretty view on IREE's own test inputs: every op form IREE's dialects test, against iree-opt.

    python benchmarks/iree_lit_heldout.py DIR [--inputs REGEX] [--keep DIR]

DIR holds `.mlir` test files of IREE's sources (e.g. `compiler/src/iree/compiler/**/IR/test/*.mlir` of an
iree-org/iree checkout, copied flat).  Each file is split where IREE's tests split it (`// -----`); each piece
that iree-opt reads and verifies is written as bytecode by `iree-opt --emit-bytecode` (the wheel's compiler:
MLIR 24), and its pretty view, local scope and with aliases, is compared line for line with `iree-opt
--mlir-print-debuginfo [--mlir-print-local-scope]`; its view is read back and must encode to iree-opt's
bytes (`pretty_heldout.compare`).  Pieces iree-opt refuses (tests of errors, ops of a newer IREE than the
wheel) are counted and left out.  Needs the `iree` extra (`iree-base-compiler`).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

from common import REPO

sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "server"))

from pretty_heldout import Tally, compare  # noqa: E402

from iree_support import iree_compile_path, run_iree  # noqa: E402
from mlirbc.models.build import models  # noqa: E402

_SPLIT = re.compile(r"^// -----.*$", re.M)


def pieces(path: Path) -> list[str]:
    """The inputs one test file holds (`--split-input-file`)."""
    return [p for p in _SPLIT.split(path.read_text(encoding="utf-8", errors="replace")) if p.strip()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir", type=Path, help="a folder of IREE .mlir test files")
    ap.add_argument("--inputs", default="", help="only files whose name matches this regex")
    ap.add_argument("--keep", type=Path, help="keep the bytecode of each differing module here")
    args = ap.parse_args()
    if iree_compile_path() is None:
        print("iree-base-compiler is not installed", file=sys.stderr)
        return 1
    reg = models()
    tally = Tally()
    files = sorted(p for p in args.dir.glob("*.mlir") if re.search(args.inputs, p.name))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.mlirbc"
        for src in files:
            for i, text in enumerate(pieces(src)):
                made = run_iree("iree-opt", ["--emit-bytecode", "-o", str(out), "-"], text.encode())
                if made.returncode != 0:
                    tally.counts["iree-opt refuses"] += 1
                    continue

                def printed(flags: list[str]) -> str | None:
                    proc = run_iree("iree-opt", [*flags, str(out)])
                    return proc.stdout.decode() if proc.returncode == 0 else None

                data = compare(out.read_bytes(), reg, printed, "iree-opt", f"{src.name} #{i}", tally)
                if data is not None and args.keep:
                    args.keep.mkdir(parents=True, exist_ok=True)
                    (args.keep / f"{src.stem}.{i}.mlirbc").write_bytes(data)
            print(f"{src.name}: {dict(tally.counts)}", file=sys.stderr, flush=True)
    tally.report()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
