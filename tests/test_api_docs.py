"""The API reference (`docs/api/`) is what pdoc makes of the docstrings now, and names every public name."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys

import pytest

import mlirbc.api
from corpus import REPO


def _pdoc() -> None:
    if importlib.util.find_spec("pdoc") is None:
        if os.environ.get("CI") == "true":
            raise AssertionError("CI=true but pdoc (test extra) is not installed")
        pytest.skip("pdoc is not installed (pip install -e '.[test]'): the API reference was NOT checked")


def test_the_committed_reference_is_what_pdoc_makes_now() -> None:
    _pdoc()
    proc = subprocess.run([sys.executable, str(REPO / "server" / "tools" / "gen_api_docs.py"), "--check"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_every_public_name_is_documented() -> None:
    page = (REPO / "docs" / "api" / "mlirbc" / "api.html").read_text()
    ids = set(re.findall(r'id="([A-Za-z_][\w.]*)"', page))
    missing = [n for n in mlirbc.api.__all__ if n not in ids]
    assert not missing
    undocumented = [n for n in mlirbc.api.__all__
                    if callable(getattr(mlirbc.api, n)) and not getattr(mlirbc.api, n).__doc__]
    assert not undocumented
