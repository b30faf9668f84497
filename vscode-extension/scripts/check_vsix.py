"""Checks a packaged .vsix as a user's machine gets it: size, contents, its bundled server on a bare Python.

    python3 -m venv --without-pip /tmp/bare && /tmp/bare/bin/python scripts/check_vsix.py mlirbc.vsix

Run it with a Python 3.11+ that has neither mlirbc nor pygls (a fresh venv): it refuses one that has them.
It lists the .vsix (under 10 MB; the server, its dependencies and their licences present; no bytecode,
console scripts or pip records), extracts it, starts `bundled/tool/start_server.py` with this
interpreter and speaks LSP to it: initialize, open a view of a new file, encode it to bytecode, decode the
bytes written to disk, shut down. The server's first stderr line must name the bundled copy. Standard
library only; prints what it checked, exits 1 on the first failure.
"""

from __future__ import annotations

import base64
import importlib.util
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import zipfile
from pathlib import Path
from typing import Any

MAX_BYTES = 10_000_000
NEEDED = [
    "extension/bundled/tool/start_server.py",
    "extension/bundled/libs/mlirbc/__init__.py",
    "extension/bundled/libs/mlirbc/lsp/__main__.py",
    "extension/bundled/libs/pygls/__init__.py",
    "extension/bundled/libs/lsprotocol/types.py",
    "extension/bundled/libs/attrs/__init__.py",
    "extension/bundled/libs/cattrs/__init__.py",
    "extension/bundled/libs/typing_extensions.py",
]
# Generic form: every version of the view parser reads it.
TEXT = """"builtin.module"() ({
  "func.func"() <{function_type = (i32, i32) -> i32, sym_name = "add"}> ({
  ^bb0(%a: i32, %b: i32):
    %0 = "arith.addi"(%a, %b) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    "func.return"(%0) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
"""
TIMEOUT_S = 60.0


class CheckFailed(Exception):
    pass


def check(ok: bool, what: str) -> None:
    if not ok:
        raise CheckFailed(what)
    print(f"ok  {what}")


def check_contents(vsix: Path) -> None:
    size = vsix.stat().st_size
    check(size < MAX_BYTES,
          f"{vsix.name} is {size / 1e6:.2f} MB ({size} bytes), under {MAX_BYTES / 1e6:.0f} MB")
    with zipfile.ZipFile(vsix) as z:
        names = z.namelist()
        unpacked = sum(i.file_size for i in z.infolist())
    libs = [n for n in names if n.startswith("extension/bundled/libs/")]
    print(f"    {len(names)} files ({unpacked / 1e6:.1f} MB unpacked), {len(libs)} in bundled/libs")
    missing = [n for n in NEEDED if n not in names]
    check(not missing, f"the server and its dependencies are in it (missing: {missing or 'none'})")
    dists = sorted({n.split("/")[3] for n in libs if n.split("/")[3].endswith(".dist-info")})
    print(f"    distributions: {', '.join(d.removesuffix('.dist-info') for d in dists)}")
    own = next((d for d in dists if d.startswith("mlirbc-")), "mlirbc-?.dist-info")
    check(f"extension/bundled/libs/{own}/entry_points.txt" in names,
          "mlirbc's entry points (its StableHLO and IREE model plugins) are in it")
    unlicensed = [d for d in dists if not d.startswith("mlirbc-")
                  and not any(n.startswith(f"extension/bundled/libs/{d}/licenses/") for n in names)]
    check(not unlicensed,
          f"every third-party dependency carries its licence (without: {unlicensed or 'none'})")
    junk = [n for n in names if n.endswith(".pyc") or "/__pycache__/" in n
            or n.startswith("extension/bundled/libs/bin/")
            or n.rsplit("/", 1)[-1] in ("direct_url.json", "RECORD", "INSTALLER")
            or "/tests/" in n or "/test/" in n]
    check(not junk, f"no bytecode, console scripts, pip records or tests (found: {junk[:5] or 'none'})")


