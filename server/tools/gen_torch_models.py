#!/usr/bin/env python3
"""Generate the models of torch-mlir's dialects (the `torch` plugin, `server/mlirbc/models/torch/`):
`torch`, `torch_c` (TorchConversion) and `tm_tensor` (TMTensor).

Input: the ODS JSON of torch-mlir's `TorchOps.td`, `TorchConversionOps.td` and `TMTensorOps.td`
(`server/tools/torch_ods/*.json.gz`, see its README for the command and commit).  Output:
`models/torch/data/` (each op's layout: inherent attributes, operand and result groups, as
`gen_newer_models.py` writes IREE's) and `models/torch/asm_data/` (each op's syntax data, as
`gen_syntax_data.py` writes it).  An op whose C++ printer is torch-mlir's `printDefaultTorchOp(printer,
*this, N, M)` gets `"torch_default": [N, M]` in its syntax data (777 of 844 `torch` ops), and every op
`"legacy_attr_dict"` (its `attr-dict` keeps inherent attributes in `{...}` in MLIR 24).  Deterministic output.

    python server/tools/gen_torch_models.py [--ods-json FILE ...] [--check]
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_newer_models import index_json  # noqa: E402
from gen_ods_models import ROOT, gzip_json  # noqa: E402
from gen_syntax_data import folder_files, write_folders  # noqa: E402
from newer_models import dialect_files, with_added_optional  # noqa: E402

from mlirbc.models.asm.derive import derive_all_syntax  # noqa: E402
from mlirbc.models.ods_derive import derive_ops, dialects_of  # noqa: E402

ODS_DIR = Path(__file__).resolve().parent / "torch_ods"
OUT = ROOT / "server" / "mlirbc" / "models" / "torch"
CATALOG = "catalog.json"
ADDED_OPTIONAL: dict[str, list[tuple[str, str]]] = {
    "torch.class_type": [("sym_visibility", "StringAttr")],
}
"""Optional attributes the MLIR that torch-mlir and IREE 3.13 build with gives symbol ops whose ODS does not
declare them: iree-opt's `torch.class_type` stores an absent `sym_visibility` after `sym_name` and prints
a present one (`torch.class_type "private" @c`).  Files of an older MLIR lack it (their `class_type` stays a
fallback op)."""
_VISIBILITY = {"kind": "typed", "optional": True, "storage": "::mlir::StringAttr", "type": "none"}
_DEFAULT_PRINTER = re.compile(r"printDefaultTorchOp\(\s*printer\s*,\s*\*this\s*,\s*(\d+)\s*,\s*(\d+)\s*\)")


def read_records(path: Path) -> dict[str, Any]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        records: dict[str, Any] = json.load(f)
    return records


def default_printed(records: dict[str, Any]) -> dict[str, list[int]]:
    """Full op name -> [operands, results] of the ops printed by `printDefaultTorchOp`."""
    out: dict[str, list[int]] = {}
    for name in records.get("!instanceof", {}).get("Op", []):
        rec = records[name]
        m = _DEFAULT_PRINTER.search(rec.get("extraClassDefinition") or "")
        if m is None:
            continue
        dialect = records[rec["opDialect"]["def"]]["name"]
        out[f"{dialect}.{rec['opName']}"] = [int(m.group(1)), int(m.group(2))]
    return out


def outputs(ods_json: list[Path]) -> dict[Path, dict[str, bytes]]:
    ops: dict[str, Any] = {}
    docs: dict[str, dict[str, str]] = {}
    syntax: dict[str, Any] = {}
    for path in ods_json:
        records = read_records(path)
        for full, op in derive_ops(records).items():
            ops.setdefault(full, op)
        for name, doc in dialects_of(records).items():
            docs.setdefault(name, doc)
        derived = derive_all_syntax(records)
        for full, counts in default_printed(records).items():
            if full in derived:
                derived[full] = {**derived[full], "torch_default": counts}
        for full, data in derived.items():
            # torch-mlir's dialects print inherent attributes in `attr-dict` as `{...}` in MLIR 24 too (no
            # strict properties in their assembly formats; checked with iree-opt)
            syntax.setdefault(full, {**data, "legacy_attr_dict": True})
    for full, added in ADDED_OPTIONAL.items():
        ops[full] = with_added_optional(full, ops[full], added)
    source = {"ods_json": [p.name for p in ods_json]}
    contents, entries = dialect_files(ops, docs)
    layout = {fname: gzip_json(data) for fname, data in contents.items()}
    layout[CATALOG] = index_json({"generator": "server/tools/gen_torch_models.py", "set": "torch",
                                  "source": source, "dialects": entries})
    for full in ADDED_OPTIONAL:
        # printed as MLIR 24 prints a symbol op's visibility: before its name (`"private" @c`)
        data = syntax[full]
        syntax[full] = {**data, "attrs": {**data.get("attrs", {}), "sym_visibility": _VISIBILITY},
                        "format": [["optional", [["attr", "sym_visibility", False]], [], 0, False],
                                   *data["format"]]}
    asm = folder_files(syntax, {"generator": "server/tools/gen_torch_models.py", "source": source})
    return {OUT / "data": layout, OUT / "asm_data": asm}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ods-json", type=Path, nargs="+", default=sorted(ODS_DIR.glob("*.json.gz")))
    ap.add_argument("--check", action="store_true", help="fail if the output would change")
    args = ap.parse_args()
    stale = write_folders(outputs(args.ods_json), args.check)
    if args.check:
        if stale:
            print(f"out of date: {stale}", file=sys.stderr)
            return 1
        print("torch models are up to date")
        return 0
    print(f"wrote {len(stale)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
