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
    """op name -> its data, each op's JSON found and decoded on first access (thread-safe: a race decodes
    twice).  An op is found by its line (`\\n"name":`, a raw line break being a line start); the index of
    all lines is made only when asked for all of them, or for a name spelled with escapes."""

    def __init__(self, body: str) -> None:
        self._body = body
        """The op lines, each after a line break, the first included."""
        self._raw: dict[str, str] | None = None
        self._found: dict[str, str] = {}
        """Lines found by name so far (a membership test is mostly followed by a read)."""
        self._done: dict[str, Any] = {}
        self._lock = threading.Lock()

    def _line(self, name: str) -> str | None:
        if self._raw is None and '"' not in name and "\\" not in name:
            line = self._found.get(name)
            if line is not None:
                return line
            body = self._body
            at = body.find('\n"' + name + '":')
            if at >= 0:
                end = body.find("\n", at + 1)
                line = body[at + len(name) + 4:end if end >= 0 else len(body)]
                line = line[:-1] if line.endswith(",") else line
                self._found[name] = line
                return line
            if '\\' not in body:
                return None  # every name is spelled plainly: absent
        return self._index().get(name)

    def _index(self) -> dict[str, str]:
        raw = self._raw
        if raw is None:
            raw = _index_lines(self._body)
            with self._lock:
                self._raw = raw
        return raw

    def __getitem__(self, name: str) -> Any:
        found = self._done.get(name)
        if found is None:
            text = self._line(name)
            if text is None:
                raise KeyError(name)
            found = json.loads(text)
            with self._lock:
                self._done[name] = found
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._index())

    def __len__(self) -> int:
        return len(self._index())

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in self._done or self._line(name) is not None)


def _index_lines(body: str) -> dict[str, str]:
    """name -> JSON text of each op line (ValueError: a line that is not `"name":value`)."""
    raw: dict[str, str] = {}
    for line in body[1:].split("\n"):
        if line.endswith(","):
            line = line[:-1]
        close = line.find('"', 1)
        key = line[1:close]
        if close > 0 and line.startswith('"') and "\\" not in key:
            end = close + 1  # an op name: no escapes, its string ends at the next quote
        else:
            key, end = _DECODER.raw_decode(line)
            if not isinstance(key, str):
                raise ValueError(f"an op line without a name: {line[:60]!r}")
        if line[end:end + 1] != ":":
            raise ValueError(f"an op line without a colon after the name: {line[:60]!r}")
        raw[key] = line[end + 1:]
    return raw


def split_ops(text: str) -> tuple[dict[str, Any], Mapping[str, Any]] | None:
    """(the file's other keys, its ops) of a file in the one-op-per-line layout, None for another layout.
    A raw line break never occurs inside JSON text (strings escape it), so the layout's line breaks are
    the only ones.  The op lines are checked as they are read (a damaged one is a ValueError then)."""
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
    return top, LazyOps("\n" + rest[:-len(_OPS_END)])


def read_ops(path: Path) -> Mapping[str, Any]:
    """The `ops` of a generated data file (gzip'd JSON), decoded per op in the generators' layout."""
    text = gzip.decompress(path.read_bytes()).decode("utf-8")
    found = split_ops(text)
    if found is not None:
        return found[1]
    ops: Mapping[str, Any] = json.loads(text)["ops"]
    return ops
