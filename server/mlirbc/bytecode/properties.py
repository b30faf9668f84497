"""Properties section (format 7): the table of op property payloads, and decoding one op's payload.

How a payload decodes depends on what the registry knows at read time: a model decodes it into named
attributes; an op whose name was not registered when written stores one attribute reference; anything else
is kept as a fallback holding the exact bytes and the reason.
"""

from __future__ import annotations

from ..binary.stream import ByteReader, ByteWriter
from ..errors import DecodeError
from ..ir.operation import PROPS_ATTRIBUTE, PROPS_DECODED, PROPS_FALLBACK, OpName, Properties
from ..models.api import ModelError, producer_note
from ..models.registry import Registry
from .attrtypes import AttrTypeTable
from .sections import Section
from .template import FallbackNote


def decode_properties_table(sec: Section) -> list[tuple[int, int]]:
    """(absolute offset, size) of every payload."""
    r = sec.data
    n = r.count("properties entry", 1)
    out = []
    for _ in range(n):
        at = r.pos
        size = r.varint()
        if size > r.remaining:
            raise r.error(f"properties entry of {size} bytes runs past the section", at)
        out.append((r.pos, size))
        r.pos += size
    if not r.at_end():
        raise r.error("trailing bytes after the last properties entry")
    return out


def encode_properties_table(payloads: list[bytes]) -> bytes:
    w = ByteWriter()
    w.varint(len(payloads))
    for p in payloads:
        w.blob(p)
    return bytes(w.buf)


def dialect_version(table: AttrTypeTable, dialect: str) -> bytes | None:
    for d in table.dialects:
        if d.name == dialect:
            return d.version
    return None


def accepts_version(model: object, version: bytes) -> bool:
    """Models opt in to dialect versions with `accepts_dialect_version(payload) -> bool`; a model without
    it knows only the unversioned dialect, so any written version is newer than it knows."""
    accepts = getattr(model, "accepts_dialect_version", None)
    try:
        return bool(accepts(version)) if callable(accepts) else False
    except Exception:
        return False


def decode_op_properties(
    op_name: OpName, offset: int, size: int, table: AttrTypeTable, registry: Registry,
    fallbacks: list[FallbackNote],
) -> Properties:
    raw = bytes(table.data[offset:offset + size])
    full = op_name.full
    lookup = registry.op(full)
    model = lookup.model
    # An op that was not registered when written stores one attribute reference, whatever models exist
    # now (mlir-opt writes ops of dialects it does not register, e.g. vcix, this way).
    if not op_name.registered:
        r = table.reader(offset, offset + size, "Properties")
        attr = r.attr()
        if not r.at_end():
            raise DecodeError(f"properties of unregistered op {full} have trailing bytes", r.pos,
                              "Properties")
        return Properties(PROPS_ATTRIBUTE, attribute=attr, raw=raw, offset=offset)
    reason = lookup.reason
    if model is None:
        dreg = registry.dialect_registration(op_name.dialect)
        if dreg is not None:
            reason += producer_note(dreg.model, table.producer)
    version = dialect_version(table, op_name.dialect)
    if model is not None and version is not None and not accepts_version(model, version):
        reason = (f"the file's '{op_name.dialect}' dialect version (0x{version.hex()}) is newer than the "
                  f"model ({lookup.origin}) knows")
        model = None
    if model is not None:
        r = table.reader(offset, offset + size, "Properties")
        try:
            values = model.decode_properties(r)
            return Properties(PROPS_DECODED, values=values, raw=raw, model=lookup.origin,
                              offset=offset)
        except DecodeError as exc:
            reason = f"the model ({lookup.origin}) could not decode it: {exc.message} at byte " \
                     f"{exc.offset - offset} of the payload"
        except (ModelError, ValueError) as exc:
            reason = f"the model ({lookup.origin}) could not decode it at byte {r.pos - offset} " \
                     f"of the payload: {exc}"
        except Exception as exc:  # a model's bug must not break the file
            reason = f"the model ({lookup.origin}) raised {type(exc).__name__}: {exc}"
    fallbacks.append(FallbackNote("op", full, reason, offset, size))
    return Properties(PROPS_FALLBACK, raw=raw, reason=reason, offset=offset)


def check_payload_reader(r: ByteReader) -> None:
    if not r.at_end():
        raise r.error("trailing bytes in properties payload")
