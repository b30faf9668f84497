"""The model registry with the built-in ODS models: lazy loading, disabling, replacement by ODS JSON
files and by an installed plugin package."""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from corpus import CORPUS, REPO
from mlirbc.ir.attributes import ArrayAttr, IntegerAttr, StringAttr, UnitAttr
from mlirbc.ir.types import IntegerType
from mlirbc.models.api import ModelError, OpInfo
from mlirbc.models.build import models
from mlirbc.models.builtin_models import BUILTIN_ORIGIN
from mlirbc.models.layout import ATTR_FLAGGED, ATTR_REQUIRED, SEGMENTS, LayoutOpModel
from mlirbc.models.memory import MemoryEntryReader, MemoryEntryWriter
from mlirbc.models.ods import DialectProvider, OdsDataset, load_ods_json, register_ods_dialects
from mlirbc.models.registry import Registry, parse_disable_spec
from oracle import TBLGEN_SKIP_REASON, dump_ods_json

TESTS = Path(__file__).resolve().parent
PLUGIN_DIR = TESTS / "plugin_pkg"
PLUGIN_DIST = "mlirbc-test-plugin"
PLUGIN_ORIGIN = f"plugin {PLUGIN_DIST}:test-arith"
USES_CONSTANT = CORPUS / "upstream" / "Bytecode__uselist_orders.p01.mlirbc"
"""A real corpus file with `arith.constant` ops (the op the test plugin replaces)."""


def dataset_of(reg: Registry, dialect: str) -> OdsDataset:
    r = reg.dialect_registration(dialect)
    assert r is not None and isinstance(r.model, DialectProvider)
    return r.model.dataset


# -- laziness ----------------------------------------------------------------------------------------
def test_lookup_loads_only_that_dialect() -> None:
    reg = models(entry_points=False)
    ds = dataset_of(reg, "arith")
    assert ds.files_read == [] and reg.loaded_dialects == set()
    assert dataset_of(reg, "func") is ds  # one dataset behind every dialect provider
    look = reg.op("arith.addi")
    assert look.model is not None and look.origin == BUILTIN_ORIGIN
    assert ds.files_read == ["arith"]
    assert reg.loaded_dialects == {"arith"}
    reg.op("arith.constant")
    reg.op("arith.addi")
    assert ds.files_read == ["arith"]  # read once
    reg.op("func.func")
    assert ds.files_read == ["arith", "func"]


def test_has_op_answers_as_op_does_without_building_models() -> None:
    reg = models(entry_points=False)
    ds = dataset_of(reg, "arith")
    names = ["arith.addi", "arith.nope", "func.func", "vcix.v.sv", "nodialect.op", "stablehlo.add",
             "vhlo.add_v1", "builtin.module"]
    asked = {n: reg.has_op(n) for n in names}
    assert ds.files_read == []  # answered from the index: no dialect file read, no model built
    reg.disable("arith.addi")
    assert not reg.has_op("arith.addi")
    fresh = models(entry_points=False)
    fresh.disable("arith.addi")
    assert {n: fresh.op(n).model is not None for n in names} == {**asked, "arith.addi": False}
    assert asked["arith.addi"] and not asked["arith.nope"] and not asked["vcix.v.sv"]


class _Scoped:
    """A dialect's registered codec seen through a producer check of a test's choosing."""

    def __init__(self, codec: Any, answer: Any) -> None:
        self._codec = codec
        self._answer = answer
        self.dialect = codec.dialect

    def accepts_producer(self, producer: str) -> bool:
        if isinstance(self._answer, Exception):
            raise self._answer
        return bool(self._answer)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._codec, name)


