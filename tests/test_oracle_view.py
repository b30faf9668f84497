"""The text view against upstream mlir-opt 22.1.8 (the oracle).

* mlir-opt reads the view of every valid corpus file;
* where mlir-opt's own generic print reproduces a file (MANIFEST `generic_roundtrip` = yes) and every op was
  decoded by a model, mlir-opt re-encoding our view reproduces the file byte for byte.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from corpus import CORPUS, manifest
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.template import template_of
from mlirbc.models.build import models
from mlirbc.view.printer import print_module
from oracle import SKIP_REASON, mlir_opt_path, run_mlir_opt

pytestmark = pytest.mark.skipif(mlir_opt_path() is None, reason=SKIP_REASON)

ROWS = manifest()


def _view(path: str) -> tuple[bytes, bytes, bool]:
    data = (CORPUS / path).read_bytes()
    # IREE files: with IREE's models their view is for iree-opt (a `#hal...` memory space, which mlir-opt 22
    # rejects; checked in test_iree_corpus.py); without them, mlir-opt 22 reads the fallback form.
    m = decode_bytecode(data, models(entry_points=False) if path.startswith("iree/") else None)
    assert m.error is None, f"{path}: {m.error}"
    return data, print_module(m).text.encode("utf-8", "surrogateescape"), not template_of(m).fallbacks


def _folder(row: dict[str, str]) -> str:
    return row["path"].split("/")[0]


PARSE_ONLY = ["--allow-unregistered-dialect", "--mlir-very-unsafe-disable-verifier-on-parsing",
              "-o", "/dev/null"]


@pytest.mark.parametrize("folder", sorted({_folder(r) for r in ROWS}))
def test_mlir_opt_reads_every_view(folder: str) -> None:
    rows = [r for r in ROWS if _folder(r) == folder]
    views = [(r["path"], _view(r["path"])[1]) for r in rows]
    failures: list[str] = []
    # One mlir-opt run per batch of views (split input); a failing batch is re-run file by file.
    for i in range(0, len(views), 200):
        batch = views[i:i + 200]
        proc = run_mlir_opt(["--split-input-file", *PARSE_ONLY],
                            b"\n// -----\n".join(text for _, text in batch))
        if proc.returncode == 0:
            continue
        for path, text in batch:
            one = run_mlir_opt(PARSE_ONLY, text)
            if one.returncode != 0:
                failures.append(f"{path}: {one.stderr.decode(errors='replace')[:300]}")
    assert not failures, f"{len(failures)} of {len(rows)} views rejected:\n" + "\n".join(failures[:10])


ROUNDTRIP = [r for r in ROWS if r["generic_roundtrip"] == "yes" and _folder(r) == "upstream"]


def test_mlir_opt_reencodes_views_byte_for_byte() -> None:
    def check(row: dict[str, str]) -> tuple[str, str | None]:
        data, text, complete = _view(row["path"])
        if not complete:
            return "incomplete", None
        v = row["bytecode_version"]
        proc = run_mlir_opt(["--allow-unregistered-dialect", "--emit-bytecode",
                             f"--emit-bytecode-version={v}", "-o", "-"], text)
        if proc.returncode != 0:
            return "rejected", f"{row['path']}: {proc.stderr.decode(errors='replace')[:300]}"
        if proc.stdout != data:
            n = next((i for i, (a, b) in enumerate(zip(proc.stdout, data, strict=False)) if a != b),
                     min(len(proc.stdout), len(data)))
            return "differs", f"{row['path']}: first difference at byte {n}"
        return "identical", None

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(check, ROUNDTRIP))
    identical = sum(1 for k, _ in results if k == "identical")
    incomplete = sum(1 for k, _ in results if k == "incomplete")
    failures = [msg for k, msg in results if msg]
    print(f"\n{identical} identical, {incomplete} with fallbacks (not compared), "
          f"{len(failures)} failing of {len(results)}")
    assert identical > 0
    assert not failures, "\n".join(failures[:15])


def test_fresh_encoding_equals_mlir_opt_where_its_print_does_not_round_trip() -> None:
    """Where mlir-opt's own print does not reproduce the file (external resources, resource printing), our
    fresh encoding of the view must still equal what mlir-opt writes for that same view."""
    from mlirbc.bytecode.writer import encode_bytecode
    from mlirbc.view.parser import parse_module

    rows = [r for r in ROWS if r["generic_roundtrip"] == "no" and _folder(r) == "upstream"]
    compared = 0
    failures = []
    for row in rows:
        m = decode_bytecode((CORPUS / row["path"]).read_bytes())
        if template_of(m).fallbacks or m.error is not None:
            continue
        text = print_module(m).text
        result = parse_module(text)
        assert result.module is not None, row["path"]
        ours = encode_bytecode(result.module, template=None)
        v = row["bytecode_version"]
        proc = run_mlir_opt(["--allow-unregistered-dialect", "--emit-bytecode",
                             f"--emit-bytecode-version={v}", "-o", "-"],
                            text.encode("utf-8", "surrogateescape"))
        if proc.returncode != 0:
            failures.append(f"{row['path']}: mlir-opt rejected the view: {proc.stderr[:200]!r}")
            continue
        compared += 1
        if proc.stdout != ours:
            n = next((i for i, (a, b) in enumerate(zip(proc.stdout, ours, strict=False)) if a != b),
                     min(len(proc.stdout), len(ours)))
            failures.append(f"{row['path']}: differs from mlir-opt at byte {n}")
    print(f"\n{compared - len(failures)} of {compared} equal to mlir-opt's encoding of the same view")
    assert compared > 0
    assert not failures, "\n".join(failures[:20])
