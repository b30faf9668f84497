"""The MLIR 24 `llvm` bytecode-DSL data of the `mlir24` model set, made from the inferred DSL JSON and the
compiler that writes MLIR 24 (an installed `iree-base-compiler`'s `iree-opt`).  Used by
`gen_newer_models.py`.

* `dsl/llvm.json.gz`: `shared/ods/newer/dsl/mlir24inferred_LLVMDialectBytecode.json` trimmed to the records
  the DSL lists reach (the same trimming as the MLIR 22 file).
* `dsl/llvm_syntax.json.gz`: the MLIR 22 syntax data (`models/data/dsl/llvm_syntax.json.gz`, from
  LLVMOps.td 22) with the parameters of every entry whose stored members changed by MLIR 24 learned from
  iree-opt (no MLIR 24 .td was available): a probe value with every stored field set is printed by
  iree-opt, which gives the parameters' names and order; the same value with one field at its default
  tells which parameter that field is (the one that disappears) and whether it is left out when default
  (if nothing disappears, it is always printed).  A parameter's kind comes from its field's codec and how
  iree-opt printed it: `<...>` for an LLVM attribute is `stripped`, a bare word where the probe stored
  `#llvm.X<p = WORD>` is `unwrapped` (`sourceLanguage = DW_LANG_C`), enums and DWARF names keep the MLIR 22
  spec of the same parameter name.
"""

from __future__ import annotations

import gzip
import json
import re
import subprocess
from pathlib import Path
from typing import Any

from mlirbc.models.dsl import DslKind, dsl_dialect, load_records, trim_records

Spec = list[str]

# A valid non-default value of each stored field of the changed entries, in the DSL's generic spelling
# (what the project's generic DSL syntax parses).  By field name; varints not listed are 1.
_FILE = '#llvm.DIFileAttr<name = "f.c", directory = "/d">'
_BASIC = '#llvm.DIBasicTypeAttr<tag = 36, name = "int", sizeInBits = 32, encoding = 5>'
_SAMPLES: dict[str, str] = {
    "recId": "distinct[7]<>", "id": "distinct[8]<>",
    "sourceLanguageName": "#llvm.di_source_language_name<language = DW_LANG_C>",
    "file": _FILE, "scope": _FILE, "producer": '"p"', "splitDebugFilename": '"s.dwo"', "name": '"n"',
    "identifier": '"_ZTS1S"', "baseType": _BASIC, "extraData": _BASIC,
    "discriminator": ("#llvm.DIDerivedTypeAttr<tag = 13, name = \"d\", file = unset, line = 0, "
                      f"scope = unset, baseType = {_BASIC}, sizeInBits = 0, alignInBits = 0, "
                      "offsetInBits = 0, dwarfAddressSpace = unset, _rawflags = 0, extraData = unset>"),
    "dataLocation": "#llvm.DIExpressionAttr<operations = unset>",
    "rank": "#llvm.DIExpressionAttr<operations = unset>",
    "allocated": "#llvm.DIExpressionAttr<operations = unset>",
    "associated": "#llvm.DIExpressionAttr<operations = unset>",
    "importedEntities": f"[{_FILE}]", "elements": f"[{_BASIC}]",
    "tag": "19", "_rawEmissionKind": "1", "_rawNameTableKind": "1", "_rawflags": "64",
    "dwarfAddressSpace": "3", "isRecSelf": "true",
}
_DEFAULTS = {"opt_attr": "unset", "bool": "false", "varint": "0", "readOptionalInt": "unset",
             "readOptionalArrayRef": "unset"}


def _split_params(body: str) -> list[tuple[str, str]]:
    """`a = x, b = <y, z>` -> [(a, x), (b, <y, z>)] at the top nesting level."""
    parts: list[str] = []
    depth = 0
    start = 0
    i = 0
    while i < len(body):
        c = body[i]
        if c == '"':
            i += 1
            while body[i] != '"':
                i += 2 if body[i] == "\\" else 1
        elif c in "<[({":
            depth += 1
        elif c in ">])}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(body[start:i])
            start = i + 1
        i += 1
    parts.append(body[start:])
    out = []
    for part in parts:
        name, _, value = part.strip().partition(" = ")
        out.append((name, value))
    return out


