"""The core corpus shipped in `tests/corpus/`: its manifests list exactly its files, it covers what it says
(every bytecode version, the producers, dialects, IREE phases and kinds of damage), it stays small, and,
where the full shared corpus is present, it is exactly what `tests/corpus/select.py` chooses from it."""

from __future__ import annotations

import csv
import re
import subprocess
import sys
from pathlib import Path

from corpus import CORE, CORPUS, full_only, manifest

SELECT = CORE / "select.py"


def _tsv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def _files(folder: str, pattern: str = "*.mlirbc") -> set[str]:
    return {p.relative_to(CORE).as_posix() for p in (CORE / folder).rglob(pattern)}


ROWS = _tsv(CORE / "MANIFEST.tsv")
VHLO = _tsv(CORE / "vhlo" / "MANIFEST.tsv")
INVALID = _tsv(CORE / "invalid" / "INVALID.tsv")
PHASES = _tsv(CORE / "iree" / "PHASES.tsv")


def test_the_manifests_list_exactly_the_files_with_their_sizes() -> None:
    listed = {r["path"] for r in ROWS}
    assert listed == _files("upstream") | _files("jax") | _files("iree")
    for row in ROWS:
        assert (CORE / row["path"]).stat().st_size == int(row["size"]), row["path"]
    assert {f"vhlo/{r['path']}" for r in VHLO} == _files("vhlo")
    for row in VHLO:
        assert (CORE / "vhlo" / row["path"]).stat().st_size == int(row["size"]), row["path"]
    assert {f"invalid/{r['path']}" for r in INVALID} == _files("invalid")
    assert {f"iree/{r['name']}.mlirbc" for r in PHASES} == _files("iree")


def test_every_file_a_test_reads_beside_the_bytecode_is_there() -> None:
    for row in ROWS:
        if row["path"].startswith(("upstream/", "iree/")):
            stem = re.sub(r"\.v\d$", "", row["path"].removesuffix(".mlirbc"))
            assert (CORE / f"{stem}.generic.txt").is_file(), row["path"]


def test_it_covers_what_its_readme_says() -> None:
    upstream = [r for r in ROWS if r["path"].startswith("upstream/")]
    assert {r["bytecode_version"] for r in upstream} == {str(v) for v in range(7)}
    assert {r["producer"] for r in ROWS} == {"MLIR22.1.8", "MLIR24.0.0git", "StableHLO_v1.15.0"}
    assert {r["bytecode_version"] for r in VHLO} == {"0", "3", "4", "6"}
    producers = {r["producer"] for r in VHLO}
    assert {"StableHLO_v0.9.0", "StableHLO_v1.17.0"} <= producers and len(producers) >= 10
    assert any(b"sdy" in (CORE / "vhlo" / r["path"]).read_bytes() for r in VHLO)
    assert {"synth_quant_types", "float8_types"} <= {r["model"] for r in VHLO}
    assert {r["phase"] for r in PHASES} == {
        "input", "abi", "preprocessing", "global-optimization", "flow", "stream", "executable-sources",
        "executable-configurations", "executable-targets", "hal", "vm"}
    assert {r["bytecode_version"] for r in PHASES} == {str(v) for v in range(7)}
    assert len({r["damage"] for r in INVALID}) == 22
    assert {r["mlir_opt"].split(":")[0].split(" ")[0] for r in INVALID} >= {"accepted", "rejected"}
    assert (CORE / "examples" / "handcrafted").is_dir()


def test_it_stays_small() -> None:
    """At most 10 MiB as `du` counts it (whole 4 kB blocks): what a clone holds on disk."""
    total = sum(max(1, -(-p.stat().st_size // 4096)) * 4096 for p in CORE.rglob("*") if p.is_file())
    assert total <= 10 * 2**20, total


@full_only("the shared tree to choose from")
def test_it_is_what_select_py_chooses_from_the_shared_corpus() -> None:
    proc = subprocess.run([sys.executable, str(SELECT), "--shared", str(CORPUS.parent), "--check"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@full_only("the full manifest")
def test_every_dialect_and_test_folder_of_the_full_corpus_is_here() -> None:
    def dialects(rows: list[dict[str, str]]) -> set[str]:
        return {d for r in rows if r["path"].startswith("upstream/") for d in r["dialects"].split(",")}

    def folders(rows: list[dict[str, str]]) -> set[str]:
        names = [r["path"].removeprefix("upstream/").split("__") for r in rows
                 if r["path"].startswith("upstream/")]
        return {n[1] if n[0] == "Dialect" else n[0] for n in names}

    full = manifest()
    assert dialects(full) == dialects(ROWS)
    assert folders(full) == folders(ROWS)
    for row in ROWS:
        assert (CORE / row["path"]).read_bytes() == (CORPUS / row["path"]).read_bytes(), row["path"]
