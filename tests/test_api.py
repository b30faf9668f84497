"""The Python API's reading and changing of IR, on real files: the names and semantics of MLIR's Python
bindings (`mlir.ir`), over mlirbc's own IR.

Semantics are checked against what MLIR's bindings do (their behaviour was observed with the bindings
jaxlib and IREE ship, e.g. `op.attributes` showing inherent attributes but not native properties, `.result`
refusing an op without exactly one result); where jaxlib's bindings are installed, constructors are
compared with theirs directly (`test_constructors_print_as_mlir_bindings_print`).
"""

from __future__ import annotations

import array
import gc
from pathlib import Path

import pytest

import mlirbc
from corpus import CORPUS
from mlirbc.ir import (
    ArrayAttr,
    Attribute,
    BlockArgument,
    BoolAttr,
    DenseElementsAttr,
    DenseI64ArrayAttr,
    DictAttr,
    F32Type,
    FlatSymbolRefAttr,
    FloatAttr,
    FunctionType,
    IndexType,
    InsertionPoint,
    IntegerAttr,
    IntegerType,
    Location,
    Operation,
    OpResult,
    RankedTensorType,
    StringAttr,
    Type,
    TypeAttr,
    UnitAttr,
    WalkOrder,
    WalkResult,
)
from mlirbc.summary import module_info

ARITH = CORPUS / "upstream" / "Dialect__Arith__ops.mlirbc"
"""60+ functions of arith ops (every arith property kind)."""
SCF = CORPUS / "upstream" / "Dialect__SCF__ops.f08.mlirbc"
LLVM = CORPUS / "upstream" / "Target__LLVMIR__llvmir.mlirbc"
"""llvm.add with its native `overflowFlags` property."""


def _funcs(m: mlirbc.Module) -> dict[str, Operation]:
    return {op.attributes["sym_name"].value: op for op in m.body.operations if op.name == "func.func"}


def _first(m: mlirbc.Module, name: str) -> Operation:
    return next(op for op in m.walk() if op.name == name)


# -- reading ----------------------------------------------------------------------------------------------

def test_walk_visits_every_op_pre_order_as_info_counts_them() -> None:
    m = mlirbc.load(ARITH)
    ops = list(m.walk())
    info = module_info(m._state.module, 0)
    assert len(ops) == info["op_count"] > 200
    assert ops[0] is m.operation and ops[0].name == "builtin.module"
    # pre-order: every op comes after its parent
    seen = {id(ops[0])}
    for op in ops[1:]:
        assert op.parent is not None and id(op.parent) in seen
        seen.add(id(op))
    # faces are the one face of their IR object: reached twice, the same Python object
    assert ops[1] is m.body.operations[0] and ops[1].parent is m.operation


def test_attributes_show_inherent_and_discardable_together_but_not_native_properties() -> None:
    m = mlirbc.load(ARITH)
    f = _funcs(m)["test_addi"]
    assert f.attributes.keys() == ["function_type", "sym_name"]
    assert isinstance(f.attributes["function_type"], TypeAttr)
    assert str(f.attributes["function_type"].value) == "(i64, i64) -> i64"
    addi = next(op for op in f.walk() if op.name == "arith.addi")
    assert addi.attributes.keys() == ["overflowFlags"]
    assert "overflowFlags" in addi.attributes and "nope" not in addi.attributes
    with pytest.raises(KeyError):
        addi.attributes["nope"]
    assert addi.attributes.get("nope") is None
    # a native property (llvm.add's overflowFlags) is not an attribute, as in MLIR's bindings
    llvm = mlirbc.load(LLVM)
    add = next(op for op in llvm.walk() if op.name == "llvm.add" and op._o.properties is not None
               and op._o.properties.values)
    assert "overflowFlags" in add._o.properties.values and "overflowFlags" not in add.attributes


def test_result_owner_uses() -> None:
    m = mlirbc.load(ARITH)
    f = _funcs(m)["test_addi"]
    block = f.regions[0].blocks[0]
    addi, ret = list(block.operations)
    assert isinstance(addi.result, OpResult) and addi.result.owner is addi
    assert addi.result is addi.results[0] and addi.result.result_number == 0
    with pytest.raises(ValueError, match="has 0 results"):
        _ = ret.result
    arg = block.arguments[0]
    assert isinstance(arg, BlockArgument) and arg.owner is block and arg.arg_number == 0
    assert block.owner is f and block.region is f.regions[0] and block.region.owner is f
    assert [(u.owner, u.operand_number) for u in arg.uses] == [(addi, 0)]
    assert [(u.owner, u.operand_number) for u in addi.result.uses] == [(ret, 0)]
    assert str(addi.result.type) == "i64" and block.arguments.types == [IntegerType.get_signless(64)] * 2
    assert addi.operands[1] is block.arguments[1]