class _Prober:
    """Prints values of the MLIR 24 DSL through iree-opt (bytecode written by mlirbc, read by iree-opt)."""

    def __init__(self, records: dict[str, Any], iree_opt: Path) -> None:
        from mlirbc.models.build import models
        from mlirbc.models.dsl import register_dsl

        self.reg = models(entry_points=False)
        register_dsl(self.reg, records, "generator", dialect="llvm", cpp_dialect="LLVM")
        self.iree_opt = iree_opt

    def print(self, values: list[str]) -> list[str | None]:
        """iree-opt's print of each value (None where iree-opt refuses it)."""
        return [self._one(v) for v in values]

    def _one(self, value: str) -> str | None:
        from mlirbc.bytecode.writer import encode_bytecode
        from mlirbc.view.parser import parse_module

        text = f'"builtin.module"() ({{\n^bb0:\n}}) {{test.probe = {value}}} : () -> ()\n'
        parsed = parse_module(text, registry=self.reg)
        assert parsed.module is not None, ([d.message for d in parsed.errors[:3]], value)
        data = encode_bytecode(parsed.module, template=None, registry=self.reg)
        proc = subprocess.run([str(self.iree_opt), "--mlir-print-op-generic", "--mlir-print-local-scope",
                               "-o", "-", "-"], input=data, capture_output=True, check=False)
        if proc.returncode != 0:
            return None
        printed = proc.stdout.decode()
        m = re.search(r"test\.probe = (#llvm\.\w+<.*>)\}", printed)
        return m.group(1) if m else None


