"""Hostile requests over a real pipe: the server answers every request (or logs a notification), never with
a traceback, and keeps answering afterwards.

Malformed JSON and envelopes, params of the wrong shape, absurd positions, URIs naming special files, and
saves to special paths.  Each request is sent raw (`lsp_wire.WireClient`), its answer awaited; a silent
server fails the test at the wait's limit.  How long each answer takes is what
`benchmarks/hostile_requests.py` prints.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from corpus import CORPUS, REPO
from lsp_wire import WireClient

SMALL = CORPUS / "upstream" / "Bytecode__uselist_orders.p01.mlirbc"
WAIT = 10.0
"""Seconds to wait for an answer before calling the server silent (machines running the suite are loaded;
the benchmark measures the real latency)."""

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602
REQUEST_FAILED = -32803


@pytest.fixture(scope="module")
def wire(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WireClient]:
    cwd = tmp_path_factory.mktemp("server-cwd")
    client = WireClient(cwd=cwd)
    client.initialize()
    yield client
    client.close()


def _answer(wire: WireClient, msg_id: Any) -> dict[str, Any]:
    resp = wire.response(msg_id, timeout=WAIT)
    assert resp is not None, f"no answer to request {msg_id!r}"
    assert "traceback" not in json.dumps(resp).lower(), resp
    return resp


def _error(wire: WireClient, msg_id: Any) -> dict[str, Any]:
    resp = _answer(wire, msg_id)
    assert "error" in resp, resp
    err: dict[str, Any] = resp["error"]
    return err


def _still_answers(wire: WireClient) -> None:
    resp = wire.request("mlir/convertFromBytecode", {"uri": SMALL.as_uri()}, timeout=WAIT * 3)
    assert resp is not None and "result" in resp, resp
    assert "\nmodule {\n" in resp["result"]["output"]  # the default (pretty) view of the file


# -- malformed JSON and envelopes ------------------------------------------------------------------
@pytest.mark.parametrize("body, code", [
    (b'{"jsonrpc": "2.0", "id": 1, ', PARSE_ERROR),
    (b"\xff\xfe{}", PARSE_ERROR),
    (b"[1, 2]", INVALID_REQUEST),
    (b"42", INVALID_REQUEST),
    (b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "shutdown"}', INVALID_REQUEST),
    (b'{"jsonrpc": "2.0", "id": true, "method": "shutdown"}', INVALID_REQUEST),
    (b'{"jsonrpc": "2.0", "id": 1.5, "method": "shutdown"}', INVALID_REQUEST),
])
def test_unreadable_messages_are_answered_with_id_null(wire: WireClient, body: bytes, code: int) -> None:
    wire.send_bytes(body)
    resp = wire.wait_for(lambda m: m.get("id", "absent") is None and "error" in m, WAIT)
    assert resp is not None, f"no answer to {body[:40]!r}"
    assert resp["error"]["code"] == code, resp
    _still_answers(wire)


@pytest.mark.parametrize("message, code, words", [
    ({"jsonrpc": "2.0", "method": 123, "params": {}}, INVALID_REQUEST, "method must be a string"),
    ({"jsonrpc": "1.0", "method": "mlirbc/info", "params": {"uri": "file:///x"}}, INVALID_REQUEST,
     'jsonrpc must be "2.0"'),
    ({"method": "mlirbc/info", "params": {"uri": "file:///x"}}, INVALID_REQUEST, "jsonrpc"),
    ({"jsonrpc": "2.0", "method": "no/such/method"}, METHOD_NOT_FOUND, "no/such/method"),
    ({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 1}}, INVALID_REQUEST,
     "notification"),
    ({"jsonrpc": "2.0", "method": "textDocument/hover", "params": "x"}, INVALID_PARAMS,
     "params must be an object"),
])
def test_bad_envelopes_are_answered_with_their_id(wire: WireClient, message: dict[str, Any], code: int,
                                                  words: str) -> None:
    msg_id = wire.new_id()
    wire.send({**message, "id": msg_id})
    err = _error(wire, msg_id)
    assert err["code"] == code and words in err["message"], err
    _still_answers(wire)


def test_a_repeated_id_counts_as_json_decoders_read_it(wire: WireClient) -> None:
    """The last of repeated top-level `id` keys is the message's id (as `json.loads` and JSON.parse take
    it), also in a message too deep to decode: the server fuzz run found `"id": 0, ..., "id": [[[...` in a
    body 8,000 deep, answered with id 0 where a decoder sees no valid id."""
    deep = b"[" * 100_000 + b"]" * 100_000
    wire.send_bytes(b'{"jsonrpc": "2.0", "id": 4242, "method": "mlirbc/info", "id": %s}' % deep)
    resp = wire.wait_for(lambda m: "error" in m and m.get("id") in (4242, None), WAIT)
    assert resp is not None and resp["id"] is None, resp
    later = wire.new_id()
    wire.send_bytes(b'{"jsonrpc": "2.0", "id": %s, "method": "mlirbc/info", "params": %s, "id": %d}'
                    % (deep, deep, later))
    assert _error(wire, later)["code"] in (INVALID_PARAMS, INVALID_REQUEST)
    _still_answers(wire)


def test_the_id_scan_agrees_with_json_decoders_on_repeated_ids() -> None:
    """The found body: 7,985 arrays deep, not closed (no JSON), with `"id": 0` before them and an array as
    a second `id`.  Whether a decoder gives up on its depth (and the id is scanned for) or reaches the damage
    (a parse error) depended on the stack depth of the caller, so the server and the fuzz harness, under the
    engine's recursion limit, disagreed: the scan took the first id, 0.  The scan now takes the last, as a
    decoder does; an array or object is no id."""
    from mlirbc.lsp.protocol import shallow_id

    body = (REPO / "tests" / "data" / "hardening" / "found_server_repeated_id_deep.json").read_text()
    assert shallow_id(body)[0] is None
    for text in ('{"id": 1, "id": 2}', '{"id": 1, "x": {"id": 3}, "id": "b"}', '{"id": 1, "id": [1]}',
                 '{"id": 1, "id": null}', '{"id": 1, "id": 1.5}', '{"id": [], "id": 7}', '{"id": 5}'):
        decoded = json.loads(text)["id"]
        expected = decoded if isinstance(decoded, int | str) and not isinstance(decoded, bool) else None
        assert shallow_id(text)[0] == expected, text


def test_json_nested_100000_deep(wire: WireClient) -> None:
    msg_id = wire.new_id()
    deep = b"[" * 100_000 + b"]" * 100_000
    wire.send_bytes(b'{"jsonrpc": "2.0", "id": %d, "method": "mlirbc/info", "params": {"uri": %s}}'
                    % (msg_id, deep))
    err = _error(wire, msg_id)
    assert err["code"] == INVALID_PARAMS and "nested too deeply" in err["message"], err
    other = wire.new_id()
    wire.send_bytes(b'{"jsonrpc": "2.0", "id": %d, "method": "shutdown", "x": %s}' % (other, deep))
    assert _error(wire, other)["code"] == INVALID_REQUEST
    _still_answers(wire)


@pytest.mark.parametrize("depth", [900, 5000])
def test_initialize_with_deeply_nested_options(tmp_path: Path, depth: int) -> None:
    """The long server run (at 074fb66): `initializationOptions` nested 5,000 deep (the fuzzing process
    decodes JSON that deep) exhausted the stack while the settings were read, and `initialize` answered
    an internal error; nested 900 deep, the server's own decoder reads it and the same happened.  No setting
    nests that deep: the server starts (900), or refuses the params as too deep to decode (5,000)."""
    client = WireClient(cwd=tmp_path)
    try:
        body = (REPO / "tests" / "data" / "hardening" / "found_server_initialize_options_5000_deep.json"
                ).read_bytes()
        assert body.count(b"[") == 5000
        body = body.replace(b"[" * 5000, b"[" * depth).replace(b"]" * 5000, b"]" * depth)
        client.send_bytes(body)
        resp = client.response(1, timeout=WAIT * 3)
        assert resp is not None and "traceback" not in json.dumps(resp).lower(), resp
        if depth == 900:
            assert "result" in resp and "capabilities" in resp["result"], resp
        else:
            assert resp["error"]["code"] == INVALID_PARAMS and "nested too deeply" in resp["error"]["message"]
        client.initialize()
        _still_answers(client)
    finally:
        client.close()


# -- params ------------------------------------------------------------------------------------------
def _hover(line: Any, character: Any) -> dict[str, Any]:
    return {"textDocument": {"uri": "mlirbc:///nowhere.mlirbc"},
            "position": {"line": line, "character": character}}


@pytest.mark.parametrize("params, field", [
    (_hover(-1, 0), "params.position"),
    (_hover(2**31, 0), "params.position"),
    (_hover(0, 2**31), "params.position"),
    (_hover("x", 0), "params.position.line"),
    ({"textDocument": {"uri": "mlirbc:///x"}}, "params.position"),
    ({"position": {"line": 0, "character": 0}}, "params.textDocument"),
])
def test_malformed_lsp_params_name_the_field(wire: WireClient, params: dict[str, Any], field: str) -> None:
    resp = wire.request("textDocument/hover", params, timeout=WAIT)
    assert resp is not None, "no answer"
    err = resp["error"]
    assert err["code"] == INVALID_PARAMS and field in err["message"], err


@pytest.mark.parametrize("method, params, words", [
    ("mlir/convertFromBytecode", {}, "params.uri: required field missing"),
    ("mlir/convertFromBytecode", {"uri": 5}, "params.uri: expected a non-empty string, got number"),
    ("mlirbc/info", {"uri": ""}, "params.uri"),
    ("mlirbc/save", {"uri": "file:///x", "path": ["a"]}, "params.path"),
    ("mlir/convertToBytecode", [1, 2], "expects params {uri}"),
])
def test_malformed_custom_params_name_the_field(wire: WireClient, method: str, params: Any,
                                                words: str) -> None:
    resp = wire.request(method, params, timeout=WAIT)
    assert resp is not None, "no answer"
    assert resp["error"]["code"] == INVALID_PARAMS and words in resp["error"]["message"], resp


# A string or an object where an array belongs: cattrs would try every character or key (3.2 s of CPU for
# the notification the long fuzz run found); the JSON kinds are checked first.
FOUND = REPO / "tests" / "data" / "hardening" / "found_server_string_where_array_belongs.json"


@pytest.mark.parametrize("where, value, words", [
    ("diagnostics", "x" * 100_000, "params.context.diagnostics: expected an array, got a string"),
    ("diagnostics", {str(i): i for i in range(100_000)},
     "params.context.diagnostics: expected an array, got an object"),
    ("only", "x" * 100_000, "params.context.only: expected an array or null, got a string"),
    ("triggerKind", [1] * 100_000, "params.context.triggerKind: expected a number or null, got an array"),
])
def test_a_long_value_of_the_wrong_kind_is_refused_naming_the_field(wire: WireClient, where: str, value: Any,
                                                                    words: str) -> None:
    span = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}
    context: dict[str, Any] = {"diagnostics": []}
    context[where] = value
    resp = wire.request("textDocument/codeAction", {"textDocument": {"uri": "mlirbc:///nowhere.mlirbc"},
                                                    "range": span, "context": context}, timeout=WAIT)
    assert resp is not None, "no answer"
    assert resp["error"]["code"] == INVALID_PARAMS, resp
    assert resp["error"]["message"] == f"invalid params for textDocument/codeAction: {words}"


def test_the_found_did_change_is_refused_before_structuring(wire: WireClient) -> None:
    body = FOUND.read_bytes()
    assert len(json.loads(body)["params"]["contentChanges"]) == 100_000
    wire.send_bytes(body)
    _still_answers(wire)
    # the log line and the answer come on two pipes: the line may reach the reader's thread a moment later
    needle = b"params.contentChanges: expected an array, got a string"
    deadline = time.monotonic() + WAIT
    while needle not in wire.stderr and time.monotonic() < deadline:
        time.sleep(0.05)
    assert needle in wire.stderr


def test_the_kind_check_runs_before_cattrs() -> None:
    """In process: the found notification never reaches the converter, and well-formed params of every
    kind the server receives pass the check."""
    from lsprotocol import types as lsp

    from mlirbc.lsp.shapes import params_problem

    raw = json.loads(FOUND.read_bytes())
    assert params_problem(lsp.DidChangeTextDocumentNotification, raw["params"]) == \
        "params.contentChanges: expected an array, got a string"
    good = {"textDocument": {"uri": "file:///a.mlir", "version": 2}, "contentChanges": [
        {"text": "whole"}, {"range": {"start": {"line": 0, "character": 0},
                                      "end": {"line": 0, "character": 1}}, "text": "x"}]}
    assert params_problem(lsp.DidChangeTextDocumentNotification, good) is None
    init = {"processId": None, "rootUri": None, "initializationOptions": {"any": [1, "x", {"y": None}]},
            "capabilities": {"textDocument": {"hover": {"contentFormat": ["markdown", "plaintext"]},
                                              "synchronization": {"didSave": True}},
                             "general": {"positionEncodings": ["utf-16", "utf-8"]}},
            "workspaceFolders": [{"uri": "file:///w", "name": "w"}]}
    assert params_problem(lsp.InitializeRequest, init) is None
    assert params_problem(lsp.InitializeRequest, {**init, "workspaceFolders": "file:///w"}) == \
        "params.workspaceFolders: expected an array or null, got a string"
    # long arrays of wrong elements stop at the first one (cattrs would fail on each), and the path is
    # spelled out for it only
    many = {**good, "contentChanges": ["x"] * 100_000}
    assert params_problem(lsp.DidChangeTextDocumentNotification, many) == \
        "params.contentChanges[0]: expected an object, got a string"
    span = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": True}}
    diagnostics = [{"range": {**span, "end": {"line": 0, "character": 1}}, "message": "m"}] * 99 + \
        [{"range": span, "message": "m"}]
    action = {"textDocument": {"uri": "file:///a"}, "range": span, "context": {"diagnostics": diagnostics}}
    assert params_problem(lsp.CodeActionRequest, action) == \
        "params.range.end.character: expected a number, got a boolean"
    action["range"] = {**span, "end": {"line": 0, "character": 1}}
    assert params_problem(lsp.CodeActionRequest, action) == \
        "params.context.diagnostics[99].range.end.character: expected a number, got a boolean"


def test_malformed_notifications_are_logged_not_fatal(wire: WireClient) -> None:
    wire.notify("textDocument/didOpen", {"textDocument": {"uri": 5}})
    wire.notify("textDocument/didChange", "x")
    wire.notify("textDocument/didClose", {"textDocument": {"uri": "mlirbc:///never-opened"}})
    bad = "file://[x/a.mlirbc"
    wire.notify("textDocument/didOpen", {"textDocument": {"uri": bad, "languageId": "mlir", "version": 1,
                                                          "text": "x"}})
    wire.notify("textDocument/didChange", {"textDocument": {"uri": "mlirbc:///never-opened", "version": 2},
                                           "contentChanges": [{"text": "y"}]})
    resp = wire.request("textDocument/hover", {"textDocument": {"uri": bad},
                                               "position": {"line": 0, "character": 0}}, timeout=WAIT)
    assert resp is not None and resp["error"]["code"] == INVALID_PARAMS, resp
    assert "params.textDocument.uri: not a URI" in resp["error"]["message"]
    _still_answers(wire)
    assert b"Error in server" not in b"".join(wire.raw_bodies)


# -- URIs and special files ----------------------------------------------------------------------------
def _special_files(tmp: Path) -> dict[str, str]:
    fifo = tmp / "pipe.mlirbc"
    os.mkfifo(fifo)
    sock = tmp / "sock.mlirbc"
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(sock))
    s.close()  # the socket file stays
    return {
        "file:///tmp/a%00b.mlirbc": "NUL",
        "file:///tmp/a\ud800b.mlirbc": "lone surrogate (U+D800)",  # a JSON escape no file name has
        "http://example.com/x.mlirbc": "does not name a local file",
        "file://otherhost/x.mlirbc": "does not name a local file",
        "file://[x/a.mlirbc": "does not name a local file",  # urlsplit: "Invalid IPv6 URL" (fuzzing)
        "mlirbc:/x.mlirbc?scheme=vscode-remote": "does not name a local file",
        "file:///dev/zero": "character device",
        "file:///dev/null": "character device",
        fifo.as_uri(): "FIFO",
        sock.as_uri(): "socket",
        tmp.as_uri(): "directory",
        (tmp / "missing.mlirbc").as_uri(): "No such file",
    }


@pytest.mark.parametrize("method", ["mlir/convertFromBytecode", "mlirbc/info"])
def test_special_files_are_refused(wire: WireClient, tmp_path: Path, method: str) -> None:
    for uri, words in _special_files(tmp_path).items():
        resp = wire.request(method, {"uri": uri}, timeout=WAIT)
        assert resp is not None, f"no answer for {uri}"
        assert resp["error"]["code"] == REQUEST_FAILED and words in resp["error"]["message"], (uri, resp)
    _still_answers(wire)


# -- saves to special paths ------------------------------------------------------------------------------
def _open_copy(wire: WireClient, tmp: Path) -> tuple[Path, str]:
    path = tmp / "doc" / "model.mlirbc"
    path.parent.mkdir()
    shutil.copyfile(SMALL, path)
    resp = wire.request("mlir/convertFromBytecode", {"uri": path.as_uri()}, timeout=WAIT * 3)
    assert resp is not None and "result" in resp, resp
    return path, "mlirbc://" + path.as_posix()


def test_saves_to_special_paths_are_refused(wire: WireClient, tmp_path: Path) -> None:
    path, view = _open_copy(wire, tmp_path)
    fifo = tmp_path / "fifo.mlirbc"
    os.mkfifo(fifo)
    for target, words in {"/dev/null": "character device", str(fifo): "FIFO",
                          str(tmp_path): "directory", str(tmp_path / "no" / "x.mlirbc"): "does not exist",
                          "a\0b.mlirbc": "NUL", "\ud800": "lone surrogate"}.items():
        resp = wire.request("mlirbc/save", {"uri": view, "path": target}, timeout=WAIT * 3)
        assert resp is not None, f"no answer saving to {target!r}"
        assert resp["error"]["code"] == REQUEST_FAILED and words in resp["error"]["message"], resp
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    _still_answers(wire)


def test_a_read_only_file_is_not_saved_over(wire: WireClient, tmp_path: Path) -> None:
    """A rename needs only the folder's permission, so the mode bits are checked: the save is refused
    (also for root) and the file keeps its bytes and mode; `overwriteReadOnly` writes it keeping the mode;
    made writable, the plain save goes through."""
    path, view = _open_copy(wire, tmp_path)
    target = tmp_path / "kept.mlirbc"
    target.write_bytes(b"old bytes")
    os.chmod(target, 0o444)
    resp = wire.request("mlirbc/save", {"uri": view, "path": str(target)}, timeout=WAIT * 3)
    assert resp is not None and resp["error"]["code"] == REQUEST_FAILED, resp
    assert "read-only (mode 0444)" in resp["error"]["message"], resp
    assert target.read_bytes() == b"old bytes" and stat.S_IMODE(os.stat(target).st_mode) == 0o444
    resp = wire.request("mlirbc/save", {"uri": view, "path": str(target), "overwriteReadOnly": "yes"},
                        timeout=WAIT * 3)
    assert resp is not None and resp["error"]["code"] == -32602 and "overwriteReadOnly" in \
        resp["error"]["message"], resp
    # the user overrides (Neovim's `:w!`): written, and the mode stays
    resp = wire.request("mlirbc/save", {"uri": view, "path": str(target), "overwriteReadOnly": True},
                        timeout=WAIT * 3)
    assert resp is not None and "result" in resp, resp
    assert target.read_bytes() == SMALL.read_bytes() and stat.S_IMODE(os.stat(target).st_mode) == 0o444
    target.write_bytes(b"old bytes")
    os.chmod(target, 0o644)
    resp = wire.request("mlirbc/save", {"uri": view, "path": str(target)}, timeout=WAIT * 3)
    assert resp is not None and "result" in resp, resp
    assert target.read_bytes() == SMALL.read_bytes()
    _still_answers(wire)


def test_the_found_save_to_a_lone_surrogate_is_refused() -> None:
    """The server fuzz target of the sixth session: a save to `"\\ud800"` answered with an internal error
    (the path reached `os.stat`).  The harness raises `Finding` for an internal error or no answer."""
    from fuzzing.targets import ServerHarness

    body = (REPO / "tests" / "data" / "hardening" / "found_server_save_path_lone_surrogate.json").read_bytes()
    assert ServerHarness().feed(body) == "error"


def test_relative_save_paths_are_relative_to_the_document(wire: WireClient, tmp_path: Path) -> None:
    path, view = _open_copy(wire, tmp_path)
    resp = wire.request("mlirbc/save", {"uri": view, "path": "copy.mlirbc"}, timeout=WAIT * 3)
    assert resp is not None and "result" in resp, resp
    assert resp["result"]["written"] == str(path.parent / "copy.mlirbc")
    assert (path.parent / "copy.mlirbc").read_bytes() == SMALL.read_bytes()


def test_saving_through_a_symlink_keeps_the_link(wire: WireClient, tmp_path: Path) -> None:
    path, view = _open_copy(wire, tmp_path)
    link = tmp_path / "link.mlirbc"
    target = tmp_path / "target.mlirbc"
    target.write_bytes(b"old")
    link.symlink_to(target)
    resp = wire.request("mlirbc/save", {"uri": view, "path": str(link)}, timeout=WAIT * 3)
    assert resp is not None and "result" in resp, resp
    assert link.is_symlink() and target.read_bytes() == SMALL.read_bytes()
    assert resp["result"]["written"] == str(target)


# -- internal errors -----------------------------------------------------------------------------------
def test_internal_errors_carry_no_traceback() -> None:
    """A handler that fails unexpectedly: the answer names the error in one line; the traceback is
    logged only."""
    from fuzzing.targets import ServerHarness

    harness = ServerHarness()

    @harness.server.feature("mlirbc/explode")
    def explode(params: Any) -> None:
        raise KeyError("boom")

    harness.server.protocol.receive(b'{"jsonrpc": "2.0", "id": 7, "method": "mlirbc/explode"}')
    resp = harness._wait(7, WAIT)
    assert resp is not None
    assert resp["error"]["code"] == -32603 and "KeyError" in resp["error"]["message"]
    assert "data" not in resp["error"] or "traceback" not in json.dumps(resp["error"]["data"])


# -- rapid edits ---------------------------------------------------------------------------------------------
def test_a_thousand_rapid_edits_keep_the_document_exact(wire: WireClient, tmp_path: Path) -> None:
    """1,000 incremental edits sent without waiting (random inserts, then their undoing in reverse, then a
    comment typed a character at a time): the server's copy is exactly the client's, so encoding it gives
    the original bytes (a comment changes no byte)."""
    import random

    path, view = _open_copy(wire, tmp_path)
    resp = wire.request("mlir/convertFromBytecode", {"uri": path.as_uri()}, timeout=WAIT * 3)
    assert resp is not None
    text = resp["result"]["output"]
    wire.notify("textDocument/didOpen", {"textDocument": {"uri": view, "languageId": "mlir", "version": 1,
                                                          "text": text}})
    lines = text.split("\n")
    rng = random.Random(1000)
    version = 1
    inserted: list[tuple[int, int]] = []

    def change(sl: int, sc: int, el: int, ec: int, new: str) -> None:
        nonlocal version
        version += 1
        wire.notify("textDocument/didChange", {
            "textDocument": {"uri": view, "version": version},
            "contentChanges": [{"range": {"start": {"line": sl, "character": sc},
                                          "end": {"line": el, "character": ec}}, "text": new}]})

    for _ in range(400):
        line = rng.randrange(1, len(lines))
        col = rng.randrange(len(lines[line]) + 1)
        lines[line] = lines[line][:col] + "x" + lines[line][col:]
        change(line, col, line, col, "x")
        inserted.append((line, col))
    for line, col in reversed(inserted):
        lines[line] = lines[line][:col] + lines[line][col + 1:]
        change(line, col, line, col + 1, "")
    change(1, 0, 1, 0, "\n")
    comment = "// typed one character at a time, " * 8
    for i, ch in enumerate(comment):
        change(1, i, 1, i, ch)
    assert version > 1000
    resp = wire.request("mlir/convertToBytecode", {"uri": view}, timeout=WAIT * 3)
    assert resp is not None and "result" in resp, resp
    import base64

    assert base64.b64decode(resp["result"]["output"]) == SMALL.read_bytes()


@pytest.mark.parametrize("params", [None, [], {}], ids=["null", "empty-array", "empty-object"])
def test_shutdown_and_exit_with_any_empty_params_stop_the_server(tmp_path: Path, params: Any) -> None:
    """`shutdown` and `exit` take no params; vscode-jsonrpc sends `[]` for them, others null or nothing.
    The kind check must not refuse the request that stops the server (the extension's contract test
    saw the server outlive its client)."""
    own = WireClient(cwd=tmp_path)
    try:
        own.initialize()
        resp = own.request("shutdown", params, timeout=WAIT)
        assert resp is not None and "error" not in resp and resp.get("result") is None, resp
        own.notify("exit", params)
        assert own.proc.wait(timeout=10) == 0
    finally:
        own.close()
