"""The language server on the pretty view (`mlirbc.view.form: pretty`).

Features on the custom assembly form: hover names the syntax model that printed the op, go-to-definition
of a symbol used by a custom form, semantic tokens of a format's keywords, completion of a format's
keywords after an op name, Information notes for ops printed generic; `view.aliases` switches between
mlir-opt's default print (`#map = ...`, `loc(#loc3)`) and the local-scope one.

Edits through the server, saved with `mlirbc/save`, read back by the producer's tool: rename a symbol,
change a constant, delete an op, add an op, on upstream files (mlir-opt) and IREE files (iree-opt,
written by MLIR 24).  Renames, constants and deletions compare the tool's generic print of the saved
file with its generic print of the original with the same edit; an added op compares the tool's
generic print of the saved file with its generic print of the edited text (it names values anew).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from corpus import CORPUS, full_only
from iree_support import IREE_CORPUS, IREE_SKIP_REASON, generic_print, iree_opt_path
from lsp_support import (
    change,
    find,
    hover_text,
    open_bytecode,
    replace_all,
    request,
    wait_diagnostics,
)
from oracle import SKIP_REASON, mlir_opt_path, run_mlir_opt

LOCAL = ["--mlir-print-debuginfo", "--mlir-print-local-scope"]
GENERIC = ["--mlir-print-op-generic", *LOCAL]


# The default view (issue 24): no view settings, so pretty with aliases.
pytestmark = pytest.mark.lsp_options({})
LOCAL_SCOPE = pytest.mark.lsp_options({"view": {"aliases": False, "elideLargerThan": 0}})
"""The server's local-scope pretty view (`mlirbc.view.aliases: false`)."""
P14 = "Dialect__SCF__canonicalize.p14.mlirbc"
P20 = "Dialect__MemRef__canonicalize.p20.mlirbc"
NEEDS_P14_P20 = full_only(f"{P14} and {P20}")


async def _open(client: LanguageClient, tmp_path: Path, src: Path) -> tuple[str, str, Path]:
    opened = await open_bytecode(client, src.relative_to(CORPUS), tmp_path)
    return opened.uri, opened.text, opened.path


def _code(view: str) -> str:
    return "\n".join(ln for ln in view.splitlines() if not ln.lstrip().startswith("// mlirbc:")).rstrip("\n")


# ================================================================================================
# Features on the pretty view
# ================================================================================================

@NEEDS_P14_P20
async def test_pretty_view_with_aliases_hover_and_definition(client: LanguageClient, tmp_path: Path) -> None:
    src = CORPUS / "upstream" / P14
    uri, text, _ = await _open(client, tmp_path, src)
    # mlir-opt's default print: op locations by alias, defined after the module
    assert "func.func private @make_i32() -> i32 loc(#loc1)" in text
    assert re.search(r"^#loc1 = loc\(\"Dialect__SCF__canonicalize\.p14\.mlir\":1:1\)$", text, re.M)
    assert "%0 = call @make_i32() : () -> i32 loc(#loc" in text
    h = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=find(text, "scf.for")))
    assert "Syntax: hand-written (scf.ForOp)" in hover_text(h)
    call = find(text, "@make_i32", 1)
    d = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri),
        position=lsp.Position(line=call.line, character=call.character + 2)))
    assert d is not None
    target = d[0] if isinstance(d, list) else d
    assert isinstance(target, lsp.Location)
    assert target.range.start.line == find(text, "@make_i32").line


async def test_a_loop_variable_is_defined_where_the_loop_head_names_it(client: LanguageClient,
                                                                       tmp_path: Path) -> None:
    """`scf.for %arg3 = ...` defines the body's argument in the op's head (no `^bb0(...)` in the custom
    form): go-to-definition of a use in the body lands there, and the head is not one of its uses."""
    uri, text, _ = await _open(client, tmp_path, CORPUS / "upstream" / "Dialect__SCF__ops.f00.mlirbc")
    head = find(text, "scf.for %arg3 = ")
    use = find(text, "arith.cmpi slt, %arg3")
    doc = lsp.TextDocumentIdentifier(uri=uri)
    d = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=doc, position=lsp.Position(line=use.line, character=use.character + 17)))
    target = d[0] if isinstance(d, list) else d
    assert isinstance(target, lsp.Location)
    assert (target.range.start.line, target.range.start.character) == (head.line, head.character + 8)
    refs = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=doc, position=lsp.Position(line=use.line, character=use.character + 17),
        context=lsp.ReferenceContext(include_declaration=False)))
    assert refs is not None and len(refs) == text.count("%arg3,") + text.count("%arg3]")
    assert all(r.range.start.line != head.line for r in refs)


