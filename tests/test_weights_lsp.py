"""Model-sized files through the language server: elided views at a low threshold save back every value
byte for byte after an edit, hostile placeholders are refused with a located diagnostic and the file
untouched, hover shows statistics, `mlirbc/valueText` and `mlirbc/exportValue` give the full value."""

from __future__ import annotations

import math
import os
import re
import struct
import sys
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from corpus import CORPUS, manifest
from lsp_support import (
    change,
    close_view,
    convert_from,
    convert_to,
    find,
    hover,
    insert,
    open_bytecode,
    replace_all,
    request,
    wait_diagnostics,
)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server" / "tools"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))

import make_weights  # noqa: E402

THRESHOLD = 8


# Default models: a JAX export's weights are VHLO tensor constants, elided as such.
pytestmark = pytest.mark.lsp_options({"view": {"elideLargerThan": THRESHOLD},
                                      "limits": {"decodeTimeoutSeconds": 600}})


SMALL = [r["path"] for r in manifest() if not r["path"].startswith("large/")
         and not re.search(r"\.v[0-9]\.mlirbc$", r["path"])]
"""The small corpus files, one bytecode version of each (test_weights.py sweeps every version in
process, through the same parser and writer)."""


@pytest.mark.parametrize("folder", sorted({p.split("/")[0] for p in SMALL}))
async def test_every_elided_value_saves_back_after_an_edit(client: LanguageClient, folder: str) -> None:
    """Every small corpus file (one version of each), viewed with values over 8 bytes elided, with a line
    added elsewhere: the server parses and encodes the edited view, and the bytes are the original's."""
    await _sweep(client, folder)


@pytest.mark.parametrize("folder", ["jax"])
@pytest.mark.lsp_options({"models": {"disabled": ["vhlo"]}})
async def test_fallback_payloads_of_vhlo_save_back_after_an_edit(client: LanguageClient, folder: str
                                                                 ) -> None:
    """The same with the StableHLO models off: VHLO's weights are then opaque fallback payloads."""
    await _sweep(client, folder, "mlirbc.properties = \"mlirbc.elided.")


async def _sweep(client: LanguageClient, folder: str, form: str = "mlirbc.elided") -> None:
    failures = []
    elided = 0
    for rel in [p for p in SMALL if p.split("/")[0] == folder]:
        path = CORPUS / rel
        uri, text, _ = await open_bytecode(client, path, scheme="mlir.bytecode-mlir")
        elided += text.count(form)
        change(client, uri, 2, [insert(1, 0, "// an edit elsewhere\n")])
        try:
            out = await convert_to(client, uri)
        except JsonRpcException as exc:
            failures.append(f"{rel}: {exc.message}")
            continue
        finally:
            close_view(client, uri)
        if out != path.read_bytes():
            failures.append(f"{rel}: {len(out)} bytes back")
    assert not failures, failures[:10]
    assert elided > 0


async def _save(client: LanguageClient, uri: str) -> dict[str, object]:
    res = await request(client, "mlirbc/save", {"uri": uri})
    assert isinstance(res, dict)
    return res


def _placeholder(text: str) -> str:
    start = text.index("dense_resource<mlirbc.elided.")
    return text[start:text.index(">", start) + 1]


@pytest.mark.parametrize("edit", ["wrong digest", "wrong size", "wrong type", "another file"])
async def test_hostile_placeholders_are_refused_and_the_file_is_untouched(
        client: LanguageClient, tmp_path: Path, edit: str) -> None:
    path, other = tmp_path / "de.mlirbc", tmp_path / "other.mlirbc"
    make_weights.dense_elements(str(path), 4000)
    make_weights.dense_elements(str(other), 4000, seed=9)
    before, mtime = path.read_bytes(), path.stat().st_mtime_ns
    uri, text, _ = await open_bytecode(client, path)
    ph = _placeholder(text)
    size, fp = ph[len("dense_resource<mlirbc.elided."):-1].split(".")
    if edit == "wrong digest":
        bad = text.replace(ph, f"dense_resource<mlirbc.elided.{size}.{'0' * 16}>")
    elif edit == "wrong size":
        bad = text.replace(ph, f"dense_resource<mlirbc.elided.{int(size) + 4}.{fp}>")
    elif edit == "wrong type":
        bad = text.replace(f"{ph} : tensor<1000xf32>", f"{ph} : tensor<1000xi32>")
    else:
        foreign = await convert_from(client, other.as_uri())
        bad = text.replace(ph, _placeholder(foreign))
    assert bad != text
    line = bad[:bad.index("mlirbc.elided")].count("\n")
    change(client, uri, 2, [replace_all(bad)])
    with pytest.raises(JsonRpcException) as exc:
        await _save(client, uri)
    assert "placeholder" in exc.value.message
    diags = await wait_diagnostics(client, uri, lambda ds: any(d.code == "save-refused" for d in ds) and
                                   any(d.code == "parse-error" for d in ds))
    refused = [d for d in diags if d.code == "save-refused"]
    assert refused[0].range.start.line == line  # located at the placeholder
    parse = [d for d in diags if d.code == "parse-error"]
    assert "placeholder" in parse[0].message and parse[0].range.start.line == line
    assert path.read_bytes() == before and path.stat().st_mtime_ns == mtime