class Server:
    """The bundled server as a child process, spoken to over stdio with LSP framing."""

    def __init__(self, python: str, script: Path, cwd: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        self.proc = subprocess.Popen([python, str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd, env=env)
        self.messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.stderr: list[str] = []
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                if line in (b"\r\n", b"\n"):
                    break
                key, _, value = line.decode("ascii").partition(":")
                if key.strip().lower() == "content-length":
                    length = int(value)
            if length is None:
                self.messages.put(None)
                return
            self.messages.put(json.loads(out.read(length)))

    def _read_stderr(self) -> None:
        err = self.proc.stderr
        assert err is not None
        for line in err:
            self.stderr.append(line.decode("utf-8", "replace").rstrip())

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        stdin = self.proc.stdin
        assert stdin is not None
        stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        stdin.flush()

    def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        rid = self.next_id
        self.send({"id": rid, "method": method, "params": params})
        while True:
            try:
                msg = self.messages.get(timeout=TIMEOUT_S)
            except queue.Empty:
                raise CheckFailed(f"no answer to {method} within {TIMEOUT_S:.0f} s") from None
            if msg is None:
                raise CheckFailed(f"the server closed its output before answering {method}:\n"
                                  + "\n".join(self.stderr[-20:]))
            if "method" in msg and "id" in msg:  # a request of the server's (configuration, registration)
                result: Any = [None] * len(msg["params"].get("items", [])) \
                    if msg["method"] == "workspace/configuration" else None
                self.send({"id": msg["id"], "result": result})
            elif msg.get("id") == rid:
                if "error" in msg:
                    raise CheckFailed(f"{method} failed: {msg['error'].get('message')}")
                return msg.get("result")

    def close(self) -> int:
        try:
            self.request("shutdown", None)
            self.send({"method": "exit"})
            return self.proc.wait(timeout=TIMEOUT_S)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


def check_server(vsix: Path, work: Path) -> None:
    with zipfile.ZipFile(vsix) as z:
        z.extractall(work / "unpacked")
    ext = work / "unpacked" / "extension"
    libs = ext / "bundled" / "libs"
    ws = work / "ws"
    ws.mkdir()
    server = Server(sys.executable, ext / "bundled" / "tool" / "start_server.py", ws)
    try:
        init = server.request("initialize", {"processId": os.getpid(), "rootUri": ws.as_uri(),
                                             "capabilities": {}, "initializationOptions": {}})
        info = init.get("serverInfo", {})
        check(info.get("name") == "mlirbc-lsp",
              f"initialize answered by {info.get('name')} {info.get('version')}")
        server.send({"method": "initialized", "params": {}})
        target = ws / "new.mlirbc"
        view = "mlirbc:" + target.as_posix()
        opened = {"uri": view, "languageId": "mlir", "version": 1, "text": TEXT}
        server.send({"method": "textDocument/didOpen", "params": {"textDocument": opened}})
        encoded = server.request("mlir/convertToBytecode", {"uri": view})
        data = base64.b64decode(encoded["output"])
        check(data[:4] == b"ML\xefR", f"convertToBytecode encoded the view ({len(data)} bytes of bytecode)")
        target.write_bytes(data)
        decoded = server.request("mlir/convertFromBytecode", {"uri": target.as_uri()})["output"]
        check("arith.addi" in decoded and ("@add" in decoded or '"add"' in decoded),
              "convertFromBytecode read them back (the text has the function and its arith.addi)")
        code = server.close()
        check(code == 0, f"shutdown and exit: the server ended with {code}")
    finally:
        if server.proc.poll() is None:
            server.proc.kill()
    first = server.stderr[0] if server.stderr else ""
    print(f"    server: {first}")
    check(f"(bundled: {libs / 'mlirbc'})" in first, "the server that answered is the bundled copy")


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    vsix = Path(argv[0]).resolve()
    try:
        check(sys.version_info >= (3, 11),
              f"this Python is {sys.version.split()[0]} ({sys.executable}), 3.11+")
        present = [m for m in ("mlirbc", "pygls", "lsprotocol") if importlib.util.find_spec(m) is not None]
        check(not present,
              f"this Python has no mlirbc, pygls or lsprotocol of its own (found: {present or 'none'})")
        check_contents(vsix)
        with tempfile.TemporaryDirectory(prefix="mlirbc-vsix-") as tmp:
            check_server(vsix, Path(tmp))
    except CheckFailed as exc:
        print(f"FAIL {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
