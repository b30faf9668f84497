"""Disabling a model (`--disable-model DIALECT`) turns exactly that dialect's ops into fallbacks.

Proven on real upstream files: every op of the disabled dialect that has properties becomes a fallback
holding its exact payload bytes, and every other op decodes exactly as before.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from corpus import CORPUS, REPO, manifest
from mlirbc.bytecode.reader import read_bytecode
from mlirbc.ir.operation import PROPS_FALLBACK
from mlirbc.models.build import models


def _files_using(dialect: str, limit: int = 25) -> list[str]:
    rows = [r for r in manifest() if r["path"].startswith("upstream/") and r["bytecode_version"] == "6"
            and dialect in r["dialects"].split(",")]
    return [r["path"] for r in rows[:limit]]


@pytest.mark.parametrize("dialect", ["arith", "func", "scf"])
def test_disabled_dialect_ops_are_fallbacks_and_nothing_else_changes(dialect: str) -> None:
    files = _files_using(dialect)
    assert files, f"no corpus file uses {dialect}"
    plain = models()
    disabled = models(disabled=[dialect])
    became_fallback = 0
    for path in files:
        data = (CORPUS / path).read_bytes()
        a = read_bytecode(data, plain)
        b = read_bytecode(data, disabled)
        assert a.root is not None and b.root is not None and a.error is None and b.error is None
        ops_a, ops_b = list(a.root.walk()), list(b.root.walk())
        assert [op.name for op in ops_a] == [op.name for op in ops_b]
        for x, y in zip(ops_a, ops_b, strict=True):
            px, py = x.properties, y.properties
            assert x.attributes is y.attributes and x.location is y.location
            assert [v.type for v in x.results] == [v.type for v in y.results]
            if x.name.split(".")[0] == dialect and px is not None:
                assert py is not None and py.kind == PROPS_FALLBACK, (path, x.name)
                assert py.raw == px.raw and py.raw is not None
                assert bytes(data[py.offset:py.offset + len(py.raw)]) == py.raw
                assert f"--disable-model {dialect}" in py.reason
                became_fallback += 1
            else:
                assert (px is None) == (py is None), (path, x.name)
                if px is not None and py is not None:
                    assert (px.kind, px.values, px.attribute) == (py.kind, py.values, py.attribute)
        notes = [n for n in b.fallbacks if n.kind == "op"]
        assert all(n.name.startswith(dialect + ".") for n in notes)
    assert became_fallback > 0


def test_cli_info_counts_disabled_ops() -> None:
    path = CORPUS / _files_using("arith", 1)[0]
    env_path = str(REPO / "server")
    out = subprocess.run([sys.executable, "-m", "mlirbc.cli", "info", "--json", "--disable-model", "arith",
                          str(path)], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"})
    info = json.loads(out.stdout)
    arith_ops = sum(n for name, n in info["ops"].items() if name.startswith("arith."))
    assert 0 < info["fallbacks"]["op"] <= arith_ops
    assert all(r["name"].startswith("arith.") for r in info["fallback_reasons"] if r["kind"] == "op")
    assert not any(name.startswith("arith.") for name in info["models"])
