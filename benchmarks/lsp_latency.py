"""Latency and memory of the language server next to upstream `mlir-lsp-server`, in one run.

    python benchmarks/lsp_latency.py [--large FILE] [--small FILE] [--repeat N] [--skip-upstream]
                                     [--form generic --form pretty]

Each server is started as a subprocess and driven over stdio the way vscode-mlir drives it:
`mlir/convertFromBytecode`, `didOpen` of the view, then, with incremental changes and again with whole
documents (full-text sync):

* keystroke: one character typed into an SSA use in a function (`%12` -> `%q12`, now undefined) until the
  error diagnostic is published, and its undo until the error is gone;
* save after a one-line edit: a comment line added inside a function, then `mlir/convertToBytecode`,
  once at once after the open (what the server readies in the background after an open is then still
  to do) and once after the keystrokes, which come `--settle` seconds later (a user reads first);
* unchanged save: the comment removed again, then `mlir/convertToBytecode`;
* hover on a value use (median of --repeat), and the server's peak RSS (VmHWM) at the end.

An edit's message is made before its clock starts (an editor holds the change and its position when the
user types); sending it, the server's work and the published diagnostics are timed.

Both servers run with their default settings (mlirbc checks at once after an edit when the view's last
check was cheap, and debounces by `diagnostics.debounceMs` otherwise).  Times are wall-clock on whatever
machine runs this; the table says nothing about noise.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from common import CORPUS, REPO, large_file, mlir_lsp_server
from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

SMALL = CORPUS / "upstream" / "Dialect__Arith__ops.mlirbc"
TIMEOUT = 600.0
SETTLE_S = 3.0


@dataclass
class Server:
    name: str
    command: list[str]
    env: dict[str, str]
    options: dict[str, Any] = field(default_factory=dict)
    undefined: str = "undefined"
    """What its message for an undefined SSA use contains."""


class Session:
    """One server process and the diagnostics it publishes."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.client = LanguageClient("lsp-latency", "1")
        self.diags: dict[str, list[lsp.Diagnostic]] = {}
        self.changed = asyncio.Event()
        self.incremental = False
        """Whether the server takes incremental changes (`mlir-lsp-server` takes whole documents)."""

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def publish(params: lsp.PublishDiagnosticsParams) -> None:
            self.diags[params.uri] = list(params.diagnostics)
            self.changed.set()

    async def start(self) -> None:
        await self.client.start_io(*self.server.command, env=self.server.env)
        result = await self.client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), initialization_options=self.server.options))
        sync = result.capabilities.text_document_sync
        kind = sync.change if isinstance(sync, lsp.TextDocumentSyncOptions) else sync
        self.incremental = kind == lsp.TextDocumentSyncKind.Incremental
        self.client.initialized(lsp.InitializedParams())

    @property
    def pid(self) -> int:
        proc = self.client._server  # the subprocess pygls started
        assert proc is not None
        return proc.pid

    def peak_rss_mb(self) -> float:
        try:
            with open(f"/proc/{self.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            pass
        return float("nan")

    async def request(self, method: str, params: dict[str, Any]) -> Any:
        return await asyncio.wait_for(self.client.protocol.send_request_async(method, params),
                                      TIMEOUT)

    async def wait(self, uri: str, ok: Callable[[list[lsp.Diagnostic]], bool]) -> None:
        while True:
            if uri in self.diags and ok(self.diags[uri]):
                return
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), TIMEOUT)

    async def stop(self) -> None:
        try:
            await asyncio.wait_for(self.client.shutdown_async(None), 30)
            self.client.exit(None)
        except Exception:
            pass
        await self.client.stop()  # type: ignore[no-untyped-call]


VERBOSE = False


def note(message: str) -> None:
    if VERBOSE:
        print(f"      {time.strftime('%H:%M:%S')} {message}", file=sys.stderr, flush=True)


def _pos(text: str, idx: int) -> lsp.Position:
    line = text.count("\n", 0, idx)
    return lsp.Position(line=line, character=idx - (text.rfind("\n", 0, idx) + 1))


def _errors(ds: list[lsp.Diagnostic]) -> list[lsp.Diagnostic]:
    return [d for d in ds if d.severity == lsp.DiagnosticSeverity.Error]


class Driver:
    """Sends edits to one open view, as ranged changes or as whole documents."""

    def __init__(self, s: Session, uri: str, text: str, incremental: bool) -> None:
        self.s, self.uri, self.text, self.incremental = s, uri, text, incremental
        self.version = 1

    def change(self, start: int, end: int, new: str) -> tuple[Any, str]:
        """The didChange params for one edit and the text after it, made before the clock starts (an
        editor has both at hand when the user types: only sending and the server's work are timed)."""
        self.version += 1
        after = "".join((self.text[:start], new, self.text[end:]))
        if self.incremental:
            change: Any = lsp.TextDocumentContentChangePartial(
                range=lsp.Range(start=_pos(self.text, start), end=_pos(self.text, end)), text=new)
        else:
            change = lsp.TextDocumentContentChangeWholeDocument(text=after)
        return lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=self.uri, version=self.version),
            content_changes=[change]), after

    def send(self, params: Any, after: str) -> None:
        self.s.client.text_document_did_change(params)
        self.text = after

    def edit(self, start: int, end: int, new: str) -> None:
        self.send(*self.change(start, end, new))