def test_str_of_an_op_is_the_views_text() -> None:
    """`str(op)`: the op in the view's form (custom forms), as MLIR prints an op below the top level:
    attributes inline, values named as in the module's view; `str(module)`: the view itself, aliases
    included."""
    from mlirbc.view.printer import FORM_PRETTY, print_module

    m = mlirbc.load(ARITH)
    f = _funcs(m)["test_addi"]
    text = str(f)
    assert text.startswith("func.func @test_addi(%arg0: i64 loc(")
    assert "#loc" not in text
    local = print_module(m._state.module, header=False, with_map=False, form=FORM_PRETTY).text
    assert "".join("  " + line for line in text.splitlines(True)) in local
    addi = f.regions[0].blocks[0].operations[0]
    assert str(addi).startswith("%0 = arith.addi %arg0, %arg1 : i64 loc(") and str(addi) in text
    whole = str(m)
    assert "module {" in whole and "  func.func @test_addi(" in whole
    assert "#loc" in whole and "#loc" not in local  # the module's view names locations by alias


def test_walk_with_callback_orders_and_results() -> None:
    m = mlirbc.load(SCF)
    pre = [op.name for op in m.operation.walk()]
    post: list[str] = []
    m.operation.walk(lambda op: post.append(op.name), WalkOrder.POST_ORDER)
    assert sorted(pre) == sorted(post) and post[-1] == "builtin.module" and pre[0] == "builtin.module"
    first: list[str] = []

    def stop(op: Operation) -> WalkResult:
        first.append(op.name)
        return WalkResult.INTERRUPT if op.name == "scf.for" else WalkResult.ADVANCE

    m.operation.walk(stop, WalkOrder.PRE_ORDER)
    assert first == pre[:pre.index("scf.for") + 1]
    skipped: list[str] = []
    m.operation.walk(lambda op: skipped.append(op.name) or (WalkResult.SKIP if op.name == "func.func"
                                                             else WalkResult.ADVANCE),
                     WalkOrder.PRE_ORDER)
    assert set(skipped) == {"builtin.module", "func.func"}


# -- changing -----------------------------------------------------------------------------------------------

def test_setting_a_property_copies_the_shared_record() -> None:
    m = mlirbc.load(ARITH)
    addis = [op for op in m.walk() if op.name == "arith.addi"]
    a, b = addis[0], addis[1]
    assert a._o.properties is b._o.properties  # read with one payload: one record
    flags = Attribute.parse("#arith.overflow<nsw>")
    a.attributes["overflowFlags"] = flags
    assert a.attributes["overflowFlags"] == flags
    assert str(b.attributes["overflowFlags"]) == "#arith.overflow<none>"
    assert a._o.properties is not b._o.properties and a._o.properties.raw is None


def test_a_property_of_the_wrong_kind_is_refused_at_the_call() -> None:
    m = mlirbc.load(ARITH)
    f = _funcs(m)["test_addi"]
    with pytest.raises(mlirbc.IRError, match="func.func.*sym_name") as e:
        f.attributes["sym_name"] = IntegerAttr.get(IntegerType.get_signless(32), 3)
    assert isinstance(e.value, ValueError)
    assert f.attributes["sym_name"].value == "test_addi"  # unchanged
    with pytest.raises(mlirbc.IRError, match="function_type"):
        del f.attributes["function_type"]  # required
    f.attributes["sym_name"] = StringAttr.get("renamed")
    f.attributes["my.note"] = UnitAttr.get()  # not inherent: discardable
    assert f.attributes.keys() == ["function_type", "my.note", "sym_name"]
    assert f._o.attributes is not None and f._o.attributes.lookup("my.note") is not None
    del f.attributes["my.note"]
    with pytest.raises(KeyError):
        del f.attributes["my.note"]


