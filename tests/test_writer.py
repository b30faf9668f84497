"""The writer's rules in isolation, edited IR, and bad input (which must raise EncodeError, nothing else)."""

from __future__ import annotations

import pytest

from corpus import CORPUS, EXAMPLES
from mlirbc.bytecode.ir_writer import densemap_order, permutation
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.recorder import Recorder
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.errors import EncodeError
from mlirbc.ir.attributes import (
    DictionaryAttr,
    FallbackAttr,
    FileLineColLoc,
    IntegerAttr,
    StringAttr,
    UnknownLoc,
)
from mlirbc.ir.module import Module
from mlirbc.ir.operation import PROPS_DECODED, PROPS_FALLBACK, Operation, OpName, Properties
from mlirbc.ir.types import FallbackType, IntegerType
from mlirbc.models.build import models
from oracle import SKIP_REASON, mlir_opt_path, run_mlir_opt


def _example(name: str) -> Module:
    return decode_bytecode((EXAMPLES / f"{name}.mlirbc").read_bytes())


def _ops(m: Module) -> list[Operation]:
    assert m.root is not None
    return list(m.root.walk())


def _find(m: Module, name: str) -> Operation:
    return next(op for op in _ops(m) if op.name == name)


# -- primitive rules ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("sizes", "hex_bytes"), [
    ([1, 1, 0], "0d030301"),      # dense: more than half non-zero  (cf.cond_br, format 7.3)
    ([1, 0], "0701" "03"),         # sparse: one entry at index 0, 0 index bits
    ([0, 1], "0703" "07"),         # sparse: (1 << 1) | 1
    ([0, 0], "03"),                # sparse, nothing non-zero
    ([2, 1], "090503"),            # dense
])
def test_sparse_array_encoding(sizes: list[int], hex_bytes: str) -> None:
    rec = Recorder(6)
    rec.sparse_array(sizes)
    assert rec.finish() == [bytes.fromhex(hex_bytes)]


def test_use_list_permutation_from_stored_forms() -> None:
    assert permutation((False, (1, 0, 2)), 3) == [1, 0, 2]
    assert permutation((True, (1, 0, 0, 1)), 9) == [1, 0, 2, 3, 4, 5, 6, 7, 8]
    assert permutation((False, (1, 0, 2)), 4) is None       # the uses changed since it was read
    assert permutation((True, (5, 0)), 3) is None
    assert permutation((False, (0, 0, 1)), 3) is None       # not a permutation


def test_multi_result_use_lists_follow_densemap_iteration_order() -> None:
    assert densemap_order([0, 1]) == [0, 1]
    # 37 * k mod 64 orders small keys: 0, 7, 14, ... land before 1 (bucket 37).
    assert densemap_order([1, 7]) == [7, 1]
    assert sorted(densemap_order(list(range(100)))) == list(range(100))


# -- edits ------------------------------------------------------------------------------------------
def _add_op(m: Module, name: OpName, attrs: DictionaryAttr | None = None) -> Operation:
    func = _find(m, "func.func")
    block = func.regions[0].blocks[0]
    loc = FileLineColLoc.get(StringAttr.get("edit.mlir"), 7, 3)
    op = Operation(name, loc, (IntegerType.get(17),), [block.arguments[0]], attrs)
    block.operations.insert(0, op)
    op.parent = block
    return op


def test_template_mode_appends_new_entries_and_rereads() -> None:
    m = _example("02_cfg")
    data = (EXAMPLES / "02_cfg.mlirbc").read_bytes()
    key = StringAttr.get("mlirbc.note")
    _add_op(m, OpName("test", "fresh_op", False),
            DictionaryAttr.get(((key, IntegerAttr.get(IntegerType.get(64), 42)),)))
    out = encode_bytecode(m)
    assert out != data
    again = decode_bytecode(out)
    assert again.error is None
    names = [op.name for op in _ops(again)]
    assert "test.fresh_op" in names
    added = _find(again, "test.fresh_op")
    assert added.attributes is not None and added.attributes.lookup("mlirbc.note") is \
        IntegerAttr.get(IntegerType.get(64), 42)
    assert added.results[0].type is IntegerType.get(17)
    # The template's entries keep their numbers: its attribute table is a prefix of the new one.
    assert again.source is not None and m.source is not None
    old = [e.value for e in m.source.attrs]
    assert [e.value for e in again.source.attrs[:len(old)]] == old