@NEEDS_P14_P20
async def test_semantic_tokens_and_completion_know_format_keywords(client: LanguageClient,
                                                                  tmp_path: Path) -> None:
    src = CORPUS / "upstream" / P14
    uri, text, _ = await _open(client, tmp_path, src)
    legend = await client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri)))
    assert legend is not None and legend.data
    # decode the token stream: (line, start, length, type index)
    tokens, line, col = [], 0, 0
    data = legend.data
    for i in range(0, len(data), 5):
        dl, dc, n, kind = data[i], data[i + 1], data[i + 2], data[i + 3]
        line += dl
        col = col + dc if dl == 0 else dc
        tokens.append((line, col, n, kind))
    lines = text.split("\n")
    words = {lines[ln][c:c + n] for ln, c, n, _ in tokens}
    assert {"iter_args", "to", "step"} <= words  # keywords of scf.for's custom form
    at = find(text, "scf.for")
    items = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri),
        position=lsp.Position(line=at.line, character=at.character + len("scf.for "))))
    labels = {i.label for i in (items.items if isinstance(items, lsp.CompletionList) else items or [])}
    assert "iter_args" in labels


async def test_ops_printed_generic_say_why(client: LanguageClient, tmp_path: Path) -> None:
    """An op a syntax model refuses prints generic, with an Information diagnostic saying why."""
    from mlirbc.bytecode.reader import read_bytecode_file
    from mlirbc.view.printer import print_module

    found = None
    for src in sorted((CORPUS / "upstream").glob("Dialect__*.mlirbc")):
        if src.suffixes[-2:-1] in ([".v0"], [".v1"], [".v2"], [".v3"], [".v4"], [".v5"]):  # older versions
            continue
        notes = print_module(read_bytecode_file(str(src)), form="pretty", with_map=False).notes
        if notes:
            found = src, notes[0]
            break
    if found is None:
        pytest.skip("no corpus file has an op a syntax model refuses")
    src, note = found
    uri, text, _ = await _open(client, tmp_path, src)
    assert f'"{note.op.name}"' in text
    diags = await wait_diagnostics(client, uri, lambda ds: any(
        d.severity == lsp.DiagnosticSeverity.Information and note.message in d.message for d in ds))
    assert diags


@NEEDS_P14_P20
@LOCAL_SCOPE
async def test_local_scope_setting_prints_inline(client: LanguageClient, tmp_path: Path) -> None:
    src = CORPUS / "upstream" / P14
    _, text, _ = await _open(client, tmp_path, src)
    assert "#loc" not in text
    expected = run_mlir_opt(["--allow-unregistered-dialect", *LOCAL, str(src)], b"") \
        if mlir_opt_path() is not None else None
    if expected is not None and expected.returncode == 0:
        assert _code(text) == expected.stdout.decode().rstrip("\n")


# ================================================================================================
# Edits through the server, read back by the producer's tool
# ================================================================================================

Edit = Callable[[str], str]


def _sub(old: str, new: str, count: int = 1) -> Edit:
    def edit(text: str) -> str:
        assert text.count(old) >= count, f"{old!r} not in the text"
        return text.replace(old, new) if count > 1 else text.replace(old, new, 1)
    return edit


def _drop_line(start: str) -> Edit:
    def edit(text: str) -> str:
        lines = text.split("\n")
        i = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith(start))
        return "\n".join(lines[:i] + lines[i + 1:])
    return edit


def _add_after(start: str, new: str) -> Edit:
    def edit(text: str) -> str:
        lines = text.split("\n")
        i = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith(start))
        pad = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
        return "\n".join(lines[:i + 1] + [pad + new] + lines[i + 1:])
    return edit


# (file, what, edit of the pretty view, the same edit of the tool's generic print)
UPSTREAM_EDITS: list[tuple[str, str, Edit, Edit]] = [
    (P14, "rename a symbol", _sub("@make_i32", "@make_renamed", 2), _sub("make_i32", "make_renamed", 2)),
    (P20, "change a constant", _sub("arith.constant 3 : index", "arith.constant 5 : index"),
     _sub("<{value = 3 : index}>", "<{value = 5 : index}>")),
    (P20, "delete an op", _drop_line("memref.store"), _drop_line('"memref.store"')),
]


def _mlir_opt(flags: list[str], data: bytes) -> str:
    proc = run_mlir_opt(["--allow-unregistered-dialect", *flags, "-"], data)
    assert proc.returncode == 0, proc.stderr[:500]
    return proc.stdout.decode("utf-8", "surrogateescape")