def test_create_with_insertion_points_and_defaults() -> None:
    m = mlirbc.load(ARITH)
    f = _funcs(m)["test_addi"]
    block = f.regions[0].blocks[0]
    addi, ret = list(block.operations)
    i64 = IntegerType.get_signless(64)
    with InsertionPoint(ret), Location.file("new.mlir", 7, 9):
        c0 = Operation.create("arith.constant", results=[i64], attributes={"value": IntegerAttr.get(i64, 0)})
        add = Operation.create("arith.addi", results=[i64], operands=[addi.result, c0.result])
    assert list(block.operations) == [addi, c0, add, ret]
    # the default upstream fills in when it builds the op
    assert str(add.attributes["overflowFlags"]) == "#arith.overflow<none>"
    assert str(add.location) == 'loc("new.mlir":7:9)'
    assert [u.owner for u in c0.result.uses] == [add]
    assert {u.owner for u in addi.result.uses} == {ret, add}
    with InsertionPoint(block):
        tail = Operation.create("test.anything", results=[F32Type.get()], attributes={"x": UnitAttr.get()})
    assert block.operations[-1] is tail and tail.attributes.keys() == ["x"] and not tail._o.op_name.registered
    detached = Operation.create("test.other", ip=False)
    assert not detached.attached and detached.parent is None
    detached.move_before(ret)
    assert list(block.operations) == [addi, c0, add, detached, ret, tail]


def test_malformed_create_names_the_op_and_the_constraint() -> None:
    m = mlirbc.load(ARITH)
    f = _funcs(m)["test_addi"]
    ret = f.regions[0].blocks[0].operations[1]
    i64 = IntegerType.get_signless(64)
    before = [op.name for op in m.walk()]
    with InsertionPoint(ret):
        with pytest.raises(mlirbc.IRError, match=r"arith.constant.*value"):
            Operation.create("arith.constant", results=[i64])  # a required property missing
        with pytest.raises(mlirbc.IRError, match=r"func.call.*callee"):
            Operation.create("func.call", attributes={"callee": StringAttr.get("f")})  # not a symbol ref
        with pytest.raises(mlirbc.IRError, match=r"arith.addi.*exactly 1 result "):
            Operation.create("arith.addi", operands=[ret.operands[0], ret.operands[0]])  # no result type
        with pytest.raises(mlirbc.IRError, match=r"arith.addi.*exactly 2 operands"):
            Operation.create("arith.addi", results=[i64], operands=[ret.operands[0]])
        with pytest.raises(mlirbc.IRError, match=r"scf.for.*exactly 1 region "):
            Operation.create("scf.for", operands=[ret.operands[0]] * 3)
    assert [op.name for op in m.walk()] == before  # nothing was inserted


def test_replace_all_uses_and_erase() -> None:
    m = mlirbc.load(ARITH)
    f = _funcs(m)["test_addi"]
    block = f.regions[0].blocks[0]
    addi, ret = list(block.operations)
    with pytest.raises(mlirbc.IRError, match="still used by 'func.return'"):
        addi.erase()
    addi.result.replace_all_uses_with(block.arguments[0])
    assert ret.operands[0] is block.arguments[0] and not list(addi.result.uses)
    assert {u.owner for u in block.arguments[0].uses} == {addi, ret}
    addi.erase()
    assert list(block.operations) == [ret] and not addi.attached
    assert [u.owner for u in block.arguments[0].uses] == [ret]
    ret.operands[0] = block.arguments[1]
    assert not list(block.arguments[0].uses) and [u.owner for u in block.arguments[1].uses] == [ret]


def test_walk_tolerates_erasure() -> None:
    m = mlirbc.load(ARITH)
    total = sum(1 for _ in m.walk())
    erased = returns = 0
    names = []
    inside = 0
    for op in m.walk():
        names.append(op.name)
        if op.name == "func.func" and op.attributes["sym_name"].value.endswith("_vector"):
            inside += sum(1 for _ in op.walk())
            op.erase()  # its body is not walked
            erased += 1
        elif op.name == "func.return" and op.parent is not None and \
                op.parent.attributes["sym_name"].value.endswith("_tensor"):
            op.erase()  # the op being walked
            returns += 1
    assert erased >= 20 and returns >= 10
    after = list(m.walk())
    assert len(names) == total - (inside - erased)  # every op once, but those inside erased functions
    assert len(after) == total - inside - returns
    assert not any(op.name == "func.func" and op.attributes["sym_name"].value.endswith("_vector")
                   for op in after)