async def test_edit_and_save_keeps_the_elided_bytes_and_a_literal_saves(client: LanguageClient,
                                                                        tmp_path: Path) -> None:
    path = tmp_path / "dr.mlirbc"
    make_weights.dense_resource(str(path), 50_000)
    from mlirbc.bytecode.reader import read_bytecode_file

    blob = bytes(read_bytecode_file(path).resources[0].entries[0].blob or b"")
    uri, text, _ = await open_bytecode(client, path)
    assert "// mlirbc: elided blob big_blob: 50000 bytes" in text and len(text) < 2000
    change(client, uri, 2, [replace_all(text.replace('sym_name = "get"', 'sym_name = "renamed"'))])
    res = await _save(client, uri)
    assert res["bytes"] == os.path.getsize(path)
    m = read_bytecode_file(path)
    assert bytes(m.resources[0].entries[0].blob or b"") == blob
    # A literal in place of the placeholder line is what is saved.
    line = next(li for li in text.split("\n") if "elided blob" in li)
    change(client, uri, 3, [replace_all(text.replace(line, '      big_blob: "0x0100000001020304"'))])
    await _save(client, uri)
    m = read_bytecode_file(path)
    assert bytes(m.resources[0].entries[0].blob or b"") == b"\x01\x02\x03\x04"


async def test_hover_statistics_full_text_and_export(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "de.mlirbc"
    make_weights.dense_elements(str(path), 4000)
    raw = path.read_bytes()
    uri, text, _ = await open_bytecode(client, path)
    shown = await hover(client, uri, find(text, "mlirbc.elided"))
    from mlirbc.bytecode.reader import decode_bytecode

    m = decode_bytecode(raw)
    from mlirbc.ir.attributes import DenseElementsAttr
    from mlirbc.syntax.elision import module_values

    (v,) = [v for v in module_values(m) if isinstance(v, DenseElementsAttr) and len(v.data) == 4000]
    vals = list(struct.unpack("<1000f", bytes(v.data)))
    mean = math.fsum(vals) / len(vals)
    std = math.sqrt(math.fsum((x - mean) ** 2 for x in vals) / len(vals))
    assert "tensor<1000xf32>" in shown and "4,000 bytes" in shown and "1,000 elements" in shown
    for number in (min(vals), max(vals), mean, std):
        assert format(number, ".7g") in shown, (number, shown)
    first = format(vals[0], ".9g")
    assert first in shown

    pos = find(text, "mlirbc.elided")
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), range=lsp.Range(start=pos, end=pos),
        context=lsp.CodeActionContext(diagnostics=[])))
    assert actions is not None
    commands = [a.command for a in actions if isinstance(a, lsp.Command)]
    assert commands == ["mlirbc.showFullValue", "mlirbc.exportValue"]

    position = {"line": pos.line, "character": pos.character}
    lines: list[str] = []
    at = 0
    while True:  # chunked, as the editors fetch it
        res = await request(client, "mlirbc/valueText", {"uri": uri, "position": position,
                                                         "fromLine": at, "maxLines": 1})
        lines.append(res["text"])
        at = res["nextLine"]
        if res["done"]:
            break
    from mlirbc.syntax.attr_parser import parse_attribute_text

    assert parse_attribute_text("\n".join(lines)) is v

    out = tmp_path / "v.npy"
    res = await request(client, "mlirbc/exportValue", {"uri": uri, "position": position,
                                                       "path": str(out)})
    assert res["shape"] == [1000] and res["descr"] == "<f4"
    data = out.read_bytes()
    n = struct.unpack("<H", data[8:10])[0]
    assert data[10 + n:] == bytes(v.data)


JAX_CONST = CORPUS / "jax" / "mlp2_const.mlirbc"


async def test_jax_export_weights_hover_export_and_save(client: LanguageClient, tmp_path: Path) -> None:
    """A JAX export's weights (`#vhlo.tensor_v1` constants, `stablehlo.constant`s of the StableHLO view):
    elided in the view, hover with statistics,
    `mlirbc/valueText` and `mlirbc/exportValue` read the tensor, a save after an edit elsewhere gives
    the original bytes, and jaxlib reads the saved file."""
    path = tmp_path / "mlp2_const.mlirbc"
    path.write_bytes(JAX_CONST.read_bytes())
    raw = path.read_bytes()
    uri, text, _ = await open_bytecode(client, path)
    key = "stablehlo.constant dense_resource<mlirbc.elided.802816."
    assert key in text and len(text) < len(raw) // 10
    from mlirbc.bytecode.reader import decode_bytecode
    from mlirbc.syntax.elision import module_values, payload_size

    m = decode_bytecode(raw)
    (v,) = [v for v in module_values(m) if type(v).__name__ == "StructuredAttr" and payload_size(v) == 802816]
    data = bytes(v.fields[1])  # type: ignore[attr-defined]
    vals = struct.unpack(f"<{len(data) // 4}f", data)
    pos = find(text, "mlirbc.elided.802816.")
    shown = await hover(client, uri, pos)
    assert "tensor<784x256xf32>" in shown and "802,816 bytes" in shown and "200,704 elements" in shown
    mean = math.fsum(vals) / len(vals)
    for number in (min(vals), max(vals), mean):
        assert format(number, ".7g") in shown, (number, shown)

    position = {"line": pos.line, "character": pos.character}
    res = await request(client, "mlirbc/valueText", {"uri": uri, "position": position, "maxLines": 3})
    assert res["totalLines"] > 3 and not res["done"] and "tensor<784x256xf32>" in res["header"]
    out = tmp_path / "w.npy"
    res = await request(client, "mlirbc/exportValue", {"uri": uri, "position": position, "path": str(out)})
    assert res["shape"] == [784, 256] and res["descr"] == "<f4"
    npy = out.read_bytes()
    assert npy[10 + struct.unpack("<H", npy[8:10])[0]:] == data

    change(client, uri, 2, [insert(1, 0, "// an edit elsewhere\n")])
    res = await _save(client, uri)
    assert path.read_bytes() == raw
    import stablehlo_oracle

    if stablehlo_oracle.available():
        assert "stablehlo.constant" in stablehlo_oracle.deserialize(path.read_bytes())