def test_written_output_is_what_mlir_opt_writes_for_it() -> None:
    """Fresh mode on edited IR: mlir-opt reading our bytes and writing them again changes nothing."""
    if mlir_opt_path() is None:
        pytest.skip(SKIP_REASON)
    m = _example("03_regions")
    _add_op(m, OpName("test", "edited", False),
            DictionaryAttr.get(((StringAttr.get("k"), StringAttr.get("v")),)))
    for version in (0, 3, 5, 6):
        ours = encode_bytecode(m, version=version, template=None)
        proc = run_mlir_opt(["--allow-unregistered-dialect", "--emit-bytecode",
                             f"--emit-bytecode-version={version}", "-"], ours)
        assert proc.returncode == 0, proc.stderr.decode()
        assert proc.stdout == ours, f"version {version}"


def test_use_list_orders_survive_and_are_dropped_when_stale() -> None:
    m = _example("07_uselist_results")
    data = (EXAMPLES / "07_uselist_results.mlirbc").read_bytes()
    assert encode_bytecode(m, template=None) == data
    # Remove one use of a value with a stored order: the order no longer fits and is dropped.
    user = next(op for op in _ops(m) for v in op.operands if v.use_order is not None)
    user.operands = []
    out = encode_bytecode(m, template=None)
    assert decode_bytecode(out).error is None


def test_version_conversion_up_from_v0_merges_nothing_and_splits_properties() -> None:
    # Inherent attributes read from a v0 dictionary go back into properties at v6.
    v6 = (EXAMPLES / "02_cfg.mlirbc").read_bytes()
    m = decode_bytecode((EXAMPLES / "02_cfg.v0.mlirbc").read_bytes())
    assert encode_bytecode(m, version=6, template=None, producer="MLIR22.1.8") == v6


def test_properties_are_reused_verbatim_only_at_the_template_version() -> None:
    m = _example("09_properties")
    op = next(o for o in _ops(m) if o.properties is not None and o.properties.kind == PROPS_DECODED)
    assert op.properties is not None and op.properties.raw is not None
    op.properties.raw = b"\x00garbage"  # a stale payload must never reach another version
    out = encode_bytecode(m, version=5)
    assert b"\x00garbage" not in out
    assert decode_bytecode(out).error is None


# -- bad input --------------------------------------------------------------------------------------
def test_fresh_mode_refuses_fallback_attributes() -> None:
    m = _example("02_cfg")
    _add_op(m, OpName("test", "x", False),
            DictionaryAttr.get(((StringAttr.get("a"), FallbackAttr.get("foo", b"\x01\x02")),)))
    with pytest.raises(EncodeError, match="fallback attribute of dialect 'foo'"):
        encode_bytecode(m, template=None)
    # In template mode too, if the value is not an entry of the template.
    with pytest.raises(EncodeError, match="not an entry of the template"):
        encode_bytecode(m)


def test_fresh_mode_refuses_fallback_types() -> None:
    m = _example("02_cfg")
    op = _add_op(m, OpName("test", "x", False))
    op.results[0].type = FallbackType.get("foo", b"\x05")
    with pytest.raises(EncodeError, match="fallback type"):
        encode_bytecode(m, template=None)


def test_fallback_properties_need_their_template() -> None:
    opaque = models(disabled=["vhlo"])  # the StableHLO models off: the vhlo ops are fallbacks
    m = decode_bytecode((CORPUS / "jax" / "mlp2.mlirbc").read_bytes(), opaque)
    assert any(op.properties is not None and op.properties.kind == PROPS_FALLBACK for op in _ops(m))
    encode_bytecode(m, registry=opaque)  # fine with the file as template
    with pytest.raises(EncodeError, match="opaque bytes"):
        encode_bytecode(m, template=None, registry=opaque)
    with pytest.raises(EncodeError, match="opaque bytes"):
        encode_bytecode(m, version=5, registry=opaque)
    with pytest.raises(EncodeError, match="cannot be merged into its attribute dictionary"):
        encode_bytecode(m, version=4, registry=opaque)


