"""The IREE 3.13 corpus (`iree/` of the corpus, producer `MLIR24.0.0git`) with mlirbc's models: the
`mlir24` set chosen from the producer, and IREE's dialect models (the project's own `iree` plugin).

Against the compiler that wrote the files (iree-base-compiler 3.13.0, test extra `iree`):

* no fallback op, attribute or type, and an identical round trip (decode, print, parse, encode);
* the view equals `iree-opt --mlir-print-op-generic --mlir-print-debuginfo --mlir-print-local-scope`
  of the file, line for line (`// mlirbc:` lines aside), except where listed below with the cause;
  listed: files below version 5 (properties placement, `iree_checks.check_view_against_print`);
* `iree-opt --emit-bytecode --emit-bytecode-version=V` of the view reproduces the file byte for byte,
  except where the file stores use-list orders (text has no syntax for them: iree-opt's own print of
  such a file does not reproduce it either, and gives the same bytes as our view);
* our fresh encoding of the view (no original file) equals iree-opt's encoding of the same text, except
  for the use-list orders iree-opt computes for IR it parsed from generic text (see `fresh_difference`).

The checks live in `iree_checks.py` so that files compiled in the tests (`test_iree_generated.py`) pass
the very same ones.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from corpus import CORPUS, expect, manifest
from iree_checks import (
    check_fresh_encoding,
    check_iree_opt_reencodes,
    check_no_fallbacks_and_round_trip,
    check_view_against_print,
    decode,
)
from iree_support import IREE_FILES, IREE_SKIP_REASON, iree_opt_path, reference_print
from mlirbc.bytecode.reader import read_bytecode
from mlirbc.models.build import default_registry

PRINTED_OP = re.compile(r'^\s*(?:%[^"=]* = )?"[A-Za-z_][\w$.]*"\(', re.M)
"""An op's first line in a generic print."""
needs_iree = pytest.mark.skipif(iree_opt_path() is None, reason=IREE_SKIP_REASON)
ids = [p.name for p in IREE_FILES]


def test_the_corpus_is_there_and_iree_models_are_installed() -> None:
    listed = [r for r in manifest() if r["path"].startswith("iree/")]
    assert len(IREE_FILES) == len(listed) == expect(full=21, core=20), f"{CORPUS}/iree is incomplete"
    reg = default_registry()
    r = reg.dialect_registration("hal")
    assert r is not None and r.origin == "plugin mlirbc:iree", "pip install -e . registers the iree plugin"


@pytest.mark.parametrize("path", IREE_FILES, ids=ids)
def test_no_fallbacks_and_identical_round_trip(path: Path) -> None:
    check_no_fallbacks_and_round_trip(path.read_bytes())


def test_census() -> None:
    """The corpus as the issue counts it (3,828 ops in the full corpus): as many ops as iree-opt printed,
    every one decoded, by the mlir24 set."""
    printed = sum(len(PRINTED_OP.findall(reference_print(path))) for path in IREE_FILES)
    assert printed == expect(full=3828, core=3408)
    ops = decoded = 0
    for path in IREE_FILES:
        m = read_bytecode(path.read_bytes())
        assert m.model_set == "mlir24" and m.model_set_note == "producer MLIR24.0.0git"
        assert m.root is not None
        for op in m.root.walk():
            ops += 1
            decoded += op.properties is None or op.properties.kind != "fallback"
    assert (ops, decoded) == (printed, printed)


@needs_iree
@pytest.mark.parametrize("path", IREE_FILES, ids=ids)
def test_view_equals_iree_opt_print(path: Path) -> None:
    check_view_against_print(path.read_bytes(), reference_print(path))


@needs_iree
@pytest.mark.parametrize("path", IREE_FILES, ids=ids)
def test_iree_opt_reencodes_the_view_byte_for_byte(path: Path) -> None:
    check_iree_opt_reencodes(path.read_bytes())


@needs_iree
@pytest.mark.parametrize("path", IREE_FILES, ids=ids)
def test_fresh_encoding_follows_iree_opt(path: Path) -> None:
    check_fresh_encoding(path.read_bytes())


def test_decode_helper_uses_the_default_models() -> None:
    m = decode(IREE_FILES[0].read_bytes())
    assert m.model_set == "mlir24"