def test_move_before_and_after() -> None:
    m = mlirbc.load(ARITH)
    funcs = list(m.body.operations)
    a, b, c = funcs[0], funcs[1], funcs[2]
    c.move_before(a)
    assert list(m.body.operations)[:3] == [c, a, b]
    c.move_after(b)
    assert list(m.body.operations)[:3] == [a, b, c]
    with pytest.raises(mlirbc.IRError, match="its own regions"):
        a.move_before(a.regions[0].blocks[0].operations[0])
    with pytest.raises(mlirbc.IRError, match="top-level op"):
        m.operation.erase()


def test_blocks_and_arguments() -> None:
    m = mlirbc.load(ARITH)
    f = _funcs(m)["test_addi"]
    region = f.regions[0]
    b2 = region.blocks.append(F32Type.get(), arg_locs=[Location.unknown()])
    assert len(region.blocks) == 2 and b2.arguments.types == [F32Type.get()] and b2.owner is f
    arg = b2.add_argument(IndexType.get(), Location.name("x"))
    assert arg.arg_number == 1 and str(arg.location) == 'loc("x")'
    b2.erase_argument(0)
    assert arg.arg_number == 0 and len(b2.arguments) == 1
    assert f in {op for op in m.walk()} and f._o in m._state.touched


def test_clone_is_a_deep_copy_with_its_own_values() -> None:
    m = mlirbc.load(SCF)
    f = next(op for op in m.body.operations if op.name == "func.func" and any(
        o.name == "scf.for" for o in op.walk()))
    copy = f.clone(ip=InsertionPoint(m.body))
    copy.attributes["sym_name"] = StringAttr.get("copied")
    assert [o.name for o in copy.walk()] == [o.name for o in f.walk()]
    inner = [o for o in copy.walk()][1:]
    originals = set(o for o in f.walk())
    for o in inner:
        for v in o.operands:
            owner = v.owner if isinstance(v, OpResult) else v.owner.owner
            assert owner not in originals  # every value a clone uses is its own
    assert copy.parent is m.operation and m.body.operations[len(m.body.operations) - 1] is copy


def test_value_names_and_types() -> None:
    m = mlirbc.load(ARITH)
    f = _funcs(m)["test_addi"]
    addi = f.regions[0].blocks[0].operations[0]
    assert addi.result.get_name().startswith("%")
    assert f.regions[0].blocks[0].arguments[0].get_name().startswith("%arg")
    addi.result.set_type(IntegerType.get_signless(32))
    assert str(addi.result.type) == "i32"


def test_faces_are_released_with_the_program_s_references() -> None:
    from mlirbc.api import _state

    m = mlirbc.load(ARITH)
    before = len(_state._FACES)
    n = sum(1 for _ in m.walk())
    gc.collect()
    assert len(_state._FACES) < before + 10 < before + n


def test_context_is_optional_but_accepted() -> None:
    with mlirbc.Context() as ctx:
        assert mlirbc.Context.current is ctx
        t = IntegerType.get_signless(8, ctx)
        assert str(IntegerAttr.get(t, -1)) == "-1 : i8"
    assert mlirbc.Context.current is None  # as MLIR's bindings: None outside any `with`
    m = mlirbc.load(ARITH)
    assert isinstance(m.context, mlirbc.Context) and m.operation.context is m.context


# -- values ------------------------------------------------------------------------------------------------

def test_attribute_and_type_constructors() -> None:
    i8, i32 = IntegerType.get_signless(8), IntegerType.get_signless(32)
    assert IntegerAttr.get(i8, 255).value == -1
    assert IntegerAttr.get(IntegerType.get_unsigned(8), 255).value == 255
    with pytest.raises(mlirbc.IRError, match="does not fit"):
        IntegerAttr.get(i8, 256)
    assert IntegerAttr.get(i32, 5) == IntegerAttr.get(i32, 5) and hash(IntegerAttr.get(i32, 5)) == \
        hash(Attribute.parse("5 : i32"))
    assert FloatAttr.get(F32Type.get(), 1.5).value == 1.5
    assert str(FloatAttr.get_f64(2.0)) == "2.000000e+00 : f64"
    assert StringAttr.get("x").value == "x" and str(StringAttr.get("a\"b")) == '"a\\22b"'
    assert BoolAttr.get(True).value is True and str(BoolAttr.get(False)) == "false"
    assert FlatSymbolRefAttr.get("f").value == "f" and str(FlatSymbolRefAttr.get("f")) == "@f"
    assert str(ArrayAttr.get([UnitAttr.get(), StringAttr.get("s")])) == '[unit, "s"]'
    d = DictAttr.get({"b": UnitAttr.get(), "a": i32 and IntegerAttr.get(i32, 1)})
    assert str(d) == "{a = 1 : i32, b}" and "a" in d and d["a"].value == 1 and len(d) == 2
    assert TypeAttr.get(F32Type.get()).value == F32Type.get()
    assert str(DenseI64ArrayAttr.get([1, 2])) == "array<i64: 1, 2>"
    assert list(DenseI64ArrayAttr.get([3])) == [3]
    t = RankedTensorType.get([2, 3], F32Type.get())
    assert str(t) == "tensor<2x3xf32>" and t.shape == [2, 3] and t.element_type == F32Type.get()
    assert Type.parse("tensor<2x3xf32>") == t and isinstance(Type.parse("i1"), IntegerType)
    assert str(FunctionType.get([i32], [])) == "(i32) -> ()"
    with pytest.raises(ValueError):
        IntegerAttr(StringAttr.get("x"))
    assert IntegerAttr(Attribute(IntegerAttr.get(i32, 3))).value == 3
    with pytest.raises(mlirbc.IRError):
        Attribute.parse("dense<")


