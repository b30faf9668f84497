"""MLIR 24's `llvm` debug-info encoding (the `mlir24` set's DSL, `models/data_mlir24/dsl/`), on files that set
the fields MLIR 24 added, written in the test by the compiler that writes MLIR 24 (`iree-opt`, test extra
`iree`): every value decodes (no fallback), reads back into the same bytes, prints as iree-opt prints it,
and both iree-opt's encoding of the view and our fresh encoding give the file's bytes (`iree_checks.py`).

The corpus only has the defaults of the new fields (IREE's own debug info); these set each one.
"""

from __future__ import annotations

import pytest

from iree_checks import (
    check_fresh_encoding,
    check_iree_opt_reencodes,
    check_no_fallbacks_and_round_trip,
    check_view_against_print,
    decode,
    view_of,
)
from iree_support import IREE_SKIP_REASON, iree_opt, iree_opt_path

pytestmark = pytest.mark.skipif(iree_opt_path() is None, reason=IREE_SKIP_REASON)

SOURCE = """
#file = #llvm.di_file<"foo.c" in "/src">
#int = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "int", sizeInBits = 32, encoding = DW_ATE_signed>
#mem = #llvm.di_derived_type<tag = DW_TAG_member, name = "m", file = #file, line = 9, scope = #file,
  baseType = #int, sizeInBits = 32, flags = "Artificial|Private", extraData = 5 : i64>
#disc = #llvm.di_derived_type<tag = DW_TAG_member, name = "d", baseType = #int, sizeInBits = 8>
#st = #llvm.di_composite_type<tag = DW_TAG_variant_part, name = "S", file = #file, line = 7,
  sizeInBits = 32, identifier = "_ZTS1S", discriminator = #disc, elements = #mem>
#imp = #llvm.di_imported_entity<tag = DW_TAG_imported_module, scope = #file, entity = #file, line = 2>
#cu = #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C_plus_plus_14, file = #file,
  producer = "clang", isOptimized = true, emissionKind = LineTablesOnly, isDebugInfoForProfiling = true,
  nameTableKind = GNU, splitDebugFilename = "s.dwo", importedEntities = #imp>
#cu2 = #llvm.di_compile_unit<id = distinct[1]<>,
  sourceLanguage = #llvm.di_source_language_name<name = DW_LNAME_C, version = 201112>, file = #file>
#sty = #llvm.di_subroutine_type<types = #int, #st>
#sp = #llvm.di_subprogram<id = distinct[2]<>, compileUnit = #cu, scope = #file, name = "fn", file = #file,
  line = 3, scopeLine = 4, subprogramFlags = "Definition", type = #sty>
#sp2 = #llvm.di_subprogram<id = distinct[3]<>, compileUnit = #cu2, scope = #file, name = "g", file = #file,
  line = 11, subprogramFlags = "Definition">
module {
  llvm.func @fn() {
    llvm.return
  } loc(#loc_fn)
  llvm.func @g() {
    llvm.return
  } loc(#loc_g)
}
#loc_fn = loc(fused<#sp>["foo.c":3:1])
#loc_g = loc(fused<#sp2>["foo.c":11:1])
"""


@pytest.fixture(scope="module", params=[6, 4])
def written(request: pytest.FixtureRequest) -> bytes:
    return iree_opt(["--emit-bytecode", f"--emit-bytecode-version={request.param}"], SOURCE.encode())


def test_new_fields_decode_and_read_back(written: bytes) -> None:
    m = check_no_fallbacks_and_round_trip(written)
    assert m.model_set == "mlir24"
    view = view_of(m)
    # the fields MLIR 22's encoding does not have, as iree-opt spells them
    for text in ('file = <"foo.c" in "/src">, line = 9, scope = #llvm.di_file<"foo.c" in "/src">',
                 "flags = \"Private|Artificial\"", "extraData = 5 : i64", 'identifier = "_ZTS1S"',
                 "discriminator = <tag = DW_TAG_member", "sourceLanguage = DW_LANG_C_plus_plus_14",
                 "isDebugInfoForProfiling = true", "nameTableKind = GNU", 'splitDebugFilename = "s.dwo"',
                 "importedEntities = #llvm.di_imported_entity<",
                 "sourceLanguage = #llvm.di_source_language_name<name = DW_LNAME_C, version = 201112>"):
        assert text in view, text
    assert "#llvm.DI" not in view  # nothing in the DSL's generic spelling


def test_view_is_iree_opts_print(written: bytes) -> None:
    check_view_against_print(written)


def test_iree_opt_reencodes_the_view(written: bytes) -> None:
    check_iree_opt_reencodes(written)


def test_fresh_encoding_follows_iree_opt(written: bytes) -> None:
    check_fresh_encoding(written)


def test_an_edited_field_is_what_iree_opt_reads(written: bytes) -> None:
    """Change a new field in the view; iree-opt reads our bytes as exactly that change."""
    from iree_support import generic_print
    from mlirbc.bytecode.writer import encode_bytecode
    from mlirbc.view.parser import parse_module

    m = decode(written)
    view = view_of(m)
    assert view.count('identifier = "_ZTS1S"') >= 1
    edited = view.replace('identifier = "_ZTS1S"', 'identifier = "_ZTS1T"')
    parsed = parse_module(edited, template=m)
    assert parsed.module is not None, parsed.errors[:3]
    out = encode_bytecode(parsed.module, template=m)
    before, after = generic_print(written), generic_print(out)
    assert after == before.replace('identifier = "_ZTS1S"', 'identifier = "_ZTS1T"') != before
