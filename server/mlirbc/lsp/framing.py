"""How one message goes onto the wire: its JSON, framed by a Content-Length, in pieces of bounded size.

A view is the largest thing the server sends (`mlir/convertFromBytecode` answers with the whole text: 14 MB
for a 112k-op file).  `json.dumps` of such an answer holds the text, its escaped copy and the joined
message at once, and pygls then adds the header and encodes the lot.  Here the long strings at the top of
a result are left out of the JSON (a placeholder made of a random nonce takes their place) and escaped
slice by slice as they are written, so a message costs a slice beyond what it holds.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterator
from json.encoder import encode_basestring_ascii
from typing import Any

SLICE = 1 << 20
"""Strings longer than this are escaped and written in slices of this many characters."""


def _slices(text: str) -> Iterator[str]:
    for start in range(0, len(text), SLICE):
        yield text[start:start + SLICE]


def _escaped(text: str) -> Iterator[str]:
    # JSON escapes one code point at a time, and a str slice never splits one.
    return (encode_basestring_ascii(s)[1:-1] for s in _slices(text))


def frame(message: dict[str, Any], default: Callable[[Any], Any], content_type: str
          ) -> Iterator[bytes]:
    """The pieces of `message` (a JSON-RPC message as a dict) on the wire: the header, then the body.
    `default` serializes what json does not know, as for `json.dumps`."""
    result = message.get("result")
    long: dict[str, str] = {}
    marks: dict[str, str] = {}  # key -> its placeholder
    shown = message
    if isinstance(result, dict):
        long = {k: v for k, v in result.items() if isinstance(v, str) and len(v) > SLICE}
        marks = {k: f"mlirbc-long-{secrets.token_hex(16)}" for k in long}
        shown = {**message, "result": {**result, **marks}} if marks else message
    rest = json.dumps(shown, default=default)  # ASCII (ensure_ascii), so its length is its size
    # JSON text at even positions, the key of a long string (written escaped) at odd ones.
    parts: list[str] = []
    for key, mark in marks.items():
        before, found, rest = rest.partition(mark)
        if not found:
            raise ValueError(f"the placeholder of {key!r} is missing from the message")
        parts += [before, key]
    parts.append(rest)
    # The long strings are escaped twice, to count and to write: holding their escaped copies instead
    # would cost what this module saves.
    size = sum(map(len, parts[::2])) + sum(len(e) for k in parts[1::2] for e in _escaped(long[k]))
    yield f"Content-Length: {size}\r\nContent-Type: {content_type}\r\n\r\n".encode("ascii")
    for i, p in enumerate(parts):
        for piece in _escaped(long[p]) if i % 2 else _slices(p):
            yield piece.encode("ascii")
