"""MLIR 24 GPU code as IREE writes it: one dispatch module per device kind that iree-compile 3.13 compiled
from a corpus program (`benchmarks/iree_heldout.py --target cuda|rocm|vulkan --keep DIR`, phase
`executable-targets`).  They hold the ops whose MLIR 24 layouts and forms the CPU pipeline never showed:
`nvvm.barrier` (an `aligned` property), `nvvm.mma.sync` and `nvvm.shfl.sync` (new forms),
`llvm.intr.masked.gather`/`scatter` (an i64 alignment, new forms), `llvm.fptrunc` (fast-math flags),
`rocdl.make.buffer.rsrc` (a record count of any integer type), `rocdl.mfma.*` (properties where MLIR 22 had
operands), `rocdl.sched.barrier` (an enum where MLIR 22 had an i32), SPIR-V modules, functions and globals (a
`sym_visibility` property), entry points and execution modes, and ops MLIR 22 lacks (`spirv.GL.NMax`,
`spirv.InBoundsAccessChain`).

Each decodes with no fallback, and its pretty view (local scope and with aliases) reads back to the file's
own bytes, and (when iree-opt is installed) it is iree-opt's print line for line.  Their forms are also
pinned one by one in `tests/data/pretty_ports_iree/` (gpu_forms_mlir24, nvvm_mma_mlir24, spirv_mlir24,
llvm_rocdl_gpu_mlir24)."""

from __future__ import annotations

from pathlib import Path

import pytest

from iree_support import IREE_SKIP_REASON, iree_opt_path, run_iree
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.ir.operation import PROPS_FALLBACK, Operation
from mlirbc.models.build import models
from mlirbc.verifier import verify_module
from mlirbc.view.aliasing import alias_rules
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module
from pretty_oracle import first_difference, view_lines

FILES = sorted((Path(__file__).parent / "data" / "mlir24_gpu").glob("*.mlirbc"))
REGISTRY = models()


def _ops(root: Operation) -> list[Operation]:
    out, stack = [], [root]
    while stack:
        op = stack.pop()
        out.append(op)
        for region in op.regions:
            for block in region.blocks:
                stack.extend(block.operations)
    return out


def test_there_is_a_file_per_device_kind() -> None:
    assert {p.name.split("_", 1)[0] for p in FILES} == {"cuda", "rocm", "vulkan"}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_op_decodes_with_its_mlir24_model(path: Path) -> None:
    module = decode_bytecode(path.read_bytes(), REGISTRY)
    assert module.error is None and module.root is not None
    assert module.model_set == "mlir24"
    fallbacks = [op.name for op in _ops(module.root)
                 if op.properties is not None and op.properties.kind == PROPS_FALLBACK]
    assert fallbacks == []


@pytest.mark.parametrize("aliases", [False, True], ids=["local", "aliased"])
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_the_pretty_view_reads_back_to_the_files_bytes(path: Path, aliases: bool) -> None:
    data = path.read_bytes()
    module = decode_bytecode(data, REGISTRY)
    text = print_module(module, form="pretty", registry=REGISTRY, with_map=False,
                        aliases=alias_rules(module, REGISTRY) if aliases else None).text
    back = parse_module(text, template=module, registry=REGISTRY, with_map=False)
    assert back.module is not None, back.errors[:1]
    assert encode_bytecode(back.module, template=module, registry=REGISTRY) == data


@pytest.mark.skipif(iree_opt_path() is None, reason=IREE_SKIP_REASON)
@pytest.mark.parametrize("aliases", [False, True], ids=["local", "aliased"])
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_the_view_is_iree_opts_print(path: Path, aliases: bool) -> None:
    module = decode_bytecode(path.read_bytes(), REGISTRY)
    ours = view_lines(print_module(module, form="pretty", registry=REGISTRY, with_map=False,
                                   aliases=alias_rules(module, REGISTRY) if aliases else None).text)
    flags = ["--mlir-print-debuginfo"] + ([] if aliases else ["--mlir-print-local-scope"])
    proc = run_iree("iree-opt", [*flags, str(path)])
    assert proc.returncode == 0, proc.stderr[:300]
    assert first_difference(ours, proc.stdout.decode()) is None


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_the_file_verifies_as_iree_opt_verifies_it(path: Path) -> None:
    """iree-opt reads each file without a verifier error: the MLIR 24 models (layouts, and no MLIR 22
    constraint where MLIR 24 loosened one) find none either."""
    module = decode_bytecode(path.read_bytes(), REGISTRY)
    assert [f.message for f in verify_module(module, REGISTRY)] == []


def test_a_new_file_written_with_the_mlir24_models_is_named_and_read_as_mlir24() -> None:
    """Text without a header written with the `mlir24` set (`mlirbc encode --models mlir24`) holds MLIR
    24's builtin encodings (an identity layout as an affine-map code): its producer is the set's, so the
    file reads back (under MLIR 22's name the codes would be damage)."""
    mlir24 = models(model_set="mlir24")
    text = "func.func private @f(%a: memref<4xf32, 1>)\n"
    parsed = parse_module(text, registry=mlir24, with_map=False)
    assert parsed.module is not None
    data = encode_bytecode(parsed.module, template=None, registry=mlir24)
    back = decode_bytecode(data, REGISTRY)
    assert back.error is None and back.producer == "MLIR24.0.0git" and back.model_set == "mlir24"
    assert encode_bytecode(parsed.module, template=None, registry=mlir24, producer="MLIR22.1.8") != data
