"""Generates the models of producers newer than MLIR 22 into the package (by hand, never at run time).

The MLIR 24 overlay (`server/mlirbc/models/data_mlir24/`: the ops whose layouts changed since MLIR 22, the
rest coming from `models/data/`) and IREE's dialects (`server/mlirbc/models/iree/data/`) from `llvm-tblgen
--dump-json` files (default: `../shared/ods/newer/`) checked against, and where they disagree replaced by, the
op bindings of an installed `iree-base-compiler` (see `newer_models.py`, `op_bindings.py`).  Same file
format as `gen_ods_models.py` writes.  The MLIR 24 `llvm` bytecode DSL and its syntax data
(`data_mlir24/dsl/`) from the inferred DSL JSON (`--mlir24-dsl`) and that wheel's `iree-opt` (see
`newer_llvm_dsl.py`).

    python server/tools/gen_newer_models.py [--mlir24-ods DIR] [--iree-ods DIR] [--mlir24-dsl FILE]
                                            [--bindings DIR] [--check]
    python server/tools/gen_newer_models.py --mlir23 [--bindings DIR] [--check]

The MLIR 23 overlay (`models/data_mlir23/`, `--mlir23`) comes from jaxlib's op bindings alone (jaxlib 0.10.2
carries MLIR 23 and writes `MLIR23.0.0git` files): the ops of the upstream dialects it ships (arith, cf,
func, gpu, llvm, math, memref, nvgpu, nvvm, scf, sparse_tensor, vector) whose layout differs from MLIR 22.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_ods_models import DEFAULT_OUT, ROOT, gzip_json, version_of  # noqa: E402

MLIR24_OUT = ROOT / "server" / "mlirbc" / "models" / "data_mlir24"
MLIR23_OUT = ROOT / "server" / "mlirbc" / "models" / "data_mlir23"
IREE_OUT = ROOT / "server" / "mlirbc" / "models" / "iree" / "data"
NEWER_ODS = ROOT.parent / "shared" / "ods" / "newer"
CATALOG = "catalog.json"


def index_json(index: dict[str, Any]) -> bytes:
    return (json.dumps(index, sort_keys=True, indent=1) + "\n").encode("utf-8")


def newer_outputs(mlir22_dir: Path, mlir24_ods: Path, iree_ods: Path, bindings_dir: Path,
                  mlir24_dsl: Path) -> dict[Path, dict[str, bytes]]:
    """The MLIR 24 overlay and the IREE plugin data (see `newer_models.py`)."""
    from newer_llvm_dsl import mlir24_llvm_files
    from newer_models import dialect_files, plan, read_data_dir, read_json_dir
    from op_bindings import load_bindings

    for what, path in (("MLIR 24 ODS JSON", mlir24_ods), ("IREE ODS JSON", iree_ods),
                       ("op bindings", bindings_dir)):
        if not path.is_dir():
            raise SystemExit(f"{what} not found: {path}")
    if not mlir24_dsl.is_file():
        raise SystemExit(f"MLIR 24 DSL JSON not found: {mlir24_dsl}")
    iree_opt = bindings_dir.parent / "_mlir_libs" / "iree-opt"
    if not iree_opt.is_file():
        raise SystemExit(f"iree-opt not found next to the bindings: {iree_opt}")
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
        added = sorted(k for k, op in ops.items() if op.get("layout") == "mlir24-verified")
        index: dict[str, Any] = {
            "generator": "server/tools/gen_newer_models.py",
            "set": name,
            "source": {"ods_json": inputs, "bindings": wheel},
            "layout_from_bindings": from_bindings,
            **({"layout_added_optional": added} if added else {}),
            "dialects": entries,
        }
        if name == "mlir24":
            index["base"] = "mlir22"
            llvm = mlir24_llvm_files(mlir24_dsl, mlir22_dir / "dsl" / "llvm.json.gz",
                                     mlir22_dir / "dsl" / "llvm_syntax.json.gz", iree_opt)
            files_out.update(llvm)
            index["source"]["llvm_dsl"] = [mlir24_dsl.name, "iree-opt (parameters of changed entries)"]
        files_out[CATALOG] = index_json(index)
        out[target] = files_out
        print(f"{name}: {len(ops)} ops in {len(entries)} dialects ({len(from_bindings)} laid out from the "
              "bindings)")
    return out


def mlir23_outputs(mlir22_dir: Path, bindings_dir: Path) -> dict[Path, dict[str, bytes]]:
    """The MLIR 23 overlay: the ops of upstream dialects whose layout jaxlib's bindings (MLIR 23, the
    writer of `MLIR23.0.0git` files) show otherwise than MLIR 22, and the ops they gained."""
    from newer_models import dialect_files, plan_from_bindings, read_data_dir
    from op_bindings import load_bindings

    if not bindings_dir.is_dir():
        raise SystemExit(f"op bindings not found: {bindings_dir}")
    overlay = plan_from_bindings(read_data_dir(mlir22_dir), load_bindings(bindings_dir))
    contents, entries = dialect_files(overlay, {}, set())
    files_out = {fname: gzip_json(data) for fname, data in contents.items()}
    files_out[CATALOG] = index_json({
        "generator": "server/tools/gen_newer_models.py --mlir23",
        "set": "mlir23",
        "base": "mlir22",
        "source": {"bindings": {"jaxlib": version_of("jaxlib")}},
        "layout_from_bindings": sorted(overlay),
        "dialects": entries,
    })
    print(f"mlir23: {len(overlay)} ops in {len(entries)} dialects (laid out from jaxlib's bindings)")
    return {MLIR23_OUT: files_out}


def _jaxlib_dialects_dir() -> Path | None:
    import importlib.util

    spec = importlib.util.find_spec("jaxlib")
    if spec is None or not spec.submodule_search_locations:
        return None
    for base in spec.submodule_search_locations:
        d = Path(base) / "mlir" / "dialects"
        if d.is_dir():
            return d
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mlir24-ods", type=Path, default=NEWER_ODS / "upstream-mlir24-approx")
    ap.add_argument("--iree-ods", type=Path, default=NEWER_ODS / "iree-89ece87b-approx")
    ap.add_argument("--mlir24-dsl", type=Path,
                    default=NEWER_ODS / "dsl" / "mlir24inferred_LLVMDialectBytecode.json")
    ap.add_argument("--bindings", type=Path, default=None,
                    help="folder of _*_ops_gen.py files (default: the installed iree-base-compiler's)")
    ap.add_argument("--check", action="store_true", help="fail if the output would change")
    ap.add_argument("--mlir23", action="store_true",
                    help="the MLIR 23 overlay instead, from jaxlib's bindings (default: installed jaxlib's)")
    args = ap.parse_args()

    from op_bindings import iree_dialects_dir

    if args.mlir23:
        found = args.bindings or _jaxlib_dialects_dir()
        if found is None:
            raise SystemExit("jaxlib's op bindings not found: pip install -e '.[stablehlo]', or --bindings")
        outputs = mlir23_outputs(DEFAULT_OUT, found)
    else:
        bindings = args.bindings or iree_dialects_dir()
        if bindings is None:
            raise SystemExit("op bindings not found: pip install iree-base-compiler==3.13.0, or --bindings")
        outputs = newer_outputs(DEFAULT_OUT, args.mlir24_ods, args.iree_ods, bindings, args.mlir24_dsl)
    if args.check:
        bad = []
        for out, files_out in outputs.items():
            stale = [n for n, b in files_out.items() if not (out / n).exists() or (out / n).read_bytes() != b]
            extra = ([p.relative_to(out).as_posix() for p in out.rglob("*.json.gz")
                      if p.relative_to(out).as_posix() not in files_out and p.name != "counts.json.gz"
                      and "constraints" not in p.relative_to(out).parts] if out.exists() else [])
            bad += [str(out / n) for n in sorted(stale + extra)]
        if bad:
            print(f"out of date: {bad}", file=sys.stderr)
            return 1
        print("data is up to date")
        return 0
    for out, files_out in outputs.items():
        out.mkdir(parents=True, exist_ok=True)
        for p in out.rglob("*.json.gz"):
            rel = p.relative_to(out)
            # (each set's counts.json.gz is gen_op_counts.py's, constraints/ gen_constraints.py's)
            if rel.as_posix() not in files_out and p.name != "counts.json.gz" \
                    and "constraints" not in rel.parts:
                p.unlink()
        for name, data in files_out.items():
            (out / name).parent.mkdir(parents=True, exist_ok=True)
            (out / name).write_bytes(data)
        print(f"{sum(len(b) for b in files_out.values())} bytes in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
