"""Edits through the language server on IREE files, saved to bytecode, read back by iree-opt.

Each edit is made on the view as a user would (didChange), saved with `mlirbc/save`, and the saved file
must be what iree-opt reads and prints as its own print of the original file with exactly that change:
rename a `util.global` (its symbol and every reference), change a constant, delete an op, change a field of
MLIR 24's llvm debug info.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from pytest_lsp import LanguageClient

from iree_support import IREE_SKIP_REASON, generic_print, iree_opt_path
from lsp_support import GENERIC_VIEW, change, convert_from, open_bytecode, replace_all, request

# The edits are made on the generic view and compared with iree-opt's generic print.
pytestmark = [pytest.mark.skipif(iree_opt_path() is None, reason=IREE_SKIP_REASON),
              pytest.mark.lsp_options(GENERIC_VIEW)]

Edit = Callable[[str], str]


def _rename_global(text: str) -> str:
    out, n = re.subn(r"__device_0(?![\w$.])", "__device_renamed", text)
    assert n == 2  # the util.global's sym_name and the #hal.device.affinity<@...> that names it
    return out


def _change_constant(text: str) -> str:
    old = '"arith.constant"() <{value = 0.000000e+00 : f32}>'
    assert old in text
    return text.replace(old, '"arith.constant"() <{value = 2.500000e+00 : f32}>', 1)


def _delete_op(text: str) -> str:
    lines = text.splitlines(keepends=True)
    i = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith('"vm.discard.refs"(%13)'))
    return "".join(lines[:i] + lines[i + 1:])


EDITS: list[tuple[str, str, Edit]] = [
    ("mlp2.flow.mlirbc", "rename a util.global", _rename_global),
    ("mlp2.flow.mlirbc", "change a constant", _change_constant),
    ("mlp2.vm.mlirbc", "delete an op", _delete_op),
    ("transformer_block.vm.mlirbc", "change a constant in a vm module", lambda t: t.replace(
        '"vm.const.i32"() <{value = 14 : i32}>', '"vm.const.i32"() <{value = 15 : i32}>', 1)),
    ("rnn_scan_while.executable-targets.mlirbc", "change an llvm debug-info field (MLIR 24 encoding)",
     lambda t: t.replace('name = "main_dispatch_0_vecmat_32x32_f32"', 'name = "renamed_dispatch"')),
]


@pytest.mark.parametrize("name,what,edit", EDITS, ids=[f"{n}: {w}" for n, w, _ in EDITS])
async def test_edit_saves_what_iree_opt_reads_with_exactly_that_change(
        client: LanguageClient, tmp_path: Path, name: str, what: str, edit: Edit) -> None:
    uri, text, src = await open_bytecode(client, f"iree/{name}", tmp_path)
    original = src.read_bytes()
    edited = edit(text)
    assert edited != text
    change(client, uri, 2, [replace_all(edited)])
    out = tmp_path / f"saved-{name}"
    res = await request(client, "mlirbc/save", {"uri": uri, "path": str(out)})
    assert res["written"] == str(out)
    saved = out.read_bytes()
    assert saved != original
    expected = edit(generic_print(original))
    assert generic_print(saved) == expected, f"{what}: iree-opt does not print exactly the edit"
    # the view of the saved file is the edited view (use-list lines aside: a deletion drops uses)
    again = await convert_from(client, out.as_uri())
    assert _code(again) == _code(edited)


def _code(view: str) -> list[str]:
    return [ln for ln in view.splitlines() if not ln.lstrip().startswith("// mlirbc: ")]
