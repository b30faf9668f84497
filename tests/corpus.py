"""Locating the shared corpus and reading its manifests (tests only)."""

from __future__ import annotations

import csv
import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("MLIRBC_CORPUS", REPO.parent / "shared" / "corpus"))
EXAMPLES = Path(os.environ.get("MLIRBC_EXAMPLES",
                               REPO.parent / "shared" / "docs" / "bytecode-examples"))


def manifest() -> list[dict[str, str]]:
    with open(CORPUS / "MANIFEST.tsv", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def invalid_manifest() -> list[dict[str, str]]:
    with open(CORPUS / "invalid" / "INVALID.tsv", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def valid_files() -> list[Path]:
    return [CORPUS / row["path"] for row in manifest()]
