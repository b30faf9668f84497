"""The order in which a writer lists the use-list orders of one op's results (or one block's arguments)
when more than one has one: MLIR 22 iterates a `DenseMap` (hash order), MLIR 23 and 24 go by index.  Each
file here is a real one of its producer where the two orders differ (an upstream test input written by
mlir-opt 22.1.8; the same input written by jaxlib 0.10.2's MLIR 23; an IREE stream-phase module of a JAX
program written by iree-compile, MLIR 24): it must read and write back to its own bytes, and written as the
other producer it must not."""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus import CORPUS
from mlirbc.bytecode import ir_writer
from mlirbc.bytecode.ir_writer import densemap_order, use_lists_by_index
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.models.build import models

FILES = [CORPUS / "upstream" / "Dialect__SCF__ops.f00.mlirbc",
         Path(__file__).parent / "data" / "uselists" / "scf_ops.mlir23.mlirbc",
         Path(__file__).parent / "data" / "uselists" / "rnn_scan.stream.mlir24.mlirbc"]


def test_the_two_orders_differ_where_the_files_need_them() -> None:
    assert densemap_order([5, 6]) == [6, 5]
    assert use_lists_by_index("MLIR24.0.0git") and use_lists_by_index("MLIR25.1.0")
    assert use_lists_by_index("MLIR23.0.0git")
    assert not use_lists_by_index("MLIR22.1.8") and not use_lists_by_index("StableHLO_v1.13.0")


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_the_file_writes_back_to_its_bytes(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = path.read_bytes()
    reg = models()
    module = decode_bytecode(data, reg)
    assert module.error is None
    assert encode_bytecode(module, template=module, registry=reg) == data
    # the file needs its producer's order: the other one writes other bytes
    monkeypatch.setattr(ir_writer, "use_lists_by_index", lambda producer: not use_lists_by_index(producer))
    assert encode_bytecode(module, template=module, registry=reg) != data
