"""Pattern rewriting through the API: `RewritePattern`, `PatternRewriter`, `apply_patterns_greedily`.

The driver reaches a fixed point with patterns that converge, stops after `max_iterations` with
patterns that never do (returning False), and every result is read by upstream `mlir-opt`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import mlirbc
from corpus import CORPUS
from large_module import LargeModule
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.template import template_of
from mlirbc.ir import IntegerAttr, IntegerType, Operation, StringAttr, UnitAttr
from oracle import SKIP_REASON, mlir_opt_path, run_mlir_opt

SCF = CORPUS / "upstream" / "Dialect__SCF__ops.f08.mlirbc"
PURE = {"arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori", "arith.xori", "arith.maxsi",
        "arith.minui", "arith.addf", "arith.subf", "arith.mulf", "arith.maximumf", "arith.minimumf",
        "arith.cmpi", "arith.select", "arith.sitofp", "arith.constant", "math.sin", "math.cos", "math.exp",
        "math.tanh", "math.sqrt"}


def _oracle(data: bytes) -> str:
    if mlir_opt_path() is None:
        pytest.skip(SKIP_REASON)
    proc = run_mlir_opt(["--mlir-print-op-generic"], data, timeout=600)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[:2000]
    return proc.stdout.decode()


class DeadCode(mlirbc.RewritePattern):
    """Erase a side-effect-free op whose results nobody uses (chains go in later passes)."""

    def match_and_rewrite(self, op: Operation, rewriter: mlirbc.PatternRewriter) -> bool:
        if op.name not in PURE or any(list(r.uses) for r in op.results):
            return False
        rewriter.erase_op(op)
        return True


def test_dead_code_reaches_a_fixed_point_on_the_112k_op_file(large: LargeModule, tmp_path: Path) -> None:
    m = mlirbc.load(large.path)
    before = sum(1 for _ in m.walk())
    assert mlirbc.apply_patterns_greedily(m, [DeadCode()], max_iterations=50)
    after = list(m.walk())
    assert len(after) < before
    assert not any(op.name in PURE and not any(list(r.uses) for r in op.results) for op in after)
    out = tmp_path / "dce.mlirbc"
    m.save(out)
    printed = _oracle(out.read_bytes())
    assert printed.count('"arith.') + printed.count('"math.') == sum(
        1 for op in after if op.name.startswith(("arith.", "math.")))


class SubSelfToZero(mlirbc.RewritePattern):
    """`arith.subi %x, %x` -> `arith.constant 0`: a new op, replacing the matched one."""

    root = "arith.subi"
    benefit = 2

    def match_and_rewrite(self, op: Operation, rewriter: mlirbc.PatternRewriter) -> bool:
        lhs, rhs = op.operands
        if lhs != rhs:
            return False
        t = op.result.type
        zero = Operation.create("arith.constant", results=[t], attributes={
            "value": IntegerAttr.get(IntegerType(t), 0)}, loc=op.location, ip=rewriter.ip)
        rewriter.replace_op(op, zero)
        return True


class TagSubi(mlirbc.RewritePattern):
    """Lower benefit than SubSelfToZero on the same ops: tried only where that one does not apply."""

    root = "arith.subi"

    def match_and_rewrite(self, op: Operation, rewriter: mlirbc.PatternRewriter) -> None:
        if "tagged" in op.attributes:
            return
        op.attributes["tagged"] = UnitAttr.get()
        rewriter.notify_op_modified(op)


def test_new_ops_replace_matched_ones_and_benefit_orders_patterns(large: LargeModule, tmp_path: Path) -> None:
    m = mlirbc.load(large.path)
    subs = [op for op in m.walk() if op.name == "arith.subi"]
    self_subs = [op for op in subs if op.operands[0] == op.operands[1]]
    assert self_subs and len(self_subs) < len(subs)
    constants = sum(1 for op in m.walk() if op.name == "arith.constant")
    assert mlirbc.apply_patterns_greedily(m, [TagSubi(), SubSelfToZero()])
    left = [op for op in m.walk() if op.name == "arith.subi"]
    assert len(left) == len(subs) - len(self_subs) and all("tagged" in op.attributes for op in left)
    assert sum(1 for op in m.walk() if op.name == "arith.constant") == constants + len(self_subs)
    out = tmp_path / "subs.mlirbc"
    m.save(out)
    printed = _oracle(out.read_bytes())
    assert printed.count('"arith.subi"') == len(left) and printed.count("tagged") == len(left)


class Toggle(mlirbc.RewritePattern):
    """Two of these with opposite values never agree: the driver must stop anyway."""

    def __init__(self, value: str) -> None:
        super().__init__(root="func.func")
        self.value = value

    def match_and_rewrite(self, op: Operation, rewriter: mlirbc.PatternRewriter) -> bool:
        if op.attributes.get("toggle") == StringAttr.get(self.value):
            return False
        op.attributes["toggle"] = StringAttr.get(self.value)
        return True


def test_patterns_that_never_converge_stop_after_max_iterations() -> None:
    m = mlirbc.load(SCF)
    passes = []

    class Counting(Toggle):
        def match_and_rewrite(self, op: Operation, rewriter: mlirbc.PatternRewriter) -> bool:
            passes.append(op)
            return super().match_and_rewrite(op, rewriter)

    assert not mlirbc.apply_patterns_greedily(m, [Counting("a"), Toggle("b")], max_iterations=7)
    funcs = sum(1 for op in m.body.operations if op.name == "func.func")
    assert len(passes) == 7 * funcs


def test_rewriter_insertions_and_refusals() -> None:
    m = mlirbc.load(CORPUS / "upstream" / "Dialect__Arith__ops.mlirbc")
    f = m.body.operations[0]
    addi, ret = list(f.regions[0].blocks[0].operations)
    rewriter = mlirbc.PatternRewriter(addi)
    a = Operation.create("test.a", ip=False)
    b = Operation.create("test.b", ip=False)
    rewriter.insert_op_before([a, b])
    c = Operation.create("test.c", ip=False)
    rewriter.insert_op_after(c)
    assert [op.name for op in f.regions[0].blocks[0].operations] == ["test.a", "test.b", "arith.addi",
                                                                     "test.c", "func.return"]
    with pytest.raises(mlirbc.IRError, match="still used"):
        rewriter.erase_op(addi)
    with pytest.raises(mlirbc.IRError, match="1 results, 0 replacements"):
        rewriter.replace_op(addi, [])
    rewriter.replace_op(addi, [f.regions[0].blocks[0].arguments[0]])
    assert ret.operands[0] == f.regions[0].blocks[0].arguments[0] and not addi.attached
    assert rewriter.has_done_action


def test_rewriting_one_function_leaves_the_others_as_read(large: LargeModule) -> None:
    m = mlirbc.load(large.path)
    original = large.path.read_bytes()
    target = next(op for op in m.body.operations if op.name == "func.func" and op.regions[0].blocks)
    assert mlirbc.apply_patterns_greedily(target, [DeadCode()])
    index = list(m.body.operations).index(target)
    data = m.to_bytes()
    assert len(data) < len(original)
    before, after = _sections(original), _sections(data)
    assert [i for i, (x, y) in enumerate(zip(before, after, strict=True)) if x != y] == [index]


def _sections(data: bytes) -> list[bytes]:
    module = decode_bytecode(data)
    src = template_of(module)
    assert module.root is not None and src is not None
    spans = [src.isolated_sections.get(op) for op in module.root.regions[0].blocks[0].operations]
    return [data[s[0]:s[1]] if s is not None else b"" for s in spans]
