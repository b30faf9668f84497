"""The Python API as someone else's programs use it: written from the contract's names (issue 27) and the
habits of MLIR's Python bindings (`mlir.ir`), run on real files of every producer (upstream MLIR at
bytecode versions 0-6, IREE's MLIR 24, JAX exports in VHLO, files read with models disabled so that ops
are fallbacks), with the oracles judging what a save wrote: upstream `mlir-opt`, `iree-opt` for IREE
files, jaxlib for JAX exports.

Each test is a program a user of `mlir.ir` would write; what it found missing or wrong in the API was
fixed, and the test keeps it fixed.  Where jaxlib's bindings are installed, behaviour is compared with
theirs on the same input.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import mlirbc
from corpus import CORPUS, EXAMPLES
from iree_support import IREE_SKIP_REASON, iree_opt_path
from iree_support import generic_print as iree_print
from mlirbc.ir import (
    Attribute,
    Context,
    FunctionType,
    InsertionPoint,
    IntegerAttr,
    IntegerType,
    Location,
    Operation,
    StringAttr,
    TypeAttr,
    UnitAttr,
)
from oracle import SKIP_REASON, mlir_opt_path, run_mlir_opt
from stablehlo_oracle import SKIP_REASON as JAX_SKIP_REASON
from stablehlo_oracle import available as jax_available
from stablehlo_oracle import generic_print as jax_print

ORACLE_FLAGS = ["--allow-unregistered-dialect", "--mlir-print-op-generic", "--mlir-print-local-scope",
                "--mlir-print-debuginfo"]
UPSTREAM_VERSIONS = [f"upstream/Bytecode__i1_roundtrip{v}.mlirbc"
                     for v in ("", ".v0", ".v1", ".v2", ".v3", ".v4", ".v5")]
"""One upstream file at every bytecode version (0-6)."""
FALLBACK_FILES = [("upstream/Dialect__Arith__ops.mlirbc", ("arith",)),
                  ("iree/mlp2.flow.mlirbc", ("flow", "util", "hal")),
                  ("jax/mlp2.mlirbc", ("vhlo",))]
"""A file of each producer read with the models of its main dialects disabled: their ops are fallbacks."""


def _mlir_opt(data: bytes) -> str:
    if mlir_opt_path() is None:
        pytest.skip(SKIP_REASON)
    proc = run_mlir_opt(ORACLE_FLAGS, data)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[:2000]
    return proc.stdout.decode()


def _oracle_print(rel: str, data: bytes) -> str:
    """The producer's own tool's generic print of `data` (what it reads in the saved file)."""
    if rel.startswith("iree/"):
        if iree_opt_path() is None:
            pytest.skip(IREE_SKIP_REASON)
        return iree_print(data)
    if rel.startswith("jax/"):
        if not jax_available():
            pytest.skip(JAX_SKIP_REASON)
        return jax_print(data)
    return _mlir_opt(data)


def _unnumbered(text: str) -> str:
    return re.sub(r"%\d+", "%_", text)


def _jax_ir() -> Any:
    if not jax_available():
        pytest.skip(JAX_SKIP_REASON)
    from jaxlib.mlir import ir  # type: ignore[import-not-found,unused-ignore]

    return ir


# -- building into a loaded module, mlir.ir style -----------------------------------------------------------


@pytest.mark.parametrize("rel", UPSTREAM_VERSIONS)
def test_a_function_built_with_mlir_ir_idioms_is_read_back_by_mlir_opt(rel: str, tmp_path: Path) -> None:
    """`with Context(), Location.file(...)`, `InsertionPoint(module.body)`, `Operation.create`,
    `region.blocks.append(*types)`: the new block's arguments take the current location (as MLIR's
    bindings give them), and mlir-opt prints the file as it printed the original plus the function."""
    m = mlirbc.load(CORPUS / rel)
    i32 = IntegerType.get_signless(32)
    with Context(), Location.file("build.py", 7, 3):
        with InsertionPoint(m.body):
            f = Operation.create("func.func", regions=1, attributes={
                "sym_name": StringAttr.get("added"),
                "function_type": TypeAttr.get(FunctionType.get([i32, i32], [i32])),
                "sym_visibility": StringAttr.get("private")})
        entry = f.regions[0].blocks.append(i32, i32)
        assert [str(a.location) for a in entry.arguments] == ['loc("build.py":7:3)'] * 2
        with InsertionPoint(entry):
            c = Operation.create("arith.constant", results=[i32],
                                 attributes={"value": IntegerAttr.get(i32, 42)})
            add = Operation.create("arith.addi", results=[i32], operands=[entry.arguments[0], c.result])
            Operation.create("func.return", operands=[add.result])
    assert Location.current is None and Context.current is None  # as MLIR's bindings: None outside
    out = tmp_path / "out.mlirbc"
    m.save(out)
    assert mlirbc.load(out).version == m.version
    before = _mlir_opt((CORPUS / rel).read_bytes())
    after = _mlir_opt(out.read_bytes())
    start = after.index('  "func.func"() <{function_type = (i32, i32) -> i32, sym_name = "added"')
    closing = '}) : () -> () loc("build.py":7:3)\n'
    end = after.index(closing, start) + len(closing)
    added = after[start:end]
    assert '^bb0(%arg0: i32 loc("build.py":7:3), %arg1: i32 loc("build.py":7:3)):' in added
    assert '"arith.constant"() <{value = 42 : i32}> : () -> i32 loc("build.py":7:3)' in added
    assert '"arith.addi"(%arg0, %0) <{overflowFlags = #arith.overflow<none>}>' in added
    # the new values take numbers in mlir-opt's numbering of the whole module: compare without them
    assert _unnumbered(after[:start] + after[end:]) == _unnumbered(before)


# -- attribute values ---------------------------------------------------------------------------------------


def test_integer_values_of_every_width_read_as_mlir_bindings_read_them() -> None:
    """`IntegerAttr(a).value` of every integer attribute of the integers example (i0, i1, i9, i128, si32,
    ui32, ...) is what jaxlib's bindings give for the same attribute; `i0` and NumPy integers are taken
    by the constructors as MLIR's bindings take them."""
    import numpy as np

    ir = _jax_ir()
    m = mlirbc.load(EXAMPLES / "13_integers.mlirbc")
    seen = 0
    with ir.Context():
        for op in m.walk():
            for name, attr in op.attributes.items():
                if isinstance(attr, IntegerAttr):
                    theirs = ir.IntegerAttr(ir.Attribute.parse(str(attr))).value
                    assert attr.value == theirs, (name, str(attr))
                    seen += 1
    assert seen >= 8
    assert "0 : i0" in [str(a) for op in m.walk() for a in op.attributes.values()]
    i0 = IntegerType.get_signless(0)
    assert str(i0) == "i0" and IntegerAttr.get(i0, 0).value == 0
    with pytest.raises(mlirbc.IRError, match="does not fit i0"):
        IntegerAttr.get(i0, 1)
    assert str(IntegerAttr.get(IntegerType.get_signless(64), np.int64(-5))) == "-5 : i64"
    with pytest.raises(TypeError, match="takes an int"):
        IntegerAttr.get(IntegerType.get_signless(64), 1.5)  # type: ignore[arg-type]


