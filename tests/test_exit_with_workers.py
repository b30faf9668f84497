"""A process whose daemon worker holds the uniquer's lock still exits, and the language server exits on
`exit` while its workers are busy (the CI once hung forever in a server's interpreter shutdown: a weak
reference callback of the uniquer waited for a lock a frozen daemon thread held)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# Attributes die in the interpreter's last garbage collection (a cycle holds them and the collector is
# off until then), after daemon threads are frozen; one daemon thread holds the uniquer's lock for ever,
# as a worker stopped in the middle of uniquing does.
_HOLDER = """
import gc, threading, time
from mlirbc.ir import uniquer
from mlirbc.ir.attributes import StringAttr
gc.disable()
class Cycle:
    pass
cycle = Cycle()
cycle.me = cycle
cycle.kept = [StringAttr.get(f"exit-{i}") for i in range(2000)]
del cycle
held = threading.Event()
def hold():
    with uniquer._lock:
        held.set()
        time.sleep(3600)
threading.Thread(target=hold, daemon=True).start()
held.wait()
print("ready", flush=True)
"""


def _run(code: str) -> subprocess.CompletedProcess[str]:
    env = {"PYTHONPATH": str(REPO / "server"), "PATH": "/usr/bin:/bin"}
    # A hang is the failure this test is about: the timeout only turns it into a failed test.
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env=env)


def test_exit_does_not_wait_for_a_lock_a_frozen_daemon_thread_holds() -> None:
    done = _run(_HOLDER)
    assert done.stdout.strip() == "ready"
    assert done.returncode == 0, done.stderr


def test_the_server_exits_on_exit_while_a_worker_holds_the_lock() -> None:
    """The server process itself: a worker stuck holding the lock does not keep it from exiting after
    `shutdown` and `exit`, with exit code 0 (1 without `shutdown`, as the protocol says)."""
    code = _HOLDER.replace('print("ready", flush=True)', """
import io, json, sys
def frame(obj):
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\\r\\n\\r\\n" % len(body) + body
msgs = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}}]
if SHUTDOWN:
    msgs.append({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
msgs.append({"jsonrpc": "2.0", "method": "exit"})
stdin = io.BytesIO(b"".join(frame(m) for m in msgs))
from mlirbc.lsp.server import create_server
import mlirbc.lsp.__main__ as entry
sys.stdin = io.TextIOWrapper(stdin)
entry.main([])
""")
    for shutdown, want in ((True, 0), (False, 1)):
        done = _run(f"SHUTDOWN = {shutdown}\n" + code)
        assert done.returncode == want, done.stderr[-2000:]
        assert '"id": 1' in done.stdout or '"id":1' in done.stdout  # it answered `initialize`


def test_messages_after_the_output_closed_are_dropped_not_reported_without_end() -> None:
    """After `exit` the jobs still winding down send their last messages to a closed stdout: each failure
    used to be reported to the client as one more message, which failed in turn (a CI log of 1.3 million
    tracebacks).  Now the first failure marks the output closed and the rest are dropped."""
    import io

    from pygls.io_ import StdoutWriter

    from mlirbc.lsp.server import create_server

    server = create_server()
    out = io.BytesIO()
    server.protocol.set_writer(StdoutWriter(out))
    reported: list[BaseException] = []
    server._report_server_error = lambda error, _kind: reported.append(error)  # type: ignore[method-assign]
    message = {"jsonrpc": "2.0", "method": "window/logMessage", "params": {"type": 3, "message": "hi"}}
    server.protocol._send_data(message)
    assert out.getvalue().startswith(b"Content-Length: ")
    out.close()
    for _ in range(3):
        server.protocol._send_data(message)
    assert reported == []
    assert server.protocol._output_closed
