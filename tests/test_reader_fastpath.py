"""The reader's fast paths change nothing but the time, on real bytes.

* the batch decoder of builtin table entries (`bytecode/builtin_batch.py`) gives every entry exactly the
  object, model and fallback reason the general path gives, and the same error, on damaged files too;
* ops read from a file share one empty list per part they lack, which refuses to grow (an op gets a list
  of its own to add parts); ops with the same properties payload share one record.
"""

from __future__ import annotations

import pytest

from corpus import CORPUS, EXAMPLES, expect, invalid_manifest, manifest
from large_module import LargeModule
from mlirbc.bytecode.attrtypes import AttrTypeTable
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.errors import DecodeError
from mlirbc.ir.module import Module
from mlirbc.ir.operation import Block, FrozenEmptyList, Operation

_VALID = [CORPUS / r["path"] for r in manifest() if not r["path"].startswith("large/")]
# Every damaged file, and every tenth valid one of the full corpus, every one of the core corpus (all groups
# and versions): each is read twice.
FILES = [CORPUS / "invalid" / r["path"] for r in invalid_manifest()] + _VALID[::expect(full=10, core=1)]


def _tables(monkeypatch: pytest.MonkeyPatch, batch: bool) -> list[AttrTypeTable]:
    """Collect the tables the reader builds; without `batch`, its fast path is switched off."""
    seen: list[AttrTypeTable] = []
    original = AttrTypeTable.decode_builtin

    def decode_builtin(self: AttrTypeTable) -> None:
        seen.append(self)
        if batch:
            original(self)

    monkeypatch.setattr(AttrTypeTable, "decode_builtin", decode_builtin)
    return seen


def _read(data: bytes) -> tuple[Module | None, str]:
    try:
        m = decode_bytecode(data)
    except DecodeError as exc:
        return None, str(exc)
    return m, str(m.error)


def test_the_batch_decoder_gives_what_the_general_path_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(FILES) > 500
    differences = []
    batched = 0
    for path in FILES:
        data = path.read_bytes()
        with monkeypatch.context() as mp:
            plain_tables = _tables(mp, batch=False)
            plain, plain_error = _read(data)
        with monkeypatch.context() as mp:
            fast_tables = _tables(mp, batch=True)
            fast, fast_error = _read(data)
        if plain_error != fast_error:
            differences.append(f"{path.name}: error {plain_error!r} != {fast_error!r}")
            continue
        if not plain_tables:
            continue
        slow_t, fast_t = plain_tables[0], fast_tables[0]
        for kind in (0, 1):
            for i, (a, b) in enumerate(zip(slow_t.values[kind], fast_t.values[kind], strict=True)):
                if a is None:
                    # Decoding stopped early without the batch; with it, only entries the general path
                    # would decode the same way are filled.
                    continue
                if b is not a or slow_t.models[kind][i] != fast_t.models[kind][i] or \
                        slow_t.reasons[kind][i] != fast_t.reasons[kind][i]:
                    differences.append(f"{path.name}: {('attribute', 'type')[kind]} #{i}: {a!r:.80} "
                                       f"!= {b!r:.80}")
        batched += 1
        assert plain is None or fast is None or plain.fallbacks == fast.fallbacks, path.name
    assert batched > 400
    assert not differences, "\n".join(differences[:20])


def _ops(m: Module) -> list[Operation]:
    assert m.root is not None
    return list(m.root.walk())


def test_ops_share_empty_part_lists_that_refuse_to_grow() -> None:
    m = decode_bytecode((EXAMPLES / "02_cfg.mlirbc").read_bytes())
    ops = _ops(m)
    leaves = [op for op in ops if not op.regions]
    assert len(leaves) > 2
    assert all(type(op.regions) is FrozenEmptyList for op in leaves)
    assert leaves[0].regions is leaves[1].regions  # one shared list, not one per op
    with pytest.raises(TypeError, match="assign a new list"):
        leaves[0].successors.append(Block())
    with pytest.raises(TypeError, match="assign a new list"):
        leaves[0].regions += []
    # The op API still adds parts: the op gets a list of its own.
    region = leaves[0].add_region()
    assert leaves[0].regions == [region] and leaves[1].regions == []
    branch = next(op for op in ops if op.successors)
    assert type(branch.successors) is list


def test_ops_with_one_payload_share_their_properties_record(large: LargeModule) -> None:
    data = large.path.read_bytes()
    m = decode_bytecode(data)
    by_payload: dict[tuple[str, int], list[Operation]] = {}
    for op in _ops(m):
        if op.properties is not None:
            by_payload.setdefault((op.name, op.properties.offset), []).append(op)
    shared = [ops for ops in by_payload.values() if len(ops) > 1]
    assert shared
    for ops in shared:
        assert all(op.properties is ops[0].properties for op in ops)
    records = {id(op.properties) for op in _ops(m) if op.properties is not None}
    assert len(records) == len(by_payload) < sum(len(v) for v in by_payload.values()) // 10
