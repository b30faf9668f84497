"""Op models from a user's ODS JSON file decode real bytes: native properties and segment sizes.

How the bytecode is made (no dialect outside upstream MLIR can be compiled into the oracle `mlir-opt`):

1. `MLIR_TEXT` uses upstream ops whose properties are native (`ptr.load`/`ptr.store`: optional int64,
   unit flags, an i32 enum and an optional string attribute; `ptr.ptr_add`: an i32 enum; `ptr.ptr_diff`:
   an i8 bit enum) or include segment sizes (`affine.linearize_index`: `operandSegmentSizes` next to a
   required attribute and a unit property; one use has an empty trailing segment, which the version 6
   sparse form leaves out).  `mlir-opt --emit-bytecode --emit-bytecode-version=N` writes it at N = 5
   (segment sizes stored as an attribute) and N = 6 (as a sparse array after the native properties).
2. `tests/data/qtrdialect.td` declares two made-up dialects, `qtr` and `qffine`, whose ops have the same
   arguments as those upstream ops, so their generated C++ would write the same property bytes.  The names
   have the lengths of `ptr` and `affine`.
3. The dialect names are replaced in the file's string section (`b"ptr\\0"` -> `b"qtr\\0"`,
   `b"affine\\0"` -> `b"qffine\\0"`, each found exactly once).  Same lengths, so every offset and size
   stays valid: the result is a well-formed file whose ops belong to the new dialects, with the property
   payloads exactly as the oracle wrote them.
4. `llvm-tblgen --dump-json` on the .td gives the JSON that `models(ods_json=[...])` and
   `mlirbc info --ods-json` load.

The renamed ops must then decode with the ODS-JSON models to the values the built-in upstream models give
for the original file, and without the JSON stay fallbacks that keep their payload bytes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from corpus import REPO
from mlirbc.bytecode.reader import read_bytecode
from mlirbc.bytecode.writer import write_bytecode
from mlirbc.ir.module import Module
from mlirbc.ir.operation import PROPS_DECODED, PROPS_FALLBACK, Operation
from mlirbc.models.build import models
from mlirbc.models.builtin_models import BUILTIN_ORIGIN
from mlirbc.models.layout import LayoutOpModel
from mlirbc.models.ods import load_ods_json
from mlirbc.models.registry import Registry
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module
from oracle import SKIP_REASON, TBLGEN_SKIP_REASON, dump_ods_json, mlir_opt_path, run_mlir_opt

TD = REPO / "tests" / "data" / "qtrdialect.td"
RENAMES = {"ptr": "qtr", "affine": "qffine"}
"""Upstream dialect -> the made-up dialect of the same name length declared in `TD`."""
NEW_OPS = {"qtr.load", "qtr.store", "qtr.ptr_add", "qtr.ptr_diff", "qffine.linearize_index"}

MLIR_TEXT = """\
!p = !ptr.ptr<#ptr.generic_space>
func.func @f(%p: !p, %v: i64, %off: i32, %q: !p, %i: index, %n: index) -> i64 {
  %0 = ptr.load %p : !p -> i64
  %1 = ptr.load volatile %p atomic syncscope("agent") monotonic
         nontemporal invariant_group alignment = 8 : !p -> i64
  %2 = ptr.load volatile %p invariant alignment = 4 : !p -> i32
  ptr.store %v, %p nontemporal : i64, !p
  ptr.store volatile %v, %p atomic syncscope("x") release
         nontemporal invariant_group alignment = 16 : i64, !p
  %3 = ptr.ptr_add nusw %p, %off : !p, i32
  %4 = ptr.ptr_add %p, %off : !p, i32
  %5 = ptr.ptr_diff nsw %p, %q : !p -> i64
  %6 = ptr.ptr_diff %p, %q : !p -> i64
  %7 = affine.linearize_index disjoint [%i, %i, %n] by (4, %n, 8) : index
  %8 = affine.linearize_index [%i, %n] by (4, 8) : index
  return %0 : i64
}
"""



@pytest.fixture(scope="module")
def qtr_json(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ods") / "qtrdialect.json"
    if not dump_ods_json(TD, out):
        pytest.skip(TBLGEN_SKIP_REASON)
    return out


def rename_dialects(data: bytes) -> bytes:
    """The file with the upstream dialects renamed (string section entries, same lengths)."""
    for old, new in RENAMES.items():
        a, b = old.encode() + b"\0", new.encode() + b"\0"
        assert len(a) == len(b)
        assert data.count(a) == 1, f"{a!r} occurs {data.count(a)} times"
        assert data.count(b) == 0
        data = data.replace(a, b)
    return data


@pytest.fixture(scope="module", params=[5, 6], ids=["v5", "v6"])
def files(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, Path]:
    """(the oracle's bytecode of MLIR_TEXT, the path of its renamed copy) at one bytecode version."""
    if mlir_opt_path() is None:
        pytest.skip(SKIP_REASON)
    version: int = request.param
    proc = run_mlir_opt(["--emit-bytecode", f"--emit-bytecode-version={version}"], MLIR_TEXT.encode())
    assert proc.returncode == 0, proc.stderr.decode()
    original = proc.stdout
    assert read_bytecode(original, models(entry_points=False)).version == version
    path = tmp_path_factory.mktemp("qtr") / f"qtr.v{version}.mlirbc"
    path.write_bytes(rename_dialects(original))
    return original, path


def _ops(m: Module) -> list[Operation]:
    assert m.root is not None and m.error is None
    return list(m.root.walk())


def _renamed(name: str) -> str:
    dialect, _, op = name.partition(".")
    return f"{RENAMES.get(dialect, dialect)}.{op}"


def _upstream(name: str) -> str:
    dialect, _, op = name.partition(".")
    return f"{next((u for u, m in RENAMES.items() if m == dialect), dialect)}.{op}"


def test_derived_layouts_match_upstream(qtr_json: Path) -> None:
    reg = Registry()
    assert {r.name for r in load_ods_json(reg, qtr_json)} == set(NEW_OPS)
    upstream = models(entry_points=False)
    for name in NEW_OPS:
        mine, theirs = reg.op(name).model, upstream.op(_upstream(name)).model
        assert isinstance(mine, LayoutOpModel) and isinstance(theirs, LayoutOpModel)
        assert (mine.attributes, mine.natives) == (theirs.attributes, theirs.natives), name


def test_ods_json_decodes_renamed_ops(qtr_json: Path, files: tuple[bytes, Path]) -> None:
    original, path = files
    renamed = path.read_bytes()
    before = _ops(read_bytecode(original, models(entry_points=False)))
    reg = models(entry_points=False, ods_json=[str(qtr_json)])
    module = read_bytecode(renamed, reg)
    after = _ops(module)
    assert module.fallbacks == []
    assert [_renamed(op.name) for op in before] == [op.name for op in after]
    seen = set()
    for old, new in zip(before, after, strict=True):
        if new.name not in NEW_OPS:
            continue
        seen.add(new.name)
        po, pn = old.properties, new.properties
        assert po is not None and po.kind == PROPS_DECODED and po.model == BUILTIN_ORIGIN
        assert pn is not None and pn.kind == PROPS_DECODED, (new.name, pn and pn.reason)
        assert pn.model == f"ods-json {qtr_json}"
        assert pn.values == po.values, new.name
        assert pn.raw == po.raw and pn.offset == po.offset
    assert seen == NEW_OPS
    # the values really are the interesting ones (not all defaults)
    values = [op.properties.values for op in after if op.properties is not None]
    assert any("syncscope" in v and v["alignment"].elements for v in values)  # type: ignore[attr-defined]
    assert any("operandSegmentSizes" in v for v in values)

    # the models also encode: the text view parsed back (values only, no raw payloads) writes the same file
    parsed = parse_module(print_module(module).text, template=module, registry=reg)
    assert parsed.module is not None and not parsed.errors
    assert all(op.properties.raw is None for op in _ops(parsed.module)
               if op.name in NEW_OPS and op.properties is not None)
    assert write_bytecode(parsed.module, template=module, registry=reg) == renamed


def test_without_json_they_stay_fallbacks(files: tuple[bytes, Path]) -> None:
    original, path = files
    renamed = path.read_bytes()
    before = _ops(read_bytecode(original, models(entry_points=False)))
    module = read_bytecode(renamed, models(entry_points=False))
    after = _ops(module)
    n = 0
    for old, new in zip(before, after, strict=True):
        if new.name not in NEW_OPS:
            assert new.properties is None or new.properties.kind == PROPS_DECODED
            continue
        n += 1
        po, pn = old.properties, new.properties
        assert po is not None and po.raw is not None
        assert pn is not None and pn.kind == PROPS_FALLBACK and pn.values == {} and pn.raw is not None
        assert f"no model for dialect '{new.name.split('.')[0]}'" in pn.reason
        assert pn.raw == po.raw == renamed[pn.offset:pn.offset + len(pn.raw)]
    assert n == sum(1 for note in module.fallbacks if note.kind == "op") == 11
    text = print_module(module).text
    assert text.count("mlirbc.properties = \"0x") == n
    assert write_bytecode(module, registry=models(entry_points=False)) == renamed


def _cli_info(*args: str) -> dict[str, Any]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO / "server"), env.get("PYTHONPATH")]))
    proc = subprocess.run([sys.executable, "-m", "mlirbc.cli", "info", "--json", *args],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    info: dict[str, Any] = json.loads(proc.stdout)
    return info


def test_cli_info_with_ods_json(qtr_json: Path, files: tuple[bytes, Path]) -> None:
    _, path = files
    info = _cli_info("--ods-json", str(qtr_json), str(path))
    assert set(info["ops"]) >= NEW_OPS
    assert {name: info["models"].get(name) for name in NEW_OPS} == dict.fromkeys(
        NEW_OPS, f"ods-json {qtr_json}")
    assert info["models"]["func.func"] == BUILTIN_ORIGIN
    assert info["fallbacks"] == {"op": 0, "attribute": 0, "type": 0}
    # new dialects: nothing built in was replaced
    assert not any(r["origin"] == f"ods-json {qtr_json}" for r in info["replaced_models"])

    info = _cli_info(str(path))
    assert not NEW_OPS & set(info["models"])
    assert info["fallbacks"]["op"] == 11
    assert {r["name"] for r in info["fallback_reasons"] if r["kind"] == "op"} == NEW_OPS
