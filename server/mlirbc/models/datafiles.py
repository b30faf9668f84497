"""Reading the generated data files of ops (`data/`, `asm/data/`, ...): gzip'd JSON whose ops are decoded
one by one, when first asked for.

The generators (`server/tools/gen_ods_models.py`, `json_text`) write a file of ops as one JSON document
with the other keys on its first line, ending `"ops":{`, and then one op per line.  A view of a few ops
then decodes a few lines, not the dialect's whole file (the StableHLO dialect's two files took about 1 ms
of a first open of 4-9 ms).  A file in any other layout (hand-made data, an older generator) is read
whole, as before.
"""

from __future__ import annotations

import gzip
import json
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

_OPS_START = '"ops":{\n'
_OPS_END = "\n}}"
_DECODER = json.JSONDecoder()


class LazyOps(Mapping[str, Any]):
    """op name -> its data, each op's JSON decoded on first access (thread-safe: a race decodes twice)."""

    def __init__(self, raw: dict[str, str]) -> None:
        self._raw = raw
        self._done: dict[str, Any] = {}
        self._lock = threading.Lock()

    def __getitem__(self, name: str) -> Any:
        found = self._done.get(name)
        if found is None:
            text = self._raw[name]
            found = json.loads(text)
            with self._lock:
                self._done[name] = found
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)

    def __contains__(self, name: object) -> bool:
        return name in self._raw


def split_ops(text: str) -> tuple[dict[str, Any], Mapping[str, Any]] | None:
    """(the file's other keys, its ops) of a file in the one-op-per-line layout, None for another layout.
    A raw line break never occurs inside JSON text (strings escape it), so the layout's line breaks are
    the only ones."""
    head, sep, rest = text.partition(_OPS_START)
    if not sep or not head.startswith("{") or not rest.endswith(_OPS_END):
        return None
    if head == "{":
        top: dict[str, Any] = {}
    else:
        if not head.endswith(","):
            return None
        try:
            top = json.loads(head[:-1] + "}")
        except ValueError:
            return None
        if not isinstance(top, dict):
            return None
    raw: dict[str, str] = {}
    for line in rest[:-len(_OPS_END)].split("\n"):
        if line.endswith(","):
            line = line[:-1]
        close = line.find('"', 1)
        key = line[1:close]
        if close > 0 and line.startswith('"') and "\\" not in key:
            end = close + 1  # an op name: no escapes, its string ends at the next quote
        else:
            try:
                key, end = _DECODER.raw_decode(line)
            except ValueError:
                return None
            if not isinstance(key, str):
                return None
        if line[end:end + 1] != ":":
            return None
        raw[key] = line[end + 1:]
    return top, LazyOps(raw)


def read_ops(path: Path) -> Mapping[str, Any]:
    """The `ops` of a generated data file (gzip'd JSON), decoded per op in the generators' layout."""
    text = gzip.decompress(path.read_bytes()).decode("utf-8")
    found = split_ops(text)
    if found is not None:
        return found[1]
    ops: Mapping[str, Any] = json.loads(text)["ops"]
    return ops
