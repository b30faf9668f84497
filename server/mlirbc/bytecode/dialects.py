"""Dialect section (format 4): dialect names with optional version sections, and op names by dialect."""

from __future__ import annotations

from ..binary.stream import ByteReader, ByteWriter
from ..ir.module import DialectEntry
from ..ir.operation import OpName
from .sections import read_section, write_section

DIALECT_VERSION_SECTION = 7


def _string(strings: list[bytes], idx: int, r: ByteReader, at: int) -> str:
    if idx >= len(strings):
        raise r.error(f"string index {idx} out of range ({len(strings)} strings)", at)
    return strings[idx].decode("utf-8", "surrogateescape")


def decode_dialects(
    r: ByteReader, version: int, strings: list[bytes]
) -> tuple[list[DialectEntry], list[OpName]]:
    n = r.count("dialect", 1)
    dialects: list[DialectEntry] = []
    for _ in range(n):
        at = r.pos
        if version >= 1:
            idx, has_version = r.varint_flag()
        else:
            idx, has_version = r.varint(), False
        entry = DialectEntry(_string(strings, idx, r, at))
        if any(d.name == entry.name for d in dialects):
            # The view keys dialect versions by name: two entries could not both be said (upstream
            # never writes them).
            raise r.error(f"dialect '{entry.name}' is listed twice", at)
        if has_version:
            sec_at = r.pos
            sec = read_section(r)
            if sec.id != DIALECT_VERSION_SECTION:
                raise r.error(f"expected dialect version section (id 7), found id {sec.id}", sec_at)
            entry.version = bytes(sec.data.bytes(sec.data.remaining))
        dialects.append(entry)
    if version >= 4:
        r.varint()  # total op-name count: only a size hint
    op_names: list[OpName] = []
    flags: dict[tuple[str, str], bool] = {}
    while not r.at_end():
        at = r.pos
        d = r.varint()
        if d >= len(dialects):
            raise r.error(f"op name group names dialect #{d} but there are {len(dialects)}", at)
        count = r.count("op name", 1)
        dialect = dialects[d].name
        for _ in range(count):
            at = r.pos
            if version >= 5:
                idx, registered = r.varint_flag()
            else:
                idx, registered = r.varint(), True
            name = OpName(dialect, _string(strings, idx, r, at), registered)
            if not name.full:
                # No text can name such an op (upstream's parser refuses an empty op name too).
                raise r.error("op name is empty (no dialect and no name)", at)
            if flags.setdefault((dialect, name.name), registered) != registered:
                # One op name is one OperationName upstream; the text view cannot say it twice.
                raise r.error(f"op name '{name.full}' is listed both as registered and as "
                              "unregistered", at)
            op_names.append(name)
    return dialects, op_names


def encode_dialects(
    version: int,
    dialects: list[tuple[int, bytes | None]],
    op_names: list[tuple[int, int, bool]],
    groups: list[int] | None = None,
) -> bytes:
    """`dialects`: (name str#, version payload); `op_names`: (dialect#, name str#, registered) in order.

    Op names go in maximal runs of one dialect, except that the first ones follow `groups` (a template's
    group sizes), when given.
    """
    w = ByteWriter()
    w.varint(len(dialects))
    for name_idx, payload in dialects:
        if version >= 1:
            w.varint_flag(name_idx, payload is not None)
            if payload is not None:
                inner = ByteWriter(w.offset)
                write_section(inner, DIALECT_VERSION_SECTION, payload)
                w.raw(inner.buf)
        else:
            w.varint(name_idx)
    if version >= 4:
        w.varint(len(op_names))
    fixed = list(groups or ())
    i = 0
    while i < len(op_names):
        if fixed:
            j = min(len(op_names), i + fixed.pop(0))
        else:
            j = i + 1
            while j < len(op_names) and op_names[j][0] == op_names[i][0]:
                j += 1
        w.varint(op_names[i][0])
        w.varint(j - i)
        for _, name_idx, registered in op_names[i:j]:
            if version >= 5:
                w.varint_flag(name_idx, registered)
            else:
                w.varint(name_idx)
        i = j
    return bytes(w.buf)


def template_op_name_groups(r: ByteReader, version: int) -> list[int]:
    """The op-name group sizes of a template's dialect section: producers may split groups."""
    n = r.varint()
    for _ in range(n):
        if version >= 1:
            _, has_version = r.varint_flag()
            if has_version:
                read_section(r)
        else:
            r.varint()
    if version >= 4:
        r.varint()
    sizes = []
    while not r.at_end():
        r.varint()
        count = r.varint()
        for _ in range(count):
            r.varint()
        sizes.append(count)
    return sizes