async def _edit_and_save(client: LanguageClient, tmp_path: Path, src: Path, edit: Edit) -> tuple[str, bytes]:
    uri, text, _ = await _open(client, tmp_path, src)
    edited = edit(text)
    assert edited != text
    change(client, uri, 2, [replace_all(edited)])
    out = tmp_path / f"saved-{src.name}"
    res = await request(client, "mlirbc/save", {"uri": uri, "path": str(out)})
    assert res["written"] == str(out)
    return edited, out.read_bytes()


@NEEDS_P14_P20
@pytest.mark.skipif(mlir_opt_path() is None, reason=SKIP_REASON)
@pytest.mark.parametrize("name,what,edit,generic_edit", UPSTREAM_EDITS,
                         ids=[f"{n}: {w}" for n, w, _, _ in UPSTREAM_EDITS])
async def test_upstream_pretty_edit_saves_what_mlir_opt_reads(
        client: LanguageClient, tmp_path: Path, name: str, what: str, edit: Edit, generic_edit: Edit) -> None:
    src = CORPUS / "upstream" / name
    original = src.read_bytes()
    _, saved = await _edit_and_save(client, tmp_path, src, edit)
    assert saved != original
    assert _mlir_opt(GENERIC, saved) == generic_edit(_mlir_opt(GENERIC, original)), what


@NEEDS_P14_P20
@LOCAL_SCOPE
@pytest.mark.skipif(mlir_opt_path() is None, reason=SKIP_REASON)
async def test_upstream_pretty_add_op(client: LanguageClient, tmp_path: Path) -> None:
    """An added op: the saved file is what mlir-opt makes of the edited text."""
    src = CORPUS / "upstream" / P20
    add = _add_after("%c3 = arith.constant 3 : index",
                     '%c7 = arith.constant 7 : index loc("added.mlir":1:1)')
    edited, saved = await _edit_and_save(client, tmp_path, src, add)
    # the saved bytes are what mlir-opt makes of the edited text
    assert _mlir_opt(GENERIC, saved) == _mlir_opt(GENERIC, edited.encode())


IREE_EDITS: list[tuple[str, str, Edit, Edit]] = [
    ("transformer_block.preprocessing.mlirbc", "rename a util.global",
     _sub("__device_0", "__device_renamed", 2), _sub("__device_0", "__device_renamed", 2)),
    ("convnet.input.mlirbc", "change a constant", _sub("arith.constant 2.560000e+02 : f32",
                                                       "arith.constant 5.120000e+02 : f32"),
     _sub("<{value = 2.560000e+02 : f32}>", "<{value = 5.120000e+02 : f32}>")),
    ("mlp2.vm.mlirbc", "delete an op", _drop_line("vm.discard.refs "), _drop_line('"vm.discard.refs"(')),
]


@pytest.mark.skipif(iree_opt_path() is None, reason=IREE_SKIP_REASON)
@pytest.mark.parametrize("name,what,edit,generic_edit", IREE_EDITS,
                         ids=[f"{n}: {w}" for n, w, _, _ in IREE_EDITS])
async def test_iree_pretty_edit_saves_what_iree_opt_reads(
        client: LanguageClient, tmp_path: Path, name: str, what: str, edit: Edit, generic_edit: Edit) -> None:
    src = IREE_CORPUS / name
    original = src.read_bytes()
    _, saved = await _edit_and_save(client, tmp_path, src, edit)
    assert saved != original
    assert generic_print(saved) == generic_edit(generic_print(original)), what


@LOCAL_SCOPE
@pytest.mark.skipif(iree_opt_path() is None, reason=IREE_SKIP_REASON)
async def test_iree_pretty_add_op(client: LanguageClient, tmp_path: Path) -> None:
    """An added op: iree-opt's generic print of the saved file is its print of the original with one more
    line, the new op (values renumbered; util.func's text does not say all its stored facts, so the
    tool's reading of the edited text is not the reference here)."""
    src = IREE_CORPUS / "convnet.input.mlirbc"
    add = _add_after("%cst_4 = arith.constant",
                     '%cst_5 = arith.constant 1.000000e+00 : f32 loc("added.mlir":1:1)')
    _, saved = await _edit_and_save(client, tmp_path, src, add)

    def lines(text: str) -> Counter[str]:
        return Counter(re.sub(r"%\d+", "%N", ln) for ln in text.splitlines())

    more = lines(generic_print(saved)) - lines(generic_print(src.read_bytes()))
    fewer = lines(generic_print(src.read_bytes())) - lines(generic_print(saved))
    assert not fewer
    assert list(more.elements()) == [
        '    %N = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32 loc("added.mlir":1:1)']