def test_dense_elements_from_buffers() -> None:
    a = DenseElementsAttr.get(array.array("i", [1, 2, 3]))
    assert a == Attribute.parse("dense<[1, 2, 3]> : tensor<3xi32>") and len(a) == 3 and a[2] == 3
    splat = DenseElementsAttr.get(array.array("f", [1.0, 1.0, 1.0, 1.0]), shape=[2, 2])
    assert splat == Attribute.parse("dense<1.000000e+00> : tensor<2x2xf32>") and splat.is_splat
    assert splat.get_splat_value() == FloatAttr.get(F32Type.get(), 1.0)
    i64x4 = RankedTensorType.get([4], IntegerType.get_signless(64))
    one = DenseElementsAttr.get(array.array("q", [7]), type=i64x4)
    assert str(one) == "dense<7> : tensor<4xi64>"
    with pytest.raises(mlirbc.IRError):
        DenseElementsAttr.get(array.array("f", [1.0, 2.0]), type=IntegerType.get_signless(64))
    np = pytest.importorskip("numpy")
    b = DenseElementsAttr.get(np.array([[True, False], [False, True]]))
    assert b == Attribute.parse("dense<[[true, false], [false, true]]> : tensor<2x2xi1>")
    c = DenseElementsAttr.get(np.arange(6, dtype=np.float16).reshape(2, 3))
    assert str(c.type) == "tensor<2x3xf16>" and c[5] == 5.0
    assert (np.asarray(c.dense_values()) == np.arange(6, dtype=np.float16).reshape(2, 3)).all()


def test_locations() -> None:
    assert str(Location.unknown()) == "loc(unknown)"
    f = Location.file("a.mlir", 1, 2)
    assert str(f) == 'loc("a.mlir":1:2)' and f.is_a_file() and (f.filename, f.start_line, f.start_col) == \
        ("a.mlir", 1, 2)
    n = Location.name("x", f)
    assert str(n) == 'loc("x"("a.mlir":1:2))' and n.name_str == "x" and n.child_loc == f
    assert str(Location.fused([f, Location.unknown(), f])) == 'loc("a.mlir":1:2)'
    c = Location.callsite(n, [f, Location.unknown()])
    assert c.is_a_callsite() and c.callee == n
    r = Location.file("a.mlir", 1, 2, 3, 4)
    assert (r.start_line, r.start_col, r.end_line, r.end_col) == (1, 2, 3, 4)