@pytest.mark.parametrize("version", [-1, 7, 100])
def test_unknown_versions_are_refused(version: int) -> None:
    with pytest.raises(EncodeError, match="version"):
        encode_bytecode(_example("01_empty"), version=version)


def test_value_from_above_an_isolated_op() -> None:
    m = _example("02_cfg")
    assert m.root is not None
    body = m.root.regions[0].blocks[0]
    top = Operation(OpName("test", "top", False), UnknownLoc.get(), (IntegerType.get(32),))
    body.append(top)
    _find(m, "arith.addi").operands[0] = top.results[0]  # func.func is IsolatedFromAbove
    with pytest.raises(EncodeError, match="outside the IsolatedFromAbove op 'func.func'"):
        encode_bytecode(m, template=None)


def test_value_from_a_sibling_region() -> None:
    m = _example("03_regions")
    nonisolated = _find(m, "test.nonisolated")
    q = nonisolated.regions[1].blocks[0].arguments[0]
    _find(m, "test.def3").operands = [q]
    with pytest.raises(EncodeError, match="does not enclose"):
        encode_bytecode(m, template=None)


def test_value_of_a_removed_op() -> None:
    m = _example("02_cfg")
    const = _find(m, "arith.constant")
    assert const.parent is not None
    const.parent.operations.remove(const)  # its result is still used by arith.addi
    with pytest.raises(EncodeError, match="not defined in the module"):
        encode_bytecode(m, template=None)


def test_successor_in_another_region() -> None:
    m = _example("03_regions")
    br = next(op for op in _ops(m) if op.successors)
    foreign = next(r for op in _ops(m) for r in op.regions
                   if br.parent is not None and r is not br.parent.parent and r.blocks)
    br.successors = [foreign.blocks[0]]
    with pytest.raises(EncodeError, match="successor"):
        encode_bytecode(m, template=None)


def test_properties_the_model_cannot_encode() -> None:
    m = _example("02_cfg")
    func = _find(m, "func.func")
    assert func.properties is not None
    func.properties = Properties(PROPS_DECODED, values={"no_such_field": UnknownLoc.get()})
    with pytest.raises(EncodeError, match="func.func"):
        encode_bytecode(m, template=None)


def test_wrong_kinds_of_objects() -> None:
    m = _example("02_cfg")
    op = _add_op(m, OpName("test", "x", False))
    op.results[0].type = StringAttr.get("not a type")  # type: ignore[assignment]
    with pytest.raises(EncodeError, match="where a type is expected"):
        encode_bytecode(m, template=None)
    op.results[0].type = IntegerType.get(8)
    op.location = IntegerType.get(8)  # type: ignore[assignment]
    with pytest.raises(EncodeError):
        encode_bytecode(m, template=None)
    op.location = UnknownLoc.get()
    op.attributes = StringAttr.get("x")  # type: ignore[assignment]
    with pytest.raises(EncodeError, match="DictionaryAttr"):
        encode_bytecode(m, template=None)


def test_module_without_root_or_with_errors() -> None:
    with pytest.raises(EncodeError, match="no root"):
        encode_bytecode(Module(None))
    m = _example("01_empty")
    with pytest.raises(EncodeError, match="Module, None or 'auto'"):
        encode_bytecode(m, template="nope")  # type: ignore[arg-type]
    with pytest.raises(EncodeError, match="not read from a bytecode file"):
        encode_bytecode(m, template=Module(m.root))


def test_negative_numbers_where_varints_go() -> None:
    m = _example("02_cfg")
    op = _add_op(m, OpName("test", "x", False))
    op.location = FileLineColLoc.get(StringAttr.get("f"), -3, 1)
    with pytest.raises(EncodeError):
        encode_bytecode(m, template=None)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("operands", [None], "operand #0 of op 'arith.addi' is a NoneType"),
    ("successors", [5], "successor #0 of op 'arith.addi' is a int"),
    ("regions", ["r"], "region #0 of op 'arith.addi' is a str"),
    ("op_name", "arith.addi", "name of type str"),
    ("properties", {"a": 1}, "properties of type dict"),
])
def test_malformed_ir_is_named_precisely(field: str, value: object, message: str) -> None:
    m = _example("02_cfg")
    setattr(_find(m, "arith.addi"), field, value)
    for template in ("auto", None):
        with pytest.raises(EncodeError, match=message):
            encode_bytecode(m, template=template)