def test_numpy_reads_a_jax_exports_weights_as_jaxlib_deserializes_them() -> None:
    """`numpy.array(op.attributes["value"])` of a JAX export's `vhlo.constant_v1` gives the weights (not a
    0-d object array), equal to the `stablehlo.constant` jaxlib's deserializer makes of the same file."""
    import numpy as np

    ir = _jax_ir()
    rel = CORPUS / "jax" / "mlp2_const.mlirbc"
    m = mlirbc.load(rel)
    ours = [np.array(op.attributes["value"]) for op in m.walk() if op.name == "vhlo.constant_v1"]
    assert ours and all(a.dtype != object for a in ours)
    from jaxlib.mlir.dialects import stablehlo  # type: ignore[import-not-found,unused-ignore]

    from stablehlo_oracle import context

    with context() as ctx:
        module = stablehlo.deserialize_portable_artifact(ctx, rel.read_bytes())
        theirs: list[Any] = []

        def visit(op: Any) -> Any:
            if op.name == "stablehlo.constant":
                theirs.append(np.array(ir.DenseElementsAttr(op.attributes["value"])))
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
    assert len(theirs) == len(ours)
    for a, b in zip(ours, theirs, strict=True):
        assert a.shape == b.shape and np.array_equal(a, b)
    one = np.array(StringAttr.get("x"))  # an attribute without dense data is one object, as any other
    assert one.shape == () and one[()] == StringAttr.get("x")


