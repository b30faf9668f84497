"""Latency of the language server on the 112k-op corpus file: open, then hover and definition.

    PYTHONPATH=server python benchmarks/lsp_latency.py [FILE] [--repeat N]

Starts `python -m mlirbc.lsp` as a subprocess (a real client over stdio, via pygls' client), sends
`mlir/convertFromBytecode` and `didOpen` like vscode-mlir, then times hover and definition requests at
several places in the view (target: under 100 ms each) and prints a table.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

REPO = Path(__file__).resolve().parent.parent
DEFAULT = REPO.parent / "shared" / "corpus" / "large" / "synthetic_100k_ops.mlirbc"


def _pos(text: str, idx: int) -> lsp.Position:
    line = text.count("\n", 0, idx)
    return lsp.Position(line=line, character=idx - (text.rfind("\n", 0, idx) + 1))


def _targets(text: str) -> list[tuple[str, int]]:
    """A few positions spread over the text: value uses, op names, block labels, symbols."""
    out: list[tuple[str, int]] = []
    for frac in (0.1, 0.5, 0.9):
        start = int(len(text) * frac)
        eq = text.index(' = "', start)
        name = text.index('"', eq) + 2
        out.append((f"op name @{int(frac * 100)}%", name))
        use = text.index("(%", name) + 1
        out.append((f"value use @{int(frac * 100)}%", use + 1))
    for needle, what in (("^bb1", "block label"), ("@", "symbol ref")):
        idx = text.find(needle, len(text) // 3)
        if idx > 0:
            out.append((what, idx + 1))
    return out


async def run(path: Path, repeat: int) -> int:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO / "server") + os.pathsep + env.get("PYTHONPATH", "")
    client = LanguageClient("lsp-latency", "1")
    await client.start_io(sys.executable, "-m", "mlirbc.lsp", env=env)
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.initialized(lsp.InitializedParams())
    rows: list[tuple[str, float, float, str]] = []

    t0 = time.perf_counter()
    res = await client.protocol.send_request_async("mlir/convertFromBytecode",
                                                   {"uri": path.as_uri()})
    text: str = res.output
    t_convert = time.perf_counter() - t0
    uri = "mlirbc://" + path.as_posix()
    t0 = time.perf_counter()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
        uri=uri, language_id="mlir", version=1, text=text)))
    first = _targets(text)[0][1]
    await client.text_document_hover_async(lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri=uri), position=_pos(text, first)))
    t_open = time.perf_counter() - t0
    print(f"file {path.name}: {path.stat().st_size} bytes, view {len(text)} chars, "
          f"{text.count(chr(10))} lines")
    print(f"convertFromBytecode (read+decode+print):       {t_convert * 1000:.0f} ms")
    print(f"didOpen + first hover (waits for the index):  {t_open * 1000:.0f} ms\n")

    for label, idx in _targets(text):
        pos = _pos(text, idx)
        td = lsp.TextDocumentIdentifier(uri=uri)
        for method in ("hover", "definition"):
            times = []
            answer = ""
            for _ in range(repeat):
                t0 = time.perf_counter()
                if method == "hover":
                    h = await client.text_document_hover_async(lsp.HoverParams(
                        text_document=td, position=pos))
                    answer = "yes" if h is not None else "none"
                else:
                    d = await client.text_document_definition_async(lsp.DefinitionParams(
                        text_document=td, position=pos))
                    answer = f"line {d[0].range.start.line + 1}" if isinstance(d, list) and d \
                        else "none"
                times.append((time.perf_counter() - t0) * 1000)
            rows.append((f"{method} {label}", statistics.median(times), max(times), answer))

    print(f"{'request':<32} {'median ms':>10} {'max ms':>8}  answer")
    print("-" * 64)
    for name, med, mx, ans in rows:
        print(f"{name:<32} {med:>10.1f} {mx:>8.1f}  {ans}")
    worst = max(r[1] for r in rows)
    print(f"\nworst median {worst:.1f} ms (target < 100 ms): {'OK' if worst < 100 else 'SLOW'}")
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()  # type: ignore[no-untyped-call]
    return 0 if worst < 100 else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("file", nargs="?", default=str(DEFAULT))
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    return asyncio.run(run(Path(args.file), args.repeat))


if __name__ == "__main__":
    sys.exit(main())
