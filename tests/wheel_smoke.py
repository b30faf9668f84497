"""Smoke test of an installed language server: open a `.mlirbc`, hover an op, save it unchanged.

    python wheel_smoke.py FILE.mlirbc [--server 'CMD ARGS']

Speaks LSP over the server's stdio with the standard library only, so it runs in a virtual environment
that holds nothing but the wheel and its dependencies (`.ci/wheel.sh`); `test_packaging.py` runs it
against the development install too.  The file is copied to a temporary folder first, so the save never
touches the original.  Steps, each checked against real answers: `initialize`; `mlir/convertFromBytecode`
of the copy (the text view); `didOpen` of the view; a hover on the first op name (its model, which for a
StableHLO file comes from the `stablehlo` plugin's entry point); `mlir/convertToBytecode` (the original
bytes, byte for byte); `mlirbc/save` over the copy (the same bytes on disk); `shutdown` and `exit`.
Exit status 0 when every step held, 1 otherwise (the failed step on stderr).
"""

from __future__ import annotations

import argparse
import base64
import json
import queue
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

TIMEOUT = 120.0  # seconds for one answer: a busy two-core CI machine starts Python slowly


class SmokeFailure(Exception):
    pass


class Client:
    """A minimal JSON-RPC client over the server's pipes; answers the server's own requests with null."""

    def __init__(self, cmd: list[str], cwd: str) -> None:
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd)
        self.inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.stderr = bytearray()
        self.notifications: list[dict[str, Any]] = []
        self._next = 0
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = -1
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii", "replace").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            body = out.read(length) if length >= 0 else b""
            self.inbox.put(json.loads(body))

    def _drain(self) -> None:
        err = self.proc.stderr
        assert err is not None
        for chunk in iter(lambda: err.read(4096), b""):
            self.stderr += chunk

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        stdin = self.proc.stdin
        assert stdin is not None
        stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        stdin.flush()

    def notify(self, method: str, params: dict[str, Any] | None) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict[str, Any] | None) -> Any:
        self._next += 1
        ident = self._next
        self.send({"id": ident, "method": method, "params": params})
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                msg = self.inbox.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise SmokeFailure(f"{method}: no answer within {TIMEOUT:.0f} s") from None
            if msg is None:
                raise SmokeFailure(f"{method}: the server closed its output "
                                   f"(exit {self.proc.poll()}): {self._tail()}")
            if "method" in msg and "id" in msg:  # the server's request (progress, configuration)
                self.send({"id": msg["id"], "result": None})
            elif "method" in msg:
                self.notifications.append(msg)
            elif msg.get("id") == ident:
                if "error" in msg:
                    raise SmokeFailure(f"{method}: error {msg['error']}")
                return msg.get("result")

    def _tail(self) -> str:
        return self.stderr.decode("utf-8", "replace")[-2000:]

    def close(self) -> int:
        if self.proc.poll() is None:
            self.proc.kill()
        return self.proc.wait(timeout=30)


def first_op_name(text: str) -> tuple[int, int, str]:
    """(line, character, name) of the first op name outside the builtin dialect (whose model every install
    has): in the generic form (`"dialect.op"(`) or a custom one (`%0 = dialect.op ...`, the StableHLO view
    of a JAX export), else of the first generic op."""
    found: list[tuple[int, int, str]] = []
    for n, line in enumerate(text.splitlines()):
        for m in re.finditer(r'"([A-Za-z_][\w$]*\.[\w$.]+)"\(|= ([A-Za-z_][\w$]*\.[\w$.]+) ', line):
            # View lines are ASCII outside string literals, so UTF-16 columns are character offsets.
            name = m.group(1) or m.group(2)
            found.append((n, m.start(1) + 1 if m.group(1) else m.start(2), name))
            if not name.startswith("builtin."):
                return found[-1]
    if not found:
        raise SmokeFailure("the view holds no op outside the builtin dialect")
    return found[0]


def smoke(original: Path, server: list[str]) -> list[str]:
    data = original.read_bytes()
    done: list[str] = []
    with tempfile.TemporaryDirectory(prefix="mlirbc-smoke-") as tmp:
        path = Path(tmp) / original.name
        shutil.copyfile(original, path)
        file_uri = path.resolve().as_uri()
        view_uri = "mlirbc:" + path.resolve().as_posix()
        client = Client(server, cwd=tmp)
        try:
            init = client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
            caps = init.get("capabilities", {}) if isinstance(init, dict) else {}
            if not caps.get("hoverProvider"):
                raise SmokeFailure(f"initialize: no hoverProvider in {sorted(caps)}")
            client.notify("initialized", {})
            done.append(f"initialize: {init.get('serverInfo', {}).get('name', '?')}")

            text = client.request("mlir/convertFromBytecode", {"uri": file_uri})["output"]
            if not text.startswith("// mlirbc: {"):
                raise SmokeFailure(f"convertFromBytecode: not a view: {text[:80]!r}")
            line, col, name = first_op_name(text)
            done.append(f"convertFromBytecode: {len(text)} characters, {text.count(chr(10))} lines")

            client.notify("textDocument/didOpen", {"textDocument": {
                "uri": view_uri, "languageId": "mlir", "version": 1, "text": text}})
            hover = client.request("textDocument/hover", {
                "textDocument": {"uri": view_uri}, "position": {"line": line, "character": col}})
            value = (hover or {}).get("contents", {}).get("value", "")
            if f"`{name}`" not in value or "Model:" not in value:
                raise SmokeFailure(f"hover on {name} at {line}:{col}: {value[:300]!r}")
            model = next(s for s in value.split("\n\n") if s.startswith("Model:"))
            done.append(f"hover {name}: {model}")

            encoded = client.request("mlir/convertToBytecode", {"uri": view_uri})["output"]
            if base64.b64decode(encoded) != data:
                raise SmokeFailure("convertToBytecode: the unchanged view did not give the original bytes")
            done.append(f"convertToBytecode: {len(data)} bytes, identical")

            saved = client.request("mlirbc/save", {"uri": view_uri})
            if path.read_bytes() != data or saved.get("bytes") != len(data):
                raise SmokeFailure(f"mlirbc/save: {saved} did not write the original bytes")
            done.append(f"mlirbc/save: {saved['bytes']} bytes written, identical")

            client.request("shutdown", None)
            client.notify("exit", None)
            rc = client.proc.wait(timeout=TIMEOUT)
            if rc != 0:
                raise SmokeFailure(f"exit: status {rc}")
            done.append("shutdown, exit 0")
        except SmokeFailure as exc:
            raise SmokeFailure(f"{exc}\nserver stderr: {client._tail()}") from None
        finally:
            client.close()
    return done


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", type=Path)
    ap.add_argument("--server", default="mlirbc-lsp",
                    help="the command that starts the server, split like a shell does (default: "
                         "mlirbc-lsp on PATH)")
    args = ap.parse_args(argv)
    try:
        for step in smoke(args.file, shlex.split(args.server)):
            print(f"ok  {step}")
    except (SmokeFailure, OSError, ValueError, KeyError, TypeError) as exc:
        print(f"wheel_smoke: FAILED: {exc}", file=sys.stderr)
        return 1
    print("wheel_smoke: open, hover and save work")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
