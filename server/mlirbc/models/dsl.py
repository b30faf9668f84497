"""An interpreter of MLIR's declarative bytecode DSL (`mlir/IR/BytecodeBase.td`): attribute and type codecs
read from `llvm-tblgen --dump-json` output, no generated C++.

A dialect declares its custom encodings as a `DialectAttributes` and/or `DialectTypes` record whose `elems`
list the entries in code order (code = position; `ReservedOrDead` skips one).  Each entry has a `members`
dag: the fields in wire order, each a record with C++ snippets (`cParser`, `cPrinter`).  What upstream's
`mlir-tblgen -gen-bytecode` turns into C++, this module reads as data:

* snippets calling the bytecode reader's own primitives (`readVarInt`, `readAttribute<T>`,
  `readOptionalAttribute`, `readString`, `readAPIntWithKnownWidth(..., type, ...)`, ...) map to the same
  primitives of `EntryReader`; `LocalVar` members (computed, never stored) are skipped;
* `Array<T>` members are lists (`readAttributes`/`readTypes` for attribute/type elements, `readList` with the
  element's own parser or, for a `CompositeBytecode`, its members inline);
* a snippet calling a hand-written C++ helper (`readOptionalArrayRef<T>`, `readOptionalInt`,
  `readOptionalVarInt`) is served by a small Python hook of that name (`FIELD_HOOKS`; register more with
  `register_field_hook`); a snippet nothing recognises makes its entry unsupported (decoding it raises
  ModelError with the snippet, so the entry stays a fallback).

Decoded entries are `StructuredAttr`/`StructuredType` values whose kind is the entry (`DslKind`, named by the
record, e.g. `DIBasicTypeAttr`) and whose fields are the stored members in wire order.  Encoding writes the
entry's own code and members back; anything not as upstream's writer would write it (a present-but-empty
optional list, a flag varint with stray bits) is either kept exactly or refused, never normalised, so a
decoded entry always re-encodes to its original bytes.

Text: without a syntax hook a value prints generically as `#dialect.Record<member = value, ...>` (types with
`!`), which this module parses back.  A dialect whose real syntax matters (Shardy's `#sdy.sharding<...>`,
the LLVM dialect's `#llvm.di_*`) registers a `DslSyntax` hook that prints and parses the dialect's own
spelling and builds values of the same kinds.

One DSL JSON is one model set: `DslDialect(records, dialect)` is self-contained, so a second JSON for the same
dialect (another MLIR version's encoding) is simply another `DslDialect`, registered when it applies.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..binary.apint import read_apint, write_apint
from ..ir.attributes import Attribute
from ..ir.structured import FieldValue, StructuredAttr, StructuredType
from ..ir.types import Type, bit_width
from ..syntax.attr_parser import Parser
from ..syntax.attr_printer import print_attribute, print_type, quote_bytes
from ..syntax.lexer import BARE, INT, STRING, int_literal, string_value
from .api import EntryReader, EntryWriter, ModelError
from .kinds import KindDialect, KindModel, register_kind_dialect

if TYPE_CHECKING:
    from .registry import Registry

Records = dict[str, Any]


class DslError(Exception):
    """The JSON does not hold a usable bytecode DSL declaration."""


# ================================================================================================
# Field codecs
# ================================================================================================

@dataclass(frozen=True)
class Codec:
    """How one member is stored.  `op` is a primitive (`attr`, `opt_attr`, `type`, `varint`, `svarint`,
    `bool`, `string`, `blob`, `apint`, `apfloat`), a structure (`list`, `composite`), `hook` (a hand-written
    helper, `name` and template argument `arg`), `local` (not stored) or `unsupported` (`name` = why)."""

    op: str
    name: str = ""
    arg: str = ""
    elem: Codec | None = None
    members: tuple[Member, ...] = ()


@dataclass(frozen=True)
class Member:
    name: str
    codec: Codec


_PRIMITIVE_CALLS = {
    "readAttribute": "attr", "readOptionalAttribute": "opt_attr", "readType": "type",
    "readVarInt": "varint", "readSignedVarInt": "svarint", "readBool": "bool", "readString": "string",
    "readBlob": "blob",
}
_WRITER_CALLS = {
    "writeAttribute": "attr", "writeOptionalAttribute": "opt_attr", "writeType": "type",
    "writeVarInt": "varint", "writeSignedVarInt": "svarint", "writeOwnedBool": "bool",
    "writeOwnedString": "string", "writeOwnedBlob": "blob",
}
_READER_CALL = re.compile(r"^succeeded\(\$_reader\.(\w+)(?:<[^()]*>)?\(\$_var\)\)$")
_KNOWN_WIDTH = re.compile(r"^succeeded\((readAPIntWithKnownWidth|readAPFloatWithKnownSemantics)"
                          r"\(\$_reader, (\w+), \$_var\)\)$")
_HELPER_CALL = re.compile(r"^succeeded\((\w+)(?:<([^()]*)>)?\(\$_reader, \$_var\)\)$")
_LOCAL = re.compile(r"^\(\(\$_var = .*\), true\)$", re.S)
_WRITER_CALL = re.compile(r"^\$_writer\.(\w+)\(")


def _norm(code: Any) -> str:
    return " ".join(str(code or "").split())


class _Loader:
    """Turns member records into codecs (memoised per record name)."""

    def __init__(self, records: Records) -> None:
        self.records = records

    def rec(self, ref: Any) -> dict[str, Any]:
        if isinstance(ref, dict) and ref.get("kind") == "def":
            rec = self.records.get(ref["def"])
            if isinstance(rec, dict):
                return rec
        if isinstance(ref, dict) and ref.get("kind") == "anonymous":  # not produced by llvm-tblgen 22
            raise DslError("anonymous records are not supported")
        raise DslError(f"not a record reference: {ref!r:.80}")

    @staticmethod
    def supers(rec: dict[str, Any]) -> list[str]:
        sc = rec.get("!superclasses")
        return sc if isinstance(sc, list) else []

    def members(self, rec: dict[str, Any]) -> tuple[Member, ...]:
        dag = rec.get("members")
        if not isinstance(dag, dict) or dag.get("kind") != "dag":
            raise DslError(f"{rec.get('!name')}: no members dag")
        out = []
        for ref, name in dag.get("args", []):
            out.append(Member(str(name), self.codec(self.rec(ref))))
        return tuple(out)

    def codec(self, rec: dict[str, Any]) -> Codec:
        supers = self.supers(rec)
        name = str(rec.get("!name", ""))
        if "Array" in supers or "elemT" in rec:
            elem_rec = self.rec(rec.get("elemT"))
            esupers = self.supers(elem_rec)
            composite = "CompositeBytecode" in esupers
            if not composite and "AttributeKind" in esupers:
                return Codec("list", elem=Codec("attr"))
            if not composite and "TypeKind" in esupers:
                return Codec("list", elem=Codec("type"))
            if composite:
                return Codec("list", elem=Codec("composite", members=self.members(elem_rec)))
            return Codec("list", elem=self.codec(elem_rec))
        if "CompositeBytecode" in supers and "members" in rec:
            return Codec("unsupported", name=f"{name}: a composite member outside an Array")
        parser = _norm(rec.get("cParser"))
        printer = _norm(rec.get("cPrinter"))
        if _LOCAL.match(parser):
            # computed from another member (`(($_var = (DIFlags)_rawflags), true)`): remember which
            source = re.search(r"=\s*(?:\([^()]*\))?\s*(\w+)", parser)
            return Codec("local", name=source.group(1) if source else "")
        m = _READER_CALL.match(parser)
        if m and m.group(1) in _PRIMITIVE_CALLS:
            return Codec(_PRIMITIVE_CALLS[m.group(1)])
        m = _KNOWN_WIDTH.match(parser)
        if m:
            return Codec("apint" if m.group(1) == "readAPIntWithKnownWidth" else "apfloat", arg=m.group(2))
        m = _HELPER_CALL.match(parser)
        if m:
            return Codec("hook", name=m.group(1), arg=(m.group(2) or "").strip())
        # A hand-written parser (a lambda) whose printer is a plain writer call: the printer says it all
        # when the parser reads exactly that primitive (checked by name).
        w = _WRITER_CALL.match(printer)
        if w and w.group(1) in _WRITER_CALLS:
            prim = _WRITER_CALLS[w.group(1)]
            reader = next(k for k, v in _PRIMITIVE_CALLS.items() if v == prim)
            if f"$_reader.{reader}(" in parser:
                return Codec(prim)
        return Codec("unsupported", name=f"{name}: hand-written parser `{parser[:120]}`")


@dataclass(frozen=True)
class DslEntry:
    """One entry of a DialectAttributes/DialectTypes list."""

    name: str
    code: int
    is_type: bool
    members: tuple[Member, ...]
    ctype: str = ""
    """The C++ class the entry builds (entries sharing one are variants of one attribute)."""


@dataclass
class DslLists:
    """The DSL declarations of one dialect in a JSON file."""

    cpp_dialect: str
    attributes: list[DslEntry] = field(default_factory=list)
    types: list[DslEntry] = field(default_factory=list)


def _entries(loader: _Loader, list_rec: dict[str, Any], is_type: bool) -> list[DslEntry]:
    out = []
    for code, ref in enumerate(list_rec.get("elems") or []):
        rec = loader.rec(ref)
        name = str(rec.get("!name", ""))
        if name == "ReservedOrDead":
            continue
        try:
            members = loader.members(rec)
        except DslError as exc:
            members = (Member("?", Codec("unsupported", name=str(exc))),)
        out.append(DslEntry(name, code, is_type, members, str(rec.get("cType") or "")))
    return out


def read_dsl(records: Records) -> dict[str, DslLists]:
    """The DSL declarations in an `llvm-tblgen --dump-json` output, by C++ dialect name (`LLVM`, `sdy`)."""
    instances = records.get("!instanceof")
    if not isinstance(instances, dict):
        raise DslError("not llvm-tblgen --dump-json output (no !instanceof)")
    loader = _Loader(records)
    out: dict[str, DslLists] = {}
    for kind, is_type in (("DialectAttributes", False), ("DialectTypes", True)):
        for name in instances.get(kind) or []:
            rec = records.get(name)
            if not isinstance(rec, dict):
                continue
            dialect = str(rec.get("dialect", ""))
            lists = out.setdefault(dialect, DslLists(dialect))
            entries = _entries(loader, rec, is_type)
            (lists.types if is_type else lists.attributes).extend(entries)
    return out


def load_records(path: str | Path) -> Records:
    """An `llvm-tblgen --dump-json` file (optionally gzip'd)."""
    p = Path(path)
    opener = gzip.open if p.suffix == ".gz" else open
    with opener(p, "rt", encoding="utf-8") as f:
        try:
            data = json.load(f)
        except json.JSONDecodeError as exc:
            raise DslError(f"{p}: not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise DslError(f"{p}: not llvm-tblgen --dump-json output")
    return data


def trim_records(records: Records) -> Records:
    """Only what the DSL lists need: the lists and every record they reach (for shipping as data)."""
    instances = records.get("!instanceof") or {}
    keep: dict[str, Any] = {}
    stack = [n for k in ("DialectAttributes", "DialectTypes") for n in instances.get(k) or []]
    while stack:
        name = stack.pop()
        if name in keep or name not in records:
            continue
        rec = records[name]
        keep[name] = rec
        stack.extend(_refs(rec))
    keep["!instanceof"] = {k: [n for n in v if n in keep] for k, v in instances.items()
                           if any(n in keep for n in v)}
    return keep


def _refs(value: Any) -> Iterable[str]:
    if isinstance(value, dict):
        if value.get("kind") == "def" and isinstance(value.get("def"), str):
            yield value["def"]
        for v in value.values():
            yield from _refs(v)
    elif isinstance(value, list):
        for v in value:
            yield from _refs(v)


# ================================================================================================
# Hand-written helpers
# ================================================================================================

class FieldHook(Protocol):
    """A hand-written C++ helper of the DSL, in Python (`arg` = the helper's template argument)."""

    def decode(self, r: EntryReader, arg: str) -> FieldValue: ...
    def encode(self, w: EntryWriter, value: FieldValue, arg: str) -> None: ...
    def print(self, value: FieldValue, arg: str) -> str: ...
    def parse(self, p: Parser, arg: str) -> FieldValue: ...


def _flag_varint(r: EntryReader) -> int | None:
    v = r.varint()
    if v & 1:
        return v >> 1
    if v:
        raise ModelError(f"absent optional integer with stray bits ({v:#x})")
    return None


class OptionalVarIntHook:
    """`readOptionalInt` (LLVM) / `readOptionalVarInt` (Shardy): `varint (value << 1) | present`."""

    def decode(self, r: EntryReader, arg: str) -> FieldValue:
        return _flag_varint(r)

    def encode(self, w: EntryWriter, value: FieldValue, arg: str) -> None:
        if value is None:
            w.varint(0)
        elif isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            w.varint((value << 1) | 1)
        else:
            raise ModelError(f"optional integer must be a non-negative int or absent, not {value!r}")

    def print(self, value: FieldValue, arg: str) -> str:
        return "unset" if value is None else str(value)

    def parse(self, p: Parser, arg: str) -> FieldValue:
        if p.consume_keyword_if("unset"):
            return None
        return parse_int(p, 0, UINT64_MAX >> 1, "an optional integer")


_INTEGRAL = re.compile(r"^(?:::)?(?:std::)?u?int(8|16|32|64)_t$|^unsigned$")


class OptionalArrayRefHook:
    """`readOptionalArrayRef<T>` (LLVM): `bool present`, then (if present) a list of optional attributes,
    or of varints when T is integral.  Absent is None; present is a tuple (even an empty one)."""

    def decode(self, r: EntryReader, arg: str) -> FieldValue:
        present = r.byte()
        if present > 1:
            raise ModelError(f"optional list presence byte must be 0 or 1, got {present}")
        if not present:
            return None
        n = _count(r)
        if _INTEGRAL.match(arg):
            return tuple(r.varint() for _ in range(n))
        return tuple(r.optional_attr() for _ in range(n))

    def encode(self, w: EntryWriter, value: FieldValue, arg: str) -> None:
        if value is None:
            w.byte(0)
            return
        if not isinstance(value, tuple):
            raise ModelError("optional list must be a tuple or absent")
        w.byte(1)
        w.varint(len(value))
        integral = bool(_INTEGRAL.match(arg))
        for v in value:
            if integral:
                if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                    raise ModelError("optional list of integers holds a non-integer")
                w.varint(v)
            else:
                if v is not None and not isinstance(v, Attribute):
                    raise ModelError("optional list of attributes holds a non-attribute")
                w.optional_attr(v)

    def print(self, value: FieldValue, arg: str) -> str:
        if value is None:
            return "unset"
        assert isinstance(value, tuple)
        if _INTEGRAL.match(arg):
            return "[" + ", ".join(str(v) for v in value) + "]"
        return "[" + ", ".join("unset" if v is None else print_attribute(v)  # type: ignore[arg-type]
                               for v in value) + "]"

    def parse(self, p: Parser, arg: str) -> FieldValue:
        if p.consume_keyword_if("unset"):
            return None
        integral = bool(_INTEGRAL.match(arg))

        def item() -> FieldValue:
            if integral:
                return parse_int(p, 0, UINT64_MAX, "an integer of the list")
            if p.consume_keyword_if("unset"):
                return None
            return p.parse_attribute()

        return tuple(_bracketed(p, item))


FIELD_HOOKS: dict[str, FieldHook] = {
    "readOptionalInt": OptionalVarIntHook(),
    "readOptionalVarInt": OptionalVarIntHook(),
    "readOptionalArrayRef": OptionalArrayRefHook(),
}
"""Hand-written DSL helpers by C++ function name (the `$_reader` call in the member's `cParser`)."""


def register_field_hook(name: str, hook: FieldHook) -> None:
    """Serve one more hand-written helper (for a downstream dialect's DSL file)."""
    FIELD_HOOKS[name] = hook


# ================================================================================================
# The interpreter
# ================================================================================================

def _count(r: EntryReader) -> int:
    n = r.varint()
    remaining = getattr(r, "remaining", None)
    if isinstance(remaining, int) and n > remaining:
        raise ModelError(f"a list of {n} elements is longer than the {remaining} bytes left")
    return n


def _type_width(t: FieldValue, what: str) -> int:
    if not isinstance(t, Type):
        raise ModelError(f"{what} needs a type member")
    try:
        return bit_width(t)
    except ValueError as exc:
        raise ModelError(str(exc)) from None


def _decode(c: Codec, r: EntryReader, env: dict[str, FieldValue]) -> FieldValue:
    op = c.op
    if op == "attr":
        return r.attr()
    if op == "opt_attr":
        return r.optional_attr()
    if op == "type":
        return r.type()
    if op == "varint":
        return r.varint()
    if op == "svarint":
        return r.signed_varint()
    if op == "bool":
        b = r.byte()
        if b > 1:
            raise ModelError(f"boolean byte must be 0 or 1, got {b}")
        return bool(b)
    if op == "string":
        return r.string()
    if op == "blob":
        return bytes(r.blob())
    if op in ("apint", "apfloat"):
        return read_apint(r, _type_width(env.get(c.arg), op))
    if op == "list":
        assert c.elem is not None
        elem = c.elem
        return tuple(_decode(elem, r, env) for _ in range(_count(r)))
    if op == "composite":
        inner: dict[str, FieldValue] = {}
        return tuple(_decode_members(c.members, r, inner))
    if op == "hook":
        hook = FIELD_HOOKS.get(c.name)
        if hook is None:
            raise ModelError(f"no hook for the hand-written DSL helper '{c.name}'")
        return hook.decode(r, c.arg)
    raise ModelError(f"unsupported DSL member: {c.name or op}")


def _decode_members(members: tuple[Member, ...], r: EntryReader, env: dict[str, FieldValue]
                    ) -> list[FieldValue]:
    out = []
    for m in members:
        if m.codec.op == "local":
            continue
        v = _decode(m.codec, r, env)
        env[m.name] = v
        out.append(v)
    return out


def _int(v: FieldValue, what: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise ModelError(f"{what} must be an integer, not {type(v).__name__}")
    return v


def _encode(c: Codec, v: FieldValue, w: EntryWriter, env: dict[str, FieldValue]) -> None:
    op = c.op
    if op == "attr":
        if not isinstance(v, Attribute):
            raise ModelError("expected an attribute")
        w.attr(v)
    elif op == "opt_attr":
        if v is not None and not isinstance(v, Attribute):
            raise ModelError("expected an attribute or nothing")
        w.optional_attr(v)
    elif op == "type":
        if not isinstance(v, Type):
            raise ModelError("expected a type")
        w.type(v)
    elif op == "varint":
        n = _int(v, "a varint")
        if n < 0 or n >> 64:
            raise ModelError(f"varint {n} out of range")
        w.varint(n)
    elif op == "svarint":
        n = _int(v, "a signed varint")
        if not -(1 << 63) <= n < (1 << 63):
            raise ModelError(f"signed varint {n} out of range")
        w.signed_varint(n)
    elif op == "bool":
        if not isinstance(v, bool):
            raise ModelError("expected true or false")
        w.byte(1 if v else 0)
    elif op == "string":
        if not isinstance(v, bytes):
            raise ModelError("expected a string")
        w.string(v)
    elif op == "blob":
        if not isinstance(v, bytes):
            raise ModelError("expected a blob")
        w.blob(v)
    elif op in ("apint", "apfloat"):
        width = _type_width(env.get(c.arg), op)
        n = _int(v, "an integer payload")
        if n < 0 or n >> width:
            raise ModelError(f"payload does not fit {width} bits")
        write_apint(w, width, n)
    elif op == "list":
        assert c.elem is not None
        if not isinstance(v, tuple):
            raise ModelError("expected a list")
        w.varint(len(v))
        for x in v:
            _encode(c.elem, x, w, env)
    elif op == "composite":
        if not isinstance(v, tuple):
            raise ModelError("expected a composite value")
        _encode_members(c.members, v, w, {})
    elif op == "hook":
        hook = FIELD_HOOKS.get(c.name)
        if hook is None:
            raise ModelError(f"no hook for the hand-written DSL helper '{c.name}'")
        hook.encode(w, v, c.arg)
    else:
        raise ModelError(f"unsupported DSL member: {c.name or op}")


def _stored(members: tuple[Member, ...]) -> list[Member]:
    return [m for m in members if m.codec.op != "local"]


def _encode_members(members: tuple[Member, ...], values: tuple[FieldValue, ...], w: EntryWriter,
                    env: dict[str, FieldValue]) -> None:
    stored = _stored(members)
    if len(values) != len(stored):
        raise ModelError(f"expected {len(stored)} fields, got {len(values)}")
    for m, v in zip(stored, values, strict=True):
        env[m.name] = v
        _encode(m.codec, v, w, env)


# -- generic text ---------------------------------------------------------------------------------------

def _print(c: Codec, v: FieldValue) -> str:
    op = c.op
    if v is None and op in ("opt_attr",):
        return "unset"
    if op in ("attr", "opt_attr"):
        assert isinstance(v, Attribute)
        return print_attribute(v)
    if op == "type":
        assert isinstance(v, Type)
        return print_type(v)
    if op == "bool":
        return "true" if v else "false"
    if op in ("string", "blob"):
        assert isinstance(v, bytes)
        return quote_bytes(v)
    if op == "apfloat":
        return f"0x{_int(v, 'a payload'):X}"
    if op == "apint" and _int(v, "a payload").bit_length() > 64:
        # A wide payload in hex: its decimal text costs quadratic time, and fails beyond Python's digit limit.
        return f"0x{_int(v, 'a payload'):X}"
    if op in ("varint", "svarint", "apint"):
        return str(v)
    if op == "list":
        assert c.elem is not None and isinstance(v, tuple)
        elem = c.elem
        return "[" + ", ".join(_print(elem, x) for x in v) + "]"
    if op == "composite":
        assert isinstance(v, tuple)
        return "(" + ", ".join(_print(m.codec, x) for m, x in zip(_stored(c.members), v, strict=True)) + ")"
    if op == "hook":
        hook = FIELD_HOOKS.get(c.name)
        if hook is None:
            raise ModelError(f"no hook for the hand-written DSL helper '{c.name}'")
        return hook.print(v, c.arg)
    raise ModelError(f"unsupported DSL member: {c.name or op}")


def _bracketed(p: Parser, item: Callable[[], FieldValue], open_: str = "[", close: str = "]"
               ) -> list[FieldValue]:
    p.expect(open_, f"expected '{open_}'")
    out: list[FieldValue] = []
    if p.consume_if(close):
        return out
    while True:
        out.append(item())
        if p.consume_if(close):
            return out
        p.expect(",", f"expected ',' or '{close}'")


INT64_MIN, INT64_MAX, UINT64_MAX = -(1 << 63), (1 << 63) - 1, (1 << 64) - 1
MAX_PAYLOAD_BITS = 1 << 16
"""The widest integer payload (`apint`) the text may spell; the value's own type bounds it again when it
is encoded."""


def parse_int(p: Parser, lo: int = INT64_MIN, hi: int = INT64_MAX, what: str = "a 64-bit integer") -> int:
    """An integer literal, optionally negative, within [lo, hi] (a located error otherwise)."""
    return p.parse_bounded_int(lo, hi, what, signed=lo < 0)


def _parse_payload(p: Parser) -> int:
    """An integer payload (`apint`/`apfloat` bits): printed in hex, read in hex or decimal."""
    tok = p.expect(INT, "expected an integer")
    digits = tok.text[2:] if tok.text.startswith("0x") else tok.text
    if len(digits) > MAX_PAYLOAD_BITS // 3:
        raise p.error("integer payload too wide", tok)
    try:
        value = int_literal(tok.text)
    except ValueError as exc:
        raise p.error(str(exc), tok) from None
    if value.bit_length() > MAX_PAYLOAD_BITS:
        raise p.error("integer payload too wide", tok)
    return value


def _parse(c: Codec, p: Parser) -> FieldValue:
    op = c.op
    if op == "opt_attr" and p.consume_keyword_if("unset"):
        return None
    if op in ("attr", "opt_attr"):
        return p.parse_attribute()
    if op == "type":
        return p.parse_type()
    if op == "bool":
        tok = p.expect(BARE, "expected true or false")
        if tok.text not in ("true", "false"):
            raise p.error("expected true or false", tok)
        return tok.text == "true"
    if op in ("string", "blob"):
        return string_value(p.expect(STRING, "expected a string"))
    if op == "varint":
        return parse_int(p, 0, UINT64_MAX, "an unsigned 64-bit integer")
    if op == "svarint":
        return parse_int(p)
    if op in ("apint", "apfloat"):
        return _parse_payload(p)
    if op == "list":
        assert c.elem is not None
        elem = c.elem
        return tuple(_bracketed(p, lambda: _parse(elem, p)))
    if op == "composite":
        p.expect("(", "expected '('")
        out = []
        for i, m in enumerate(_stored(c.members)):
            if i:
                p.expect(",", "expected ','")
            out.append(_parse(m.codec, p))
        p.expect(")", "expected ')'")
        return tuple(out)
    if op == "hook":
        hook = FIELD_HOOKS.get(c.name)
        if hook is None:
            raise p.error(f"no hook for the hand-written DSL helper '{c.name}'")
        return hook.parse(p, c.arg)
    raise p.error(f"unsupported DSL member: {c.name or op}")


# ================================================================================================
# Kinds and dialects
# ================================================================================================

class DslSyntax(Protocol):
    """A dialect's own text syntax for its DSL-decoded values (optional; see module docstring)."""

    def print_value(self, value: StructuredAttr | StructuredType) -> str | None:
        """The dialect's spelling of `value`, or None to use the generic one."""
        ...

    def parse(self, p: Parser, ident: str, is_type: bool, dsl: DslDialect) -> Attribute | Type | None:
        """Read a value spelled `#ident...`/`!ident...` if this syntax knows `ident`, else return None
        without consuming anything (the generic syntax is tried)."""
        ...


class DslKind:
    """One DSL entry as a `KindModel`: decodes, encodes, prints and parses values of its record."""

    def __init__(self, dialect: str, entry: DslEntry, owner: DslDialect) -> None:
        self.dialect = dialect
        self.name = entry.name
        self.is_type = entry.is_type
        self.codes: tuple[int, ...] = (entry.code,)
        self.entry = entry
        self.owner = owner
        self.stored = tuple(_stored(entry.members))
        bad = [m.codec.name for m in entry.members if m.codec.op == "unsupported"]
        self.unsupported = bad[0] if bad else ""

    def field_names(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.stored)

    def make(self, fields: tuple[FieldValue, ...]) -> StructuredAttr | StructuredType:
        if len(fields) != len(self.stored):
            raise ModelError(f"{self.name} has {len(self.stored)} fields, not {len(fields)}")
        if self.is_type:
            return StructuredType.get(self, fields)
        return StructuredAttr.get(self, fields)

    def decode(self, code: int, r: EntryReader) -> Attribute | Type:
        if self.unsupported:
            raise ModelError(f"{self.dialect} entry {self.name} is not supported: {self.unsupported}")
        return self.make(tuple(_decode_members(self.entry.members, r, {})))

    def encode(self, value: StructuredAttr | StructuredType, w: EntryWriter) -> None:
        if self.unsupported:
            raise ModelError(f"{self.dialect} entry {self.name} is not supported: {self.unsupported}")
        w.varint(self.entry.code)
        _encode_members(self.entry.members, value.fields, w, {})

    def print_value(self, value: StructuredAttr | StructuredType) -> str:
        syntax = self.owner.syntax
        if syntax is not None:
            text = syntax.print_value(value)
            if text is not None:
                return text
        return self.generic_text(value)

    def generic_text(self, value: StructuredAttr | StructuredType) -> str:
        sigil = "!" if self.is_type else "#"
        head = f"{sigil}{self.dialect}.{self.name}"
        if not self.stored:
            return head
        body = ", ".join(f"{m.name} = {_print(m.codec, v)}"
                         for m, v in zip(self.stored, value.fields, strict=True))
        return f"{head}<{body}>"

    def parse(self, p: Parser) -> Attribute | Type:
        if not self.stored:
            return self.make(())
        p.expect("<", f"expected '<' after {self.name}")
        values: list[FieldValue] = []
        for i, m in enumerate(self.stored):
            if i:
                p.expect(",", f"expected ',' before {m.name}")
            p.expect_keyword(m.name, f"expected '{m.name}'")
            p.expect("=", f"expected '=' after {m.name}")
            values.append(_parse(m.codec, p))
        p.expect(">", f"expected '>' after {self.name}")
        return self.make(tuple(values))


class DslDialect(KindDialect):
    """The kinds of one dialect's DSL declaration, usable as codec and syntax (see module docstring)."""

    def __init__(self, dialect: str, lists: DslLists, syntax: DslSyntax | None = None,
                 registry: Registry | None = None) -> None:
        self.lists = lists
        self.syntax = syntax
        self.entries: dict[str, DslKind] = {}
        kinds: list[KindModel] = []
        for entry in [*lists.attributes, *lists.types]:
            kind = DslKind(dialect, entry, self)
            self.entries[entry.name] = kind
            kinds.append(kind)
        # Not strict: a dialect's DSL declares its custom encodings only; its other values stay text.
        super().__init__(dialect, kinds, registry, strict=False)

    def make(self, entry: str, fields: tuple[FieldValue, ...]) -> StructuredAttr | StructuredType:
        """A value of the entry named `entry` (for syntax hooks that build values from text)."""
        kind = self.entries.get(entry)
        if kind is None:
            raise ModelError(f"{self.dialect} has no DSL entry {entry}")
        return kind.make(fields)

    def make_attr(self, entry: str, fields: tuple[FieldValue, ...]) -> StructuredAttr:
        value = self.make(entry, fields)
        if not isinstance(value, StructuredAttr):
            raise ModelError(f"{entry} is a type")
        return value

    def _parse(self, p: Parser, ident: str, is_type: bool) -> Attribute | Type | None:
        if self.syntax is not None:
            value = self.syntax.parse(p, ident, is_type, self)
            if value is not None:
                return value
        return super()._parse(p, ident, is_type)


def dsl_dialect(records: Records, dialect: str | None = None, cpp_dialect: str | None = None,
                syntax: DslSyntax | None = None) -> DslDialect:
    """The DslDialect of one dialect declared in `records`.  `cpp_dialect` picks the declaration (the
    DSL's own name, `LLVM`; default: the only one, or the one whose lower-case name is `dialect`);
    `dialect` is the MLIR namespace (default: the DSL name in lower case)."""
    found = read_dsl(records)
    if cpp_dialect is None:
        if dialect is not None:
            hits = [k for k in found if k.lower() == dialect.lower()]
        else:
            hits = list(found)
        if len(hits) != 1:
            raise DslError(f"expected one DSL dialect{f' named {dialect}' if dialect else ''}, found "
                           f"{sorted(found) or 'none'}")
        cpp_dialect = hits[0]
    lists = found.get(cpp_dialect)
    if lists is None:
        raise DslError(f"no DSL declaration for dialect '{cpp_dialect}' (found {sorted(found)})")
    return DslDialect(dialect or cpp_dialect.lower(), lists, syntax)


def register_dsl(registry: Registry, records: Records, origin: str, dialect: str | None = None,
                 cpp_dialect: str | None = None, syntax: DslSyntax | None = None) -> DslDialect:
    """Register the codec and syntax of a dialect declared in the bytecode DSL."""
    d = dsl_dialect(records, dialect, cpp_dialect, syntax)
    register_kind_dialect(registry, d, origin)
    return d


def register_dsl_records(registry: Registry, records: Records, origin: str) -> list[DslDialect]:
    """Register every dialect an `llvm-tblgen --dump-json` output declares in the DSL (a user's
    `--ods-json` file); dialect names are the DSL names in lower case.  The builtin declaration that such
    files include is skipped: the builtin codec stays mlirbc's own."""
    out = []
    for cpp in sorted(read_dsl(records)):
        if cpp.lower() == "builtin":
            continue
        out.append(register_dsl(registry, records, origin, cpp_dialect=cpp))
    return out