@pytest.mark.parametrize("answer", [True, False, RuntimeError("a plugin's bug")])
def test_a_codec_that_refuses_a_producer_leaves_its_values_as_fallbacks(answer: Any) -> None:
    from mlirbc.bytecode.reader import read_bytecode_file
    from mlirbc.bytecode.writer import encode_bytecode

    path = CORPUS / "vhlo" / "closed_over_constants.mlirbc"
    assert not read_bytecode_file(path, models()).fallbacks
    reg = models()
    codec, origin = reg.attr_codec("vhlo")
    assert codec is not None
    reg.register_attr_codec(_Scoped(codec, answer), origin)  # type: ignore[arg-type]
    m = read_bytecode_file(path, reg)
    attrs = [n for n in m.fallbacks if n.kind == "attribute"]
    if answer is True:
        assert not m.fallbacks
    else:  # refused, or a check that raised (not trusted): the vhlo attributes kept as they are stored
        assert attrs and all("does not read files of producer 'StableHLO_v" in n.reason for n in attrs)
    assert encode_bytecode(m, template=m, registry=reg) == path.read_bytes()


def test_every_upstream_dialect_is_registered() -> None:
    reg = models(entry_points=False)
    dialects = set(reg.dialect_names())
    assert len(dialects) == 47
    assert {"builtin", "arith", "func", "llvm", "spirv", "transform", "quant", "ptr"} <= dialects
    # mlir-opt 22.1.8 does not register vcix: its ops are written unregistered (dictionary payload)
    assert "vcix" not in dialects
    assert "no model for dialect 'vcix'" in reg.op("vcix.v.sv").reason
    everything = Registry()
    register_ods_dialects(everything, "test", all_dialects=True)
    assert everything.op("vcix.v.sv").model is not None
    assert reg.op("builtin.module").model is not None
    assert reg.type_codec("quant")[1] == BUILTIN_ORIGIN
    assert reg.attr_codec("quant") == (None, "")


def test_unknown_ops() -> None:
    reg = models(entry_points=False)
    assert "no model for dialect 'nosuch'" in reg.op("nosuch.op").reason
    look = reg.op("arith.nosuch")
    assert look.model is None and "has no op 'arith.nosuch'" in look.reason
    assert dataset_of(reg, "arith").files_read == []  # the index answers: no file read


# -- disabling ---------------------------------------------------------------------------------------
def test_disable_dialect_never_loads_it() -> None:
    reg = models(disabled=["arith"], entry_points=False)
    look = reg.op("arith.addi")
    assert look.model is None and "--disable-model arith" in look.reason
    assert dataset_of(reg, "arith").files_read == []
    assert reg.op("func.func").model is not None


def test_disable_one_op() -> None:
    reg = models(entry_points=False)
    assert reg.op("arith.addi").model is not None
    reg.disable("arith.addi")  # after a cached lookup: the cache is dropped
    assert reg.op("arith.addi").model is None
    assert "--disable-model arith.addi" in reg.op("arith.addi").reason
    assert reg.op("arith.addf").model is not None


def test_disable_codec() -> None:
    reg = models(disabled=["quant"], entry_points=False)
    assert reg.type_codec("quant") == (None, "")


# -- replacement -------------------------------------------------------------------------------------
def test_register_op_replaces_provider_op_without_loading() -> None:
    reg = models(entry_points=False)
    mine = LayoutOpModel("arith.constant", attributes=[], op_info=OpInfo("arith.constant", "mine"))
    r = reg.register_op(mine, "api tests")
    assert [x.label for x in r.replaced] == ["dialect:arith"]
    assert r.replaced[0].origin == BUILTIN_ORIGIN
    assert dataset_of(reg, "arith").files_read == []
    assert reg.op("arith.constant").model is mine
    assert reg.op("arith.addi").origin == BUILTIN_ORIGIN  # the dialect's other ops are untouched
    other = LayoutOpModel("newdialect.op")
    assert reg.register_op(other, "api tests").replaced == []


# -- ODS JSON files ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def mydialect_json(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ods") / "mydialect.json"
    if not dump_ods_json(TESTS / "data" / "mydialect.td", out):
        pytest.skip(TBLGEN_SKIP_REASON)
    return out


