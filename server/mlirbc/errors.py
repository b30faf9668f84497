"""Error types shared by every layer: decode errors located by byte offset, text errors by line:column."""

from __future__ import annotations

from dataclasses import dataclass


class MlirbcError(Exception):
    """Base class of every error this package raises on bad input."""


class DecodeError(MlirbcError):
    """Bytecode that cannot be decoded: names the section and the absolute byte offset.

    `partial_module`: what was read before the damage, when the Python API's `load` raises it (None
    when nothing of the IR could be read)."""

    partial_module: object | None = None

    def __init__(self, message: str, offset: int, section: str = "") -> None:
        self.message = message
        self.offset = offset
        self.section = section
        where = f"{section} section, " if section else ""
        super().__init__(f"{where}byte {offset} (0x{offset:x}): {message}")


class EncodeError(MlirbcError):
    """IR that cannot be written as bytecode (e.g. fallback parts without their original file)."""


@dataclass(frozen=True)
class TextSpan:
    """A range in a text: `start`/`end` are character offsets (end exclusive), the position every layer
    works with; lines and columns (0-based, in characters) are there for messages to people.

    Editors count columns differently (LSP: UTF-16 units by default); the server converts offsets at its
    edge, never these columns.
    """

    start_line: int
    start_col: int
    end_line: int
    end_col: int
    start: int = -1
    end: int = -1

    def __str__(self) -> str:
        return f"{self.start_line + 1}:{self.start_col + 1}"


class TextError(MlirbcError):
    """Malformed text view: carries the span it concerns."""

    def __init__(self, message: str, span: TextSpan) -> None:
        self.message = message
        self.span = span
        super().__init__(f"{span}: {message}")
