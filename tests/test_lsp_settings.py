"""Settings (initializationOptions, workspace/configuration), limits, cancellation, transports."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from large_module import LargeModule
from lsp_support import (
    convert_from,
    convert_to,
    copy,
    corpus,
    open_bytecode,
    request,
    start,
)

UPSTREAM = "upstream/Bytecode__uselist_orders.p01.mlirbc"


def _header(data: bytes) -> tuple[int, str]:
    from mlirbc.binary.stream import ByteReader
    from mlirbc.bytecode.header import decode_header

    return decode_header(ByteReader(data, 0, len(data), "header"))


@pytest.mark.lsp_options({"output": {"version": 5, "producer": "mlirbc-test"}})
async def test_output_version_and_producer(client: LanguageClient, tmp_path: Path) -> None:
    uri, _, path = await open_bytecode(client, UPSTREAM, tmp_path)
    data = await convert_to(client, uri)
    assert _header(data) == (5, "mlirbc-test")
    assert _header(path.read_bytes()) == (6, "MLIR22.1.8")


async def test_workspace_configuration_is_pulled(raw_client: LanguageClient,
                                                 tmp_path: Path) -> None:
    """Settings come from workspace/configuration too (here: a tiny file-size limit)."""
    raw_client.set_configuration({"limits": {"maxFileMB": 0.0001}}, section="mlirbc")
    await start(raw_client)
    path = copy(UPSTREAM, tmp_path)
    for _ in range(50):  # the pull happens after `initialized`
        try:
            await convert_from(raw_client, path.as_uri())
        except JsonRpcException as exc:
            assert "limit" in exc.message
            return
        await asyncio.sleep(0.1)
    pytest.fail("the configured size limit was never applied")


@pytest.mark.lsp_options({"limits": {"decodeTimeoutSeconds": 0.2}})
async def test_decode_timeout_keeps_server_alive(client: LanguageClient, large: LargeModule) -> None:
    t0 = time.monotonic()
    with pytest.raises(JsonRpcException) as info:
        await convert_from(client, large.path.as_uri())
    assert "took longer" in info.value.message
    assert time.monotonic() - t0 < 30
    assert "\nmodule {\n" in await convert_from(client, corpus(UPSTREAM).as_uri())


async def test_cancel_decode(client: LanguageClient, large: LargeModule) -> None:
    """$/cancelRequest stops a running decode; the server answers the next request promptly."""
    from lsprotocol import types as lsp

    fut = client.protocol.send_request("mlir/convertFromBytecode", {"uri": large.path.as_uri()},
                                       msg_id="cancel-me")
    await asyncio.sleep(0.5)
    client.protocol.notify("$/cancelRequest", lsp.CancelParams(id="cancel-me"))
    with pytest.raises(JsonRpcException) as info:
        await asyncio.wait_for(asyncio.wrap_future(fut), 30)
    assert "cancel" in info.value.message.lower()
    t0 = time.monotonic()
    assert "\nmodule {\n" in await convert_from(client, corpus(UPSTREAM).as_uri())
    assert time.monotonic() - t0 < 20


@pytest.mark.lsp_options({"models": {"disabled": ["arith"]}})
async def test_disabled_models_show_as_fallbacks(client: LanguageClient, tmp_path: Path) -> None:
    path = copy("upstream/Bytecode__uselist_orders.p00.mlirbc", tmp_path)
    text = await convert_from(client, path.as_uri())
    line = next(ln for ln in text.split("\n") if '"arith.constant"' in ln)
    assert 'mlirbc.properties = "0x' in line
    info = await request(client, "mlirbc/info", {"uri": path.as_uri()})
    assert info["fallbacks"]["op"] >= 2


def test_tcp_transport(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "mlirbc.lsp", "--tcp", f"127.0.0.1:{port}"],
                            stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                conn = socket.create_connection(("127.0.0.1", port), timeout=1)
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.2)
        body = b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'
        conn.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        conn.settimeout(30)
        data = b""
        while b"capabilities" not in data:
            chunk = conn.recv(65536)
            if not chunk:
                break
            data += chunk
        conn.close()
        assert b'"hoverProvider"' in data
    finally:
        proc.kill()
        proc.wait()


def test_console_entry_point_help() -> None:
    out = subprocess.run([sys.executable, "-m", "mlirbc.lsp", "--help"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "--tcp" in out.stdout