def test_ods_json_layouts(mydialect_json: Path) -> None:
    reg = Registry()
    regs = load_ods_json(reg, mydialect_json)
    assert sorted(r.name for r in regs) == [
        "mydialect.bar", "mydialect.baz", "mydialect.foo", "mydialect.qux"]
    look = reg.op("mydialect.foo")
    assert look.origin == f"ods-json {mydialect_json}"
    foo = look.model
    assert isinstance(foo, LayoutOpModel)
    # sorted byte-wise (upper case first), flagged = optional or default-valued, UnitAttr flagged,
    # Arg<> unwrapped, segment sizes counted from the operand declarations
    assert [(f.name, f.kind, f.count) for f in foo.attributes] == [
        ("Depth", ATTR_FLAGGED, None), ("checked", ATTR_FLAGGED, None), ("fast", ATTR_FLAGGED, None),
        ("label", ATTR_FLAGGED, None), ("operandSegmentSizes", SEGMENTS, 2),
        ("required_count", ATTR_REQUIRED, None)]
    assert foo.attributes[0].default == "7 : i64"
    info = foo.info()
    assert info.summary == "Foo with every kind of inherent attribute"
    assert info.description == "Foo takes two operand groups and several attributes."
    assert info.operands == ["inputs", "extra"] and info.results == ["out"]
    assert info.attributes == ["required_count", "label", "fast", "Depth", "checked"]

    bar = reg.op("mydialect.bar").model
    assert isinstance(bar, LayoutOpModel)
    assert [(f.name, f.kind, f.storage) for f in bar.attributes] == [("enabled", ATTR_REQUIRED, "BoolAttr")]
    assert [(f.name, f.kind) for f in bar.natives] == [
        ("marked", "native:unit"), ("align", "native:opt(int64)"), ("count", "native:int32"),
        ("tag", "native:string")]
    assert bar.info().isolated_from_above and bar.info().regions == ["body"]
    baz = reg.op("mydialect.baz").model
    assert baz is not None and not baz.has_properties()
    qux = reg.op("mydialect.qux").model  # hand-written encoding: hover info, but no decoding
    assert isinstance(qux, LayoutOpModel) and qux.custom_encoding
    assert qux.info().summary == "Qux writes its properties with hand-written C++"
    with pytest.raises(ModelError):
        qux.decode_properties(MemoryEntryReader(b"\x03", attrs=[StringAttr.get("a0")]))

    # a payload as the generated C++ would write it: enabled attr#1, marked, align [8], count -2, tag s#0
    payload = bytes.fromhex("03 01 01 11 00 fe ff ff ff ff ff ff ff 01")
    attrs = [StringAttr.get("a0"), IntegerAttr.get(IntegerType.get(1), 1)]
    with pytest.raises(ModelError, match="property enabled must be BoolAttr, not StringAttr"):
        bar.decode_properties(MemoryEntryReader(payload, attrs=[attrs[1], attrs[0]], strings=[b"t"]))
    values = bar.decode_properties(MemoryEntryReader(payload, attrs=attrs, strings=[b"t"]))
    i32, i64 = IntegerType.get(32), IntegerType.get(64)
    assert values == {"align": ArrayAttr.get((IntegerAttr.get(i64, 8),)),
                      "count": IntegerAttr.get(i32, 0xFFFFFFFE), "enabled": attrs[1],
                      "marked": UnitAttr.get(), "tag": StringAttr.get("t")}
    w = MemoryEntryWriter(attrs=list(attrs), strings=[b"t"])
    bar.encode_properties(values, w)
    assert w.data == payload


