"""Maps the URIs an editor uses for one bytecode file onto one key.

A file is reached as `file:///p/x.mlirbc` and through its text views: `mlirbc:/p/x.mlirbc` (our VS Code
extension, which keeps a non-`file` origin in `?scheme=`) and `mlir.bytecode-mlir:/p/x.mlirbc` (vscode-mlir).
All three keep the file's path, so the path is the key.
"""

from __future__ import annotations

import os
from urllib.parse import SplitResult, unquote, urlsplit

VIEW_SCHEMES = ("mlirbc", "mlir.bytecode-mlir")
FILE_SCHEME = "file"


def _split(uri: str) -> SplitResult | None:
    try:
        return urlsplit(uri)
    except ValueError:  # e.g. `file://[` ("Invalid IPv6 URL"): not a URI of anything
        return None


def scheme_of(uri: str) -> str:
    parts = _split(uri)
    return parts.scheme.lower() if parts is not None else ""


def is_view_uri(uri: str) -> bool:
    return scheme_of(uri) in VIEW_SCHEMES


def uri_key(uri: str) -> str | None:
    """The path of the bytecode file behind `uri`, or None when the URI names no local file."""
    parts = _split(uri)
    if parts is None:
        return None
    scheme = parts.scheme.lower()
    if scheme not in (FILE_SCHEME, *VIEW_SCHEMES):
        return None
    if scheme in VIEW_SCHEMES and "scheme=" in parts.query:
        origin = [q.split("=", 1)[1] for q in parts.query.split("&") if q.startswith("scheme=")]
        if origin and unquote(origin[0]).lower() != FILE_SCHEME:
            return None  # a remote file: its bytes are not on this machine
    path = unquote(parts.path)
    if parts.netloc and parts.netloc.lower() != "localhost":
        if os.name != "nt":
            return None  # `file://host/p`: a file on another machine
        path = f"//{parts.netloc}{path}"  # UNC-style authority
    if len(path) >= 3 and path[0] == "/" and path[2] == ":":
        path = path[1:]  # `/C:/x` on Windows
    return path or None


def view_uris(key: str) -> list[str]:
    """Every URI under which a client may open the view of the file at `key` (for diagnostics)."""
    from urllib.parse import quote

    quoted = quote(key, safe="/:")
    return [f"{FILE_SCHEME}://{quoted}", *(f"{s}:{quoted}" for s in VIEW_SCHEMES)]
