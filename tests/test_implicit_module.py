"""MLIR's implicit `module` (`mlirbc.ir.implicit`), checked against the oracles.

* Text that is not one `builtin.module` (several top-level ops, one that is not a module, none at all) is
  wrapped as MLIR 22's parser wraps it: `mlirbc encode` writes the bytes `mlir-opt --emit-bytecode` writes,
  `mlirbc.parse` gives the module MLIR's Python bindings give (jaxlib).
* A bytecode file whose top-level op is not a module (`mlir-opt --no-implicit-module --emit-bytecode`
  writes one) prints as `mlir-opt` prints it (in its implicit module) and reads back to the same bytes;
  a program or an edit that keeps the module's shape keeps the file's shape.
* A view (the `// mlirbc:` header, or the original it is read against) holds the file's one top-level op:
  a second one is a located error saying what MLIR would do instead.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import mlirbc
from corpus import EXAMPLES
from mlirbc.bytecode.reader import decode_bytecode, read_bytecode_file
from mlirbc.bytecode.writer import encode_bytecode
from mlirbc.cli.main import main as cli_main
from mlirbc.ir.implicit import MODULE_NAME
from mlirbc.view.edits import printed_state, reparse_edit, writing
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module
from oracle import SKIP_REASON, mlir_opt_path, run_mlir_opt
from pretty_oracle import view_lines
from stablehlo_oracle import SKIP_REASON as JAX_SKIP_REASON
from stablehlo_oracle import available as jax_available

# Every op carries its location: mlirbc gives an op written without one `loc(unknown)`, mlir-opt its place
# in the file, which would hide what these tests compare.
TEXTS = {
    "two_funcs": 'func.func @f() {\n  return loc("a.mlir":2:3)\n} loc("a.mlir":1:1)\n'
                 'func.func @g() {\n  return loc("a.mlir":5:3)\n} loc("a.mlir":4:1)\n',
    "bare_func": 'func.func @f(%arg0: i32 loc("a.mlir":1:14)) -> i32 {\n'
                 '  %c1_i32 = arith.constant 1 : i32 loc("a.mlir":2:8)\n'
                 '  %0 = arith.addi %arg0, %c1_i32 : i32 loc("a.mlir":3:8)\n'
                 '  return %0 : i32 loc("a.mlir":4:3)\n} loc("a.mlir":1:1)\n',
    "empty": "",
    "comment_only": "// nothing but a comment\n",
    "module_and_func": 'module {\n} loc("a.mlir":1:1)\n'
                       'func.func @g() {\n  return loc("a.mlir":4:3)\n} loc("a.mlir":3:1)\n',
    "two_modules": 'module @a {\n} loc("a.mlir":1:1)\nmodule @b {\n} loc("a.mlir":3:1)\n',
    "values_across_ops": '%0 = "test.make"() : () -> i32 loc("a.mlir":1:1)\n'
                         '"test.use"(%0) : (i32) -> () loc("a.mlir":2:1)\n',
    "generic_func": '"func.func"() <{function_type = () -> (), sym_name = "h"}> ({\n'
                    '  "func.return"() : () -> () loc("a.mlir":2:3)\n}) : () -> () loc("a.mlir":1:1)\n',
    "one_module": 'module @kept {\n  func.func private @f() loc("a.mlir":2:3)\n} loc("a.mlir":1:1)\n',
}
"""Texts as `mlir-opt` takes them; `one_module` is the case MLIR does not wrap."""

BARE_FUNC = TEXTS["bare_func"]
oracle = pytest.mark.skipif(mlir_opt_path() is None, reason=SKIP_REASON)


def _opt(*args: str) -> bytes:
    proc = run_mlir_opt(["--allow-unregistered-dialect", *args], b"")
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[:2000]
    return proc.stdout


def _written(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.mlir"
    path.write_text(text)
    return path


def _decode_cli(path: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> str:
    assert cli_main(["decode", str(path), *flags]) == 0
    return capsys.readouterr().out


def _no_implicit_module_file(tmp_path: Path) -> Path:
    """A file whose top-level op is a `func.func`, as mlir-opt writes it when asked."""
    src = _written(tmp_path, "bare", BARE_FUNC)
    path = tmp_path / "bare.mlirbc"
    path.write_bytes(_opt("--no-implicit-module", "--emit-bytecode", str(src), "-o", "-"))
    return path


# -- text: MLIR's rule ------------------------------------------------------------------------------------
@oracle
@pytest.mark.parametrize("name", sorted(TEXTS))
def test_encode_writes_what_mlir_opt_writes(name: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    src = _written(tmp_path, name, TEXTS[name])
    out = tmp_path / "ours.mlirbc"
    assert cli_main(["encode", str(src), "-o", str(out)]) == 0, capsys.readouterr().err
    theirs = _opt("--emit-bytecode", str(src), "-o", "-")
    assert out.read_bytes() == theirs
    # and the module reads as mlir-opt reads the text (the implicit module at `"<path>":0:0`)
    printed = _decode_cli(out, capsys)
    assert view_lines(printed) == _opt("--mlir-print-debuginfo", str(src)).decode().rstrip("\n")
    assert ('"implicit_module"' in printed) is False  # a module written from text is a real one


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_parse_gives_the_module_mlir_python_bindings_give(name: str) -> None:
    if not jax_available():
        pytest.skip(JAX_SKIP_REASON)
    from stablehlo_oracle import context

    ours = mlirbc.parse(TEXTS[name])
    with context() as ctx:
        from jaxlib.mlir import ir  # type: ignore[import-not-found,unused-ignore]

        allowed = ctx.allow_unregistered_dialects
        ctx.allow_unregistered_dialects = True
        try:
            theirs = ir.Module.parse(TEXTS[name])
            expected = theirs.operation.get_asm(enable_debug_info=True)
            expected_ops = [op.operation.name for op in theirs.body.operations]
        finally:
            ctx.allow_unregistered_dialects = allowed
    assert str(ours).rstrip("\n") == expected.rstrip("\n")
    assert ours.operation.name == MODULE_NAME
    assert [op.name for op in ours.body.operations] == expected_ops


def test_a_text_without_ops_is_an_empty_module_and_a_view_without_one_an_error() -> None:
    for text in ("", " \n\t\r\n", "//", "#map = affine_map<(d0) -> (d0)>\n"):
        result = parse_module(text, source_name="x.mlir")
        assert result.module is not None and not result.diagnostics, text
        root = result.module.root
        assert root is not None and root.name == MODULE_NAME and not root.regions[0].blocks[0].operations
        assert print_module(result.module, form="pretty").text.endswith('} loc("x.mlir":0:0)\n')
    result = parse_module('// mlirbc: {"version": 6}\n')
    assert result.module is None
    assert result.errors[0].message.startswith("expected an op")


def test_findings_inside_the_implicit_module_are_located(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """The ops MLIR wraps are where the verifier's findings point (the module is the text's root)."""
    src = _written(tmp_path, "dup", TEXTS["two_funcs"].replace("@g", "@f"))
    assert cli_main(["encode", str(src), "-o", str(tmp_path / "out.mlirbc")]) == 1
    err = capsys.readouterr().err
    assert f"{src}:4:1: error: redefinition of symbol named 'f'" in err
    assert not (tmp_path / "out.mlirbc").exists()


# -- a view holds the file's one top-level op ---------------------------------------------------------------
def test_a_second_top_level_op_in_a_view_is_refused_saying_what_mlir_would_do() -> None:
    data = (EXAMPLES / "02_cfg.mlirbc").read_bytes()
    module = decode_bytecode(data)
    view = print_module(module).text
    extra = '"test.extra"() : () -> ()\n'
    at = view.index("\n#loc") + 1 if "\n#loc" in view else len(view)
    text = view[:at] + extra + view[at:]
    line = text[:at].count("\n")
    for template in (module, None):  # the header alone makes it a view
        result = parse_module(text, template=template)
        assert result.module is None
        first = result.errors[0]
        assert (first.span.start_line, first.span.start_col) == (line, 0)
        assert "exactly one top-level op" in first.message
        assert "MLIR would wrap them all in a new implicit module" in first.message
        assert "'builtin.module'" in first.message
    # Without the header, the same text is MLIR text: the two ops come in a new module.
    plain = "\n".join(x for x in text.split("\n") if not x.startswith("// mlirbc:"))
    wrapped = parse_module(plain).module
    assert wrapped is not None and wrapped.root is not None
    assert [op.name for op in wrapped.root.regions[0].blocks[0].operations] == [MODULE_NAME, "test.extra"]


# -- a file whose top-level op is not a module --------------------------------------------------------------
@oracle
def test_a_file_without_a_module_prints_as_mlir_opt_prints_it(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = _no_implicit_module_file(tmp_path)
    assert decode_bytecode(path.read_bytes()).root is not None
    local = ("--mlir-print-debuginfo", "--mlir-print-local-scope")
    for flags, theirs in (((), ("--mlir-print-debuginfo",)), (("--local-scope",), local),
                          (("--form", "generic", "--local-scope"), (*local, "--mlir-print-op-generic"))):
        ours = _decode_cli(path, capsys, *flags)
        assert ours.startswith("// mlirbc: ") and '"implicit_module": true' in ours.split("\n")[0]
        assert view_lines(ours) == _opt(*theirs, str(path)).decode().rstrip("\n"), flags
        # The view means the file: mlir-opt reads the view as it reads the bytes.
        view = tmp_path / "view.mlir"
        view.write_text(ours)
        assert _opt(*theirs, str(view)) == _opt(*theirs, str(path)), flags


@oracle
@pytest.mark.parametrize("form", [["--form", "pretty"], ["--form", "generic", "--local-scope"]])
def test_a_file_without_a_module_reads_back_to_its_bytes(form: list[str], tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = _no_implicit_module_file(tmp_path)
    data = path.read_bytes()
    assert cli_main(["roundtrip", str(path), *form]) == 0
    assert capsys.readouterr().out == "identical\n"
    view = tmp_path / "view.mlir"
    assert cli_main(["decode", str(path), "-o", str(view), *form]) == 0
    for like in ([], ["--like", str(path)]):
        out = tmp_path / "out.mlirbc"
        assert cli_main(["encode", str(view), "-o", str(out), *like]) == 0, capsys.readouterr().err
        assert out.read_bytes() == data, like


def test_the_corpus_files_without_a_module_read_back_to_their_bytes() -> None:
    """The core corpus's two such files (a top-level op with a result among them)."""
    for name in ("11_no_implicit_module.mlirbc", "18_dialect_order.mlirbc"):
        data = (EXAMPLES / name).read_bytes()
        module = decode_bytecode(data)
        assert module.implicit_module and module.root is not None
        inner = module.root.regions[0].blocks[0].operations
        assert [op.name for op in inner] == ["test.root"]
        assert encode_bytecode(module, template=None) == data
        for form in ("generic", "pretty"):
            for aliases in (None, {}):
                text = print_module(module, form=form, aliases=aliases).text
                back = parse_module(text).module  # (the header alone: no template)
                assert back is not None and back.implicit_module
                assert encode_bytecode(back, template=None) == data