def test_ods_json_replaces_builtin_op(mydialect_json: Path, tmp_path: Path) -> None:
    # Rename the made-up dialect to `arith`: its `foo` op is new, and a `constant` op replaces upstream's.
    records = json.loads(mydialect_json.read_text())
    records["My_Dialect"]["name"] = "arith"
    records["My_BazOp"]["opName"] = "constant"
    path = tmp_path / "arith-override.json"
    path.write_text(json.dumps(records))
    reg = models(entry_points=False, ods_json=[str(path)])
    look = reg.op("arith.constant")
    assert look.origin == f"ods-json {path}"
    assert look.model is not None and look.model.info().summary == "Baz has no properties at all"
    r = reg.op_registration("arith.constant")
    assert r is not None and r.replaced[0].label == "dialect:arith"
    assert r.replaced[0].origin == BUILTIN_ORIGIN
    assert reg.op("arith.addi").origin == BUILTIN_ORIGIN
    assert reg.op("arith.foo").origin == f"ods-json {path}"


def test_ods_json_rejects_other_json(tmp_path: Path) -> None:
    from mlirbc.models.ods_derive import OdsError

    p = tmp_path / "x.json"
    p.write_text('{"a": 1}')
    with pytest.raises(OdsError):
        load_ods_json(Registry(), p)
    p.write_text("not json")
    with pytest.raises(OdsError):
        load_ods_json(Registry(), p)


# -- an installed plugin package ---------------------------------------------------------------------
def _pip(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pip", *args, "--disable-pip-version-check",
                           "--no-input"], capture_output=True, text=True, timeout=300)


def _installed() -> bool:
    return _pip("show", PLUGIN_DIST).returncode == 0


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO / "server"), env.get("PYTHONPATH")]))
    return env


