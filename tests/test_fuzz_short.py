"""A short, deterministic coverage-guided fuzzing run of every target, as part of the test suite.

Each target (`tests/fuzzing/targets.py`: the reader, the text parser, edits re-read in place, the writer
cycle and the server's message handling) runs in its own process under atheris for a fixed number of
inputs with a fixed libFuzzer seed and hash seed, from the corpus seeds and the regression inputs of
tests/data/hardening: the same inputs every time, about two minutes for the five on an idle machine.  Any
finding (a broken invariant), unexpected exception or input taking more than 2 s of CPU fails the test,
naming the saved input.  The long run is `benchmarks/fuzz_long.py`; docs/fuzzing.md says how the two
relate.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from corpus import CORPUS, REPO

RUNS = {"reader": 4000, "text": 1200, "edit": 600, "cycle": 2000, "server": 1200}
"""Inputs per target: a fixed budget (about two minutes in all), never a time limit, so runs repeat."""

KNOWN_OPEN: dict[str, tuple[str, ...]] = {}
"""Findings of a class that is open (its input a strict xfail in tests/test_hardening.py): the
run names them and passes.  Each entry is text only that class's message holds; it goes when the class is
fixed (the strict xfail then fails and says so)."""


def _have_atheris() -> bool:
    try:
        import atheris  # noqa: F401
    except ImportError:
        return False
    return True


if not _have_atheris():
    if os.environ.get("CI") == "true":
        raise RuntimeError("CI=true but atheris (test extra) is missing: the fuzzing run cannot be skipped")
    pytest.skip("atheris is not installed (pip install -e '.[test]')", allow_module_level=True)


@pytest.mark.parametrize("target", list(RUNS))
def test_short_fuzz_run(target: str, tmp_path: Path) -> None:
    stats_path = tmp_path / f"{target}.json"
    # The server target's saves land in its scratch copies, never in the shared corpus (the long run of
    # 074fb66 saved over a corpus file the server had open).
    corpus_before = {p: p.stat().st_mtime_ns for p in CORPUS.rglob("*.mlirbc")}
    env = dict(os.environ, PYTHONHASHSEED="0",
               PYTHONPATH=os.pathsep.join([str(REPO / "server"), str(REPO / "tests")]))
    proc = subprocess.run(
        [sys.executable, "-m", "fuzzing.engine", target, "--runs", str(RUNS[target]), "--seed", "1",
         "--stats", str(stats_path), "--findings", str(tmp_path / "findings")],
        cwd=REPO / "tests", env=env, capture_output=True, timeout=1800)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-3000:]
    stats = json.loads(stats_path.read_text())
    outcomes = stats["outcomes"]
    print(f"\n{target}: {stats['inputs']} inputs {outcomes}, slowest {stats['slowest_seconds']} s CPU, "
          f"peak RSS {stats['peak_rss_mb']} MB")
    assert stats["inputs"] >= RUNS[target]
    assert {p: p.stat().st_mtime_ns for p in CORPUS.rglob("*.mlirbc")} == corpus_before
    known = {k: v for k, v in stats["messages"].items()
             if any(mark in k for mark in KNOWN_OPEN.get(target, ())) and v.startswith(f"{target}-finding-")}
    if known:
        print(f"open classes met: {json.dumps(known, indent=1)}")
    problems = {k: v for k, v in stats["messages"].items() if k not in known}
    findings = outcomes.get("finding", 0)
    assert (findings == 0 or not problems) and outcomes.get("unexpected", 0) == 0, \
        json.dumps(problems, indent=1)
    assert stats["slow"] == 0, f"{stats['slow']} inputs over 2 s of CPU; slowest: {stats['slowest_input']}"
    # the run reached past the first checks of each target
    assert len(outcomes) >= 2, outcomes


def test_a_campaigns_workers_make_one_table_row(tmp_path: Path) -> None:
    """`fuzz_long.py --workers N`: the workers' statistics are summed into one row (inputs, outcomes, slow
    inputs, CPU), with the worst worker's slowest input and memory."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("fuzz_long", REPO / "benchmarks" / "fuzz_long.py")
    assert spec is not None and spec.loader is not None
    fuzz_long = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fuzz_long)
    base = {"target": "text", "mutations": {}, "messages": {}}
    (tmp_path / "text.json").write_text(json.dumps({
        **base, "inputs": 600, "outcomes": {"rejected": 590, "encoded": 10}, "slow": 0,
        "slowest_seconds": 0.5, "slowest_input": "a", "peak_rss_mb": 200.0, "seconds": 60.0,
        "cpu_seconds": 6.0}))
    (tmp_path / "text.w1.json").write_text(json.dumps({
        **base, "inputs": 400, "outcomes": {"rejected": 399, "finding": 1}, "slow": 1, "slowest_seconds": 2.5,
        "slowest_input": "b", "peak_rss_mb": 150.0, "seconds": 50.0, "cpu_seconds": 4.0,
        "messages": {"m": "text-finding-x"}}))
    row = fuzz_long.table(tmp_path, ["text"]).splitlines()[2]
    assert row.startswith("| text (2 workers) | 1,000 | rejected 989, encoded 10 | 1 | 0 | 1 | 2.50 s (b) | "
                          "200 MB |")
    assert "10.0 ms CPU/input" in row


def test_a_plain_run_mutates_the_whole_pool_without_libfuzzer(tmp_path: Path) -> None:
    """`--no-instrument` (`fuzz_long.py --plain`): the engine's own loop mutates the seeds and the given
    corpus folder (libFuzzer without coverage would keep one 1-byte input), with the structure-aware
    mutators and its own byte-level ones, and classifies every input as an instrumented run does."""
    pool = tmp_path / "pool"
    pool.mkdir()
    (pool / "a").write_text('"builtin.module"() ({\n  "t.op"() {s = "x"} : () -> ()\n}) : () -> ()\n')
    stats_path = tmp_path / "text.json"
    env = dict(os.environ, PYTHONHASHSEED="0",
               PYTHONPATH=os.pathsep.join([str(REPO / "server"), str(REPO / "tests")]))
    proc = subprocess.run(
        [sys.executable, "-m", "fuzzing.engine", "text", "--runs", "400", "--seed", "2", "--no-instrument",
         "--corpus", str(pool), "--stats", str(stats_path), "--findings", str(tmp_path / "findings")],
        cwd=REPO / "tests", env=env, capture_output=True, timeout=600)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-3000:]
    stats = json.loads(stats_path.read_text())
    assert stats["inputs"] == 400 and sum(stats["outcomes"].values()) == 400
    assert stats["outcomes"].get("unexpected", 0) == 0 and stats["outcomes"].get("finding", 0) == 0, stats
    assert len(stats["outcomes"]) >= 2, stats["outcomes"]
    kinds = stats["mutations"]
    assert kinds.get("bytes", 0) > 0 and "libfuzzer" not in kinds and len(kinds) >= 6, kinds
    assert sum(kinds.values()) >= 400
