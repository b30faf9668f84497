"""Builtin codes newer than MLIR 22 (IREE's `MLIR24.0.0git` files): binary affine maps (code 23) and
strided layouts (code 25), decoded by the `attr:builtin` model to the text mlir-opt 22 prints.

Ground truth is each IREE file's `NAME.generic.txt` (iree-opt's print, same newer MLIR): our parser reads
it into uniqued objects, its ops are walked alongside the decoded file's, and every new-code entry must be
found, at the same place, in a part of an op that compares identical (`is`) with the generic print.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pytest

from corpus import CORPUS, expect
from iree_support import reference_print
from mlirbc.binary.stream import ByteReader, ByteWriter
from mlirbc.bytecode import builtin_codec
from mlirbc.bytecode.reader import decode_bytecode
from mlirbc.bytecode.template import template_of
from mlirbc.errors import DecodeError
from mlirbc.ir.attributes import Attribute, DialectAttr, DictionaryAttr, FallbackAttr
from mlirbc.ir.module import Module
from mlirbc.ir.operation import PROPS_ATTRIBUTE, PROPS_DECODED, Operation
from mlirbc.ir.types import FallbackType, MemRefType, Type
from mlirbc.models.api import EntryReader, EntryWriter
from mlirbc.models.build import models
from mlirbc.models.builtin_models import BUILTIN_ORIGIN, MLIR24_ORIGIN
from mlirbc.models.builtin_newer import NewerBuiltinCodec
from mlirbc.models.ods import register_ods_dialects
from mlirbc.models.registry import Registry
from mlirbc.syntax.attr_printer import identity_layout_text
from mlirbc.view.parser import parse_module
from mlirbc.view.printer import print_module
from oracle import SKIP_REASON, mlir_opt_path, run_mlir_opt

IREE = CORPUS / "iree"
FILES = sorted(IREE.glob("*.mlirbc"))


def _generic_for(path: Path) -> str:
    # mlp2.flow.vN.mlirbc are the same module written at older bytecode versions.
    return reference_print(path)


def _new_code_entries(m: Module) -> list[tuple[int, int, Attribute]]:
    """(entry number, code, decoded value) of every builtin attribute entry with a code above 22."""
    assert m.source is not None
    out = []
    for i, e in enumerate(m.source.attrs):
        if m.dialects[e.dialect].name != "builtin" or not e.custom:
            continue
        code = ByteReader(m.source.data, e.offset, e.offset + e.size, "t").varint()
        if code > 22:
            assert isinstance(e.value, Attribute)
            out.append((i, code, e.value))
    return out


class _TableReader(ByteReader):
    """Reads an entry's bytes, resolving references through a decoded module's tables."""

    def __init__(self, m: Module, data: bytes) -> None:
        super().__init__(memoryview(data), 0, len(data), "test")
        assert m.source is not None
        self.source = m.source
        self.version = m.version

    def attr(self) -> Attribute:
        v = self.source.attrs[self.varint()].value
        assert isinstance(v, Attribute)
        return v

    def type(self) -> Type:
        v = self.source.types[self.varint()].value
        assert isinstance(v, Type)
        return v

    def resource_key(self, handle: int) -> str:
        raise AssertionError("no resources in memref types")


def _structural(m: Module, t: Type) -> Type:
    """A builtin type kept opaque for the view (memref with a hal memory space), decoded as it is."""
    if isinstance(t, FallbackType) and t.dialect_name == "builtin":
        return builtin_codec.decode_type(cast(builtin_codec.BuiltinReader, _TableReader(m, t.data)))
    return t


def _children(x: object) -> Iterator[object]:
    for name in getattr(type(x), "__slots__", ()):
        v = getattr(x, name, None)
        stack = [v]
        while stack:
            y = stack.pop()
            if isinstance(y, (Attribute, Type)):
                yield y
            elif isinstance(y, tuple):
                stack.extend(y)


def _reachable(roots: list[object]) -> set[int]:
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        x = stack.pop()
        if id(x) not in seen:
            seen.add(id(x))
            stack.extend(_children(x))
    return seen


def _named(op: Operation) -> dict[str, Attribute]:
    """Inherent and discardable attributes by name (versions < 5 keep inherent ones in the dictionary)."""
    out: dict[str, Attribute] = {}
    if op.attributes is not None:
        out.update((k.value.decode(), v) for k, v in op.attributes.entries)
    p = op.properties
    if p is not None and p.kind == PROPS_DECODED:
        out.update(p.values)
    if p is not None and p.kind == PROPS_ATTRIBUTE and isinstance(p.attribute, DictionaryAttr):
        out.update((k.value.decode(), v) for k, v in p.attribute.entries)
    return out


def _slots(m: Module, op: Operation) -> list[tuple[str, object]]:
    """The comparable parts of an op, each a uniqued object (opaque properties are left out)."""
    parts: list[tuple[str, object]] = []
    parts += [(f"result #{i}", _structural(m, r.type)) for i, r in enumerate(op.results)]
    parts += [(f"operand #{i}", _structural(m, v.type)) for i, v in enumerate(op.operands)]
    parts += [(f"attribute {k}", v) for k, v in _named(op).items()]
    p = op.properties
    if p is not None and p.kind == PROPS_ATTRIBUTE and not isinstance(p.attribute, DictionaryAttr):
        parts.append(("properties", p.attribute))
    for ri, region in enumerate(op.regions):
        for bi, block in enumerate(region.blocks):
            parts += [(f"region {ri} block {bi} arg #{i}", _structural(m, a.type))
                      for i, a in enumerate(block.arguments)]
    return parts


def _opaque(x: object) -> bool:
    return any(isinstance(y, (FallbackAttr, FallbackType)) for y in _walk(x))


def _walk(x: object) -> Iterator[object]:
    stack = [x]
    while stack:
        y = stack.pop()
        yield y
        stack.extend(_children(y))


def _validated(path: Path) -> tuple[Module, set[int], list[str]]:
    """Decode `path`, walk its ops alongside its generic print: (module, ids of objects found in parts that
    compare identical, mismatches)."""
    m = decode_bytecode(path.read_bytes())
    assert m.error is None and m.root is not None, f"{path.name}: {m.error}"
    parsed = parse_module(_generic_for(path))
    assert parsed.module is not None and parsed.module.root is not None, parsed.errors[:3]
    ours, theirs = list(m.root.walk()), list(parsed.module.root.walk())
    assert [o.name for o in ours] == [o.name for o in theirs], f"{path.name}: the ops differ"
    good: list[object] = []
    bad: list[str] = []
    for n, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        expected = dict(_slots(parsed.module, b))
        for where, value in _slots(m, a):
            if value is expected.get(where):
                good.append(value)
            elif not _opaque(value):  # opaque parts cannot be compared; anything else must be identical
                bad.append(f"{path.name}: op #{n} ({a.name}) {where} differs from the generic print")
    return m, _reachable(good), bad


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_new_code_entry_is_what_the_generic_print_shows(path: Path) -> None:
    m, found, bad = _validated(path)
    assert not bad, "\n".join(bad[:10])
    entries = _new_code_entries(m)
    generic = _generic_for(path)
    missing = [f"attr #{i} (code {code}) = {getattr(v, 'text', v)!r}" for i, code, v in entries
               if id(v) not in found]
    assert not missing, f"{path.name}: entries not found in matching ops:\n" + "\n".join(missing)
    for _, code, v in entries:
        assert isinstance(v, DialectAttr) and v.dialect_name == "builtin"
        assert v.text.startswith("affine_map<" if code == 23 else "strided<")
        # an identity map may only be implied (a memref's default layout is not printed)
        assert v.text in generic or v.text in {identity_layout_text(n) for n in range(8)}, v.text


def test_new_code_census() -> None:
    """All new codes in the corpus are attributes 23 (145 entries in the full corpus) and 25 (1); no new
    type code occurs."""
    counts: dict[int, int] = {}
    for path in FILES:
        m = decode_bytecode(path.read_bytes())
        assert m.source is not None
        for _, code, _ in _new_code_entries(m):
            counts[code] = counts.get(code, 0) + 1
        notes = template_of(m).fallbacks  # type: ignore[union-attr]
        assert not [f for f in notes if f.name == "builtin" and f.kind == "attribute"], path.name
        for e in m.source.types:
            if m.dialects[e.dialect].name == "builtin" and e.custom:
                assert ByteReader(m.source.data, e.offset, e.offset + e.size, "t").varint() <= 20
    assert counts == {23: expect(full=145, core=132), 25: 1}


def _hal_memrefs(m: Module) -> list[MemRefType]:
    assert m.source is not None
    return [e.value for e in m.source.types if isinstance(e.value, MemRefType)
            and isinstance(e.value.memory_space, DialectAttr) and e.value.memory_space.dialect_name == "hal"]


def test_hal_memory_spaces_decode_with_the_iree_models() -> None:
    # With IREE's models (the `iree` plugin) the tool that reads the view (iree-opt) knows `hal`: the
    # memrefs decode, their memory space is the `#hal.descriptor_type<...>` text iree-opt prints.
    reg = models(entry_points=False)
    from mlirbc.models.iree import register

    register(reg, "test")
    m = decode_bytecode((IREE / "mlp2.executable-configurations.mlirbc").read_bytes(), reg)
    assert m.source is not None and not template_of(m).fallbacks
    spaces = {t.memory_space for t in _hal_memrefs(m)}
    assert spaces == {DialectAttr.get("hal", "#hal.descriptor_type<storage_buffer>")}
    assert "memref<8x10xf32, strided<[10, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>" in \
        print_module(m).text


def test_models_and_reasons_are_recorded() -> None:
    # Without IREE's models (mlir-opt 22 reads the view), hal memory spaces stay opaque.
    m = decode_bytecode((IREE / "mlp2.executable-configurations.mlirbc").read_bytes(),
                      models(entry_points=False))
    assert m.source is not None
    new = {i for i, _, _ in _new_code_entries(m)}
    assert new and all(m.source.attrs[i].model == MLIR24_ORIGIN for i in new)  # the mlir24 set's codec
    # memrefs whose memory space is `#hal.descriptor_type<...>` stay opaque, with the reason
    assert not _hal_memrefs(m)
    opaque = [e for e in m.source.types if isinstance(e.value, FallbackType)]
    assert opaque and all("memory space" in e.fallback_reason for e in opaque)
    decoded = [_structural(m, e.value) for e in opaque if isinstance(e.value, Type)]
    assert all(isinstance(t, MemRefType) for t in decoded)
    layouts = {getattr(t, "layout", None) for t in decoded}
    assert DialectAttr.get("builtin", "strided<[10, 1], offset: ?>") in layouts


def _with_producer(data: bytes, producer: bytes) -> bytes:
    old = b"MLIR24.0.0git"
    assert len(producer) == len(old) and data.index(old) < 16  # same length: offsets stay
    return data.replace(old, producer, 1)


def test_mlir22_producer_with_an_unknown_code_is_a_located_error() -> None:
    data = _with_producer((IREE / "mlp2.flow.mlirbc").read_bytes(), b"MLIR22.0.0git")
    good = decode_bytecode((IREE / "mlp2.flow.mlirbc").read_bytes())
    assert good.source is not None
    offsets = {good.source.attrs[i].offset for i, _, _ in _new_code_entries(good)}
    try:
        m = decode_bytecode(data)
        err = m.error
    except DecodeError as exc:
        err = exc
    assert isinstance(err, DecodeError)
    assert err.section == "AttrType" and err.offset in offsets
    assert "unknown builtin attribute code 23" in err.message and "MLIR22.0.0git" in err.message


def _registry_without_newer_codes() -> Registry:
    reg = Registry()
    register_ods_dialects(reg, BUILTIN_ORIGIN)
    return reg


def test_without_the_model_new_codes_stay_fallbacks_with_a_reason() -> None:
    m = decode_bytecode((IREE / "mlp2.flow.mlirbc").read_bytes(), _registry_without_newer_codes())
    assert m.source is not None
    entries = _new_code_entries(m)
    assert entries and all(isinstance(v, FallbackAttr) for _, _, v in entries)
    assert all("unknown builtin attribute code 23" in m.source.attrs[i].fallback_reason
               for i, _, _ in entries)


class _Failing(NewerBuiltinCodec):
    def decode_attribute(self, r: EntryReader) -> Attribute:
        raise RuntimeError("boom")


def test_a_failing_model_keeps_the_fallback_and_says_why() -> None:
    reg = _registry_without_newer_codes()
    reg.register_attr_codec(_Failing(), "api test")
    m = decode_bytecode((IREE / "mlp2.flow.mlirbc").read_bytes(), reg)
    assert m.source is not None
    entries = _new_code_entries(m)
    assert entries and all(isinstance(v, FallbackAttr) for _, _, v in entries)
    reason = m.source.attrs[entries[0][0]].fallback_reason
    assert "newer-builtin model (api test) failed" in reason and "boom" in reason


def test_the_writer_keeps_new_entries_as_text_for_mlir22_and_binary_for_mlir24() -> None:
    reg = models(entry_points=False)
    attr = DialectAttr.get("builtin", "affine_map<(d0) -> (d0)>")
    for model_set, expected in ((None, None), ("mlir22", None), ("mlir24", bytes([0x2F, 0x09]))):
        codec = reg.with_set(model_set).attr_codec("builtin")[0]
        assert codec is not None
        w = ByteWriter()
        assert codec.encode_attribute(attr, cast(EntryWriter, w)) is (expected is not None)
        assert (bytes(w.buf) or None) == expected


# -- the printer against the oracle ----------------------------------------------------------------

def _expr(w: ByteWriter, e: tuple[object, ...]) -> None:
    kind = e[0]
    assert isinstance(kind, int)
    w.varint(kind)
    if kind in (0, 1):
        assert isinstance(e[1], int)
        w.varint(e[1])
    elif kind == 2:
        assert isinstance(e[1], int)
        w.signed_varint(e[1])
    else:
        for sub in e[1:]:
            assert isinstance(sub, tuple)
            _expr(w, sub)


def _general(dims: int, syms: int, *results: tuple[object, ...]) -> bytes:
    w = ByteWriter()
    w.varint(23)
    w.varint(dims << 2 | 3)
    w.varint(syms)
    w.varint(len(results))
    for e in results:
        _expr(w, e)
    return bytes(w.buf)


D0, D1, S0 = (0, 0), (0, 1), (1, 0)


def _c(v: int) -> tuple[int, int]:
    return (2, v)


ADD, MUL, MOD, FLOORDIV, CEILDIV = 3, 4, 5, 6, 7
HANDMADE: list[tuple[bytes, str]] = [
    (_general(2, 1, (ADD, (ADD, (MUL, D0, _c(-1)), D1), (MUL, S0, _c(-3))), (MOD, D0, _c(4)),
              (FLOORDIV, (ADD, D0, _c(1)), _c(2)), (MUL, D0, _c(-1)),
              (ADD, D0, (MUL, (ADD, D1, _c(2)), _c(-1))), (MUL, (CEILDIV, D0, _c(3)), _c(2))),
     "affine_map<(d0, d1)[s0] -> (-d0 + d1 - s0 * 3, d0 mod 4, (d0 + 1) floordiv 2, -d0, "
     "d0 - (d1 + 2), (d0 ceildiv 3) * 2)>"),
    (_general(1, 0, (ADD, (MUL, D0, _c(-3)), _c(5)), (ADD, D0, _c(-7)), _c(0), _c(-5)),
     "affine_map<(d0) -> (d0 * -3 + 5, d0 - 7, 0, -5)>"),
    (_general(0, 2, (ADD, S0, (1, 1))), "affine_map<()[s0, s1] -> (s0 + s1)>"),
    (bytes([0x2F, 0x01]), "affine_map<() -> ()>"),
    (bytes([0x2F, 0x1B, 0x03, 0x05, 0x01]), "affine_map<(d0, d1, d2) -> (d1, d2, d0)>"),
    (bytes([0x33, 0x01, 0x05, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x05]),
     "strided<[?, 1]>"),
    (bytes([0x33, 0x29, 0x01]), "strided<[], offset: 10>"),
]


def _reader(data: bytes) -> EntryReader:
    return cast(EntryReader, ByteReader(memoryview(data), 0, len(data), "test"))


@pytest.mark.parametrize("data,text", HANDMADE, ids=[t for _, t in HANDMADE])
def test_handmade_encodings_decode_to_their_text(data: bytes, text: str) -> None:
    a = NewerBuiltinCodec().decode_attribute(_reader(data))
    assert isinstance(a, DialectAttr) and a.text == text


@pytest.mark.parametrize("data", [bytes([0x2F, 0x1B, 0x03, 0x03, 0x01]),  # not a permutation
                                  bytes([0x2F, 0x15, 0x03, 0x05]),  # projected d2 of 2 dims
                                  _general(1, 0, (0, 1)),  # d1 of 1 dim
                                  _general(1, 0, (9,)),  # unknown expression kind
                                  # an identity map of 2^62 dims
                                  bytes([0x2F, 0x00, 0xFC, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
                                  bytes([0x31])])  # code 24
def test_malformed_or_unknown_encodings_are_refused(data: bytes) -> None:
    with pytest.raises(Exception):  # noqa: B017  (the reader turns any failure into a fallback)
        NewerBuiltinCodec().decode_attribute(_reader(data))


_needs_oracle = pytest.mark.skipif(mlir_opt_path() is None, reason=SKIP_REASON)


@_needs_oracle
def test_mlir_opt_prints_every_decoded_text_unchanged() -> None:
    texts = {t for _, t in HANDMADE}
    for path in FILES:
        m = decode_bytecode(path.read_bytes())
        texts |= {v.text for _, _, v in _new_code_entries(m) if isinstance(v, DialectAttr)}
    ordered = sorted(texts)
    src = "\n".join(f'"t.op"() {{v = {t}}} : () -> ()' for t in ordered)
    proc = run_mlir_opt(["--allow-unregistered-dialect", "--mlir-print-op-generic",
                         "--mlir-print-local-scope"], src.encode())
    assert proc.returncode == 0, proc.stderr.decode()
    printed = re.findall(r'"t\.op"\(\) \{v = (.*)\} : \(\) -> \(\)', proc.stdout.decode())
    assert printed == ordered


PARSE_ONLY = ["--allow-unregistered-dialect", "--mlir-very-unsafe-disable-verifier-on-parsing",
              "-o", "/dev/null"]


@_needs_oracle
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_mlir_opt_accepts_the_view(path: Path) -> None:
    # Without IREE's models: mlir-opt 22 knows no IREE dialect (their ops stay fallbacks).
    m = decode_bytecode(path.read_bytes(), models(entry_points=False))
    text = print_module(m).text.encode("utf-8", "surrogateescape")
    proc = run_mlir_opt(PARSE_ONLY, text)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[:500]
