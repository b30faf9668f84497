"""The verifier in the language server: an edit that parses but does not verify is reported (code
`verify-error`, on the op, with related locations), refuses the save with error data saying an unverified
save is allowed, and `mlirbc/save` with `"unverified": true` writes it; a parse error never is written; the
setting `diagnostics.verify: false` turns verification off."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from lsp_support import (
    GENERIC_VIEW,
    change,
    convert_from,
    open_bytecode,
    replace_all,
    request,
    wait_diagnostics,
)

# These tests read the generic view (the default view's features: test_lsp_pretty.py).
pytestmark = pytest.mark.lsp_options(GENERIC_VIEW)

ARITH = "upstream/Dialect__Arith__ops.mlirbc"


def _bad(text: str) -> str:
    """An integer addition turned into a float one: it still parses, and does not verify."""
    at = text.index('"arith.addi"')
    end = text.index(" : (", at)
    operands = text[at + len('"arith.addi"'):text.index(")", at) + 1]
    return text[:at] + '"arith.addf"' + operands + text[end:]


async def test_a_fault_is_a_diagnostic_on_the_op(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, _ = await open_bytecode(client, ARITH, tmp_path)
    bad = _bad(text)
    change(client, uri, 2, [replace_all(bad)])
    diags = await wait_diagnostics(client, uri, lambda ds: any(d.code == "verify-error" for d in ds))
    (d,) = [d for d in diags if d.code == "verify-error"]
    assert d.severity == lsp.DiagnosticSeverity.Error and d.source == "mlirbc"
    assert d.message.startswith("'arith.addf' op operand #0 must be floating-point-like, but got '")
    line = bad.splitlines()[d.range.start.line]
    assert '"arith.addf"' in line
    # fixed again: the diagnostic goes
    change(client, uri, 3, [replace_all(text)])
    await wait_diagnostics(client, uri, lambda ds: not any(d.code == "verify-error" for d in ds))


async def test_save_refused_then_forced_unverified(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, path = await open_bytecode(client, ARITH, tmp_path)
    original = path.read_bytes()
    change(client, uri, 2, [replace_all(_bad(text))])
    with pytest.raises(JsonRpcException) as info:
        await request(client, "mlirbc/save", {"uri": uri})
    assert "does not verify" in info.value.message and "floating-point-like" in info.value.message
    assert info.value.data == {"unverifiedSaveAllowed": True}
    assert path.read_bytes() == original
    res = await request(client, "mlirbc/save", {"uri": uri, "unverified": True})
    assert res["written"] == str(path) and path.read_bytes() != original
    assert '"arith.addf"' in await convert_from(client, path.as_uri())


async def test_a_parse_error_is_never_written(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, path = await open_bytecode(client, ARITH, tmp_path)
    original = path.read_bytes()
    change(client, uri, 2, [replace_all(text.replace('"arith.addi"(', '"arith.addi"(%nope, ', 1))])
    with pytest.raises(JsonRpcException) as info:
        await request(client, "mlirbc/save", {"uri": uri, "unverified": True})
    assert info.value.data is None or not info.value.data.get("unverifiedSaveAllowed")
    assert path.read_bytes() == original


@pytest.mark.lsp_options({"diagnostics": {"verify": False}})
async def test_verification_can_be_turned_off(client: LanguageClient, tmp_path: Path) -> None:
    uri, text, path = await open_bytecode(client, ARITH, tmp_path)
    change(client, uri, 2, [replace_all(_bad(text))])
    res = await request(client, "mlirbc/save", {"uri": uri})
    assert res["written"] == str(path)
    diags = client.diagnostics.get(uri, [])
    assert not any(d.code == "verify-error" for d in diags)