@oracle
def test_an_edit_in_the_view_keeps_the_file_without_a_module(tmp_path: Path) -> None:
    """An edit re-read alone (the editor's path) inside the implicit module's op: still one op at top
    level, the file keeps its shape; mlir-opt reads the result as the edited text."""
    path = _no_implicit_module_file(tmp_path)
    module = read_bytecode_file(path)
    state = printed_state(module, print_module(module, form="pretty"))
    at = state.text.index("arith.constant 1 ") + len("arith.constant ")
    text = state.text[:at] + "7" + state.text[at + 1:]
    edited = reparse_edit(state, text, at, at + 1, module)
    assert edited is not None and edited.module is not None and not edited.diagnostics
    assert edited.module.implicit_module
    with writing(edited.module):
        out = encode_bytecode(edited.module, template=module)
    saved = tmp_path / "saved.mlirbc"
    saved.write_bytes(out)
    assert read_bytecode_file(saved).implicit_module
    src = _written(tmp_path, "edited", BARE_FUNC.replace("arith.constant 1 ", "arith.constant 7 "))
    flags = ("--mlir-print-debuginfo", "--mlir-print-local-scope", "--no-implicit-module")
    assert b"arith.constant 7 " in _opt(*flags, str(saved))
    assert _opt(*flags, str(saved)) == _opt(*flags, str(src))