# -- fallback ops -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rel", "disabled"), FALLBACK_FILES, ids=[r for r, _ in FALLBACK_FILES])
def test_a_tagging_program_runs_over_fallback_ops_like_any_op(rel: str, disabled: tuple[str, ...],
                                                              tmp_path: Path) -> None:
    """`if "my.tag" not in op.attributes: op.attributes["my.tag"] = UnitAttr.get()` over every op: a
    dialect-prefixed name is never one of an op's properties, so fallback ops answer it like any op; the
    producer's tool reads the saved file with every op tagged, and the opaque payloads are unchanged.
    A name that may be one of the opaque properties is refused with the op named."""
    m = mlirbc.load(CORPUS / rel, disable_models=disabled)
    fallbacks = [op for op in m.walk() if op.is_fallback]
    assert len(fallbacks) > 5
    payloads = [op.opaque_properties for op in fallbacks]
    tagged = 0
    for op in m.walk():
        if op is m.operation:
            continue
        assert "my.tag" not in op.attributes and op.attributes.get("my.tag") is None
        op.attributes["my.tag"] = UnitAttr.get()
        assert "my.tag" in op.attributes
        tagged += 1
    fb = next(op for op in fallbacks if op.opaque_properties)
    with pytest.raises(mlirbc.OpaqueError, match=f"'{re.escape(fb.name)}'.*opaque"):
        fb.attributes["value"] = UnitAttr.get()
    with pytest.raises(mlirbc.OpaqueError, match=re.escape(fb.name)):
        _ = "value" in fb.attributes
    with pytest.raises(KeyError):
        del fb.attributes["other.tag"]
    out = tmp_path / "tagged.mlirbc"
    m.save(out)
    back = mlirbc.load(out, disable_models=disabled)
    assert [op.opaque_properties for op in back.walk() if op.is_fallback] == payloads
    printed = _oracle_print(rel, out.read_bytes())
    assert len(re.findall(r"\bmy\.tag\b", printed)) == tagged


# -- values of another module -------------------------------------------------------------------------------


@pytest.mark.parametrize("rel", ["upstream/Dialect__Arith__ops.mlirbc", "iree/mlp2.flow.mlirbc",
                                 "jax/mlp2.mlirbc", "upstream/Bytecode__i1_roundtrip.v2.mlirbc"])
def test_a_value_of_another_module_is_refused_at_the_call(rel: str, tmp_path: Path) -> None:
    """Rewiring an op to a value of another module (operands[i] = v, replace_all_uses_with,
    Operation.create(operands=...)) raises IRError naming the op at the call, changes nothing, and the
    module still saves byte for byte as read."""
    m = mlirbc.load(CORPUS / rel)
    other = mlirbc.load(CORPUS / rel)
    theirs = next(op for op in other.walk() if len(op.results) == 1).result
    user = next(op for op in m.walk() if op.operands)
    ours = next(op for op in m.walk() if len(op.results) == 1 and list(op.result.uses))
    with pytest.raises(mlirbc.IRError, match=f"op '{re.escape(user.name)}'.*another module"):
        user.operands[0] = theirs
    with pytest.raises(mlirbc.IRError, match="another module"):
        ours.result.replace_all_uses_with(theirs)
    with pytest.raises(mlirbc.IRError, match="op 'test.use'.*another module"):
        Operation.create("test.use", operands=[theirs], ip=InsertionPoint(user))
    assert "test.use" not in [op.name for op in m.walk()]
    out = tmp_path / "same.mlirbc"
    m.save(out)
    assert out.read_bytes() == (CORPUS / rel).read_bytes()


