"""File header (format 2): magic, version, producer string."""

from __future__ import annotations

from ..binary.stream import ByteReader, ByteWriter
from ..errors import DecodeError

MAGIC = b"ML\xefR"
MAX_VERSION = 6


def decode_header(r: ByteReader) -> tuple[int, str]:
    if r.remaining < 4 or bytes(r.bytes(4)) != MAGIC:
        raise DecodeError("not MLIR bytecode: the file does not start with the magic 'ML\\xefR'", 0,
                          "header")
    at = r.pos
    version = r.varint()
    if version > MAX_VERSION:
        raise DecodeError(f"bytecode version {version} is newer than the newest version this reader "
                          f"supports ({MAX_VERSION})", at, "header")
    producer = r.cstring()
    return version, producer.decode("utf-8", "surrogateescape")


def encode_header(w: ByteWriter, version: int, producer: str) -> None:
    w.raw(MAGIC)
    w.varint(version)
    w.cstring(producer.encode("utf-8", "surrogateescape"))