@oracle
def test_the_api_sees_the_module_mlir_sees_and_saves_the_file_s_shape(tmp_path: Path) -> None:
    path = _no_implicit_module_file(tmp_path)
    data = path.read_bytes()
    module = mlirbc.load(path)
    assert module.operation.name == MODULE_NAME
    assert [op.name for op in module.body.operations] == ["func.func"]
    out = tmp_path / "same.mlirbc"
    module.save(out)
    assert out.read_bytes() == data
    # A rename keeps one op at top level: the file stays without a module.
    func = module.body.operations[0]
    func.attributes["sym_name"] = mlirbc.StringAttr.get("g")
    renamed = tmp_path / "renamed.mlirbc"
    module.save(renamed)
    assert read_bytecode_file(renamed).implicit_module
    assert b"@g(" in _opt("--mlir-print-debuginfo", str(renamed))
    # A second op makes the module a real one, as mlir-opt writes it (at the module's location).
    with mlirbc.InsertionPoint(module.body):
        mlirbc.Operation.create("test.marker", loc=mlirbc.Location.unknown())
    grown = tmp_path / "grown.mlirbc"
    module.save(grown, verify=False)
    back = read_bytecode_file(grown)
    assert not back.implicit_module and back.root is not None and back.root.name == MODULE_NAME
    loc = print_module(back, form="pretty").text.rstrip("\n").rsplit("\n", 1)[-1]
    assert loc == f'}} loc("{path}":0:0)'
    assert view_lines(print_module(back, form="pretty", aliases={}).text) == \
        _opt("--mlir-print-debuginfo", str(grown)).decode().rstrip("\n")


def test_a_stale_implicit_module_fact_is_ignored() -> None:
    """The header's `implicit_module` speaks of the module the view shows; a view whose top-level op is
    not a module any more is that op (and a reader wraps it again)."""
    text = '// mlirbc: {"implicit_module": true, "version": 6}\n' + TEXTS["generic_func"]
    module = parse_module(text).module
    assert module is not None and module.root is not None
    assert module.root.name == "func.func" and not module.implicit_module
    again = decode_bytecode(encode_bytecode(module, template=None))
    assert again.implicit_module and again.root is not None
    assert [op.name for op in again.root.regions[0].blocks[0].operations] == ["func.func"]
    bad = parse_module('// mlirbc: {"implicit_module": 1}\n' + TEXTS["generic_func"])
    assert bad.module is None and "implicit_module must be true or false" in bad.errors[0].message