class Unsupported(Exception):
    pass


async def open_view(s: Session, path: Path, out: dict[str, float]) -> tuple[str, str]:
    """Open `path` as vscode-mlir does: `mlir/convertFromBytecode`, then `didOpen` of its view until the
    first diagnostics (both times into `out`).  Returns the view's uri and text."""
    t0 = time.perf_counter()
    res = await s.request("mlir/convertFromBytecode", {"uri": path.as_uri()})
    text: str = res.output if hasattr(res, "output") else res["output"]
    note("open: convertFromBytecode")
    out["open: convertFromBytecode"] = time.perf_counter() - t0
    uri = "mlir.bytecode-mlir://" + path.as_posix()
    t0 = time.perf_counter()
    s.client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=uri, language_id="mlir", version=1, text=text)))
    await s.wait(uri, lambda ds: True)
    note("didOpen -> first diagnostics")
    out["didOpen -> first diagnostics"] = time.perf_counter() - t0
    return uri, text


def value_use(text: str) -> int:
    """Where a use of a value in a function some way into the view starts, just after its '%' (upstream
    prints the custom form, its location aliases first: the use 60% of the way through all uses)."""
    uses = list(re.compile(r"[(, ]%([0-9]+)\b(?! =)(?!:)").finditer(text))
    assert uses, "no value use found"
    return uses[int(len(uses) * 0.6)].start(1)


async def keystroke(d: Driver, use: int) -> tuple[float, float]:
    """One character typed into the value use at `use` (`%12` -> `%q12`, now undefined) until its error
    is published, then its undo until the error is gone: the seconds of each."""
    s = d.s
    change = d.change(use, use, "q")
    t0 = time.perf_counter()
    d.send(*change)
    await s.wait(d.uri, lambda ds: any(s.server.undefined in e.message for e in _errors(ds)))
    note("keystroke -> error published")
    typed = time.perf_counter() - t0
    change = d.change(use, use + 1, "")
    t0 = time.perf_counter()
    d.send(*change)
    await s.wait(d.uri, lambda ds: not _errors(ds))
    note("undo -> error cleared")
    return typed, time.perf_counter() - t0


async def keystrokes(server: Server, path: Path, incremental: bool, runs: int,
                     settle: float = SETTLE_S) -> list[tuple[float, float]]:
    """`keystroke` `runs` times in one session on `path`'s view, `settle` seconds after the open (a user
    reads first): [(keystroke to error published, undo to error cleared)] in seconds."""
    s = Session(server)
    await s.start()
    try:
        if incremental and not s.incremental:
            raise Unsupported(f"{server.name} takes whole documents only (TextDocumentSyncKind.Full)")
        uri, text = await open_view(s, path, {})
        d = Driver(s, uri, text, incremental)
        use = value_use(text)
        await asyncio.sleep(settle)
        return [await keystroke(d, use) for _ in range(runs)]
    finally:
        await s.stop()


async def measure(server: Server, path: Path, incremental: bool, repeat: int) -> dict[str, float]:
    s = Session(server)
    await s.start()
    out: dict[str, float] = {}
    try:
        if incremental and not s.incremental:
            raise Unsupported(f"{server.name} takes whole documents only (TextDocumentSyncKind.Full)")
        uri, text = await open_view(s, path, out)
        use = value_use(text)
        pos = _pos(text, use)
        times = []
        answered = True
        for _ in range(repeat):
            t0 = time.perf_counter()
            h = await asyncio.wait_for(s.client.text_document_hover_async(lsp.HoverParams(
                text_document=lsp.TextDocumentIdentifier(uri=uri), position=pos)), TIMEOUT)
            times.append(time.perf_counter() - t0)
            answered = answered and h is not None
        note("hover on a value use (median)")
        out["hover on a value use (median)"] = statistics.median(times)
        if not answered:
            print(f"    {server.name}: hover gave no answer", file=sys.stderr)
        d = Driver(s, uri, text, incremental)
        line = text.rfind("\n", 0, use) + 1
        comment = "    // a comment line\n"
        # A save at once after the open pays for what the server readies in the background meanwhile
        # (mlirbc: the first save's tables); then the user reads a while (--settle) before typing.
        d.edit(line, line, comment)
        t0 = time.perf_counter()
        await s.request("mlir/convertToBytecode", {"uri": uri})
        note("one-line edit, then save, right after the open")
        out["one-line edit, then save, right after the open"] = time.perf_counter() - t0
        d.edit(line, line + len(comment), "")
        await s.wait(uri, lambda ds: not _errors(ds))
        await asyncio.sleep(SETTLE_S)
        out["keystroke -> error published"], out["undo -> error cleared"] = await keystroke(d, use)
        d.edit(line, line, comment)
        t0 = time.perf_counter()
        res = await s.request("mlir/convertToBytecode", {"uri": uri})
        note("one-line edit, then save")
        out["one-line edit, then save"] = time.perf_counter() - t0
        d.edit(line, line + len(comment), "")
        t0 = time.perf_counter()
        res = await s.request("mlir/convertToBytecode", {"uri": uri})
        note("unchanged save")
        out["unchanged save"] = time.perf_counter() - t0
        import base64

        data = base64.b64decode(res.output if hasattr(res, "output") else res["output"])
        out["unchanged save: identical bytes"] = float(data == path.read_bytes())
        out["peak RSS (MB)"] = s.peak_rss_mb()
    finally:
        await s.stop()
    return out