def _cli_info(path: Path) -> dict[str, Any]:
    """`mlirbc info --json` in a fresh interpreter: it reads the installed entry points itself."""
    proc = subprocess.run([sys.executable, "-m", "mlirbc.cli", "info", "--json", str(path)],
                          capture_output=True, text=True, env=_env(), timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    info: dict[str, Any] = json.loads(proc.stdout)
    return info


def test_plugin_replaces_builtin_model(tmp_path: Path) -> None:
    if importlib.util.find_spec("hatchling") is None:
        pytest.skip("hatchling is needed to build the test plugin offline")
    if _installed():
        pytest.skip(f"{PLUGIN_DIST} is already installed (another run in progress?)")
    src = tmp_path / "plugin_pkg"
    shutil.copytree(PLUGIN_DIR, src)  # build from a copy: nothing is written into the repository
    proc = _pip("install", "--no-build-isolation", "--no-deps", "--no-index", str(src))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    try:
        importlib.invalidate_caches()
        reg = models()
        look = reg.op("arith.constant")
        assert look.origin == PLUGIN_ORIGIN
        assert look.model is not None
        assert look.model.info().summary.endswith("(from mlirbc-test-plugin)")
        r = reg.op_registration("arith.constant")
        assert r is not None and r.origin == PLUGIN_ORIGIN
        assert [(x.label, x.origin) for x in r.replaced] == [("dialect:arith", BUILTIN_ORIGIN)]
        assert reg.op("arith.addi").origin == BUILTIN_ORIGIN
        # the plugin can itself be switched off like any model
        assert models(disabled=["arith.constant"]).op("arith.constant").model is None
        # the CLI, a new process, finds the plugin too: it decodes the file's constants, and `info`
        # says so and names what it replaced
        info = _cli_info(USES_CONSTANT)
        assert info["ops"]["arith.constant"] > 0 and info["fallbacks"]["op"] == 0
        assert info["models"]["arith.constant"] == PLUGIN_ORIGIN
        assert info["models"]["func.func"] == BUILTIN_ORIGIN
        assert {"key": "op:arith.constant", "origin": PLUGIN_ORIGIN,
                "replaced": [BUILTIN_ORIGIN]} in info["replaced_models"]
    finally:
        proc = _pip("uninstall", "-y", PLUGIN_DIST)
        importlib.invalidate_caches()
        sys.modules.pop("mlirbc_test_plugin", None)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    reg = models()
    look = reg.op("arith.constant")
    assert look.origin == BUILTIN_ORIGIN
    assert look.model is not None and look.model.info().summary == "integer or floating point constant"
    r = reg.op_registration("arith.constant")
    assert r is None  # served by the dialect provider again
    info = _cli_info(USES_CONSTANT)
    assert info["models"]["arith.constant"] == BUILTIN_ORIGIN and info["fallbacks"]["op"] == 0
    assert not any(x["key"] == "op:arith.constant" or x["origin"] == PLUGIN_ORIGIN
                   for x in info["replaced_models"])


def test_broken_plugin_does_not_break_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    from mlirbc.models import plugins

    class FakeEP:
        name = "boom"
        dist = "broken-dist"

        def load(self) -> object:
            def register(reg: Registry, origin: str) -> None:
                raise RuntimeError("boom")
            return register

    monkeypatch.setattr(plugins, "entry_points", lambda group: [FakeEP()])
    reg = Registry()
    problems = plugins.load_entry_point_plugins(reg)
    assert [str(p) for p in problems] == ["plugin broken-dist:boom: RuntimeError: boom"]
    # the builder keeps the failure and every other model
    monkeypatch.setattr(plugins, "entry_points", lambda group: [FakeEP()])
    built = models()
    assert [p.source for p in built.problems] == ["plugin broken-dist:boom"]
    assert built.op("arith.addi").model is not None


# -- one builder, one spelling ----------------------------------------------------------------------
@pytest.mark.parametrize(("spec", "dialect", "op"), [
    ("arith", "arith", None), ("arith.addi", "arith", "arith.addi"), ("dialect:arith", "arith", None),
    ("op:arith.addi", "arith", "arith.addi"), (" llvm.mlir.constant ", "llvm", "llvm.mlir.constant"),
])
def test_disable_spellings(spec: str, dialect: str, op: str | None) -> None:
    d = parse_disable_spec(spec)
    assert (d.dialect, d.op) == (dialect, op)
    reg = models(disabled=[spec], entry_points=False)
    assert reg.op(op or f"{dialect}.nosuch").model is None
    assert not reg.problems


@pytest.mark.parametrize("spec", ["", "a b", "op:arith", "dialect:arith.addi", "model:arith", ".addi"])
def test_bad_disable_specs_are_problems_not_crashes(spec: str) -> None:
    with pytest.raises(ValueError):
        parse_disable_spec(spec)
    reg = models(disabled=[spec], entry_points=False)
    assert [p.source for p in reg.problems] == ["disable"]
    assert reg.op("arith.addi").model is not None


def test_bad_model_sources_are_reported_and_the_rest_loads(tmp_path: Path) -> None:
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("[1, 2")
    reg = models(ods_json=[str(bad_json), str(tmp_path / "missing.json")],
                 plugin_modules=["no_such_module_xyz", "json"], entry_points=False)
    sources = [p.source for p in reg.problems]
    assert sources == ["plugin module no_such_module_xyz", "plugin module json",
                       f"ods-json {bad_json}", f"ods-json {tmp_path / 'missing.json'}"]
    assert "has no register" in str(reg.problems[1])
    assert reg.op("arith.addi").model is not None


def test_cli_refuses_bad_model_sources_it_was_given(tmp_path: Path) -> None:
    for extra in (["--disable-model", "a b"], ["--ods-json", str(tmp_path / "missing.json")]):
        proc = subprocess.run([sys.executable, "-m", "mlirbc.cli", "info", str(USES_CONSTANT), *extra],
                              capture_output=True, text=True, env=_env())
        assert proc.returncode == 2, proc.stderr
        assert "cannot load models" in proc.stderr and "Traceback" not in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "mlirbc.cli", "info", "--json", str(USES_CONSTANT),
                           "--disable-model", "op:arith.constant"], capture_output=True, text=True,
                          env=_env())
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["fallbacks"]["op"] > 0
