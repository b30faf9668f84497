"""The fuzz targets: each takes one input and returns the outcome class, or raises `Finding` (a bug).

* `reader`: bytes -> `read_bytecode` -> `print_module`.  Expected: a located `DecodeError` (offset inside the
  input), a partial module that prints with its error in the view, or a complete module that prints.
* `cycle`: bytes -> read -> print -> parse (template: the module read) -> write -> read -> print.  A complete
  decode must come back as the same view; its text must parse without errors, the writer must accept what
  the parser accepted, and the reader what the writer wrote.
* `text`: a text view -> `parse_module` -> `write_bytecode` -> read.  Every diagnostic lies inside the text;
  what parses writes (unless it holds fallback parts, which need their original file) and reads back.
* `server`: one JSON-RPC message body -> the server's protocol layer.  Every request is answered exactly
  once, never with a traceback or an internal error.

Anything else (another exception, a broken invariant) is a `Finding`.  Time per input is measured by the
drivers (`fuzzing.engine`), not here.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from typing import Any

from mlirbc.bytecode.reader import read_bytecode
from mlirbc.bytecode.writer import write_bytecode
from mlirbc.errors import DecodeError, EncodeError
from mlirbc.ir.module import Module
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module

from .text_mutator import decode_text


class Finding(Exception):
    """An input that breaks an invariant: the message says which."""


def _check_decode_error(exc: DecodeError, size: int) -> None:
    if not 0 <= exc.offset <= size:
        raise Finding(f"DecodeError offset {exc.offset} outside the input of {size} bytes: {exc}")


def _print(m: Module) -> str:
    text: str = print_module(m).text
    if m.error is not None and str(m.error.offset) not in text:
        raise Finding("the view of a partial decode does not show where decoding stopped")
    return text


def reader(data: bytes) -> str:
    try:
        m = read_bytecode(data)
    except DecodeError as exc:
        _check_decode_error(exc, len(data))
        return "rejected"
    if m.error is not None:
        _check_decode_error(m.error, len(data))
    _print(m)
    return "partial" if m.error is not None else "decoded"


def cycle(data: bytes) -> str:
    try:
        m = read_bytecode(data)
    except DecodeError as exc:
        _check_decode_error(exc, len(data))
        return "rejected"
    text = _print(m)
    if m.error is not None:
        _check_decode_error(m.error, len(data))
        return "partial"
    result = parse_module(text, template=m)
    if result.errors or result.module is None:
        e = result.errors[0] if result.errors else None
        where = f"{e.span}: {e.message}" if e is not None else "no module"
        raise Finding(f"the view of a complete decode does not parse: {where}")
    try:
        out = write_bytecode(result.module, template=m)
    except EncodeError as exc:
        raise Finding(f"the writer refuses a view the parser accepted: {exc}") from None
    try:
        m2 = read_bytecode(out)
    except DecodeError as exc:
        raise Finding(f"the reader refuses what the writer wrote: {exc}") from None
    if m2.error is not None:
        raise Finding(f"the reader stops part-way in what the writer wrote: {m2.error}")
    text2 = print_module(m2).text
    if text2 != text:
        a, b = text.splitlines(), text2.splitlines()
        i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
        before = a[i] if i < len(a) else "<end>"
        after = b[i] if i < len(b) else "<end>"
        raise Finding(f"the round trip changed the view at line {i + 1}: {before[:160]!r} -> "
                      f"{after[:160]!r}")
    return "cycled"


NEEDS_TEMPLATE = "without their original file"


def text(data: bytes) -> str:
    source = decode_text(data)
    result = parse_module(source)
    lines = source.split("\n")
    for d in result.diagnostics:
        s = d.span
        if not (0 <= s.start_line < len(lines) and 0 <= s.end_line < len(lines)
                and 0 <= s.start_col <= len(lines[s.start_line])
                and 0 <= s.end_col <= len(lines[s.end_line])):
            raise Finding(f"diagnostic span {s.start_line}:{s.start_col}-{s.end_line}:{s.end_col} lies "
                          f"outside the text: {d.message}")
        if not d.message:
            raise Finding("a diagnostic without a message")
    if result.errors or result.module is None:
        if result.module is None and not result.errors:
            raise Finding("no module and no error")
        return "rejected"
    try:
        out = write_bytecode(result.module, template=None)
    except EncodeError as exc:
        if NEEDS_TEMPLATE in str(exc):
            return "needs-template"
        raise Finding(f"the writer refuses text the parser accepted: {exc}") from None
    try:
        m2 = read_bytecode(out)
    except DecodeError as exc:
        raise Finding(f"the reader refuses what the writer wrote from text: {exc}") from None
    if m2.error is not None:
        raise Finding(f"the reader stops part-way in what the writer wrote from text: {m2.error}")
    return "encoded"


# -- server -------------------------------------------------------------------------------------------
_ALLOWED_CODES = {-32700, -32600, -32601, -32602, -32803, -32800, -32801, -32002}


class _Capture:
    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.arrived: asyncio.Event | None = None

    def write(self, data: bytes) -> None:
        body = data.split(b"\r\n\r\n", 1)[-1]
        self.messages.append(json.loads(body))
        if self.arrived is not None:
            self.arrived.set()

    def close(self) -> None:
        pass


class ServerHarness:
    """One server, fed message bodies directly through its protocol layer on a private event loop."""

    def __init__(self) -> None:
        from mlirbc.lsp.server import create_server

        self.loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self.loop)
        self.server = create_server()
        self.settings = dataclasses.replace(self.server.settings, max_file_mb=1.0, decode_timeout_s=2.0,
                                            debounce_ms=0.0)
        self.server.apply_settings(self.settings)
        self.capture = _Capture()
        self.server.protocol.set_writer(self.capture, include_headers=False)
        self.inputs = 0
        init = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": {"processId": None, "rootUri": None, "capabilities": {}}}
        if self.feed(json.dumps(init).encode()) != "result":
            raise RuntimeError("the server did not initialize")
        self.feed(b'{"jsonrpc": "2.0", "method": "initialized", "params": {}}')

    def feed(self, body: bytes, deadline: float = 2.0) -> str:
        self.inputs += 1
        proto = self.server.protocol
        self.capture.messages.clear()
        expects_answer = True
        msg_id: Any = None
        try:
            raw = json.loads(body)
        except RecursionError:
            from mlirbc.lsp.protocol import shallow_id

            raw = None
            msg_id = shallow_id(body.decode("utf-8", "replace"))[0]
        except ValueError:
            raw = None
        if isinstance(raw, dict):
            msg_id = raw.get("id")
            valid_id = isinstance(msg_id, int | str) and not isinstance(msg_id, bool)
            if "id" in raw and valid_id and "method" not in raw and ("result" in raw or "error" in raw):
                expects_answer = False  # a response from the client: nothing to answer
            elif "id" not in raw:
                expects_answer = False  # a notification
            elif not valid_id:
                msg_id = None
        if raw is not None and isinstance(raw, dict) and raw.get("method") in ("exit", "shutdown"):
            return "skipped"  # ending the harness's own server is not the point
        proto.receive(body)
        answer = None
        if expects_answer:
            answer = self._wait(msg_id, deadline)
            if answer is None:
                raise Finding(f"no answer within {deadline} s to a request with id {msg_id!r}")
        for m in self.capture.messages:
            self._check(m)
        self.server.apply_settings(self.settings)  # whatever a configuration message set
        if len(self.server.views) > 20 or len(self.server.files) > 20:
            self.server.views.clear()
            self.server.files.clear()
            self.server.diagnostics.clear()
        if answer is None:
            return "notification"
        return "error" if "error" in answer else "result"

    def _wait(self, msg_id: Any, deadline: float) -> dict[str, Any] | None:
        def found() -> dict[str, Any] | None:
            for m in self.capture.messages:
                if "method" not in m and m.get("id") == msg_id and ("result" in m or "error" in m):
                    return m
            return None

        async def spin() -> dict[str, Any] | None:
            # Woken by each message the server writes (answers from worker threads arrive through
            # the loop), not by polling.
            end = self.loop.time() + deadline
            arrived = self.capture.arrived = asyncio.Event()
            try:
                while True:
                    hit = found()
                    left = end - self.loop.time()
                    if hit is not None or left <= 0:
                        return hit
                    arrived.clear()
                    try:
                        await asyncio.wait_for(arrived.wait(), left)
                    except TimeoutError:
                        return found()
            finally:
                self.capture.arrived = None

        return self.loop.run_until_complete(spin())

    def _check(self, m: dict[str, Any]) -> None:
        text = json.dumps(m)
        if "Traceback" in text or '"traceback"' in text:
            raise Finding(f"a traceback on the wire: {text[:300]}")
        err = m.get("error")
        if isinstance(err, dict):
            if err.get("code") not in _ALLOWED_CODES:
                raise Finding(f"error code {err.get('code')} ({err.get('message', '')[:200]})")
        if m.get("method") == "window/showMessage":
            msg = str(m.get("params", {}).get("message", ""))
            if "Error in server" in msg:
                raise Finding(f"a handler failed: {msg[:300]}")
