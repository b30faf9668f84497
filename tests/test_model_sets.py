"""Model sets chosen from the producer (`models/sets.py`), forced by the user, and how set-specific
registrations interact with plugins and single-op models; IREE's models as the project's own plugin."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from corpus import CORPUS, ODS, REPO
from mlirbc.bytecode.reader import read_bytecode
from mlirbc.ir.operation import PROPS_DECODED, PROPS_FALLBACK
from mlirbc.models.build import models
from mlirbc.models.builtin_models import BUILTIN_ORIGIN, MLIR24_ORIGIN
from mlirbc.models.iree import DATA_DIR as IREE_DATA
from mlirbc.models.layout import LayoutOpModel
from mlirbc.models.ods import DialectProvider, OdsDataset
from mlirbc.models.plugins import entry_points
from mlirbc.models.registry import Registry
from mlirbc.models.sets import choose_set

IREE_FLOW = CORPUS / "iree" / "mlp2.flow.mlirbc"
UPSTREAM = CORPUS / "upstream" / "Bytecode__uselist_orders.p01.mlirbc"
IREE_ORIGIN = "plugin mlirbc:iree"


@pytest.mark.parametrize("producer,name,note", [
    ("MLIR22.1.8", "mlir22", "producer MLIR22.1.8"),
    ("MLIR24.0.0git", "mlir24", "producer MLIR24.0.0git"),
    ("MLIR23.0.0git", "mlir23", "producer MLIR23.0.0git"),
    ("MLIR23.1.0", "mlir23", "producer MLIR23.1.0"),
    ("MLIR27.1.0", "mlir24", "no model set for MLIR 27, using the nearest older"),
    ("MLIR21.1.2", "mlir21", "producer MLIR21.1.2"),
    ("MLIR19.1.0", "mlir21", "older than every model set"),
    ("StableHLO_v1.15.0", "mlir22", "names no MLIR version; using the base set"),
])
def test_set_from_producer(producer: str, name: str, note: str) -> None:
    c = choose_set(producer)
    assert c.name == name and note in c.note


def test_set_from_dialect_versions_and_forced() -> None:
    assert choose_set("my-tool", {"builtin": b"\x01"}).name == "mlir24"
    assert choose_set("my-tool", {"arith": b"\x01"}).name == "mlir22"
    assert choose_set("MLIR24.0.0git", forced="mlir22").name == "mlir22"
    with pytest.raises(ValueError, match="unknown model set"):
        choose_set("MLIR22.1.8", forced="mlir99")


def _with_producer(data: bytes, producer: bytes) -> bytes:
    old = b"MLIR24.0.0git"
    assert len(producer) == len(old) and data.index(old) < 16
    return data.replace(old, producer, 1)


def _addf_props(data: bytes, reg: Registry | None = None) -> tuple[str | None, str, set[str]]:
    m = read_bytecode(data, reg)
    assert m.root is not None
    kinds = {op.properties.kind for op in m.root.walk()
             if op.name == "arith.addf" and op.properties is not None}
    return m.model_set, m.model_set_note, kinds


def test_the_same_bytes_decode_by_the_set_the_producer_names() -> None:
    """mlp2.flow's arith.addf payloads have MLIR 24's `roundingmode` slot (which MLIR 23 has too): the
    mlir24 and mlir23 sets decode them, the mlir22 set cannot (and keeps them verbatim)."""
    data = IREE_FLOW.read_bytes()
    assert _addf_props(data) == ("mlir24", "producer MLIR24.0.0git", {PROPS_DECODED})
    newer = _addf_props(_with_producer(data, b"MLIR25.0.0git"))
    assert newer[0] == "mlir24" and "nearest older" in newer[1] and newer[2] == {PROPS_DECODED}
    m23 = _addf_props(_with_producer(data, b"MLIR23.0.0git"))
    assert m23 == ("mlir23", "producer MLIR23.0.0git", {PROPS_DECODED})
    older = _addf_props(_with_producer(data, b"MLIR22.0.0git"))
    assert older[0] == "mlir22" and older[2] == {PROPS_FALLBACK}
    forced = _addf_props(data, models(model_set="mlir22"))
    assert forced == ("mlir22", "forced by the user", {PROPS_FALLBACK})


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mlirbc.cli", *args], capture_output=True, text=True,
                          timeout=300, env={"PYTHONPATH": str(REPO / "server"), "PATH": ""})


def test_cli_names_the_set_and_takes_models() -> None:
    proc = _cli("info", str(IREE_FLOW))
    assert proc.returncode == 0 and "models    mlir24 (producer MLIR24.0.0git)" in proc.stdout
    proc = _cli("info", "--json", "--models", "mlir22", str(IREE_FLOW))
    info: dict[str, Any] = json.loads(proc.stdout)
    assert info["model_set"] == {"name": "mlir22", "why": "forced by the user"}
    assert info["fallbacks"]["op"] == 9  # arith.addf 5, subf 2, mulf 2: MLIR 24 layouts
    bad = _cli("info", "--models", "mlir99", str(IREE_FLOW))
    assert bad.returncode == 2 and "unknown model set 'mlir99'" in bad.stderr
    proc = _cli("info", str(UPSTREAM))
    assert "models    mlir22 (producer MLIR22.1.8)" in proc.stdout


# -- registrations per set --------------------------------------------------------------------------------
def _op(name: str, summary: str) -> LayoutOpModel:
    from mlirbc.models.api import OpInfo

    return LayoutOpModel(name, op_info=OpInfo(name, summary))


def test_a_set_override_serves_its_set_only() -> None:
    reg = models(entry_points=False)
    m22 = reg.with_set("mlir22").op("arith.addf")
    m24 = reg.with_set("mlir24").op("arith.addf")
    assert (m22.origin, m24.origin) == (BUILTIN_ORIGIN, MLIR24_ORIGIN)
    assert reg.op("arith.addf").origin == BUILTIN_ORIGIN  # unbound: the registrations for every set
    r = reg.with_set("mlir24").dialect_registration("arith")
    assert r is not None and r.label == "dialect:arith [mlir24]"
    assert [x.label for x in r.replaced] == ["dialect:arith"]


def test_a_replacement_for_every_set_wins_over_set_overrides() -> None:
    """A plugin that replaces a dialect replaces it whatever set a file uses (set overrides included)."""
    reg = models(entry_points=False)
    view24 = reg.with_set("mlir24")
    assert view24.op("arith.addf").origin == MLIR24_ORIGIN  # cached in the view
    mine = OdsDataset(IREE_DATA)  # any provider will do; it has no arith ops
    r = reg.register_dialect("arith", DialectProvider(mine, "arith"), "plugin mine")
    assert {x.label for x in r.replaced} == {"dialect:arith", "dialect:arith [mlir21]",
                                             "dialect:arith [mlir23]", "dialect:arith [mlir24]"}
    assert "has no op 'arith.addf'" in view24.op("arith.addf").reason  # the view sees it at once
    assert reg.with_set("mlir22").dialect_registration("arith") is r


def test_a_single_op_model_wins_in_every_set_and_a_set_op_model_in_its_set() -> None:
    reg = models(entry_points=False)
    reg.register_op(_op("arith.addf", "mine for all"), "plugin all")
    reg.register_op(_op("arith.addf", "mine for 24"), "plugin 24", model_set="mlir24")
    assert reg.with_set("mlir22").op("arith.addf").origin == "plugin all"
    assert reg.with_set("mlir24").op("arith.addf").origin == "plugin 24"
    again = reg.register_op(_op("arith.addf", "again"), "plugin later")
    assert [x.origin for x in again.replaced if x.label.startswith("op:")] == ["plugin all", "plugin 24"]
    assert reg.with_set("mlir24").op("arith.addf").origin == "plugin later"


# -- IREE's models: a plugin of the project's own package ------------------------------------------------
def test_iree_models_come_from_the_entry_point_first() -> None:
    eps = [ep for ep in entry_points() if ep.dist == "mlirbc"]
    assert ("iree", "mlirbc.models.iree:register") in [(ep.name, ep.value) for ep in eps]
    reg = models()
    for dialect in ("util", "hal", "flow", "stream", "vm", "iree_codegen", "iree_tensor_ext", "pcf"):
        r = reg.dialect_registration(dialect)
        assert r is not None and r.origin == IREE_ORIGIN, dialect
    # IREE's transform extension ops are single ops: upstream's transform provider keeps the rest
    assert reg.op("transform.iree.match.contraction").origin == IREE_ORIGIN
    assert reg.op("transform.apply_patterns.canonicalization").origin == BUILTIN_ORIGIN


def test_iree_data_is_read_lazily() -> None:
    reg = models()
    r = reg.dialect_registration("hal")
    assert r is not None and isinstance(r.model, DialectProvider)
    dataset = r.model.dataset
    read_bytecode(UPSTREAM.read_bytes(), reg)
    assert dataset.files_read == []  # an upstream file reads no IREE data
    read_bytecode(IREE_FLOW.read_bytes(), reg)
    assert sorted(dataset.files_read) == ["flow", "hal", "iree_tensor_ext", "util"]


NEWER_ODS = ODS / "newer" / "iree-89ece87b-approx"


def test_a_user_replaces_iree_models_with_their_own_ods_json() -> None:
    """A newer IREE's `llvm-tblgen --dump-json` output replaces ours op by op (here: IREE's own util
    ops; the replaced chain names our plugin)."""
    util = NEWER_ODS / "Dialect_Util_IR_UtilOps.json"
    reg = models(ods_json=[str(util)])
    r = reg.op_registration("util.global")
    assert r is not None and r.origin == f"ods-json {util}"
    assert [x.origin for x in r.replaced] == [IREE_ORIGIN]
    m = read_bytecode(IREE_FLOW.read_bytes(), reg)
    assert not m.fallbacks
    origins = {op.properties.model for op in m.root.walk()  # type: ignore[union-attr]
               if op.name == "util.global" and op.properties is not None}
    assert origins == {f"ods-json {util}"}


def test_plugin_data_sizes() -> None:
    total = sum(p.stat().st_size for p in Path(IREE_DATA).iterdir())
    assert total < 200_000
