"""Which corpus the tests run on, and reading its manifests (tests and benchmarks only).

Two corpora with one layout (`MANIFEST.tsv`, `upstream/`, `jax/`, `iree/`, `vhlo/`, `invalid/`):

* the core corpus shipped in `tests/corpus/` (chosen from the full one by `tests/corpus/select.py`, about
  10 MB): the default, so a fresh clone runs every test;
* the full shared corpus: the folder `MLIRBC_CORPUS` names, else `../shared/corpus` when it lies beside
  the checkout (CI sets `MLIRBC_CORPUS`).

The bytecode examples and the ODS JSON files the tests read come from the shared tree beside a full corpus
(`docs/bytecode-examples`, `ods`; `MLIRBC_EXAMPLES` names other examples), else from the core corpus'
`examples/` and `ods/`.  The large file is made at test time (`large_module.py`).
"""

from __future__ import annotations

import csv
import os
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
CORE = REPO / "tests" / "corpus"


def _corpus() -> Path:
    named = os.environ.get("MLIRBC_CORPUS")
    if named:
        return Path(named)
    beside = REPO.parent / "shared" / "corpus"
    return beside if (beside / "MANIFEST.tsv").is_file() else CORE


CORPUS = _corpus()
FULL = CORPUS.resolve() != CORE.resolve()
"""The full shared corpus runs (else the core corpus)."""
KIND = "full" if FULL else "core"


def _beside(rel: str, core: Path) -> Path:
    there = CORPUS.parent / rel
    return there if FULL and there.is_dir() else core


EXAMPLES = Path(os.environ["MLIRBC_EXAMPLES"]) if os.environ.get("MLIRBC_EXAMPLES") else _beside(
    "docs/bytecode-examples", CORE / "examples")
ODS = _beside("ods", CORE / "ods")
"""The ODS JSON files (`sdy_bytecode.json`, `vhlo_ods.json`, `newer/...`; the core holds those tests read)."""


def manifest() -> list[dict[str, str]]:
    with open(CORPUS / "MANIFEST.tsv", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def invalid_manifest() -> list[dict[str, str]]:
    with open(CORPUS / "invalid" / "INVALID.tsv", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def valid_files() -> list[Path]:
    return [CORPUS / row["path"] for row in manifest()]


def describe() -> str:
    """What runs, for the report header and the summary line."""
    files = sum(1 for _ in CORPUS.rglob("*.mlirbc")) if CORPUS.is_dir() else 0
    where = "MLIRBC_CORPUS" if os.environ.get("MLIRBC_CORPUS") else (
        "beside the checkout" if FULL else "shipped in the repository")
    return f"{KIND} corpus {CORPUS} ({files} .mlirbc files, {where}); examples {EXAMPLES}"


def expect(full: int, core: int) -> int:
    """A count that depends on the corpus: `full` for the full shared corpus, `core` for the core one."""
    return full if FULL else core


def path(rel: str) -> Path:
    """`CORPUS / rel`, which must exist: the core corpus holds every file a test names (select.py)."""
    p = CORPUS / rel
    if not p.is_file():
        raise AssertionError(f"{rel} is missing from the {KIND} corpus at {CORPUS}"
                             + ("" if FULL else " (tests/corpus/select.py chooses what it holds)"))
    return p


def full_only(what: str) -> Any:
    """A mark skipping a test (visibly, counted in the summary) that needs what only the full shared tree
    holds."""
    import pytest

    return pytest.mark.skipif(not FULL, reason=f"FULL CORPUS ONLY: {what} is not in the core corpus "
                                               "(MLIRBC_CORPUS=<shared>/corpus runs it)")
