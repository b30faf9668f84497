"""Edits of a pretty view re-read in place (the op an edit is in) give what a full parse gives, for files
of every bytecode version: below version 5 an op in a custom form keeps its inherent attributes in its
attribute dictionary, and the in-place re-read knows the version from the view's header."""

from __future__ import annotations

import pytest

from corpus import path as corpus_path
from mlirbc.bytecode.reader import read_bytecode_file
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.view.aliasing import alias_rules
from mlirbc.view.edits import parse_state, reparse_edit
from mlirbc.view.printer import print_module


@pytest.mark.parametrize("version", ["v0", "v1", "v4", "v5", ""])
@pytest.mark.parametrize("aliases", [False, True], ids=["local", "aliased"])
def test_an_edit_inside_a_function_splices_as_a_full_parse_reads(version: str, aliases: bool) -> None:
    path = corpus_path(f"upstream/Dialect__Linalg__roundtrip.p17{'.' + version if version else ''}.mlirbc")
    m = read_bytecode_file(str(path))
    text = print_module(m, form="pretty", aliases=alias_rules(m) if aliases else None).text
    base = parse_state(text, None)  # a text without its file (the header alone says the version)
    assert base.module is not None, base.diagnostics[:2]
    at = text.index("math.absf")
    edited = text[:at] + text[at:].replace("math.absf", "math.sqrt", 1)
    spliced = reparse_edit(base, edited, at, at + len("math.absf"), None)
    full = parse_state(edited, None)
    assert spliced is not None and spliced.module is not None and full.module is not None
    assert print_module(spliced.module).text == print_module(full.module).text
    assert encode_bytecode(spliced.module) == encode_bytecode(full.module)
    assert "math.sqrt" in print_module(spliced.module).text


@pytest.mark.parametrize("aliases", [False, True], ids=["local", "aliased"])
def test_an_edit_of_a_printed_view_is_read_in_place(aliases: bool) -> None:
    """As the server holds a file's view (its printed state, with the aliases the text defines), a
    keystroke inside a function re-reads that function alone, to what a full parse gives."""
    from mlirbc.view.edits import printed_state

    path = corpus_path("upstream/Dialect__Arith__ops.mlirbc")
    m = read_bytecode_file(str(path))
    printed = print_module(m, form="pretty", aliases=alias_rules(m) if aliases else None)
    base = printed_state(m, printed)
    text = printed.text
    at = text.index("\n", len(text) // 2) + 1
    edited = text[:at] + "    // a comment line\n" + text[at:]
    spliced = reparse_edit(base, edited, at, at, m)
    full = parse_state(edited, m)
    assert spliced is not None and spliced.how == "spliced" and spliced.module is not None
    assert full.module is not None
    assert encode_bytecode(spliced.module, template=m) == encode_bytecode(full.module, template=m)
