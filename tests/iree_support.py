"""The IREE oracle (`iree-base-compiler==3.13.0`, test extra `iree`) and the IREE corpus, for tests.

Plain helpers, no fixtures: tests call `iree_opt_path()` and skip (loudly) when it returns None.  The
wheel is the compiler that wrote the corpus' `iree/` files (`IREE_VERSION.txt` names IREE 89ece87b).
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
from pathlib import Path

from corpus import CORPUS

IREE_CORPUS = CORPUS / "iree"
IREE_FILES = sorted(IREE_CORPUS.glob("*.mlirbc"))

IREE_SKIP_REASON = (
    "ORACLE MISSING: iree-opt not found (pip install -e '.[iree]': iree-base-compiler==3.13.0); "
    "IREE oracle comparisons were NOT run")

GENERIC_FLAGS = ["--mlir-print-op-generic", "--mlir-print-debuginfo", "--mlir-print-local-scope"]

BUILD_PATH_IN_BYTES = b"src/corpus1/build_jax.py"
BUILD_PATH_IN_PRINTS = b"/tmp/corpus/build_jax.py"
"""The corpus's `NAME.generic.txt` prints were made by a build in another folder than the bytes: the ELF
blobs embedded in `hal.executable.binary`/`vm.rodata` name the source file with its build path (same
length, so only the hex of those blobs differs)."""


def _tool(name: str) -> Path | None:
    try:
        spec = importlib.util.find_spec("iree.compiler")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for base in spec.submodule_search_locations:
        p = Path(base) / "_mlir_libs" / name
        if p.is_file():
            return p
    return None


def iree_opt_path() -> Path | None:
    return _tool("iree-opt")


def iree_compile_path() -> Path | None:
    return _tool("iree-compile")


def run_iree(tool: str, args: list[str], input_bytes: bytes | None = None,
             timeout: float = 300) -> subprocess.CompletedProcess[bytes]:
    path = _tool(tool)
    if path is None:
        raise RuntimeError(IREE_SKIP_REASON)
    return subprocess.run([str(path), *args], input=input_bytes, capture_output=True, timeout=timeout,
                          check=False)


def iree_opt(args: list[str], input_bytes: bytes, timeout: float = 300) -> bytes:
    """`iree-opt ARGS -` on `input_bytes`; its stdout, or AssertionError with its stderr."""
    proc = run_iree("iree-opt", [*args, "-o", "-", "-"], input_bytes, timeout)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[:2000]
    return proc.stdout


def bytecode_version(data: bytes) -> int:
    assert data[:4] == b"ML\xefR"
    return data[4] >> 1  # versions 0-6 are one-byte varints


def generic_print(data: bytes) -> str:
    """`iree-opt --mlir-print-op-generic --mlir-print-debuginfo --mlir-print-local-scope` of a file."""
    return iree_opt(GENERIC_FLAGS, data).decode("utf-8", "surrogateescape")


def reference_print(path: Path) -> str:
    """The corpus's iree-opt print of `path` (`NAME.generic.txt`, one per module: the `.vN` files share
    their default-version file's), with the build path in embedded blobs as the bytes have it."""
    name = re.sub(r"\.v\d$", "", path.stem)
    text = (IREE_CORPUS / f"{name}.generic.txt").read_text(encoding="utf-8", errors="surrogateescape")
    return text.replace(BUILD_PATH_IN_PRINTS.hex().upper(), BUILD_PATH_IN_BYTES.hex().upper())


def without_mlirbc_lines(text: str) -> list[str]:
    """The lines of a view that iree-opt also prints: `// mlirbc:` comment lines dropped."""
    return [line for line in text.splitlines() if not line.lstrip().startswith("// mlirbc:")]


def differing_lines(ours: str, theirs: str) -> list[tuple[int, str, str]]:
    """(line number, ours, theirs) of lines that differ, both without `// mlirbc:` lines."""
    a, b = without_mlirbc_lines(ours), without_mlirbc_lines(theirs)
    out = [(i + 1, x, y) for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y]
    if len(a) != len(b):
        out.append((min(len(a), len(b)) + 1, f"<{len(a)} lines>", f"<{len(b)} lines>"))
    return out
