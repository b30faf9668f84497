"""Model-sized files through the language server next to upstream mlir-opt and mlir-lsp-server.

    PYTHONPATH=server python benchmarks/weights_bench.py [--work DIR] [--sizes 100,1024]
        [--jax-dir DIR] [--constants 10000] [--no-upstream] [--keep]

Files (generated into --work, deleted afterwards unless --keep): `dense_resource` files of the given MiB
(`server/tools/make_weights.py`), the 64 MB and 200 MB JAX exports that
`../shared/corpus/vhlo/build_vhlo_corpus.py --large` builds (taken from --jax-dir, else built when jax
is installed, else skipped), and a file of N small dense constants.

For each file and tool, one row:
* open: `mlir/convertFromBytecode` + `didOpen` + the first hover (on an elided value when there is
  one); for mlir-opt, printing the generic text view to a file; for mlir-lsp-server, its
  `mlir/convertFromBytecode`;
* view: characters of the text view;
* anon / file MB: peak resident anonymous memory (the process's own) and peak resident pages of mapped
  files, sampled every 10 ms from /proc/PID/status (RssAnon, RssFile), for every tool;
* save: `mlirbc/save` of the unchanged view (upstream: mlir-opt bytecode -> bytecode);
* edit+save: a one-line edit (a symbol renamed) then `mlirbc/save` (upstream: mlir-opt text view ->
  bytecode);
* cp+fsync: the same file copied to a new file and synced, timed right after the server's row (the
  target of "a save in about the time of copying the file").
`cp` (and `cp` + `sync`) of the largest file is timed in the same run for comparison: mlirbc's save
also fsyncs the file and its folder.  Times are wall clock on whatever else the machine runs.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from common import CORPUS, REPO, mlir_opt
from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

sys.path.insert(0, str(REPO / "server" / "tools"))
sys.path.insert(0, str(REPO / "server"))

import make_weights  # noqa: E402

MiB = 1 << 20


@dataclass
class Row:
    file: str
    size: int
    tool: str
    open_s: float | None = None
    view: int | None = None
    anon_mb: float | None = None
    file_mb: float | None = None
    save_s: float | None = None
    edit_s: float | None = None
    cp_s: float | None = None
    note: str = ""


class Sampler:
    """Peak RssAnon / RssFile of a process, polled from /proc every 10 ms."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.anon = 0
        self.file = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                with open(f"/proc/{self.pid}/status") as f:
                    for line in f:
                        if line.startswith("RssAnon:"):
                            self.anon = max(self.anon, int(line.split()[1]))
                        elif line.startswith("RssFile:"):
                            self.file = max(self.file, int(line.split()[1]))
            except OSError:
                return
            self._stop.wait(0.01)

    def stop(self) -> tuple[float, float]:
        self._stop.set()
        self._thread.join()
        return self.anon / 1024, self.file / 1024


def _pos(text: str, idx: int) -> lsp.Position:
    line = text.count("\n", 0, idx)
    return lsp.Position(line=line, character=idx - (text.rfind("\n", 0, idx) + 1))


def _edit(text: str) -> str:
    """The view with one line changed: the first symbol name renamed."""
    m = re.search(r'sym_name = "([^"]*)"', text)
    if m is None:
        raise SystemExit("no symbol to rename in the view")
    return text[:m.end(1)] + "_edited" + text[m.end(1):]


async def server_row(path: Path, elide: int) -> Row:
    row = Row(path.name, path.stat().st_size, "mlirbc-lsp")
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO / "server") + os.pathsep + env.get("PYTHONPATH", "")
    client = LanguageClient("weights-bench", "1")
    await client.start_io(sys.executable, "-m", "mlirbc.lsp", env=env)
    assert client._server is not None
    sampler = Sampler(client._server.pid)
    await client.initialize_async(lsp.InitializeParams(
        capabilities=lsp.ClientCapabilities(),
        initialization_options={"view": {"elideLargerThan": elide},
                                "limits": {"decodeTimeoutSeconds": 3600}}))
    client.initialized(lsp.InitializedParams())
    uri = "mlirbc://" + path.as_posix()
    t0 = time.perf_counter()
    res = await client.protocol.send_request_async("mlir/convertFromBytecode", {"uri": path.as_uri()})
    text: str = res.output
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
        uri=uri, language_id="mlir", version=1, text=text)))
    at = text.find("mlirbc.elided")
    if at < 0:
        at = text.find('"', text.find("\n") + 1) + 1
    hover = await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=_pos(text, at)))
    row.open_s = time.perf_counter() - t0
    row.view = len(text)
    if hover is None:
        row.note = "no hover"
    t0 = time.perf_counter()
    await client.protocol.send_request_async("mlirbc/save", {"uri": uri})
    row.save_s = time.perf_counter() - t0
    edited = _edit(text)
    t0 = time.perf_counter()
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=edited)]))
    await client.protocol.send_request_async("mlirbc/save", {"uri": uri})
    row.edit_s = time.perf_counter() - t0
    row.anon_mb, row.file_mb = sampler.stop()
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()  # type: ignore[no-untyped-call]
    return row


