"""Oracle prints kept between test runs (tests only): a print of a file by `mlir-opt` or `iree-opt` with
given flags, stored under the system's temporary folder keyed by the tool, the flags and the file's bytes,
so that a rerun (or another xdist worker) does not start the tool again.  A changed file, tool or flag
list is another key; the cache is only ever a copy of what the tool printed."""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

CACHE = Path(os.environ.get("MLIRBC_ORACLE_CACHE", Path(tempfile.gettempdir()) / "mlirbc-oracle-cache"))


def cached_print(tool: Path, flags: list[str], data: bytes, run: Callable[[bytes], bytes]) -> str:
    """What `run(data)` (the tool at `tool` with `flags`) prints for `data`, from the cache if there."""
    key = hashlib.sha256()
    st = tool.stat()
    key.update(f"{tool}\0{st.st_size}\0{st.st_mtime_ns}\0{' '.join(flags)}\0".encode())
    key.update(data)
    path = CACHE / key.hexdigest()
    try:
        return path.read_bytes().decode("utf-8", "surrogateescape")
    except OSError:
        pass
    out = run(data)
    CACHE.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_bytes(out)
    os.replace(tmp, path)
    return out.decode("utf-8", "surrogateescape")
