"""The oracles' pretty prints of corpus files, and what they are compared with (tests only).

`mlir-opt` (upstream files) and `iree-opt` (IREE files) print each default-version corpus file with
`--mlir-print-debuginfo`, with or without `--mlir-print-local-scope`; one process per file costs about
0.2 s, so prints are kept by `oracle_cache` (keyed by the file's bytes, the flags and the tool) and made
two at a time.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from corpus import CORPUS
from iree_support import iree_opt_path, run_iree
from oracle import mlir_opt_path, run_mlir_opt
from oracle_cache import cached_print

LOCAL = ["--mlir-print-debuginfo", "--mlir-print-local-scope"]
ALIASED = ["--mlir-print-debuginfo"]
_REFUSED = b"\0failed"
"""What the cache keeps for a file the oracle refuses."""


def default_version_files(folder: str) -> list[Path]:
    return sorted(p for p in (CORPUS / folder).glob("*.mlirbc") if not re.search(r"\.v\d\.mlirbc$", p.name))


def oracle_print(path: Path, flags: list[str]) -> str | None:
    """The oracle's print of a corpus file (None: it refused the file)."""
    iree = path.parent.name == "iree"

    def run(data: bytes) -> bytes:
        if iree:
            proc = run_iree("iree-opt", [*flags, str(path)])
        else:
            proc = run_mlir_opt(["--allow-unregistered-dialect", *flags, str(path)], b"")
        return proc.stdout if proc.returncode == 0 else _REFUSED

    tool = iree_opt_path() if iree else mlir_opt_path()
    assert tool is not None
    text = cached_print(Path(tool), flags, path.read_bytes(), run)
    return None if text == _REFUSED.decode() else text


def oracle_prints(paths: list[Path], flags: list[str]) -> dict[Path, str | None]:
    with ThreadPoolExecutor(2) as pool:
        return dict(zip(paths, pool.map(lambda p: oracle_print(p, flags), paths), strict=True))


def view_lines(text: str) -> str:
    """A view without its own `// mlirbc:` lines and without the resource trailer the oracle does not
    print (external resources mlir-opt drops), for comparison with the oracle's print."""
    out = [line for line in text.split("\n") if not line.lstrip().startswith("// mlirbc:")]
    return "\n".join(out).rstrip("\n")


def first_difference(ours: str, theirs: str) -> tuple[int, str, str] | None:
    a, b = ours.rstrip("\n").split("\n"), theirs.rstrip("\n").split("\n")
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i + 1, x, y
    if len(a) != len(b):
        n = min(len(a), len(b))
        return n + 1, a[n] if n < len(a) else "<end>", b[n] if n < len(b) else "<end>"
    return None
