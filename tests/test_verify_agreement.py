"""The verifier against the oracles, on mutants of corpus files (one op changed at a time, `mutations.py`).

For a deterministic sample of files (seeded), a few mutants of every class are judged by the oracle
(`mlir-opt` for upstream files, `iree-opt` for IREE's, jaxlib for StableHLO artifacts; batched) and by
mlirbc (a parse error or a verifier error refuses).  Required, per class:

* no false rejection: every mutant the oracle accepts, mlirbc accepts (the neutral controls included);
* of the mutants the oracle refuses, at least the class's floor (`FLOORS`, raised as the verifier
  grows) are refused by mlirbc.

The sample is small enough for CI (a few hundred mutants per oracle); `benchmarks/verify_agreement.py`
runs the whole corpus and prints the table `docs/verification.md` reports.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from agreement import Table, judge_iree_opt, judge_jaxlib, judge_mlir_opt, judge_ours, view_of
from corpus import CORE, CORPUS
from mlirbc.models.build import models
from mlirbc.models.registry import Registry
from mutations import CLASSES, NEUTRAL, mutants

SEED = 20251203

FLOORS: dict[str, dict[str, float]] = {
    # class -> least share of the oracle's refusals mlirbc must refuse too (per oracle): 95% everywhere
    # (issue 26), more where the sample measures all of them caught with room to spare
    "upstream": {"drop-required-attr": 0.98, "wrong-attr": 0.97, "segment-sizes": 0.95, "drop-operand": 0.95,
                 "drop-terminator": 0.95, "return-arity": 0.98, "result-type": 0.95, "region-count": 0.98,
                 "entry-args": 0.97, "symbol": 0.97, "operand-type": 0.98, "swap-operands": 0.96},
    "iree": {"drop-required-attr": 0.95, "wrong-attr": 0.95, "segment-sizes": 0.95, "drop-operand": 0.95,
             "drop-terminator": 0.95, "return-arity": 0.95, "result-type": 0.95, "region-count": 0.95,
             "entry-args": 0.95, "symbol": 0.95, "operand-type": 0.95, "swap-operands": 0.95},
    "stablehlo": {"drop-required-attr": 0.95, "wrong-attr": 0.95, "drop-operand": 0.95,
                  "drop-terminator": 0.95, "result-type": 0.95, "region-count": 0.95, "entry-args": 0.95,
                  "operand-type": 0.95, "swap-operands": 0.95},
}


def _upstream_files() -> list[Path]:
    """The upstream files at the default version the sample is drawn from: those of the core corpus (a
    subset of the full one), so that the sample and its floors are the same whichever corpus runs."""
    names = sorted(p.name for p in (CORE / "upstream").glob("*.mlirbc")
                   if not (p.suffixes[-2:-1] and p.suffixes[-2][2:].isdigit() and p.suffixes[-2][:2] == ".v"))
    return [CORPUS / "upstream" / n for n in names]


def _run(kind: str, files: list[Path], judge: object, registry: Registry, per_class: int) -> Table:
    views = []
    for f in files:
        v = view_of(f, registry)
        if v is not None:
            views.append((f, *v))
    assert callable(judge)
    # only files the oracle accepts as they are
    base = judge([t for _, _, t in views])
    views = [v for v, b in zip(views, base, strict=True) if not b.rejected]
    assert views, f"no {kind} file of the sample is accepted by its oracle"
    ms = []
    for f, module, _ in views:
        ms.extend(mutants(module, registry, f.name, CLASSES + NEUTRAL, per_class, SEED))
    verdicts = judge([m.text for m in ms])
    table = Table()
    for m, oracle in zip(ms, verdicts, strict=True):
        table.add(m.cls, f"{m.source}: {m.what}", oracle, judge_ours(m.text, registry))
    return table


def _check(kind: str, table: Table) -> None:
    print(f"\n{kind}\n{table.markdown()}")
    false = [f"{cls}: {x}" for cls, row in table.rows.items() for x in row.false]
    assert not false, "false rejections:\n" + "\n".join(false)
    low = []
    for cls, floor in FLOORS[kind].items():
        row = table.rows.get(cls)
        if row is not None and row.oracle_rejects >= 5 and row.rate < floor:
            low.append(f"{cls}: {row.caught}/{row.oracle_rejects} caught, floor {floor:.0%}; missed: "
                       + "; ".join(row.misses[:5]))
    assert not low, "\n".join(low)


def _oracle_or_skip(available: bool, reason: str) -> None:
    if not available:
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)


def test_upstream_mutants_agree_with_mlir_opt() -> None:
    from oracle import SKIP_REASON, mlir_opt_path

    _oracle_or_skip(mlir_opt_path() is not None, SKIP_REASON)
    files = random.Random(SEED).sample(_upstream_files(), 60)
    _check("upstream", _run("upstream", files, judge_mlir_opt, models(), 2))


def test_iree_mutants_agree_with_iree_opt() -> None:
    from iree_support import IREE_FILES, IREE_SKIP_REASON, iree_opt_path

    _oracle_or_skip(iree_opt_path() is not None, IREE_SKIP_REASON)
    small = sorted(IREE_FILES, key=lambda p: p.stat().st_size)[:12]
    _check("iree", _run("iree", small, judge_iree_opt, models(), 3))


def test_stablehlo_mutants_agree_with_jaxlib() -> None:
    from stablehlo_oracle import SKIP_REASON, available

    _oracle_or_skip(available(), SKIP_REASON)
    files = sorted((CORPUS / "vhlo").glob("*.mlirbc"), key=lambda p: p.stat().st_size)[:16]
    _check("stablehlo", _run("stablehlo", files, judge_jaxlib, models(), 2))
