"""Seed inputs for the fuzz targets, taken from the corpus that runs (`corpus.py`) by a fixed rule.

Bytecode seeds: small files of every producer and format version (upstream at versions 0-6, JAX, IREE,
VHLO), chosen by a stable hash so the same checkout always gets the same seeds.  Text seeds: the views of
some of them.  Server seeds: valid JSON-RPC messages of every kind the server handles, naming seed files.
Regression inputs found by fuzzing (`tests/data/hardening/`) are seeds too.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from corpus import CORPUS, REPO

FINDINGS = REPO / "tests" / "data" / "hardening"
SCRATCH = Path(tempfile.gettempdir()) / "mlirbc-fuzz-server"
"""Where the server target's files live: copies of seed files.  The fuzzer turns the seed messages into
saves of any view to any of its paths, and the server carries them out (the long run of 074fb66 wrote a
shared corpus file), so the server is only ever shown copies (a fixed folder: kept inputs stay valid)."""


def scratch_copy(path: Path) -> Path:
    """`path`'s bytes in SCRATCH (written again each time: a save may have changed the copy)."""
    SCRATCH.mkdir(parents=True, exist_ok=True)
    copy = SCRATCH / path.name
    shutil.copyfile(path, copy)
    return copy


def _rank(path: Path) -> str:
    return hashlib.sha256(path.name.encode()).hexdigest()


