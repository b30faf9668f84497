"""New IREE files, compiled in the test from models of our own (`tests/data/iree/*.mlir`) with
`iree-compile --compile-to=<phase> --emit-mlir-bytecode --emit-mlir-bytecode-version=<V>`, pass the same
checks as the corpus (`iree_checks.py`): 3 models x 7 phases x 2 bytecode versions = 42 files.

Compiling takes about a second per file; the files are made once per session.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from corpus import REPO
from iree_checks import (
    check_fresh_encoding,
    check_iree_opt_reencodes,
    check_no_fallbacks_and_round_trip,
    check_view_against_print,
)
from iree_support import IREE_SKIP_REASON, iree_compile_path, run_iree

pytestmark = pytest.mark.skipif(iree_compile_path() is None, reason=IREE_SKIP_REASON)

MODELS = sorted((REPO / "tests" / "data" / "iree").glob("*.mlir"))
PHASES = ["input", "abi", "flow", "stream", "executable-sources", "executable-targets", "vm"]
VERSIONS = [6, 3]
TARGET = ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
          "--iree-llvmcpu-target-triple=x86_64-unknown-linux-gnu", "--iree-llvmcpu-target-cpu=generic"]
CASES = [(m.stem, p, v) for m in MODELS for p in PHASES for v in VERSIONS]
IDS = [f"{m}.{p}.v{v}" for m, p, v in CASES]


@pytest.fixture(scope="session")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    out = tmp_path_factory.mktemp("iree")

    def one(case: tuple[str, str, int]) -> tuple[str, bytes]:
        model, phase, version = case
        dst = out / f"{model}.{phase}.v{version}.mlirbc"
        proc = run_iree("iree-compile", [*TARGET, f"--compile-to={phase}", "--emit-mlir-bytecode",
                                         f"--emit-mlir-bytecode-version={version}",
                                         str(REPO / "tests" / "data" / "iree" / f"{model}.mlir"),
                                         "-o", str(dst)])
        assert proc.returncode == 0, proc.stderr.decode(errors="replace")[:1000]
        return f"{model}.{phase}.v{version}", dst.read_bytes()

    with ThreadPoolExecutor(2) as pool:
        return dict(pool.map(one, CASES))


def test_the_models_are_there() -> None:
    assert len(MODELS) == 3 and len(PHASES) >= 5 and len(VERSIONS) >= 2


@pytest.mark.parametrize("case", IDS)
def test_generated_file_passes_the_corpus_checks(compiled: dict[str, bytes], case: str) -> None:
    data = compiled[case]
    assert data[4] >> 1 == int(case.rsplit(".v", 1)[1])  # the version asked for
    check_no_fallbacks_and_round_trip(data)
    check_view_against_print(data)
    check_iree_opt_reencodes(data)
    check_fresh_encoding(data)


def test_generated_files_use_what_the_corpus_does(compiled: dict[str, bytes]) -> None:
    """The generated files exercise IREE dialects of every phase (not just upstream ones)."""
    from mlirbc.bytecode.reader import read_bytecode

    dialects: set[str] = set()
    for data in compiled.values():
        dialects |= {d.name for d in read_bytecode(data).dialects}
    assert {"flow", "hal", "stream", "util", "vm", "iree_tensor_ext", "llvm"} <= dialects
