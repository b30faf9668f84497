"""The verifier's agreement with the oracles over the whole corpus, per mutation class (the big run whose
tables `docs/verification.md` reports; `tests/test_verify_agreement.py` runs a seeded sample in CI).

    python benchmarks/verify_agreement.py [--per-class N] [--seed S] [--only upstream|iree|stablehlo]
                                          [--files N] [--misses K]

For every default-version file of `upstream/` (mlir-opt), `iree/` (iree-opt) and `vhlo/` (jaxlib) that its
oracle accepts as it is, up to N mutants of each class (`tests/mutations.py`) are judged by the oracle and by
mlirbc; prints one markdown table per oracle (mutants, refused by the oracle, refused by mlirbc, caught,
false rejections) and, with `--misses`, up to K examples of what each class missed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from common import CORPUS, REPO

sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "server"))

from agreement import Table, judge_iree_opt, judge_jaxlib, judge_mlir_opt, judge_ours, view_of  # noqa: E402
from mlirbc.models.build import models  # noqa: E402
from mutations import CLASSES, NEUTRAL, mutants  # noqa: E402


def _default_version(p: Path) -> bool:
    suffix = p.suffixes[-2] if len(p.suffixes) >= 2 else ""
    return not (suffix.startswith(".v") and suffix[2:].isdigit())


def run(kind: str, folder: str, judge: object, per_class: int, seed: int, limit: int) -> tuple[Table, str]:
    reg = models()
    files = sorted(p for p in (CORPUS / folder).glob("*.mlirbc") if _default_version(p))[:limit or None]
    t0 = time.perf_counter()
    views = []
    for f in files:
        v = view_of(f, reg)
        if v is not None:
            views.append((f, *v))
    assert callable(judge)
    base = judge([t for _, _, t in views])
    accepted = [v for v, b in zip(views, base, strict=True) if not b.rejected]
    ms = []
    for f, module, _ in accepted:
        ms.extend(mutants(module, reg, f.name, CLASSES + NEUTRAL, per_class, seed))
    t1 = time.perf_counter()
    verdicts = judge([m.text for m in ms])
    t2 = time.perf_counter()
    table = Table()
    for m, oracle in zip(ms, verdicts, strict=True):
        table.add(m.cls, f"{m.source}: {m.what}", oracle, judge_ours(m.text, reg))
    t3 = time.perf_counter()
    note = (f"{len(accepted)} of {len(files)} files accepted by the oracle as they are; {len(ms)} mutants; "
            f"oracle {t2 - t1:.0f} s, mlirbc {t3 - t2:.0f} s (mutating {t1 - t0:.0f} s)")
    return table, note


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--per-class", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", choices=["upstream", "iree", "stablehlo"])
    ap.add_argument("--files", type=int, default=0, help="at most this many files per folder (0: all)")
    ap.add_argument("--misses", type=int, default=0)
    args = ap.parse_args()
    plan = [("upstream", "upstream", judge_mlir_opt, "mlir-opt 22.1.8"),
            ("iree", "iree", judge_iree_opt, "iree-opt 3.13"),
            ("stablehlo", "vhlo", judge_jaxlib, "jaxlib 0.10.2 (parse, then deserialize)")]
    for kind, folder, judge, oracle in plan:
        if args.only and args.only != kind:
            continue
        table, note = run(kind, folder, judge, args.per_class, args.seed, args.files)
        print(f"\n### {kind} ({oracle})\n\n{note}\n\n{table.markdown()}")
        for cls, row in sorted(table.rows.items()):
            for x in row.false:
                print(f"  FALSE {cls}: {x}")
            for x in row.misses[:args.misses]:
                print(f"  miss {cls}: {x}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
