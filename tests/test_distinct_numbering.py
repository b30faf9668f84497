"""Distinct attributes (`distinct[N]<...>`) numbered as MLIR numbers them, and read back to the very
attributes the file holds (`syntax/distincts.py`).

* The view, in every form (pretty, generic) and mode (local scope, aliases), equals `mlir-opt`'s print with
  the same flags: N counts the distinct attributes in the order the text first shows them (alias
  definitions before the module where they print, an op's attributes after its regions, locations aliased
  after the module at the end); a string that looks like one is not one.
* Read back with the file, the view is the file again (the `// mlirbc: distinct` lines say which attribute
  each N is); read back without it, it is what mlir-opt makes of the same text (one N, one attribute).
* The language server's re-read of one edited op (`reparse_edit`) keeps the numbering: the edited op's
  `distinct[N]` is the attribute untouched ops show as `distinct[N]` (saved once, shared, as mlir-opt reads
  the saved file), a new N a new attribute, and an N given another value MLIR's error, as a full parse.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from lsp_support import change, find, hover, open_bytecode, request
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.ir.attributes import DistinctAttr
from mlirbc.ir.module import Module
from mlirbc.ir.walk import distinct_attributes
from mlirbc.view.aliasing import alias_rules
from mlirbc.view.edits import ViewState, parse_state, printed_state, reparse_edit, unchanged_ops, writing
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import DISTINCT_PREFIX, DISTINCTS_PER_LINE, print_module, stream_module
from oracle import SKIP_REASON, mlir_opt_path, run_mlir_opt

needs_mlir_opt = pytest.mark.skipif(mlir_opt_path() is None, reason=SKIP_REASON)

# Two functions share a compile unit (one distinct attribute) and have a subprogram each; an op holds
# distinct attributes of values (aliased as `#distinct`), one inside another, one twice, and a string that
# reads like one; an op holds one in its region and one in its attributes (printed after the region).
SOURCE = """
#file = #llvm.di_file<"lib.c" in "/src">
#cu = #llvm.di_compile_unit<id = distinct[10]<>, sourceLanguage = DW_LANG_C11, file = #file,
  producer = "cc", isOptimized = true, emissionKind = Full>
#sp_a = #llvm.di_subprogram<id = distinct[11]<>, compileUnit = #cu, scope = #file, name = "a",
  file = #file, line = 1, subprogramFlags = Definition>
#sp_b = #llvm.di_subprogram<id = distinct[12]<>, compileUnit = #cu, scope = #file, name = "b",
  file = #file, line = 5, subprogramFlags = Definition>