def test_constructors_print_as_mlir_bindings_print() -> None:
    """The oracle: jaxlib's MLIR Python bindings print the same values the same text."""
    stablehlo_oracle = pytest.importorskip("stablehlo_oracle")
    if not stablehlo_oracle.available():
        pytest.skip(stablehlo_oracle.SKIP_REASON)
    from jaxlib.mlir import ir as up

    def both(build):  # type: ignore[no-untyped-def]
        return str(build(mlirbc.ir)), str(build(up))

    with up.Context(), up.Location.unknown():
        cases = [
            lambda ir: ir.IntegerAttr.get(ir.IntegerType.get_signless(8), -1),
            lambda ir: ir.IntegerAttr.get(ir.IntegerType.get_unsigned(16), 65535),
            lambda ir: ir.IntegerAttr.get(ir.IndexType.get(), 42),
            lambda ir: ir.FloatAttr.get(ir.F32Type.get(), 0.1),
            lambda ir: ir.FloatAttr.get(ir.F16Type.get(), 3.5),
            lambda ir: ir.FloatAttr.get_f64(-2.5e300),
            lambda ir: ir.StringAttr.get("tab\there\"q"),
            lambda ir: ir.BoolAttr.get(True),
            lambda ir: ir.UnitAttr.get(),
            lambda ir: ir.FlatSymbolRefAttr.get("main"),
            lambda ir: ir.SymbolRefAttr.get(["a", "b"]),
            lambda ir: ir.TypeAttr.get(ir.FunctionType.get([ir.F32Type.get()], [ir.IndexType.get()])),
            lambda ir: ir.ArrayAttr.get([ir.UnitAttr.get(), ir.StringAttr.get("x")]),
            lambda ir: ir.DictAttr.get({"z": ir.UnitAttr.get(), "a": ir.StringAttr.get("x")}),
            lambda ir: ir.DenseI64ArrayAttr.get([1, -2, 3]),
            lambda ir: ir.DenseF32ArrayAttr.get([1.5, 2.0]),
            lambda ir: ir.DenseBoolArrayAttr.get([True, False]),
            lambda ir: ir.DenseElementsAttr.get(array.array("i", [1, 2, 3, 4]), shape=[2, 2]),
            lambda ir: ir.DenseElementsAttr.get(array.array("d", [0.5])),
            lambda ir: ir.RankedTensorType.get([2, ir.ShapedType.get_dynamic_size()], ir.BF16Type.get()),
            lambda ir: ir.MemRefType.get([4, 4], ir.F32Type.get()),
            lambda ir: ir.VectorType.get([4], ir.F16Type.get(), scalable=[True]),
            lambda ir: ir.ComplexType.get(ir.F64Type.get()),
            lambda ir: ir.TupleType.get_tuple([ir.IntegerType.get_signed(3), ir.NoneType.get()]),
            lambda ir: ir.Float8E4M3FNType.get(),
            lambda ir: ir.Location.file("f.py", 3, 4),
            lambda ir: ir.Location.name("n", ir.Location.file("f.py", 3, 4)),
            lambda ir: ir.Location.callsite(ir.Location.name("callee"), [ir.Location.file("a", 1, 2),
                                                                        ir.Location.file("b", 3, 4)]),
            lambda ir: ir.Location.fused([ir.Location.file("a", 1, 2), ir.Location.file("b", 3, 4)]),
        ]
        for build in cases:
            ours, theirs = both(build)
            assert ours == theirs


def test_unregistered_properties_read_as_mlir_bindings_read_them(tmp_path: Path) -> None:
    """An unregistered op's `<{...}>` dictionary: names in it are found and set there (MLIR's
    `getInherentAttr` of an unregistered op), while iteration lists the discardable ones."""
    m = mlirbc.parse('"builtin.module"() ({\n  "test.foo"() <{bar = 1 : i32}> {disc = 2 : i64} : () -> ()\n'
                     '}) : () -> ()\n')
    op = m.body.operations[0]
    assert "bar" in op.attributes and op.attributes["bar"].value == 1 and op.attributes.keys() == ["disc"]
    op.attributes["bar"] = IntegerAttr.get(IntegerType.get_signless(32), 5)
    assert op._o.properties.attribute is Attribute.parse("{bar = 5 : i32}")._a
    path = tmp_path / "u.mlirbc"
    m.save(path)
    back = mlirbc.load(path).body.operations[0]
    assert back.attributes["bar"].value == 5 and back.attributes["disc"].value == 2


def test_numpy_reads_dense_elements_as_mlir_bindings_let_it() -> None:
    np = pytest.importorskip("numpy")
    a = DenseElementsAttr.get(np.arange(6, dtype=np.int32).reshape(2, 3))
    assert (np.array(a) == np.arange(6).reshape(2, 3)).all() and np.array(a).dtype == np.int32
    m = mlirbc.load(CORPUS / "jax" / "mlp2_const.mlirbc")
    const = next(op for op in m.walk() if op.name == "vhlo.constant_v1")
    assert np.asarray(const.attributes["value"].dense_values()).shape == (784, 256)


def test_module_walk_takes_mlir_bindings_callback_too() -> None:
    m = mlirbc.load(SCF)
    seen: list[str] = []
    m.walk(lambda op: seen.append(op.name))
    assert seen[-1] == "builtin.module" and sorted(seen) == sorted(op.name for op in m.walk())
