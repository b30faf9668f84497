"""The `mlirbc` command on real files: decode, info, encode, roundtrip, check, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from corpus import CORPUS, EXAMPLES, REPO
from mlirbc.bytecode.reader import decode_bytecode

SMALL = CORPUS / "upstream" / "Bytecode__uselist_orders.p01.mlirbc"
JAX = CORPUS / "jax" / "mlp2.mlirbc"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO / "server"))
    return subprocess.run([sys.executable, "-m", "mlirbc.cli", *args], capture_output=True, text=True,
                          env=env, timeout=300)


def test_decode_encode_round_trip_through_files(tmp_path: Path) -> None:
    view = tmp_path / "view.mlir"
    assert run("decode", str(JAX), "-o", str(view)).returncode == 0
    out = tmp_path / "out.mlirbc"
    proc = run("encode", str(view), "-o", str(out), "--like", str(JAX))
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes() == JAX.read_bytes()
    # The StableHLO models decode every part, so even without the original the stored (VHLO) view gives
    # the bytes back.
    stored = tmp_path / "stored.mlir"
    assert run("decode", str(JAX), "--form", "generic", "-o", str(stored)).returncode == 0
    fresh = tmp_path / "fresh.mlirbc"
    proc = run("encode", str(stored), "-o", str(fresh))
    assert proc.returncode == 0, proc.stderr
    assert fresh.read_bytes() == JAX.read_bytes()
    # The StableHLO view says less than the bytes (empty argument dictionaries, the locations of a compact
    # reduce's body): without the original it is written as jaxlib writes that text, and shows the same.
    proc = run("encode", str(view), "-o", str(fresh))
    assert proc.returncode == 0, proc.stderr
    assert fresh.read_bytes() != JAX.read_bytes()
    assert run("decode", str(fresh)).stdout == view.read_text()
    # Without them the vhlo parts are fallbacks, which need the original: without --like the encode is
    # refused and nothing is written.
    opaque = tmp_path / "opaque.mlir"
    assert run("decode", str(JAX), "-o", str(opaque), "--disable-model", "vhlo").returncode == 0
    assert "mlirbc.fallback" in opaque.read_text()
    proc = run("encode", str(opaque), "-o", str(out), "--like", str(JAX), "--disable-model", "vhlo")
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes() == JAX.read_bytes()
    refused = tmp_path / "refused.mlirbc"
    proc = run("encode", str(opaque), "-o", str(refused), "--disable-model", "vhlo")
    assert proc.returncode == 1 and not refused.exists()
    assert "error" in proc.stderr


def test_encode_at_another_version(tmp_path: Path) -> None:
    view = tmp_path / "view.mlir"
    assert run("decode", str(SMALL), "-o", str(view)).returncode == 0
    out = tmp_path / "v3.mlirbc"
    proc = run("encode", str(view), "-o", str(out), "--version", "3", "--producer", "me")
    assert proc.returncode == 0, proc.stderr
    m = decode_bytecode(out.read_bytes())
    assert (m.version, m.producer, m.error) == (3, "me", None)
    assert out.read_bytes() == (CORPUS / "upstream" / "Bytecode__uselist_orders.p01.v3.mlirbc").read_bytes() \
        .replace(b"MLIR22.1.8\0", b"me\0")


def test_roundtrip_reports_identity_and_differences(tmp_path: Path) -> None:
    proc = run("roundtrip", str(JAX))
    assert (proc.returncode, proc.stdout.strip()) == (0, "identical")
    odd = tmp_path / "06b.mlirbc"
    odd.write_bytes((EXAMPLES / "06b_loc_ranges.mlirbc").read_bytes())
    proc = run("roundtrip", str(odd))
    assert proc.returncode == 1
    assert proc.stdout.startswith("differs at byte ") and "IR section" in proc.stdout


def test_check_and_info_exit_codes(tmp_path: Path) -> None:
    assert run("check", str(SMALL)).returncode == 0
    bad = CORPUS / "invalid" / "Bytecode__uselist_orders.p00.v4__truncated_50pct.mlirbc"
    proc = run("check", str(bad))
    assert proc.returncode == 1 and "byte " in proc.stderr
    view = tmp_path / "broken.mlir"
    view.write_text('"builtin.module"() ({\n  "t.a"(%x) : (i32) -> ()\n}) : () -> ()\n')
    proc = run("check", str(view))
    assert proc.returncode == 1 and f"{view}:2:" in proc.stderr
    info = json.loads(run("info", "--json", str(JAX)).stdout)
    assert info["producer"] == "StableHLO_v1.15.0" and info["fallbacks"] == {"op": 0, "attribute": 0,
                                                                            "type": 0}
    info = json.loads(run("info", "--json", "--disable-model", "vhlo", str(JAX)).stdout)
    assert info["fallbacks"]["op"] > 0
    assert run("info", str(tmp_path / "missing.mlirbc")).returncode == 2
    assert run("frobnicate").returncode == 2


def test_readme_lists_every_command_and_its_example_runs() -> None:
    """The README's CLI table names every subcommand, and its main-job command works on a fresh clone
    (the example it decodes ships in the repository)."""
    import re

    from mlirbc.cli.main import build_parser

    readme = (REPO / "README.md").read_text()
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    commands = set(sub.choices)  # type: ignore[arg-type]
    listed = set(re.findall(r"^\| `mlirbc (\w+)", readme, re.M))
    assert commands == listed
    main_job = re.search(r"\.venv/bin/mlirbc decode (\S+)", readme)
    assert main_job is not None
    example = REPO / main_job.group(1)
    assert example.is_file() and example.stat().st_size < 100_000
    proc = run("decode", str(example))
    assert proc.returncode == 0, proc.stderr
    # The StableHLO models ship with the package: the export reads as StableHLO, nothing kept opaque.
    assert "func.func public @main(" in proc.stdout and " = stablehlo.dot_general %" in proc.stdout
    assert '"view": "stablehlo"' in proc.stdout.split("\n", 1)[0]
    assert "mlirbc.fallback" not in proc.stdout and "mlirbc.properties" not in proc.stdout
    # With aliases, as jaxlib prints them: the locations are defined once, outside the module.
    assert "\n#loc1 = loc(" in proc.stdout and " loc(#loc" in proc.stdout


def test_elided_values_of_custom_forms_round_trip(capsys: pytest.CaptureFixture[str]) -> None:
    """The default (pretty) view with small values elided reads back to the original bytes: a string a
    custom form prints with its type known (`vm.fail %c, "..."`) is resolved to the file's string, and a
    value a custom form builds only to print it (linalg's iterator types as strings) is never elided."""
    from mlirbc.cli.main import main

    for rel in ("iree/mlp2.vm.mlirbc", "iree/convnet.input.mlirbc"):
        path = str(CORPUS / rel)
        for scope in ("--aliases", "--local-scope"):
            assert main(["roundtrip", path, "--elide-larger-than", "8", scope]) == 0, (rel, scope)
        assert main(["decode", path, "--elide-larger-than", "8"]) == 0
    out = capsys.readouterr().out
    assert out.count("identical") == 4
    assert 'vm.fail %' in out and ', "mlirbc.elided.' in out
    assert 'iterator_types = ["parallel", "parallel", "reduction", "reduction"]' in out
