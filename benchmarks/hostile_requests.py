"""How fast the server answers hostile requests, and how fast a cancelled decode stops: a table.

    .venv/bin/python benchmarks/hostile_requests.py

Starts `mlirbc-lsp` on a pipe (tests/lsp_wire.py), sends each request of the hostile protocol suite once,
and prints the time to its answer (a notification is only logged: its row times the request sent right
after it).  Then cancels decodes of the large corpus file half-way and prints how long the worker thread takes
to stop after the cancellation (the guard interrupts it at its next bytecode), and over the wire of a real
`mlirbc-lsp` the time from `$/cancelRequest` to the cancelled request's answer and to the next request's.
Times are wall clock on whatever else the machine is doing.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path[:0] = [str(REPO / "server"), str(REPO / "tests")]

from common import CORPUS, large_file  # noqa: E402

from lsp_wire import WireClient  # noqa: E402

SMALL = CORPUS / "upstream" / "Bytecode__uselist_orders.p01.mlirbc"


def _requests(tmp: Path) -> list[tuple[str, Any]]:
    fifo = tmp / "pipe.mlirbc"
    if not fifo.exists():
        os.mkfifo(fifo)
    deep = b"[" * 100_000 + b"]" * 100_000
    hover = {"textDocument": {"uri": "mlirbc:///x.mlirbc"}, "position": {"line": -1, "character": 0}}
    return [
        ("malformed JSON", b'{"jsonrpc": "2.0", "id": 1, '),
        ("not UTF-8", b"\xff\xfe{}"),
        ("batch array", b"[1, 2]"),
        ("object id", b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "shutdown"}'),
        ("method: 123", {"jsonrpc": "2.0", "method": 123}),
        ('jsonrpc: "1.0"', {"jsonrpc": "1.0", "method": "mlirbc/info", "params": {"uri": "file:///x"}}),
        ("JSON nested 100,000 deep",
         b'{"jsonrpc": "2.0", "id": ID, "method": "mlirbc/info", "params": {"uri": ' + deep + b"}}"),
        ("params: a string", {"jsonrpc": "2.0", "method": "textDocument/hover", "params": "x"}),
        ("position line -1", {"jsonrpc": "2.0", "method": "textDocument/hover", "params": hover}),
        ("position line 2^31", {"jsonrpc": "2.0", "method": "textDocument/hover",
                                "params": {**hover, "position": {"line": 2**31, "character": 0}}}),
        ("URI with %00", {"jsonrpc": "2.0", "method": "mlir/convertFromBytecode",
                          "params": {"uri": "file:///tmp/a%00b.mlirbc"}}),
        ("file:///dev/zero", {"jsonrpc": "2.0", "method": "mlir/convertFromBytecode",
                              "params": {"uri": "file:///dev/zero"}}),
        ("a FIFO", {"jsonrpc": "2.0", "method": "mlir/convertFromBytecode",
                    "params": {"uri": fifo.as_uri()}}),
        ("a directory", {"jsonrpc": "2.0", "method": "mlirbc/info", "params": {"uri": tmp.as_uri()}}),
        ("http: URI", {"jsonrpc": "2.0", "method": "mlirbc/info",
                       "params": {"uri": "http://example.com/x.mlirbc"}}),
        ("save to /dev/null", {"jsonrpc": "2.0", "method": "mlirbc/save",
                               "params": {"uri": "mlirbc://" + SMALL.as_posix(), "path": "/dev/null"}}),
        ("unknown method", {"jsonrpc": "2.0", "method": "no/such/method"}),
        ("codeAction: diagnostics a 100,000-character string",
         {"jsonrpc": "2.0", "method": "textDocument/codeAction", "params": _code_action("x" * 100_000)}),
        ("codeAction: diagnostics an object of 100,000 keys",
         {"jsonrpc": "2.0", "method": "textDocument/codeAction",
          "params": _code_action({str(i): i for i in range(100_000)})}),
        ("codeAction: diagnostics 100,000 numbers",
         {"jsonrpc": "2.0", "method": "textDocument/codeAction", "params": _code_action([1] * 100_000)}),
        (NOTIFICATION + "didChange: contentChanges a 100,000-character string (the fuzzing find)",
         FOUND.read_bytes()),
    ]


NOTIFICATION = "(notification, then a request) "
"""Rows sent without an id: nothing answers them, so the time is until the answer to the request after."""
FOUND = REPO / "tests" / "data" / "hardening" / "found_server_string_where_array_belongs.json"


def _code_action(diagnostics: Any) -> dict[str, Any]:
    span = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}
    return {"textDocument": {"uri": "mlirbc:///x.mlirbc"}, "range": span,
            "context": {"diagnostics": diagnostics}}


def protocol_table() -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        client = WireClient(cwd=tmp)
        try:
            client.initialize()
            client.request("mlir/convertFromBytecode", {"uri": SMALL.as_uri()}, timeout=60)
            print("| hostile request | answer | ms |\n|---|---|---:|")
            for name, msg in _requests(tmp):
                msg_id = client.new_id()
                start = time.perf_counter()
                if name.startswith(NOTIFICATION):
                    client.send_bytes(msg)
                    client.send({"jsonrpc": "2.0", "id": msg_id, "method": "mlirbc/info",
                                 "params": {"uri": SMALL.as_uri()}})
                    expect = msg_id
                elif isinstance(msg, bytes):
                    body = msg.replace(b"ID", str(msg_id).encode())
                    client.send_bytes(body)
                    expect: Any = msg_id if b'"id": ' + str(msg_id).encode() in body else None
                else:
                    client.send({**msg, "id": msg_id})
                    expect = msg_id
                resp = client.response(expect, timeout=30)
                ms = (time.perf_counter() - start) * 1000
                if resp is None:
                    answer = "none"
                elif name.startswith(NOTIFICATION):
                    answer = "logged; the next request: " + ("result" if "result" in resp else "error")
                elif "error" in resp:
                    answer = f"{resp['error']['code']} {resp['error']['message'][:60]}"
                else:
                    answer = "result"
                print(f"| {name} | {answer} | {ms:.1f} |")
            start = time.perf_counter()
            ok = client.request("mlir/convertFromBytecode", {"uri": SMALL.as_uri()}, timeout=60)
            print(f"| a normal request afterwards | {'result' if ok and 'result' in ok else ok} | "
                  f"{(time.perf_counter() - start) * 1000:.1f} |")
        finally:
            client.close()


def cancellation_table(rounds: int = 5) -> None:
    """Cancel a decode of the large file after 0.5 s; time until its worker thread has stopped."""
    from mlirbc.bytecode.reader import read_bytecode
    from mlirbc.lsp.guard import run_bounded

    large = large_file()
    data = large.read_bytes()
    stops: list[float] = []

    async def one() -> None:
        task = asyncio.ensure_future(run_bounded(lambda: read_bytecode(data), "decoding", 300))
        await asyncio.sleep(0.5)
        before = {t.ident for t in threading.enumerate() if t.name.startswith("mlirbc: decoding")}
        start = time.perf_counter()
        task.cancel()
        while any(t.ident in before and t.is_alive() for t in threading.enumerate()):
            await asyncio.sleep(0.0005)
        stops.append((time.perf_counter() - start) * 1000)
        try:
            await task
        except asyncio.CancelledError:
            pass

    for _ in range(rounds):
        asyncio.run(one())
    print(f"\n| cancelled decode of {large.name} ({len(data) >> 20} MiB) | ms until the thread stopped |")
    print("|---|---:|")
    print(f"| median of {rounds} | {statistics.median(stops):.1f} |")
    print(f"| worst | {max(stops):.1f} |")


def wire_cancellation_table(rounds: int = 5) -> None:
    """What a client sees: `mlir/convertFromBytecode` of the large file cancelled after 0.5 s by
    `$/cancelRequest`, over the pipe of a real `mlirbc-lsp`; the time to the cancelled request's answer,
    and then to the answer of a request for a small file (which waits while the cancelled decode's thread
    frees what it had built)."""
    large = large_file()
    small = CORPUS / "upstream" / "Dialect__PDL__ops.p01.mlirbc"
    wire = WireClient()
    try:
        wire.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}}, timeout=60)
        wire.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        baseline: list[float] = []
        for _ in range(3):
            t = time.perf_counter()
            wire.request("mlir/convertFromBytecode", {"uri": small.as_uri()}, timeout=60)
            baseline.append((time.perf_counter() - t) * 1000)
        answers: list[float] = []
        after: list[float] = []
        for _ in range(rounds):
            msg_id = wire.new_id()
            wire.send({"jsonrpc": "2.0", "id": msg_id, "method": "mlir/convertFromBytecode",
                       "params": {"uri": large.as_uri()}})
            time.sleep(0.5)
            t = time.perf_counter()
            wire.send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": msg_id}})
            resp = wire.response(msg_id, timeout=60)
            answers.append((time.perf_counter() - t) * 1000)
            assert resp is not None and "error" in resp, resp
            t = time.perf_counter()
            wire.request("mlir/convertFromBytecode", {"uri": small.as_uri()}, timeout=60)
            after.append((time.perf_counter() - t) * 1000)
    finally:
        wire.close()
    print(f"\n| over the wire, {rounds} rounds | median ms | worst ms |")
    print("|---|---:|---:|")
    print(f"| `$/cancelRequest` to the cancelled request's answer | {statistics.median(answers):.1f} | "
          f"{max(answers):.1f} |")
    print(f"| the next request (a small file) | {statistics.median(after):.1f} | {max(after):.1f} |")
    print(f"| the same request with nothing cancelled before it | {statistics.median(baseline[1:]):.1f} | "
          f"{max(baseline[1:]):.1f} |")


if __name__ == "__main__":
    protocol_table()
    cancellation_table()
    wire_cancellation_table()