def _changed_entries(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    def members(records: dict[str, Any]) -> dict[str, list[tuple[str, str]]]:
        d = dsl_dialect(records, dialect="llvm", cpp_dialect="LLVM")
        return {name: [(m.name, m.codec.op + m.codec.name) for m in kind.entry.members]
                for name, kind in d.entries.items()}

    a, b = members(old), members(new)
    return sorted(n for n in b if a.get(n) != b[n])


def _generic(kind: DslKind, fields: dict[str, str]) -> str:
    body = ", ".join(f"{m.name} = {fields[m.name]}" for m in kind.stored)
    return f"#llvm.{kind.name}<{body}>"


def _codec_key(kind: DslKind, field: str) -> str:
    m = next(m for m in kind.stored if m.name == field)
    return m.codec.name if m.codec.op == "hook" else m.codec.op


def learn_params(kind: DslKind, mnemonic: str, old_specs: dict[str, dict[str, Spec]],
                 mnemonics: dict[str, str], prober: _Prober) -> list[Spec]:
    """The parameters of one changed entry, as iree-opt prints them (see module docstring)."""
    full = {m.name: _SAMPLES.get(m.name, "true" if m.codec.op == "bool" else "1") for m in kind.stored}
    printed_full = prober.print([_generic(kind, full)])[0]
    head = f"#llvm.{mnemonic}<"
    if printed_full is None or not printed_full.startswith(head):
        raise SystemExit(f"{kind.name}: iree-opt does not print the probe ({printed_full!r})")
    params = _split_params(printed_full[len(head):-1])
    names = [n for n, _ in params]
    values = dict(params)
    # which parameter each field is, and whether it is left out at its default
    field_of: dict[str, str] = {}
    omit: dict[str, str] = {}
    fields = [m.name for m in kind.stored]
    probes = [_generic(kind, {**full, f: _DEFAULTS[_codec_key(kind, f)]}) for f in fields]
    for f, printed in zip(fields, prober.print(probes), strict=True):
        if printed is None:
            continue  # iree-opt refuses the field at its default: it is always there
        gone = [n for n in names if n not in dict(_split_params(printed[len(head):-1]))]
        if len(gone) == 1:
            field_of[gone[0]] = f
            omit[gone[0]] = "default"
    stored_names = set(fields) | {m.name for m in kind.entry.members if m.codec.op == "local"}
    for n in names:
        if n not in field_of and n in stored_names:
            local = next((m for m in kind.entry.members if m.name == n and m.codec.op == "local"), None)
            field_of[n] = local.codec.name if local is not None else n
            omit.setdefault(n, "never")
    missing = set(fields) - set(field_of.values())
    if missing:
        raise SystemExit(f"{kind.name}: no printed parameter for fields {sorted(missing)} ({printed_full})")
    same_name = {**{n: s for specs in old_specs.values() for n, s in specs.items()},
                 **old_specs.get(kind.name, {})}
    out: list[Spec] = []
    for n in names:
        f = field_of[n]
        codec = _codec_key(kind, f)
        value = values[n]
        sample = full[f]
        if codec == "bool":
            spec = ["bool", ""]
        elif codec in ("varint", "readOptionalInt") and value.isdigit():
            spec = ["int", ""]
        elif codec in ("varint", "readOptionalInt"):
            old = same_name.get(n)
            if old is None or old[0] not in ("dwarf", "enum", "bitenum"):
                raise SystemExit(f"{kind.name}.{n}: printed {value!r}, no known enum for it")
            spec = old[:2]
        elif codec == "readOptionalArrayRef":
            inner = _entry_mnemonic(sample.strip("[]"), mnemonics)
            spec = ["array", f"stripped:{inner}" if value.startswith("<") and inner else "attr"]
        elif value.startswith("<"):
            inner = _entry_mnemonic(sample, mnemonics)
            if inner is None:
                raise SystemExit(f"{kind.name}.{n}: stripped value of an unknown class: {sample}")
            spec = ["stripped", inner]
        else:
            m = re.fullmatch(r"#llvm\.(\w+)<(\w+) = (\w+)>", sample)
            if m is not None and value == m.group(3):
                spec = ["unwrapped", f"{m.group(1)}:{m.group(2)}"]
            else:
                spec = ["attr", ""]
        entry = [n, *spec, omit[n]]
        if f != n and not any(m.name == n and m.codec.op == "local" for m in kind.entry.members):
            entry.append(f)  # stored in a field of another name
        out.append(entry)
    return out


def _entry_mnemonic(sample: str, mnemonics: dict[str, str]) -> str | None:
    m = re.match(r"#llvm\.(\w+)<", sample)
    return mnemonics.get(m.group(1)) if m else None


def mlir24_llvm_files(dsl_json: Path, mlir22_dsl: Path, mlir22_syntax: Path, iree_opt: Path
                      ) -> dict[str, bytes]:
    """`dsl/llvm.json.gz` and `dsl/llvm_syntax.json.gz` of the mlir24 set (see module docstring)."""
    from gen_ods_models import gzip_json

    records = trim_records(load_records(dsl_json))
    old_records = load_records(mlir22_dsl)
    with gzip.open(mlir22_syntax, "rt", encoding="utf-8") as f:
        syntax: dict[str, Any] = json.load(f)
    old_specs = {cls: {p[0]: p[1:] for p in spec["params"]} for cls, spec in syntax["attrs"].items()}
    prober = _Prober(records, iree_opt)
    d = dsl_dialect(records, dialect="llvm", cpp_dialect="LLVM")
    changed = _changed_entries(old_records, records)
    attrs = dict(syntax["attrs"])
    for name in changed:
        spec = attrs[name]
        params = learn_params(d.entries[name], spec["mnemonic"], old_specs, syntax["mnemonics"], prober)
        attrs[name] = {**spec, "params": params}
        print(f"  llvm {name}: {len(params)} parameters learned from iree-opt")
    out = {**syntax, "attrs": attrs,
           "source": f"{syntax['source']} (MLIR 22); MLIR 24 parameters of {', '.join(changed)} learned "
                     f"from iree-opt"}
    return {"dsl/llvm.json.gz": gzip_json(records), "dsl/llvm_syntax.json.gz": gzip_json(out)}
