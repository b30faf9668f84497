"""The verifier on its own: messages worded as upstream's (against mlir-opt), the predicate vocabulary,
located diagnostics, replaceable verifiers, switched-off op kinds, and what `explain` says.

`data/verify/invalid.mlir` holds small modules (split at `// -----`), each with one fault the verifier
finds: for each, mlir-opt's first error message and ours must be the same text.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from agreement import Table, Verdict
from mlirbc.ir.attributes import ArrayAttr, IntegerAttr, StringAttr, UnitAttr
from mlirbc.ir.types import (
    DialectType,
    FallbackType,
    FloatType,
    IndexType,
    IntegerType,
    MemRefType,
    RankedTensorType,
    VectorType,
)
from mlirbc.models.build import models
from mlirbc.models.ods_constraints import Translator
from mlirbc.verifier import OpVerifier, Verifier, engine
from mlirbc.verifier.explain import explain
from mlirbc.verifier.predicates import build_check
from mlirbc.view.parser import parse_module

DATA = Path(__file__).with_name("data") / "verify"
CHUNKS = [c.strip("\n") + "\n" for c in (DATA / "invalid.mlir").read_text().split("// -----")]
RETURN_MISMATCH = next(c for c in CHUNKS if '^bb0(%a: i32):\n    "func.return"() : () -> ()' in c
                       and "function_type = (i32) -> i32" in c)


def _ours(text: str) -> list[str]:
    result = parse_module(text, registry=models(), verify=True)
    assert result.module is not None, [d.message for d in result.parse_errors]
    return [d.message for d in result.errors]


def test_every_chunk_has_exactly_the_fault_it_was_written_for() -> None:
    for chunk in CHUNKS:
        found = _ours(chunk)
        assert len(found) == 1, (found, chunk)


def test_messages_are_mlir_opts() -> None:
    from oracle import SKIP_REASON, mlir_opt_path, run_mlir_opt

    if mlir_opt_path() is None:
        if os.environ.get("CI") == "true":
            pytest.fail(SKIP_REASON)
        pytest.skip(SKIP_REASON)
    data = "\n// -----\n".join(CHUNKS).encode()
    proc = run_mlir_opt(["--allow-unregistered-dialect", "--split-input-file",
                         "--mlir-disable-diagnostic-notes", "-"], data)
    theirs = re.findall(r"error: (.*)", proc.stderr.decode())
    assert len(theirs) == len(CHUNKS)
    for chunk, message in zip(CHUNKS, theirs, strict=True):
        assert _ours(chunk) == [message], chunk


def test_a_finding_points_at_the_part_at_fault() -> None:
    text = CHUNKS[0]
    result = parse_module(text, registry=models(), verify=True)
    (d,) = result.errors
    assert d.code == "verify"
    # `'arith.addi' op operand #0 must be ...`: the diagnostic covers the operand's use
    assert text[d.span.start:d.span.end] == "%b", text[d.span.start:d.span.end]


def test_related_locations_name_the_enclosing_function() -> None:
    text = RETURN_MISMATCH
    result = parse_module(text, registry=models(), verify=True)
    (d,) = result.errors
    assert d.related and d.related[0][1] == "the enclosing function"
    assert text[d.related[0][0].start:].startswith('"func.func"')


# -- predicates ---------------------------------------------------------------------------------------------
SIGNLESS_LIKE = ["or", ["at", [], "int", None, "signless"], ["at", [], "index"],
                 ["and", ["at", [], "valsem"], ["or", ["at", ["elem"], "int", None, "signless"],
                                                ["at", ["elem"], "index"]]]]


def test_predicates_answer_true_false_or_unknown() -> None:
    check = build_check(SIGNLESS_LIKE)
    i32, f32 = IntegerType.get(32), FloatType.get("f32")
    assert check(i32) is True and check(IndexType.get()) is True
    assert check(f32) is False and check(IntegerType.get(32, 1)) is False
    assert check(RankedTensorType.get((2,), i32)) is True
    assert check(VectorType.get((4,), f32)) is False
    # a memref has no value semantics: not signless-integer-like whatever its elements
    assert check(MemRefType.get((2,), i32, UnitAttr.get())) is False
    # a dialect's type may have value semantics (an interface): unknown, never a rejection
    assert check(DialectType.get("foo", "!foo.bar")) is None
    assert check(FallbackType.get("foo", b"\x01")) is None


def test_enum_and_array_attribute_predicates() -> None:
    enum = build_check(["at", [], "enum", 64, [0, 1, 2]])
    assert enum(IntegerAttr.get(IntegerType.get(64), 2)) is True
    assert enum(IntegerAttr.get(IntegerType.get(64), 9)) is False
    assert enum(IntegerAttr.get(IntegerType.get(32), 1)) is False
    assert enum(StringAttr.get("x")) is False
    every = build_check(["all", [], ["at", [], "aisa", "StringAttr"]])
    assert every(ArrayAttr.get((StringAttr.get("a"),))) is True
    assert every(ArrayAttr.get((StringAttr.get("a"), UnitAttr.get()))) is False


def test_cpred_translation_keeps_unknown_conditions_unknown() -> None:
    records = {
        "P1": {"!superclasses": ["Pred", "CPred"], "predExpr": "($_self.isSignlessInteger(8))"},
        "P2": {"!superclasses": ["Pred", "CPred"], "predExpr": "(::mlir::foo::isFancy($_self))"},
        "P3": {"!superclasses": ["Pred", "CombinedPred", "Or"], "children": [
            {"kind": "def", "def": "P1"}, {"kind": "def", "def": "P2"}]},
        "!instanceof": {},
    }
    tr = Translator(records)
    assert tr.translate({"kind": "def", "def": "P1"}) == ["at", [], "int", 8, "signless"]
    p3 = tr.translate({"kind": "def", "def": "P3"})
    assert p3[0] == "or" and p3[2][0] == "?"
    check = build_check(p3)
    assert check(IntegerType.get(8)) is True
    assert check(FloatType.get("f32")) is None  # the C++ condition might hold: no rejection


# -- models: replacing verifiers, switching op kinds off ----------------------------------------------------
def test_a_plugin_replaces_one_ops_verifier() -> None:
    reg = models()
    seen: list[str] = []

    def mine(ctx: object) -> None:
        seen.append(getattr(ctx, "name", ""))
        return None

    reg.register_verifier("func.return", OpVerifier(mine, label="mine"), "plugin test")
    result = parse_module(RETURN_MISMATCH, registry=reg, verify=True)
    assert seen == ["func.return"] and not result.errors
    reg.register_verifier("func.return", None, "plugin test")  # none at all
    assert not parse_module(RETURN_MISMATCH, registry=reg, verify=True).errors
    assert parse_module(RETURN_MISMATCH, registry=models(), verify=True).errors


def test_a_switched_off_op_kind_says_so_instead_of_failing(monkeypatch: pytest.MonkeyPatch) -> None:
    off = {"*": {"func.return": "disagrees with mlir-opt on x.mlirbc"}}
    monkeypatch.setattr(engine, "_SWITCHED_OFF", off)
    result = parse_module(RETURN_MISMATCH, registry=models(), verify=True)
    assert not result.errors
    (note,) = [d for d in result.diagnostics if d.code == "verify"]
    assert note.severity == "information"
    assert "'func.return' is not verified: disagrees with mlir-opt" in note.message
    assert "has 0 operands, but enclosing function (@f) returns 1" in note.message


def test_wrong_constraint_data_shows_as_false_rejections() -> None:
    """A model whose constraints are wrong for an op is what the agreement test catches: its valid
    controls are refused by mlirbc and accepted by the oracle."""
    import dataclasses

    from mlirbc.models.constraints import Constraint

    reg = models()
    model = reg.op("arith.addi").model
    good = model.op_constraints()  # type: ignore[union-attr]
    bad_operand = dataclasses.replace(good.operands[0], constraint=Constraint("32-bit float",
                                                                              ["at", [], "float", "f32"]))
    wrong = dataclasses.replace(good, operands=(bad_operand, *good.operands[1:]))
    model.constraint_source = lambda: wrong  # type: ignore[union-attr]
    try:
        text = CHUNKS[0].replace('"arith.addi"(%b, %b) : (f32, f32) -> f32',
                                 '"arith.addi"(%a, %a) : (i32, i32) -> i32')
        from agreement import judge_ours

        table = Table()
        table.add("neutral", "valid arith.addi", Verdict(False), judge_ours(text, reg))
        assert table.total().false_rejections == 1
    finally:
        model.constraint_source = None  # type: ignore[union-attr]
        reg2 = models()
        assert reg2.op("arith.addi").model is not None


def test_explain_lists_what_is_and_is_not_checked() -> None:
    result = parse_module(CHUNKS[0], registry=models())
    assert result.module is not None and result.module.root is not None
    reports = {r.name: r for r in explain(result.module.root, models())}
    addi = reports["arith.addi"]
    assert addi.status == "verified"
    assert any(c.startswith("operand types") for c in addi.checked)
    assert any("SameOperandsAndResultType" in c for c in addi.checked)
    assert reports["func.return"].status == "verified"


def test_verifier_is_reusable_across_modules() -> None:
    v = Verifier(models())
    for chunk in CHUNKS[:5]:
        result = parse_module(chunk, registry=models())
        assert result.module is not None and result.module.root is not None
        assert len([f for f in v.verify(result.module.root) if f.severity == "error"]) == 1
