"""Hover on an op the view's map shows while the IR no longer holds it where the map recorded it (an edit
being re-read on a worker thread meanwhile: found by the short fuzzing run of the server under load).  The
answer is another hover or none, never an internal error."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("atheris")  # (the harness lives with the fuzzing targets)

from fuzzing.targets import ServerHarness  # noqa: E402
from mlirbc.lsp.analysis import state_of  # noqa: E402


def test_hover_on_the_name_of_a_detached_op_is_answered() -> None:
    h = ServerHarness()
    uri = h.home[0]
    view = h.server.views[uri]
    state = h.loop.run_until_complete(state_of(h.server, view))
    assert state is not None and state.map is not None
    ops = [op for op, _ in state.map.ops() if op.parent is not None and state.map.op_name_span(op) is not None
           and op.parent.parent is not None and op.parent.parent.parent is not None]
    op = ops[-1]
    name = state.map.op_name_span(op)
    assert name is not None and op.parent is not None
    op.parent.operations.remove(op)  # detached, as a re-read may leave the state's op meanwhile
    op.parent = None
    assert state.map.op_name_at(name.start) is op and state.map.op_name_span(op) is None
    line = state.text.count("\n", 0, name.start)
    character = name.start - (state.text.rfind("\n", 0, name.start) + 1)
    body = {"jsonrpc": "2.0", "id": 9001, "method": "textDocument/hover",
            "params": {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}}
    assert h.feed(json.dumps(body).encode()) == "result"
    answer = next(m for m in h.capture.messages if m.get("id") == 9001)
    assert "error" not in answer
