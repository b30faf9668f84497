"""Files of MLIR 23 (`MLIR23.0.0git`, the MLIR jaxlib 0.10.2 carries and writes with): the `mlir23` model set.

The files here are upstream test inputs written as bytecode by jaxlib (`benchmarks/mlir23_heldout.py` makes
178 such files from the corpus's inputs).  Before the set existed every op whose layout changed after MLIR
22 was a fallback in them (arith's float ops with their `roundingmode` slot, gpu.func's inherent `kernel`,
gpu.launch, llvm.func and llvm.call) and the writer ordered use-lists as MLIR 22 does.  Each must decode with
no fallback, write back to its bytes, and read its pretty view back to its bytes; with jaxlib present, every
view equals jaxlib's print, and every model of the set has the layout jaxlib's op bindings show.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from corpus import REPO
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.models.build import models
from mlirbc.models.registry import Registry
from mlirbc.view.aliasing import alias_rules
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module
from stablehlo_oracle import SKIP_REASON, available

FILES = sorted((Path(__file__).parent / "data" / "mlir23").glob("*.mlirbc"))
TOOLS = REPO / "server" / "tools"
needs_jaxlib = pytest.mark.skipif(not available(), reason=SKIP_REASON)


def _registry() -> Registry:
    return models(entry_points=False)


def test_there_are_files() -> None:
    assert len(FILES) >= 6


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_the_file_decodes_whole_and_writes_back(path: Path) -> None:
    data = path.read_bytes()
    reg = _registry()
    module = decode_bytecode(data, reg)
    assert module.error is None and module.root is not None
    assert module.producer == "MLIR23.0.0git" and module.model_set == "mlir23"
    assert not module.fallbacks, [f.reason for f in module.fallbacks][:3]
    assert encode_bytecode(module, template=module, registry=reg) == data
    for aliased in (False, True):
        text = print_module(module, form="pretty", registry=reg,
                            aliases=alias_rules(module, reg) if aliased else None).text
        back = parse_module(text, template=module, registry=reg)
        assert back.module is not None, back.errors[:1]
        assert encode_bytecode(back.module, template=module, registry=reg) == data


def test_the_mlir22_models_cannot_decode_what_mlir23_changed() -> None:
    """The set matters: forced to MLIR 22's models, arith's float ops and gpu.func are fallbacks again (kept
    verbatim), and the bytes still write back."""
    data = next(p for p in FILES if "arith" in p.name).read_bytes()
    reg = models(entry_points=False, model_set="mlir22")
    module = decode_bytecode(data, reg)
    assert {f.name for f in module.fallbacks} >= {"arith.addf", "arith.mulf"}
    assert encode_bytecode(module, template=module, registry=reg) == data


def _jaxlib_print(data: bytes, generic: bool, local_scope: bool) -> str:
    from jax._src.interpreters import mlir as jmlir  # type: ignore[import-not-found,unused-ignore]
    from jaxlib.mlir import ir  # type: ignore[import-not-found,unused-ignore]

    with jmlir.make_ir_context():
        module = ir.Module.parse(data)
        text: str = module.operation.get_asm(print_generic_op_form=generic, enable_debug_info=True,
                                             use_local_scope=local_scope)
    return text


def _lines(text: str) -> list[str]:
    text = text.split("\n{-#\n", 1)[0]  # jaxlib's get_asm prints no resource trailer
    return [line for line in text.rstrip("\n").split("\n") if not line.lstrip().startswith("// mlirbc:")]


@needs_jaxlib
@pytest.mark.parametrize("mode", ["generic", "local", "aliased"])
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_the_view_is_jaxlibs_print(path: Path, mode: str) -> None:
    data = path.read_bytes()
    reg = _registry()
    module = decode_bytecode(data, reg)
    form = "generic" if mode == "generic" else "pretty"
    rules = alias_rules(module, reg) if mode == "aliased" else None
    ours = _lines(print_module(module, form=form, registry=reg, aliases=rules).text)
    theirs = _lines(_jaxlib_print(data, mode == "generic", mode != "aliased"))
    assert ours == theirs


def _jaxlib_bindings() -> Path | None:
    spec = importlib.util.find_spec("jaxlib")
    if spec is None or not spec.submodule_search_locations:
        return None
    for base in spec.submodule_search_locations:
        if (Path(base) / "mlir" / "dialects").is_dir():
            return Path(base) / "mlir" / "dialects"
    return None


@needs_jaxlib
def test_every_mlir23_layout_is_what_jaxlibs_bindings_show() -> None:
    """For each op of the upstream dialects jaxlib ships, the mlir23 set's model has the inherent attributes,
    segment sizes and native properties jaxlib's bindings (MLIR 23) show."""
    sys.path.insert(0, str(TOOLS))
    from op_bindings import SEGMENTS, load_bindings

    found = _jaxlib_bindings()
    assert found is not None
    reg = _registry().with_set("mlir23")
    upstream = {n.split(".", 1)[0] for n in models(entry_points=False).op_names()} - \
        {"stablehlo", "chlo", "sdy", "vhlo"}
    checked = 0
    differ: list[str] = []
    for name, b in sorted(load_bindings(found).items()):
        if name.split(".", 1)[0] not in upstream:
            continue
        model: Any = reg.op(name).model
        assert model is not None, name
        fields = [(f.name, f.kind) for f in model.attributes]
        counts = {f.name: f.count for f in model.attributes if f.kind == SEGMENTS}
        want_counts = {k: v for k, v in (("operandSegmentSizes", b.operand_segments),
                                         ("resultSegmentSizes", b.result_segments)) if v is not None}
        if (fields, counts, sorted(f.name for f in model.natives)) != (b.fields(), want_counts,
                                                                        sorted(b.natives)):
            differ.append(name)
        checked += 1
    assert checked > 700 and not differ, differ[:20]


@needs_jaxlib
def test_the_generator_reproduces_the_mlir23_data() -> None:
    proc = subprocess.run([sys.executable, str(TOOLS / "gen_newer_models.py"), "--mlir23", "--check"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