@cache
def bytecode_seeds(count: int = 160, max_size: int = 3000) -> tuple[Path, ...]:
    """`count` small corpus files: a stable sample of upstream files (each version) and a few others."""
    upstream = sorted((p for p in (CORPUS / "upstream").glob("*.mlirbc") if p.stat().st_size <= max_size),
                      key=_rank)
    others = sorted((p for folder in ("jax", "iree", "vhlo")
                     for p in (CORPUS / folder).glob("*.mlirbc") if p.stat().st_size <= 4 * max_size),
                    key=_rank)
    n_others = min(len(others), max(4, count // 10))
    picked = upstream[:count - n_others] + others[:n_others]
    findings = sorted(FINDINGS.glob("*.mlirbc")) if FINDINGS.is_dir() else []
    return tuple(picked + findings)


@cache
def text_seeds(count: int = 60, max_chars: int = 1500) -> tuple[str, ...]:
    """Views of small seed files, generic and pretty (the fuzzer's text inputs stay small: the huge cases,
    50 MB strings and 100,000-deep nesting, are regression tests of their own)."""
    from mlirbc.bytecode.reader import read_bytecode
    from mlirbc.view.aliasing import alias_rules
    from mlirbc.view.printer import print_module

    out: list[str] = []
    for p in bytecode_seeds():
        m = read_bytecode(p.read_bytes())
        if m.error is None and not m.fallbacks:
            # the generic view, and the pretty view (custom forms) with and without aliases
            for text in (print_module(m).text, print_module(m, form="pretty").text,
                         print_module(m, form="pretty", aliases=alias_rules(m)).text):
                if len(text) <= max_chars:
                    out.append(text)
        if len(out) >= count:
            break
    out.extend(dialect_view_seeds())
    if FINDINGS.is_dir():
        # (the big ones, a 30,000-digit literal or 600 nested regions, are regression tests enough)
        out.extend(p.read_bytes().decode("utf-8", "surrogatepass") for p in sorted(FINDINGS.glob("*.mlir"))
                   if p.stat().st_size <= 8 * max_chars)
    return tuple(out)


DIALECT_VIEW_SEEDS = ("synth_quant_types.v1_17_0", "ffi_custom_call", "sharded_mlp")
"""StableHLO artifacts whose views are text seeds whole (their dialect syntaxes, VHLO's and Shardy's, hold
numbers of many C++ types: quantized dimensions, flags, priorities, mesh sizes)."""


@cache
def dialect_view_seeds() -> tuple[str, ...]:
    """The views of a few StableHLO portable artifacts (longer than the other text seeds): as stored (VHLO,
    generic) and as StableHLO (the dialect-level view in custom forms, aliased and with local scope)."""
    from mlirbc.bytecode.reader import read_bytecode
    from mlirbc.models.build import default_registry
    from mlirbc.view.aliasing import alias_rules
    from mlirbc.view.forms import print_form, shown
    from mlirbc.view.printer import print_module

    reg = default_registry()
    out: list[str] = []
    for name in DIALECT_VIEW_SEEDS:
        path = CORPUS / "vhlo" / f"{name}.mlirbc"
        if path.is_file():
            m = read_bytecode(path.read_bytes())
            if m.error is None:
                out.append(print_module(m).text)
                view = shown(m, reg, "auto")
                for aliases in (False, True):
                    rules = alias_rules(view.module, reg) if aliases else None
                    out.append(print_module(view.module, form=print_form("auto", view), registry=reg,
                                            aliases=rules).text)
    return tuple(out)


@cache
def home_views(count: int = 3, max_chars: int = 6000) -> tuple[tuple[str, str], ...]:
    """(view URI, text) of a few seed files with functions: the views the server target keeps open (see
    `targets.ServerHarness`), so that requests and edits reach real source maps and in-place re-reads."""
    from mlirbc.bytecode.reader import read_bytecode
    from mlirbc.view.printer import print_module

    out: list[tuple[str, str]] = []
    for p in bytecode_seeds()[6:]:  # (the first six are opened and closed by server_seeds' messages)
        m = read_bytecode(p.read_bytes())
        if m.error is not None or m.fallbacks:
            continue
        text = print_module(m).text
        if 400 <= len(text) <= max_chars and '"func.func"' in text and "%" in text:
            out.append(("mlirbc://" + scratch_copy(p).as_posix(), text))
        if len(out) >= count:
            break
    return tuple(out)


def _positions(text: str) -> list[dict[str, int]]:
    """Positions of things a user points at in a view: op names, values, blocks, locations, types."""
    lines = text.split("\n")
    out: list[dict[str, int]] = []
    for needle in ('"func.func"', "%", "^bb", "loc(", "i32", "->", "sym_name", "}"):
        for i, line in enumerate(lines):
            col = line.find(needle)
            if col >= 0:
                out.append({"line": i, "character": col + 1})
                break
    return out


def server_seeds() -> list[bytes]:
    """One message body per kind of request and notification the server handles, on the files of a few
    seeds, and requests at real positions of the views the server target keeps open."""
    files = [scratch_copy(p) for p in bytecode_seeds()[:6]]
    msgs: list[dict[str, Any]] = []
    n = 0

    def req(method: str, params: Any) -> None:
        nonlocal n
        n += 1
        msgs.append({"jsonrpc": "2.0", "id": n, "method": method, "params": params})

    def note(method: str, params: Any) -> None:
        msgs.append({"jsonrpc": "2.0", "method": method, "params": params})

    req("initialize", {"processId": None, "rootUri": None, "capabilities": {},
                       "initializationOptions": {"limits": {"maxFileMB": 1}}})
    for p in files:
        uri = p.as_uri()
        view = "mlirbc://" + p.as_posix()
        req("mlir/convertFromBytecode", {"uri": uri})
        req("mlirbc/info", {"uri": uri})
        req("mlir/convertToBytecode", {"uri": view})
        note("textDocument/didOpen", {"textDocument": {"uri": view, "languageId": "mlir", "version": 1,
                                                       "text": "\"builtin.module\"() ({\n}) : () -> ()\n"}})
        pos = {"line": 1, "character": 3}
        td = {"uri": view}
        req("textDocument/hover", {"textDocument": td, "position": pos})
        req("textDocument/definition", {"textDocument": td, "position": pos})
        req("textDocument/references", {"textDocument": td, "position": pos,
                                        "context": {"includeDeclaration": True}})
        req("textDocument/documentSymbol", {"textDocument": td})
        req("textDocument/foldingRange", {"textDocument": td})
        req("textDocument/semanticTokens/full", {"textDocument": td})
        req("textDocument/semanticTokens/range", {"textDocument": td, "range": {"start": pos, "end": pos}})
        req("textDocument/inlayHint", {"textDocument": td, "range": {"start": pos, "end": pos}})
        req("textDocument/completion", {"textDocument": td, "position": pos})
        req("textDocument/documentHighlight", {"textDocument": td, "position": pos})
        # (a relative path: next to the scratch copy)
        req("mlirbc/save", {"uri": view, "path": "saved-copy.mlirbc", "overwriteReadOnly": True})
        note("textDocument/didChange", {"textDocument": {"uri": view, "version": 2},
                                        "contentChanges": [{"range": {"start": pos, "end": pos},
                                                            "text": "x"}]})
        req("mlirbc/save", {"uri": view, "path": "/nonexistent-dir/out.mlirbc"})
        note("textDocument/didClose", {"textDocument": td})
    for uri, text in home_views():
        td = {"uri": uri}
        positions = _positions(text)
        for pos in positions:
            for method in ("textDocument/hover", "textDocument/definition", "textDocument/documentHighlight",
                           "textDocument/completion"):
                req(method, {"textDocument": td, "position": pos})
            req("textDocument/references", {"textDocument": td, "position": pos,
                                            "context": {"includeDeclaration": False}})
        last = {"line": text.count("\n"), "character": 0}
        whole = {"start": {"line": 0, "character": 0}, "end": last}
        req("textDocument/semanticTokens/range", {"textDocument": td, "range": whole})
        req("textDocument/inlayHint", {"textDocument": td, "range": whole})
        req("textDocument/documentSymbol", {"textDocument": td})
        req("textDocument/foldingRange", {"textDocument": td})
        req("mlir/convertToBytecode", {"uri": uri})
        # edits inside a function (re-read in place by the server): indentation, a new op, then damage
        body = [i for i, line in enumerate(text.split("\n")) if line.startswith("    %")][:3]
        edits = [("  ", 0), ('"t.op"() : () -> () loc(unknown)\n    ', 0), ("x", 2), ("", 3), ("}", 0)]
        for k, (new, length) in enumerate(edits):
            line = body[k % len(body)] if body else 1
            start = {"line": line, "character": 4}
            end = {"line": line, "character": 4 + length}
            note("textDocument/didChange", {"textDocument": {"uri": uri, "version": 10 + k},
                                            "contentChanges": [{"range": {"start": start, "end": end},
                                                                "text": new}]})
            req("textDocument/hover", {"textDocument": td, "position": start})
    note("workspace/didChangeConfiguration", {"settings": {"mlirbc": {"limits": {"maxFileMB": 1}}}})
    note("$/cancelRequest", {"id": 5})
    req("completionItem/resolve", {"label": "arith.addi"})
    req("mlirbc/unknownMethod", {"x": 1})
    return [json.dumps(m).encode() for m in msgs]
