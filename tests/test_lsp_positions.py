"""Positions at the server's edge: columns after characters outside the BMP (emoji in strings,
locations and symbol names) are counted in the negotiated encoding (UTF-16 by default; UTF-8 and UTF-32
when the client offers them), both in what the server publishes and in the incremental changes it
applies."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from lsp_support import (
    GENERIC_VIEW,
    INIT_RESULTS,
    change,
    open_bytecode,
    replace_all,
    start,
    wait_diagnostics,
)
from mlirbc.lsp.positions import PositionCodec
from mlirbc.syntax import textlines
from mlirbc.syntax.textlines import TextLines

# These tests read the generic view (the default view's features: test_lsp_pretty.py).
pytestmark = pytest.mark.lsp_options(GENERIC_VIEW)

UPSTREAM = "upstream/Bytecode__uselist_orders.p01.mlirbc"
EMOJI = "😀😀"


def _units(prefix: str, encoding: str) -> int:
    if encoding == "utf-8":
        return len(prefix.encode("utf-8"))
    if encoding == "utf-32":
        return len(prefix)
    return len(prefix.encode("utf-16-le")) // 2


def _pos(text: str, offset: int, encoding: str) -> lsp.Position:
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return lsp.Position(line=line, character=_units(text[start:offset], encoding))


def test_codec_round_trips_every_offset() -> None:
    text = f'a\n"{EMOJI}é" x\n\n\udcff😀z\n'
    lines = TextLines(text)
    for enc in ("utf-16", "utf-8", "utf-32"):
        codec = PositionCodec(text, lines, enc)
        for offset in range(len(text) + 1):
            pos = codec.position(offset)
            if text[offset - 1:offset] != "\n" or offset == 0:
                assert codec.offset(pos) == offset, (enc, offset)
        assert codec.position(text.index("x")).character == _units(text[2:text.index("x")], enc) \
            if enc != "utf-8" else True


@pytest.mark.parametrize("block", [1, 2, 3, 1024])
def test_text_lines_follow_edits(block: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Edits keep the blocked line table equal to one made from the edited text (small blocks make
    every edit cross block boundaries: joins, splits, shifts of the blocks after it)."""
    import random

    monkeypatch.setattr(textlines, "BLOCK", block)
    rnd = random.Random(7 + block)
    text = "".join(rnd.choice("ab\n😀") for _ in range(300))
    lines = TextLines(text)
    for _ in range(300):
        a = rnd.randrange(len(text) + 1)
        b = rnd.randrange(a, min(len(text), a + rnd.choice((3, 20, 120))) + 1)
        new = "".join(rnd.choice("x\n\n😀") for _ in range(rnd.randrange(rnd.choice((5, 40)))))
        before, before_starts = lines, lines.starts
        text = text[:a] + new + text[b:]
        lines = lines.edited(a, b, new)
        flat = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
        assert lines.starts == flat and lines.length == len(text)
        assert lines.line_count == len(flat)
        for offset in range(0, len(text) + 1, 5):
            line = max(i for i, s in enumerate(flat) if s <= offset)
            assert lines.position(offset) == (line, offset - flat[line])
        assert before.starts == before_starts  # tables are immutable: the old one is unchanged


def _with_emoji(text: str) -> tuple[str, int]:
    """The view with emoji in a location and a string attribute on one line, whose type then names two
    results for one: the error is reported right after the emoji."""
    at = text.index('%2 = "test.addi"(%arg0, %arg0)')
    end = text.index("\n", at)
    line = f'%2 = "test.addi"(%arg0, %arg0) {{note = "{EMOJI}"}} : (i32, i32) -> (i32, i32) ' \
           f'loc("{EMOJI}.mlir":4:8)'
    edited = text[:at] + line + text[end:]
    return edited, edited.index("(i32, i32) -> (i32, i32)", at)


async def _check_encoding(client: LanguageClient, tmp_path: Path, encoding: str) -> None:
    uri, text, _ = await open_bytecode(client, UPSTREAM, tmp_path)
    edited, err_at = _with_emoji(text)
    change(client, uri, 2, [replace_all(edited)])
    diags = await wait_diagnostics(client, uri, lambda ds: any("results" in d.message for d in ds))
    d = next(d for d in diags if "results" in d.message)
    assert d.range.start == _pos(edited, err_at, encoding)
    code_points = err_at - (edited.rfind("\n", 0, err_at) + 1)
    assert (d.range.start.character == code_points) == (encoding == "utf-32")
    # an incremental change after the emoji, in the client's units: `4:8` -> `4:x`
    loc_at = edited.index(":4:8)") + 3
    p, q = _pos(edited, loc_at, encoding), _pos(edited, loc_at + 1, encoding)
    change(client, uri, 3, [lsp.TextDocumentContentChangePartial(range=lsp.Range(start=p, end=q),
                                                                  text="x")])
    final = edited[:loc_at] + "x" + edited[loc_at + 1:]
    diags = await wait_diagnostics(client, uri, lambda ds: any(
        d.range.start == _pos(final, loc_at, encoding) for d in ds))
    assert any("integer" in d.message or "expected" in d.message for d in diags)
    # hover on a symbol name written after emoji comes back with its range in the same units
    sym_at = final.index('sym_name = "') + len('sym_name = "')
    renamed = final[:sym_at] + EMOJI + final[sym_at:]
    change(client, uri, 4, [replace_all(renamed)])
    syms = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri)))
    assert syms is not None
    func = syms[0].children[0]  # type: ignore[union-attr]
    assert isinstance(func, lsp.DocumentSymbol) and func.name.startswith("@" + EMOJI)
    end = renamed.index('"', sym_at)
    assert func.selection_range.end == _pos(renamed, end + 1, encoding)


async def test_utf16_by_default(client: LanguageClient, tmp_path: Path) -> None:
    caps = INIT_RESULTS[id(client)].capabilities
    assert caps.position_encoding in (None, lsp.PositionEncodingKind.Utf16)
    await _check_encoding(client, tmp_path, "utf-16")


@pytest.mark.parametrize("encoding", ["utf-8", "utf-32"])
async def test_negotiated_encoding(raw_client: LanguageClient, tmp_path: Path,
                                   encoding: str) -> None:
    result = await start(raw_client, GENERIC_VIEW, encodings=[encoding, "utf-16"])
    assert result.capabilities.position_encoding == lsp.PositionEncodingKind(encoding)
    await _check_encoding(raw_client, tmp_path, encoding)
