"""Damaged bytes never escape as anything but a located DecodeError, never hang the reader, whatever
decodes (even partly) prints, and a complete view parses back.

Seeded byte flips, insertions, deletions and truncations of real files of every producer and version.
"""

from __future__ import annotations

import random
import time

import pytest

from corpus import CORPUS
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.errors import DecodeError
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module

SEEDS = ["upstream/Bytecode__uselist_orders.p01.mlirbc", "upstream/Bytecode__uselist_orders.p01.v0.mlirbc",
         "upstream/Dialect__SCF__ops.f08.v5.mlirbc", "upstream/Bytecode__resources.mlirbc",
         "jax/mlp2.mlirbc", "iree/softmax_dyn.flow.mlirbc"]


def _damage(data: bytes, rng: random.Random) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        pos = rng.randrange(len(b))
        kind = rng.randrange(4)
        if kind == 0:
            b[pos] ^= 1 << rng.randrange(8)
        elif kind == 1:
            b[pos] = rng.choice([0x00, 0xFF, 0x80, 0x01, rng.randrange(256)])
        elif kind == 2:
            b.insert(pos, rng.randrange(256))
        else:
            del b[pos]
    if rng.random() < 0.2:
        del b[rng.randrange(len(b)):]
    return bytes(b)


@pytest.mark.parametrize("rel", SEEDS)
def test_damaged_bytes_fail_cleanly(rel: str) -> None:
    data = (CORPUS / rel).read_bytes()
    rng = random.Random(rel)
    outcomes = {"decoded": 0, "partial": 0, "rejected": 0}
    for _ in range(1000):
        damaged = _damage(data, rng)
        start = time.perf_counter()
        try:
            m = decode_bytecode(damaged)
        except DecodeError as exc:
            assert 0 <= exc.offset <= len(damaged), exc
            outcomes["rejected"] += 1
        else:
            if m.error is not None:
                assert 0 <= m.error.offset <= len(damaged)
                outcomes["partial"] += 1
            else:
                outcomes["decoded"] += 1
            text = print_module(m).text  # whatever decoded, even partly, can be shown
            if m.error is None:  # and a complete view reads back
                result = parse_module(text, template=m)
                assert not result.errors, (result.errors[0].span, result.errors[0].message)
        assert time.perf_counter() - start < 10, "a damaged small file must not take long"
    assert outcomes["rejected"] > 0


def test_deep_location_chains_write_read_and_print() -> None:
    """JAX/IREE files carry long call-site chains: 3000 levels go through the writer, the reader (which
    resolves entries with an explicit stack) and the printer without recursion limits."""
    from mlirbc.bytecode.writer import encode_bytecode
    from mlirbc.ir.attributes import CallSiteLoc, FileLineColLoc, NameLoc, StringAttr, UnknownLoc
    from mlirbc.ir.implicit import stored_top
    from mlirbc.ir.module import Module
    from mlirbc.ir.operation import Operation, OpName

    loc = FileLineColLoc.get(StringAttr.get("f"), 1, 2)
    for i in range(3000):
        loc = CallSiteLoc.get(NameLoc.get(StringAttr.get(f"n{i}"), UnknownLoc.get()), loc)
    data = encode_bytecode(Module(Operation(OpName("test", "root", False), loc)), template=None)
    m = decode_bytecode(data)
    assert m.error is None and m.root is not None and m.implicit_module  # (as MLIR reads a non-module op)
    assert stored_top(m.root).location is loc
    assert print_module(m).text.count("callsite(") == 3000
