"""A raw JSON-RPC client over a pipe for hostile-protocol tests: it frames whatever bytes a test wants
(malformed JSON, wrong envelopes, absurd params) and reads every message the server sends back.

pytest-lsp's client only sends well-formed, typed messages, which is exactly what these tests must not be
limited to.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent


def server_env() -> dict[str, str]:
    env = dict(os.environ)
    server_dir = str(REPO / "server")
    env["PYTHONPATH"] = server_dir + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


class WireClient:
    """Runs `python -m mlirbc.lsp` and talks to it byte by byte."""

    def __init__(self, cwd: Path | None = None, log_file: Path | None = None) -> None:
        cmd = [sys.executable, "-m", "mlirbc.lsp"]
        if log_file is not None:
            cmd += ["--log-file", str(log_file), "--log-level", "DEBUG"]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=server_env(), cwd=cwd)
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.raw_bodies: list[bytes] = []
        self.received: list[dict[str, Any]] = []
        self.stderr = bytearray()
        self._next_id = 1000
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    # -- transport ---------------------------------------------------------------------------------
    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = -1
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii", "replace").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            body = out.read(length)
            self.raw_bodies.append(body)
            try:
                msg = json.loads(body)
            except ValueError:
                msg = {"unparseable": body.decode("utf-8", "replace")}
            self.messages.put(msg)

    def _drain_stderr(self) -> None:
        err = self.proc.stderr
        assert err is not None
        while True:
            chunk = err.read1(65536) if hasattr(err, "read1") else err.read(65536)
            if not chunk:
                return
            self.stderr += chunk

    def send_bytes(self, body: bytes) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        stdin.flush()

    def send(self, message: Any) -> None:
        self.send_bytes(json.dumps(message).encode("utf-8"))

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    # -- waiting -----------------------------------------------------------------------------------
    def wait_for(self, pred: Any, timeout: float) -> dict[str, Any] | None:
        """The first message (already received or arriving within `timeout`) that `pred` accepts."""
        for m in self.received:
            if pred(m):
                self.received.remove(m)
                return m
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                m = self.messages.get(timeout=left)
            except queue.Empty:
                return None
            if pred(m):
                return m
            self.received.append(m)

    def response(self, msg_id: Any, timeout: float = 1.0) -> dict[str, Any] | None:
        """The response to the request `msg_id` (a response has `result` or `error` and no `method`)."""
        return self.wait_for(lambda m: "method" not in m and m.get("id") == msg_id
                             and ("result" in m or "error" in m), timeout)

    def request(self, method: Any, params: Any = None, timeout: float = 1.0) -> dict[str, Any] | None:
        msg_id = self.new_id()
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": msg_id, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return self.response(msg_id, timeout)

    def notify(self, method: str, params: Any = None) -> None:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)

    # -- session -----------------------------------------------------------------------------------
    def initialize(self, timeout: float = 120.0) -> dict[str, Any]:
        resp = self.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}},
                            timeout=timeout)
        assert resp is not None and "result" in resp, resp
        self.notify("initialized", {})
        return resp

    def close(self) -> None:
        try:
            if self.proc.poll() is None:
                self.request("shutdown", timeout=5.0)
                self.notify("exit")
                self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired, ValueError):
            pass
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