def test_attribute_parse_gives_the_most_specific_class() -> None:
    a = Attribute.parse("dense<[1, 2]> : tensor<2xi32>")
    assert type(a).__name__ == "DenseIntElementsAttr" and isinstance(a, mlirbc.DenseElementsAttr)


# -- reading bytecode the way MLIR's bindings read it -------------------------------------------------------


@pytest.mark.parametrize("rel", ["jax/mlp2.mlirbc", "iree/mlp2.flow.v3.mlirbc",
                                 "upstream/Dialect__SCF__ops.f08.v0.mlirbc"])
def test_module_parse_of_bytecode_bytes_and_parse_file_read_as_load(rel: str, tmp_path: Path) -> None:
    """`Module.parse(open(f, "rb").read())` and `Module.parseFile(f)` (how `mlir.ir` reads bytecode) give
    the module `mlirbc.load` gives: the same ops, and an unchanged save is the file byte for byte."""
    data = (CORPUS / rel).read_bytes()
    loaded = mlirbc.load(CORPUS / rel)
    for m in (mlirbc.Module.parse(data), mlirbc.Module.parseFile(CORPUS / rel), mlirbc.parse(data)):
        assert [op.name for op in m.walk()] == [op.name for op in loaded.walk()]
        assert str(m) == str(loaded) and m.version == loaded.version
        out = tmp_path / "same.mlirbc"
        m.save(out)
        assert out.read_bytes() == data
    with pytest.raises(mlirbc.DecodeError, match="byte"):
        mlirbc.Module.parse(data[: len(data) // 2])


def test_value_locations_are_what_jaxlib_reads() -> None:
    """`value.location` of every op result and block argument of a JAX export is the location jaxlib's
    bindings give the same value."""
    ir = _jax_ir()
    rel = CORPUS / "jax" / "mlp2.mlirbc"
    ours = []
    for op in mlirbc.load(rel).walk():
        ours += [str(r.location) for r in op.results]
        ours += [str(a.location) for region in op.regions for b in region.blocks for a in b.arguments]
    theirs: list[str] = []
    from stablehlo_oracle import context

    with context():
        module = ir.Module.parse(rel.read_bytes())

        def visit(op: Any) -> Any:
            theirs.extend(str(r.location) for r in op.results)
            theirs.extend(str(a.location) for region in op.regions for b in region.blocks
                          for a in b.arguments)
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    assert len(ours) > 20 and ours == theirs


def test_a_block_prints_with_its_label_as_mlir_prints_a_block() -> None:
    """`str(block)`: the label line (`^bb0(%arg0: T loc(...)):` or `^bb0:`), then each op as `str(op)`
    gives it, one level in."""
    m = mlirbc.load(CORPUS / "upstream" / "Dialect__SCF__ops.f08.mlirbc")
    blocks = [b for op in m.walk() for r in op.regions for b in r.blocks]
    assert any(len(b.arguments) for b in blocks) and any(not len(b.arguments) for b in blocks)
    for b in blocks:
        label, _, rest = str(b).partition("\n")
        if len(b.arguments):
            assert label.startswith("^bb0(") and label.endswith("):")
            assert re.findall(r"(%arg\d+): ", label) == [a.get_name() for a in b.arguments]
        else:
            assert label == "^bb0:"
        assert rest == "".join("".join("  " + line + "\n" for line in str(op).splitlines())
                               for op in b.operations)


# -- rewriting ----------------------------------------------------------------------------------------------


class _SwapOperands(mlirbc.RewritePattern):
    """Swap the two operands of a commutative op once (a tag says it was done)."""

    def match_and_rewrite(self, op: Operation, rewriter: mlirbc.PatternRewriter) -> bool:
        if "my.swapped" in op.attributes:
            return False
        a, b = op.operands[0], op.operands[1]
        op.operands[0], op.operands[1] = b, a
        op.attributes["my.swapped"] = UnitAttr.get()
        rewriter.notify_op_modified(op)
        return True


class _EraseDeadConstants(mlirbc.RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: mlirbc.PatternRewriter) -> bool:
        if not op.name.endswith(("constant", "constant_v1")) or len(op.results) != 1 or \
                list(op.result.uses):
            return False
        rewriter.erase_op(op)
        return True


REWRITTEN = [("upstream/Dialect__Arith__ops.mlirbc", "arith.addi", ()),
             ("upstream/Dialect__Arith__ops.mlirbc", "arith.addi", ("arith",)),
             ("iree/mlp2.flow.mlirbc", "arith.addf", ()),
             ("jax/mlp2.mlirbc", "vhlo.add_v1", ()),
             ("jax/mlp2.mlirbc", "vhlo.add_v1", ("vhlo",))]


@pytest.mark.parametrize(("rel", "add", "disabled"), REWRITTEN,
                         ids=[f"{r}-{'fallbacks' if d else 'models'}" for r, _, d in REWRITTEN])
def test_patterns_applied_greedily_are_what_the_producers_tool_reads(
        rel: str, add: str, disabled: tuple[str, ...], tmp_path: Path) -> None:
    """A pattern set (swap a commutative op's operands once, erase constants nobody uses) reaches a fixed
    point, on fallback ops too; the producer's tool prints the saved file as the original with every
    add's operands swapped and tagged, and without the dead constants the program added (clones)."""
    m = mlirbc.load(CORPUS / rel, disable_models=disabled)
    constants = [op for op in m.walk() if op.name.endswith(("constant", "constant_v1"))]
    for c in constants[:3]:
        c.clone(ip=InsertionPoint(c))  # unused: the second pattern erases them
    assert mlirbc.apply_patterns_greedily(m, [_SwapOperands(root=add), _EraseDeadConstants()])
    out = tmp_path / "rewritten.mlirbc"
    m.save(out)
    before = _oracle_print(rel, (CORPUS / rel).read_bytes())
    after = _oracle_print(rel, out.read_bytes())
    call = re.compile(rf'"{re.escape(add)}"\((%\w+), (%\w+)\)')
    expected = [(b, a) for a, b in call.findall(before)]
    assert expected and call.findall(after) == expected
    assert after.count("my.swapped") == len(expected)
    untagged = re.sub(r"\{my\.swapped\} |, my\.swapped|my\.swapped, ", "", after)
    assert call.sub(lambda x: f'"{add}"({x[2]}, {x[1]})', untagged) == before


# -- str(op) ------------------------------------------------------------------------------------------------


def _depth(op: Operation) -> int:
    n, p = 0, op.parent
    while p is not None:
        n, p = n + 1, p.parent
    return n


def _spellings(name: str, line: str) -> list[str]:
    """`line` (an op's first line) with the op's own name as the view may spell it in place: with or
    without its dialect, as the default dialect of the op around it has it."""
    short = name.partition(".")[2]
    out = [line]
    for a, b in ((name, short), (short, name)):
        m = re.match(r"((?:%\S+(?:, %\S+)* = )?)" + re.escape(a) + r"\b", line)
        if m:
            out.append(m.group(1) + b + line[m.end():])
    return out


@pytest.mark.parametrize("rel", ["upstream/Dialect__SCF__ops.f08.v2.mlirbc", "iree/mlp2.flow.mlirbc",
                                 "jax/mlp2.mlirbc"])
def test_str_of_every_op_is_its_text_in_mlirbc_decode(rel: str, tmp_path: Path) -> None:
    """`str(op)` prints the op (with its regions) in the pretty form as MLIR prints an op on its own
    (attributes inline), with the values named as the view of the whole file names them: indented to its
    depth, it is found in `mlirbc decode --form pretty --local-scope`'s output for every op (its own name
    as the view spells it there: inside `func.func`, `func.return` is `return`; inside an op of another
    default dialect, `module` is `builtin.module`); after an edit it shows the edit, and so does the
    view."""
    from mlirbc.cli.main import main

    def view(path: Path) -> str:
        # The ops as stored, in the pretty form with local scope (the default view has aliases, or is a
        # portable artifact's StableHLO conversion).
        out = tmp_path / "view.mlir"
        assert main(["decode", str(path), "--form", "pretty", "--local-scope", "-o", str(out)]) == 0
        return out.read_text()

    m = mlirbc.load(CORPUS / rel)
    text = view(CORPUS / rel)
    ops = list(m.walk())
    for op in ops:
        pad = "  " * _depth(op)
        first, nl, rest = str(op).partition("\n")
        if op.parent is not None and not any(s in str(op.parent) for s in _spellings(op.name, first)):
            continue  # the op around it does not show it (a named linalg op's body, an implicit yield)
        body = nl + "".join(pad + line for line in rest.splitlines(True))
        assert any(pad + line + body in text for line in _spellings(op.name, first)), op.name
    leaf = next(op for op in ops if op.results and not len(op.regions) and op.parent is not None)
    leaf.location = Location.name("renamed")
    assert str(leaf).rstrip("\n").endswith('loc("renamed")')
    out = tmp_path / "edited.mlirbc"
    m.save(out)
    assert "  " * _depth(leaf) + str(leaf) in view(out)


# -- hostile programs ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("rel", ["upstream/Dialect__Arith__ops.mlirbc", "iree/mlp2.flow.mlirbc",
                                 "jax/mlp2_const.mlirbc"])
