#!/usr/bin/env python3
"""Generate `counts.json.gz` beside each ODS model set: how many results, operands, regions and successors
each op has where ODS fixes the number (-1 where a variadic or optional one makes it open).

The Python API checks `Operation.create` of a known op against it (an op created with another number of
results than its ODS declares is refused at the call).  Sources, `llvm-tblgen --dump-json` output as for
the models themselves (`gen_ods_models.py`, `gen_newer_models.py`):

* `models/data/`: upstream MLIR 22.1.8's `.td` files (the oracle's llvm-tblgen and includes);
* `models/data/stablehlo/`: `shared/ods/vhlo_ods.json`, `sdy_ods.json`;
* `models/data_mlir24/`: `shared/ods/newer/upstream-mlir24-approx/*.json` (ops it has no count for take
  MLIR 22's, as the set's models fall back to MLIR 22's);
* `models/iree/data/`: `shared/ods/newer/iree-89ece87b-approx/*.json`.

Only ops the set's catalog lists are written.  Output is deterministic (sorted keys, gzip mtime 0).

    python server/tools/gen_op_counts.py [--check]
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import sys
import tempfile
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_ods_models import dump_json, entry_files, package_dir  # noqa: E402

from mlirbc.models.ods_derive import op_counts  # noqa: E402

MODELS = ROOT / "server" / "mlirbc" / "models"
SHARED = Path(os.environ.get("MLIRBC_SHARED", ROOT.parent / "shared"))
OUT_NAME = "counts.json.gz"


def counts_of(dumps: Iterable[dict[str, Any]]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for d in dumps:
        for op_def in d.get("!instanceof", {}).get("Op", []):
            full, counts = op_counts(d, op_def)
            out.setdefault(full, counts)
    return out


def catalog_ops(data_dir: Path) -> set[str]:
    with open(data_dir / "catalog.json", encoding="utf-8") as f:
        index = json.load(f)
    return {f"{dialect}.{op}" for dialect, entry in index["dialects"].items() for op in entry.get("ops", [])}


def gzip_json(data: Any) -> bytes:
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as f:
        f.write(json.dumps(data, sort_keys=True, separators=(",", ":")).encode())
    return buf.getvalue()


def upstream_dumps(jobs: int) -> list[dict[str, Any]]:
    mlir_dir, llvm_dir = package_dir("mlir"), package_dir("llvm")
    include = mlir_dir / "include"
    tblgen = llvm_dir / "bin" / "llvm-tblgen"
    env = dict(os.environ, LD_LIBRARY_PATH=str(llvm_dir / "lib"))
    files = entry_files(include)
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(lambda td: dump_json(tblgen, env, include, td, Path(tmp)), files))
    return [r for r in results if isinstance(r, dict)]


def load_dumps(paths: Iterable[Path]) -> list[dict[str, Any]]:
    out = []
    for p in sorted(paths):
        with open(p, encoding="utf-8") as f:
            out.append(json.load(f))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--check", action="store_true", help="fail if the output would change")
    args = ap.parse_args()

    upstream = counts_of(upstream_dumps(args.jobs))
    sets: dict[Path, dict[str, list[int]]] = {
        MODELS / "data": upstream,
        MODELS / "data" / "stablehlo": counts_of(load_dumps([SHARED / "ods" / "vhlo_ods.json",
                                                             SHARED / "ods" / "sdy_ods.json"])),
        MODELS / "data_mlir24": counts_of(load_dumps(
            (SHARED / "ods" / "newer" / "upstream-mlir24-approx").glob("*.json"))),
        MODELS / "iree" / "data": counts_of(load_dumps(
            (SHARED / "ods" / "newer" / "iree-89ece87b-approx").glob("*.json"))),
    }
    stale = []
    for data_dir, counts in sets.items():
        wanted = catalog_ops(data_dir)
        data = gzip_json({name: c for name, c in sorted(counts.items()) if name in wanted})
        target = data_dir / OUT_NAME
        if args.check:
            if not target.exists() or target.read_bytes() != data:
                stale.append(str(target.relative_to(ROOT)))
            continue
        target.write_bytes(data)
        found = sum(1 for n in counts if n in wanted)
        print(f"{target.relative_to(ROOT)}: {found} of {len(wanted)} ops")
    if stale:
        print(f"out of date: {stale}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
