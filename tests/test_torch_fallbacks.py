"""Files of a producer without models: torch-mlir's FX importer (tests/data/torch/README.md).

A user opens such a file and sees every op, the torch ops generic with their stored properties; nothing is
guessed and nothing lost: each file writes back byte for byte, and its view, in both pretty modes and generic,
reads back to the same bytes.  With the `iree` extra, iree-opt (which registers torch-mlir's dialects) reads
the files too, and its print of the module's own ops (`func.func`, its signature and `return` types, the
locations) agrees with ours.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from iree_support import iree_opt_path, run_iree
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.models.build import models
from mlirbc.view.aliasing import alias_rules
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module

DATA = Path(__file__).resolve().parent / "data" / "torch"
FILES = sorted(p.name for p in DATA.glob("*.mlirbc"))
_FUNC = re.compile(r"\s*func\.func @main\(.*")


def test_the_shipped_files_are_there() -> None:
    assert FILES == ["attention_params.mlirbc", "conv.mlirbc", "misc.mlirbc", "mlp.mlirbc"]


@pytest.mark.parametrize("name", FILES)
def test_torch_ops_are_fallbacks_and_every_byte_comes_back(name: str) -> None:
    data = (DATA / name).read_bytes()
    reg = models()
    module = decode_bytecode(data, reg)
    assert module.error is None and module.producer == "MLIR24.0.0git"
    notes = module.fallbacks
    assert notes and {n.kind for n in notes} == {"op"}  # attributes and types decoded or kept as text
    assert all(n.name.startswith("torch.") and "no model for dialect 'torch'" in n.reason for n in notes)
    assert encode_bytecode(module, template=module, registry=reg) == data
    for form, aliased in (("pretty", True), ("pretty", False), ("generic", False)):
        text = print_module(module, form=form, registry=reg, with_map=False,
                            aliases=alias_rules(module, reg) if aliased else None).text
        assert "!torch.vtensor<[" in text and '"torch.' in text
        back = parse_module(text, template=module, registry=reg, with_map=False)
        assert back.module is not None, back.errors[:2]
        assert encode_bytecode(back.module, template=module, registry=reg) == data, (form, aliased)


@pytest.mark.skipif(iree_opt_path() is None, reason="iree-opt (the `iree` test extra) is not installed")
@pytest.mark.parametrize("name", FILES)
def test_iree_opt_prints_the_function_as_we_do(name: str) -> None:
    reg = models()
    module = decode_bytecode((DATA / name).read_bytes(), reg)
    ours = print_module(module, form="pretty", registry=reg, with_map=False).text
    proc = run_iree("iree-opt", ["--mlir-print-debuginfo", "--mlir-print-local-scope", str(DATA / name)])
    assert proc.returncode == 0, proc.stderr[-500:]
    theirs = proc.stdout.decode()
    signature = [line for line in ours.splitlines() if _FUNC.match(line)]
    assert len(signature) == 1 and signature[0] in theirs.splitlines()
    # each op line in the same order, with the same op name and location (the torch ops print generic in
    # ours, custom in iree-opt's)
    op_line = re.compile(r'\s*(?:%[^=]*= )?"?([\w.]+)"?.* loc\((.*)\)$')
    ours_ops = [m.groups() for m in map(op_line.match, ours.splitlines()) if m]
    theirs_ops = [m.groups() for m in map(op_line.match, theirs.splitlines()) if m]
    assert len(ours_ops) > 5 and ours_ops == theirs_ops