def servers(debounce_ms: float | None, skip_upstream: bool, forms: tuple[str, ...] = ("auto",)
            ) -> list[Server]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO / "server") + os.pathsep + env.get("PYTHONPATH", "")
    out = []
    for form in forms:
        options: dict[str, Any] = {"limits": {"decodeTimeoutSeconds": 3600}, "view": {"form": form}}
        if debounce_ms is not None:
            options["diagnostics"] = {"debounceMs": debounce_ms}
        name = "mlirbc" if form == "auto" else f"mlirbc ({form})"
        out.append(Server(name, [sys.executable, "-m", "mlirbc.lsp"], env, options))
    upstream = mlir_lsp_server()
    if upstream is not None and not skip_upstream:
        exe, uenv = upstream
        out.append(Server("mlir-lsp-server", [exe], uenv, undefined="undeclared"))
    return out


def _fmt(key: str, v: float | None) -> str:
    if v is None:
        return "—"
    if key.startswith("peak"):
        return f"{v:.0f} MB"
    if "identical" in key:
        return "yes" if v else "no"
    return f"{v * 1000:.0f} ms" if v < 10 else f"{v:.1f} s"


async def run(large: Path, small: Path, repeat: int, skip_upstream: bool,
              forms: tuple[str, ...] = ("auto",)) -> int:
    results: dict[tuple[str, str], dict[str, float]] = {}
    for label, path, debounce in (("large", large, None), ("small", small, None)):
        for sync in (("incremental", True), ("full text", False)):
            for server in servers(debounce, skip_upstream, forms):
                print(f"... {server.name}, {label} file, {sync[0]} sync", file=sys.stderr, flush=True)
                try:
                    results[(server.name, f"{label}/{sync[0]}")] = await measure(
                        server, path, sync[1], repeat)
                except Unsupported as exc:
                    print(f"    {exc}", file=sys.stderr)
                    results[(server.name, f"{label}/{sync[0]}")] = {}
                except Exception as exc:  # a server that cannot do a step: say so in the table
                    print(f"    failed: {type(exc).__name__}: {exc}", file=sys.stderr)
                    results[(server.name, f"{label}/{sync[0]}")] = {}
    names = sorted({n for n, _ in results}, key=lambda n: (not n.startswith("mlirbc"), n))
    runs = sorted({r for _, r in results}, key=lambda r: (not r.startswith("large"), r))
    print(f"large: {large.name} ({large.stat().st_size} bytes); small: {small.name}")
    print("default settings; mlir-lsp-server takes whole documents only (— in the incremental rows)\n")
    keys: list[str] = []
    for r in results.values():
        keys += [k for k in r if k not in keys]
    header = "| step | sync | " + " | ".join(names) + " |"
    print(header)
    print("|" + "---|" * (2 + len(names)))
    for run_name in runs:
        for key in keys:
            cells = [_fmt(key, results.get((n, run_name), {}).get(key)) for n in names]
            print(f"| {key} | {run_name} | " + " | ".join(cells) + " |")
    return 0


def main() -> int:
    global VERBOSE, SETTLE_S
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--large", help="default: the 112k-op file")
    ap.add_argument("--small", default=str(SMALL))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--skip-upstream", action="store_true")
    ap.add_argument("--settle", type=float, default=SETTLE_S,
                    help="seconds between the first save and the keystrokes (a user reading)")
    ap.add_argument("--verbose", action="store_true", help="say each step as it ends")
    ap.add_argument("--form", action="append", choices=("auto", "generic", "pretty"),
                    help="the view form of mlirbc's server (repeatable: one column each; default auto)")
    args = ap.parse_args()
    VERBOSE = args.verbose
    SETTLE_S = args.settle
    large = Path(args.large) if args.large else large_file()
    forms = tuple(args.form) if args.form else ("auto",)
    return asyncio.run(run(large, Path(args.small), args.repeat, args.skip_upstream, forms))


if __name__ == "__main__":
    sys.exit(main())