def test_a_program_saving_over_the_file_it_loaded(rel: str, tmp_path: Path) -> None:
    """The file being edited is the one saved over (it is memory-mapped while loaded), twice; then a
    program's mistakes: each is refused at its call or at the save, and the file on disk is unchanged."""
    import shutil

    path = tmp_path / Path(rel).name
    shutil.copyfile(CORPUS / rel, path)  # not the mode: the corpus may be read-only
    m = mlirbc.load(path)
    fn = [op for op in m.body.operations if op.name in ("func.func", "util.func", "vhlo.func_v1")][-1]
    fn.attributes["my.tag"] = UnitAttr.get()
    m.save(path)
    inner = [op for op in m.walk() if op.results and op.parent is not None and op.parent is not m.operation]
    inner[0].location = Location.name("again")
    m.save(path)
    back = mlirbc.load(path)
    assert sum("my.tag" in op.attributes for op in back.walk()) == 1
    assert sum(str(op.location) == 'loc("again")' for op in back.walk()) == 1
    assert [op.name for op in back.walk()] == [op.name for op in mlirbc.load(CORPUS / rel).walk()]
    saved = path.read_bytes()
    used = next(op for op in inner if any(list(r.uses) for r in op.results))
    with pytest.raises(mlirbc.IRError, match=f"cannot erase '{re.escape(used.name)}'.*still used"):
        used.erase()
    with pytest.raises(mlirbc.IRError, match="into its own regions"):
        fn.regions[0].blocks[0].append(fn)
    with pytest.raises(mlirbc.IRError, match="'func.return'.*exactly 0 results"):
        Operation.create("func.return", results=[IntegerType.get_signless(32)], ip=InsertionPoint(used))
    if fn.name == "func.func":
        with pytest.raises(mlirbc.IRError, match="'func.func'.*sym_name must be StringAttr"):
            fn.attributes["sym_name"] = IntegerAttr.get(IntegerType.get_signless(32), 1)
    used.detach_from_parent()  # allowed (it may be put back); a save now would leave its uses dangling
    with pytest.raises(mlirbc.EncodeError, match=re.escape(used.name)):
        m.save(path)
    assert path.read_bytes() == saved
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no temporary file left behind
