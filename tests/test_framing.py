"""Messages on the wire (`lsp.framing`): the pieces make the message json.dumps makes, under a
Content-Length that counts the body's bytes, and no piece holds more than a slice of a long string."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mlirbc.lsp import framing

CT = "application/vscode-jsonrpc; charset=utf-8"


def _wire(message: dict[str, Any], default: Any = None) -> tuple[list[bytes], int, bytes]:
    """(the body's pieces, the header's Content-Length, the body)"""
    pieces = list(framing.frame(message, default or (lambda o: o.__dict__), CT))
    header, body = pieces[0], b"".join(pieces[1:])
    length = int(header.split(b"\r\n")[0].split(b":")[1])
    assert header.endswith(b"\r\n\r\n") and f"Content-Type: {CT}".encode() in header
    return pieces[1:], length, body


def test_a_short_message_is_json_dumps_itself() -> None:
    msg = {"jsonrpc": "2.0", "id": 3, "result": {"output": "é\n\"x\"", "n": [1, 2]}}
    pieces, length, body = _wire(msg)
    assert body == json.dumps(msg).encode("ascii")
    assert length == len(body)


# Characters whose escapes differ in length, so a wrong count or a split escape shows.
AWKWARD = 'a"\\\n\t\x00\x1féü\u2028😀\U0010ffff'


@pytest.mark.parametrize("slice_size", [1, 2, 3, 7, 64])
def test_long_strings_go_out_in_slices_and_read_back_whole(monkeypatch: pytest.MonkeyPatch,
                                                           slice_size: int) -> None:
    monkeypatch.setattr(framing, "SLICE", slice_size)
    long_a = (AWKWARD * 11)[: 5 * slice_size + 3]
    long_b = "".join(reversed(AWKWARD)) * 4
    msg = {"jsonrpc": "2.0", "id": "x", "result": {"output": long_a, "short": "ab"[:slice_size],
                                                   "other": long_b, "k": {"nested": long_a}}}
    pieces, length, body = _wire(msg)
    assert length == len(body)
    assert json.loads(body) == msg
    assert body == json.dumps(msg).encode("ascii")
    # A slice of n characters escapes to at most 12 bytes a character (a surrogate pair's two \\uXXXX);
    # only the JSON around the long strings (here the nested copy, which stays in place) may be longer.
    longest_other = len(json.dumps(msg["result"]["k"])) + 40
    assert max(len(p) for p in pieces) <= max(12 * slice_size, longest_other)


def test_a_long_string_beside_objects_that_need_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(framing, "SLICE", 4)

    class Thing:
        def __init__(self) -> None:
            self.name = "mlirbc-long-0"  # looks like a placeholder, without its nonce

    msg = {"jsonrpc": "2.0", "id": 1, "result": {"thing": Thing(), "output": AWKWARD * 3}}
    pieces, length, body = _wire(msg)
    assert json.loads(body) == {"jsonrpc": "2.0", "id": 1,
                                       "result": {"thing": {"name": "mlirbc-long-0"},
                                                  "output": AWKWARD * 3}}
    assert length == len(body)


def test_errors_and_notifications_are_framed_whole() -> None:
    for msg in ({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "x" * 50}},
                {"jsonrpc": "2.0", "method": "window/logMessage", "params": {"message": "y" * 10}}):
        pieces, length, body = _wire(msg)
        assert body == json.dumps(msg).encode("ascii") and length == len(body)
