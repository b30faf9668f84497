"""No false rejection on valid input: every valid corpus file verifies clean, decoded and as a parsed view.

Every file of `MANIFEST.tsv` (upstream at every bytecode version, IREE, JAX, VHLO) is decoded and its
module verified: no error may be found (an op kind switched off for disagreeing with an oracle would say
so as an Information note, never an error).  The default-version files are also printed, parsed back with
verification on (what the editor does on every keystroke, and `mlirbc check` of a view without the file)
and must have no verifier diagnostic.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus import CORPUS, valid_files
from mlirbc.bytecode.reader import read_bytecode_file
from mlirbc.models.build import default_registry
from mlirbc.verifier import verify_module
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module

FILES = [p for p in valid_files() if p.parent.name != "large"] + sorted((CORPUS / "vhlo").glob("*.mlirbc"))


def _default_version(p: Path) -> bool:
    suffix = p.suffixes[-2] if len(p.suffixes) >= 2 else ""
    return not (suffix.startswith(".v") and suffix[2:].isdigit())


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(CORPUS)) for p in FILES])
def test_decoded_module_verifies(path: Path) -> None:
    reg = default_registry()
    module = read_bytecode_file(str(path), reg)
    if module.error is not None:
        pytest.skip(f"does not decode: {module.error}")  # test_reader_corpus owns this
    errors = [f.message for f in verify_module(module, reg) if f.severity == "error"]
    assert not errors, errors[:5]


VIEWS = [p for p in FILES if _default_version(p)]


@pytest.mark.parametrize("path", VIEWS, ids=[str(p.relative_to(CORPUS)) for p in VIEWS])
def test_parsed_view_verifies(path: Path) -> None:
    reg = default_registry()
    module = read_bytecode_file(str(path), reg)
    if module.error is not None:
        pytest.skip(f"does not decode: {module.error}")
    text = print_module(module, with_map=False).text
    # with the file as template (the editor) and without (`mlirbc check view.mlir`)
    for template in (module, None):
        result = parse_module(text, template=template, registry=reg, verify=True)
        assert result.module is not None, [d.message for d in result.errors[:3]]
        assert result.verification is not None
        faults = [d.message for d in result.diagnostics if d.code == "verify"]
        assert not faults, faults[:5]