def _run(cmd: list[str], env: dict[str, str]) -> tuple[float, float, float, int]:
    """(seconds, peak RssAnon MB, peak RssFile MB, exit status) of a subprocess, sampled from /proc
    (ru_maxrss would count the pages a fork shares with this process)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    sampler = Sampler(p.pid)
    p.wait()
    elapsed = time.perf_counter() - t0
    anon, file = sampler.stop()
    return elapsed, anon, file, p.returncode


def mlir_opt_row(path: Path, work: Path) -> Row:
    row = Row(path.name, path.stat().st_size, "mlir-opt")
    tool = mlir_opt()
    if tool is None:
        row.note = "mlir-opt not installed"
        return row
    exe, env = tool
    view = work / (path.stem + ".upstream.mlir")
    flags = ["--allow-unregistered-dialect", "--mlir-print-op-generic"]
    row.open_s, anon, file, rc = _run([exe, str(path), *flags, "-o", str(view)], env)
    if rc != 0:
        row.note = f"print failed ({rc})"
        return row
    row.view = view.stat().st_size
    out = work / (path.stem + ".upstream.mlirbc")
    row.save_s, anon2, file2, _ = _run([exe, str(path), "--allow-unregistered-dialect", "--emit-bytecode",
                                        "-o", str(out)], env)
    edited = work / (path.stem + ".edited.mlir")
    with open(view) as src, open(edited, "w") as dst:
        first = True
        for line in src:  # a streamed one-line edit (the view may be gigabytes)
            if first and "sym_name" in line:
                line = re.sub(r'sym_name = "([^"]*)"', r'sym_name = "\1_edited"', line, count=1)
                first = False
            dst.write(line)
    row.edit_s, anon3, file3, rc = _run([exe, str(edited), "--allow-unregistered-dialect", "--emit-bytecode",
                                         "-o", str(out)], env)
    if rc != 0:
        row.note = f"edited view refused ({rc})"
    row.anon_mb, row.file_mb = max(anon, anon2, anon3), max(file, file2, file3)
    for p in (view, out, edited):
        p.unlink(missing_ok=True)
    return row


async def lsp_server_row(path: Path) -> Row:
    row = Row(path.name, path.stat().st_size, "mlir-lsp-server")
    tool = mlir_opt()
    if tool is None:
        row.note = "not installed"
        return row
    exe = str(Path(tool[0]).with_name("mlir-lsp-server"))
    client = LanguageClient("weights-bench-upstream", "1")
    await client.start_io(exe, env=tool[1])
    assert client._server is not None
    sampler = Sampler(client._server.pid)
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.initialized(lsp.InitializedParams())
    t0 = time.perf_counter()
    try:
        res = await asyncio.wait_for(client.protocol.send_request_async(
            "mlir/convertFromBytecode", {"uri": path.as_uri()}), 600)
        row.view = len(res.output)
        row.open_s = time.perf_counter() - t0
    except Exception as exc:  # noqa: BLE001 - reported in the table
        row.note = f"convertFromBytecode failed: {str(exc)[:60]}"
    row.anon_mb, row.file_mb = sampler.stop()
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()  # type: ignore[no-untyped-call]
    return row


def jax_files(work: Path, given: str | None) -> list[Path]:
    names = ("const_64mb.mlirbc", "const_200mb.mlirbc")
    if given:
        found = [p for n in names for p in Path(given).rglob(n)]
        if found:
            return found
    if importlib.util.find_spec("jax") is None:
        print("jax is not installed: the JAX exports are skipped", file=sys.stderr)
        return []
    builder = CORPUS / "vhlo" / "build_vhlo_corpus.py"
    if not builder.is_file():
        print(f"{builder} is not there (the full shared corpus has it): the JAX exports are skipped",
              file=sys.stderr)
        return []
    out = work / "vhlo"
    subprocess.run([sys.executable, builder.name, str(out), "--only", "const_64mb,const_200mb"],
                   cwd=builder.parent, check=True, stdout=subprocess.DEVNULL)
    return [p for n in names for p in out.rglob(n)]


def cp_fsync(path: Path, work: Path) -> float:
    """Seconds to copy `path` to a new file with `shutil.copyfile` and fsync it (what a save does at
    least: mlirbc's save also fsyncs its folder)."""
    dst = work / "cp-row.mlirbc"
    t0 = time.perf_counter()
    shutil.copyfile(path, dst)
    with open(dst, "rb+") as f:
        os.fsync(f.fileno())
    elapsed = time.perf_counter() - t0
    dst.unlink()
    return elapsed


def _fmt(v: float | int | None, spec: str) -> str:
    return "-" if v is None else format(v, spec)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", help="folder for generated files (default: a temporary folder)")
    ap.add_argument("--sizes", default="100,1024", help="dense_resource sizes in MiB")
    ap.add_argument("--jax-dir", help="a folder holding const_64mb.mlirbc / const_200mb.mlirbc")
    ap.add_argument("--constants", type=int, default=10000)
    ap.add_argument("--elide", type=int, default=1024, help="mlirbc.view.elideLargerThan")
    ap.add_argument("--no-upstream", action="store_true")
    ap.add_argument("--no-jax", action="store_true", help="leave out the JAX exports")
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    work = Path(a.work or tempfile.mkdtemp(prefix="weights-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    sizes = [int(s) for s in a.sizes.split(",") if s]
    free = shutil.disk_usage(work).free
    need = 4 * max(sizes, default=0) * MiB
    if free < need:
        raise SystemExit(f"{work}: {free >> 30} GiB free, {need >> 30} GiB needed")
    files: list[Path] = []
    for mib in sizes:
        p = work / f"dense_resource_{mib}MiB.mlirbc"
        make_weights.dense_resource(str(p), mib * MiB)
        files.append(p)
    if not a.no_jax:
        files += jax_files(work, a.jax_dir)
    p = work / f"small_constants_{a.constants}.mlirbc"
    make_weights.small_constants(str(p), a.constants)
    files.append(p)

    rows: list[Row] = []
    for path in files:
        pristine = path.read_bytes() if path.stat().st_size < 64 * MiB else None
        rows.append(asyncio.run(server_row(path, a.elide)))
        rows[-1].cp_s = cp_fsync(path, work)
        print(f"done: mlirbc-lsp {path.name}", file=sys.stderr)
        if not a.no_upstream:
            if pristine is not None:
                path.write_bytes(pristine)
            rows.append(mlir_opt_row(path, work))
            rows.append(asyncio.run(lsp_server_row(path)))
            print(f"done: upstream {path.name}", file=sys.stderr)
    biggest = max(files, key=lambda f: f.stat().st_size)
    dst = work / "cp-target.mlirbc"
    cps: list[tuple[float, float]] = []
    for _ in range(2):  # the second copy goes over the first, as a second save does
        t0 = time.perf_counter()
        shutil.copyfile(biggest, dst)
        cp = time.perf_counter() - t0
        t0 = time.perf_counter()
        with open(dst, "rb+") as f:
            os.fsync(f.fileno())
        cps.append((cp, time.perf_counter() - t0))
    dst.unlink()
    load = os.getloadavg()[0]

    head = (f"{'file':<30} {'MB':>7} {'tool':<16} {'open s':>7} {'view chars':>12} {'anon MB':>8} "
            f"{'file MB':>8} {'save s':>7} {'edit+save s':>11} {'cp+fsync s':>10}  note")
    print(head)
    print("-" * len(head))
    for r in rows:
        print(f"{r.file:<30} {r.size / 1e6:>7.1f} {r.tool:<16} {_fmt(r.open_s, '.2f'):>7} "
              f"{_fmt(r.view, ','):>12} {_fmt(r.anon_mb, '.0f'):>8} {_fmt(r.file_mb, '.0f'):>8} "
              f"{_fmt(r.save_s, '.2f'):>7} {_fmt(r.edit_s, '.2f'):>11} {_fmt(r.cp_s, '.2f'):>10}  {r.note}")
    (cp1, sync1), (cp2, sync2) = cps
    print(f"\ncp {biggest.name} ({biggest.stat().st_size / 1e6:.0f} MB): {cp1:.2f} s + fsync {sync1:.2f} s "
          f"to a new file, {cp2:.2f} s + fsync {sync2:.2f} s over that copy (mlirbc's save fsyncs too); "
          f"load average {load:.1f} on {os.cpu_count()} cores")
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