module {
  "test.op"() {s = "distinct[7]<>", d = distinct[3]<42 : i32>, n = distinct[4]<distinct[5]<>>,
               arr = [distinct[6]<>, distinct[3]<42 : i32>]} : () -> () loc("lib.c":9:1)
  "test.region"() ({
    "test.inner"() {x = distinct[8]<>} : () -> () loc("lib.c":10:3)
  }) {after = distinct[9]<>} : () -> () loc("lib.c":10:1)
  llvm.func @a() -> i32 {
    %c = llvm.mlir.constant(1 : i32) : i32 loc(fused<#sp_a>["lib.c":2:3])
    llvm.return %c : i32 loc(fused<#sp_a>["lib.c":3:3])
  } loc(fused<#sp_a>["lib.c":1:1])
  llvm.func @b() -> i32 {
    %c = llvm.mlir.constant(7 : i32) : i32 loc(fused<#sp_b>["lib.c":6:3])
    llvm.return %c : i32 loc(fused<#sp_b>["lib.c":7:3])
  } loc(fused<#sp_b>["lib.c":5:1])
} loc("lib.c":0:0)
"""

MODES = {"local": ["--mlir-print-debuginfo", "--mlir-print-local-scope"],
         "aliased": ["--mlir-print-debuginfo"]}
_DISTINCT = re.compile(r"(?<!\")distinct\[(\d+)\]")


def _bytecode(text: str, version: int = 6) -> bytes:
    proc = run_mlir_opt(["--allow-unregistered-dialect", "--emit-bytecode",
                         f"--emit-bytecode-version={version}", "-o", "-"], text.encode())
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout


def _decoded(version: int = 6) -> tuple[bytes, Module]:
    data = _bytecode(SOURCE, version)
    m = decode_bytecode(data)
    assert m.error is None and not m.fallbacks, m.error
    return data, m


def _view(m: Module, form: str, mode: str) -> str:
    return print_module(m, form=form, aliases=alias_rules(m) if mode == "aliased" else None).text


def _oracle(data: bytes | str, form: str, mode: str) -> str:
    flags = MODES[mode] + (["--mlir-print-op-generic"] if form == "generic" else [])
    src = data.encode() if isinstance(data, str) else data
    proc = run_mlir_opt(["--allow-unregistered-dialect", *flags], src)
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout.decode()


def _without_own_lines(view: str) -> str:
    return "".join(line for line in view.splitlines(keepends=True)
                   if not line.lstrip().startswith("// mlirbc:"))


@needs_mlir_opt
@pytest.mark.parametrize("mode", ["local", "aliased"])
@pytest.mark.parametrize(("version", "form"), [(6, "pretty"), (6, "generic"), (1, "pretty")])
def test_the_view_numbers_them_as_mlir_opt_and_reads_back(version: int, form: str, mode: str) -> None:
    """(Version 1's generic view keeps inherent attributes in the attribute dictionary, where mlir-opt
    prints them as properties: `test_text_roundtrip`.)"""
    data, m = _decoded(version)
    view = _view(m, form, mode)
    assert _without_own_lines(view) == _oracle(data, form, mode)
    assert '"distinct[7]<>"' in view and len(set(_DISTINCT.findall(view))) == 9
    # with the file: the file again; without it: what mlir-opt makes of the same text
    with_file = parse_module(view, template=m)
    assert with_file.module is not None, with_file.errors[:3]
    assert encode_bytecode(with_file.module, template=m) == data
    alone = parse_module(view)
    assert alone.module is not None, alone.errors[:3]
    assert encode_bytecode(alone.module) == _bytecode(_without_own_lines(view), version)


@needs_mlir_opt
def test_a_streamed_view_is_the_printed_view() -> None:
    _, m = _decoded()
    for mode in MODES:
        pieces: list[str] = []
        stream_module(m, pieces.append, form="pretty", aliases=alias_rules(m) if mode == "aliased" else None)
        assert "".join(pieces) == _view(m, "pretty", mode)


@needs_mlir_opt
def test_the_map_reads_a_number_as_the_files_attribute() -> None:
    _, m = _decoded()
    assert m.root is not None
    held = distinct_attributes(m.root)
    printed = print_module(m, form="pretty")
    text = printed.text
    found = 0
    for match in _DISTINCT.finditer(text):
        hit = printed.map.attribute_at(match.start() + 1)
        assert hit is not None
        if isinstance(hit.value, DistinctAttr):  # (in a dialect value the map reads the value's text)
            assert held.get(hit.value.ident) is hit.value  # the very attribute the file holds
            assert printed.distincts.idents[int(match.group(1))] == hit.value.ident
            found += 1
    assert found == 7  # test.op's five, test.region's two
    # and the ops' records moved with the renumbered text
    parsed = parse_module(text, template=m)
    assert parsed.map is not None
    assert [s for _, s in printed.map.ops()] == [s for _, s in parsed.map.ops()]


def test_plain_text_numbers_as_mlirs_parser() -> None:
    """Without a view's numbering, one N in one text is one attribute; another N another one, even of
    the same value; an N met again with another value is mlir-opt's error."""
    text = """
    "test.a"() {x = distinct[5]<42 : i32>, y = distinct[6]<42 : i32>} : () -> ()
    "test.b"() {x = distinct[5]<42 : i32>} : () -> ()
    """
    r = parse_module('"builtin.module"() ({' + text + '}) : () -> ()')
    assert r.module is not None and r.module.root is not None, r.errors[:2]
    a, b = r.module.root.regions[0].blocks[0].operations
    assert a.attributes is not None and b.attributes is not None
    x, y, x2 = a.attributes.lookup("x"), a.attributes.lookup("y"), b.attributes.lookup("x")
    assert isinstance(x, DistinctAttr) and x is x2 and y is not x
    bad = '"builtin.module"() ({\n  "test.a"() {x = distinct[5]<42 : i32>} : () -> ()\n' \
          '  "test.b"() {x = distinct[5]<43 : i32>} : () -> ()\n}) : () -> ()\n'
    r = parse_module(bad)
    assert r.module is None
    [error] = r.errors
    assert error.message == "referenced attribute does not match previous definition: 42 : i32"
    assert (error.span.start_line, error.span.start_col) == (2, 18)
    if mlir_opt_path() is not None:
        proc = run_mlir_opt(["--allow-unregistered-dialect"], bad.encode())
        assert proc.returncode != 0
        assert f"3:{error.span.start_col + 1}: error: {error.message}" in proc.stderr.decode()


@pytest.mark.parametrize("lines", ["// mlirbc: distinct 3 x", "// mlirbc: distinct 3 4 3"])
def test_a_malformed_numbering_is_a_located_error(lines: str) -> None:
    r = parse_module('"builtin.module"() ({\n}) : () -> ()\n' + lines + "\n")
    assert r.module is None
    [error] = r.errors
    assert error.message.startswith("malformed mlirbc distinct line: ")
    assert error.span.start_line == 2


def _edit_a(old: str, new: str) -> tuple[bytes, Module, str, ViewState | None, ViewState]:
    """The local-scope pretty view with the first match of `old` (a pattern) inside function @a replaced
    by `new`, re-read as the language server re-reads it (that op alone) and in full."""
    data, m = _decoded()
    printed = print_module(m, form="pretty")
    base = printed_state(m, printed)
    found = re.compile(old).search(printed.text, printed.text.index("llvm.func @a"))
    assert found is not None
    at = found.start()
    text = printed.text[:at] + found.expand(new) + printed.text[found.end():]
    old = found.group()
    return data, m, text, reparse_edit(base, text, at, at + len(old), m), parse_state(text, m)


def _saved(module: Module, template: Module) -> bytes:
    with writing(module):
        return encode_bytecode(module, template=template, unchanged=unchanged_ops(module, template))


def _distinct_entries(data: bytes) -> int:
    source = decode_bytecode(data).source
    assert source is not None
    return sum(isinstance(e.value, DistinctAttr) for e in source.attrs)


def _compile_units(text: str) -> list[str]:
    return re.findall(r"compileUnit = <id = distinct\[(\d+)\]", text)


@needs_mlir_opt
def test_an_edited_op_keeps_the_distinct_attributes_it_shares_with_the_others() -> None:
    """Function @a, edited and re-read alone, names the compile unit it shares with @b by the number
    the view gave it: saved, the file holds one compile unit, which mlir-opt prints with one number in
    both functions (its print of the saved file is the edited view)."""
    data, m, text, spliced, full = _edit_a(r"constant\(1 : i32\)", "constant(2 : i32)")
    assert spliced is not None and spliced.how == "spliced" and spliced.module is not None
    assert full.module is not None
    saved = _saved(spliced.module, m)
    assert saved == encode_bytecode(full.module, template=m)
    assert _distinct_entries(saved) == _distinct_entries(data) == 9
    theirs = _oracle(saved, "pretty", "local")
    assert theirs == _without_own_lines(text)
    cus = _compile_units(theirs)
    assert len(cus) == 6 and len(set(cus)) == 1  # in @a's and @b's three locations: one attribute


@needs_mlir_opt
def test_a_new_number_in_an_edited_op_is_a_new_attribute() -> None:
    _, m, _, spliced, full = _edit_a(r"compileUnit = <id = distinct\[\d+\]",
                                     "compileUnit = <id = distinct[40]")
    assert spliced is not None and spliced.module is not None, spliced and spliced.errors
    assert full.module is not None
    saved = _saved(spliced.module, m)
    assert saved == encode_bytecode(full.module, template=m)
    cus = _compile_units(_oracle(saved, "pretty", "local"))
    assert len(cus) == 6 and len(set(cus)) == 2  # @a's first location now names a compile unit of its own


@needs_mlir_opt
def test_an_edit_giving_a_number_another_value_is_read_as_mlir_reads_the_whole_text() -> None:
    """Whether `distinct[N]<new value>` in the edited op is an error depends on the rest of the text (N
    named elsewhere with its old value): the op is not re-read alone, the full parse says what mlir-opt
    says (the first `distinct[N]` defines it)."""
    _, _, text, spliced, full = _edit_a(r"<id = (distinct\[\d+\])<>", r"<id = \1<7 : i32>")
    assert spliced is None and full.module is None
    errors = full.parse_errors
    assert {d.message for d in errors} == {"referenced attribute does not match previous definition: 7 : i32"}
    proc = run_mlir_opt(["--allow-unregistered-dialect"], _without_own_lines(text).encode())
    first = errors[0].span
    assert proc.returncode != 0
    # (mlir-opt reads the text without the view's header line: one line up)
    assert f":{first.start_line}:{first.start_col + 1}: error: {errors[0].message}" in proc.stderr.decode()


@needs_mlir_opt
@pytest.mark.lsp_options({"view": {"form": "pretty", "aliases": False}})
async def test_through_the_server(client: LanguageClient, tmp_path: Path) -> None:
    """The language server's view shows mlir-opt's numbers (its hover too); a keystroke in function @a
    (re-read alone) and a save give a file whose compile unit both functions still share: mlir-opt's
    print of it is the edited view."""
    data, _ = _decoded()
    src = tmp_path / "debug.mlirbc"
    src.write_bytes(data)
    uri, text, _ = await open_bytecode(client, src)
    assert _without_own_lines(text) == _oracle(data, "pretty", "local")
    at = find(text, "distinct[1]<42 : i32>")
    h = await hover(client, uri, lsp.Position(line=at.line, character=at.character + 1))
    assert "DistinctAttr" in h and "distinct[1]<42 : i32>" in h
    pos = find(text, "1 : i32", text.count("1 : i32", 0, text.index("llvm.func @a")))
    change(client, uri, 2, [lsp.TextDocumentContentChangePartial(
        range=lsp.Range(start=pos, end=lsp.Position(line=pos.line, character=pos.character + 1)), text="2")])
    out = tmp_path / "saved.mlirbc"
    res = await request(client, "mlirbc/save", {"uri": uri, "path": str(out)})
    assert res["written"] == str(out)
    edited = text.replace("constant(1 : i32)", "constant(2 : i32)", 1)
    theirs = _oracle(out.read_bytes(), "pretty", "local")
    assert theirs == _without_own_lines(edited) and len(set(_compile_units(theirs))) == 1


def test_many_distinct_attributes_read_back_through_wrapped_lines() -> None:
    """More than a line's worth of numbers (`DISTINCTS_PER_LINE`): the lines are read in order."""
    ops = "\n".join(f'  "test.op"() {{a = distinct[{i}]<{i} : i32>, b = distinct[{i}]<{i} : i32>}} : () -> ()'
                    for i in range(2 * DISTINCTS_PER_LINE + 5))
    parsed = parse_module('"builtin.module"() ({\n' + ops + "\n}) : () -> ()\n")
    assert parsed.module is not None, parsed.errors[:2]
    data = encode_bytecode(parsed.module)
    m = decode_bytecode(data)
    view = print_module(m).text
    lines = [ln for ln in view.splitlines() if ln.startswith(DISTINCT_PREFIX)]
    assert len(lines) == 3 and len(" ".join(lines).split()) == 3 * 3 + 2 * DISTINCTS_PER_LINE + 5
    again = parse_module(view, template=m)
    assert again.module is not None and encode_bytecode(again.module, template=m) == data
    assert _DISTINCT.findall(view)[:4] == ["0", "0", "1", "1"]
