"""Affine maps, integer sets and strided layouts written in MLIR 24's binary form (builtin codes 23-25),
against iree-opt (iree-base-compiler 3.13, MLIR 24).

For generated expressions (seeded, reproducible) iree-opt prints each map in its canonical text; iree-opt
then writes that text as bytecode, and `affine_build` must write exactly the same entry bytes from the
same text (it rebuilds the trees MLIR's parser builds, simplifications included).
"""

from __future__ import annotations

import random
from typing import cast

import pytest

from iree_support import IREE_SKIP_REASON, iree_opt, iree_opt_path
from mlirbc.binary.stream import ByteReader, ByteWriter
from mlirbc.bytecode.reader import read_bytecode
from mlirbc.ir.attributes import DialectAttr
from mlirbc.models.affine_build import (
    encode_affine_text,
    map_form,
    parse_affine_map,
    parse_integer_set,
)
from mlirbc.models.api import EntryReader, EntryWriter
from mlirbc.models.builtin_newer import IDENTITY, PERMUTATION, PROJECTED_PERMUTATION, NewerBuiltinCodec
from mlirbc.view.parser import parse_module

needs_iree = pytest.mark.skipif(iree_opt_path() is None, reason=IREE_SKIP_REASON)


def _encode(text: str) -> bytes | None:
    w = ByteWriter()
    return bytes(w.buf) if encode_affine_text(text, cast(EntryWriter, w)) else None


def _decode(data: bytes) -> str:
    a = NewerBuiltinCodec().decode_attribute(cast(EntryReader, ByteReader(memoryview(data), 0, len(data),
                                                                          "test")))
    assert isinstance(a, DialectAttr)
    return a.text


# -- without the oracle: shapes, forms and the decoder as inverse ----------------------------------------
@pytest.mark.parametrize("text,form", [
    ("affine_map<() -> ()>", IDENTITY),
    ("affine_map<(d0, d1) -> (d0, d1)>", IDENTITY),
    ("affine_map<(d0, d1) -> (d1, d0)>", PERMUTATION),
    ("affine_map<(d0, d1, d2) -> (d2, d0)>", PROJECTED_PERMUTATION),
    ("affine_map<(d0, d1) -> ()>", PROJECTED_PERMUTATION),
])
def test_short_forms(text: str, form: int) -> None:
    assert map_form(*parse_affine_map(text)) == form
    data = _encode(text)
    assert data is not None and _decode(data) == text


@pytest.mark.parametrize("text", [
    "affine_map<(d0)[s0] -> (d0)>",  # symbols: always the general form
    "affine_map<(d0, d1) -> (d1, d1)>",
    "affine_map<(d0, d1) -> (d0, 0)>",
    "affine_map<(d0, d1)[s0] -> (d0 * 3 - d1 * 2 + s0 + 5, (d0 floordiv 4) mod 8, d1 ceildiv 2)>",
    "affine_map<(d0) -> (-d0)>",
    "affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 == 0)>",
    "strided<[?, 1], offset: ?>",
    "strided<[4, 1]>",
    "strided<[], offset: 10>",
])
def test_encodings_decode_to_their_text(text: str) -> None:
    data = _encode(text)
    assert data is not None and _decode(data) == text


def test_text_is_built_as_mlir_builds_it() -> None:
    # MLIR orders the dims of a sum (iree-opt writes these bytes for this text); `d0 + d0` folds.
    assert _encode("affine_map<(d0, d1) -> (d1 + d0)>") == bytes.fromhex("2f1701030701010103")
    assert _decode(_encode("affine_map<(d0) -> (d0 + d0 - 3)>") or b"") == "affine_map<(d0) -> (d0 * 2 - 3)>"


def test_what_is_not_an_affine_map_is_left_as_text() -> None:
    assert _encode("affine_map<(d0) -> (d0 * d0)>") is None  # not affine
    assert _encode("affine_map<(d0) -> (d7)>") is None
    assert _encode("affine_map<(d0) -> (99999999999999999999)>") is None
    assert _encode("strided<[x]>") is None
    assert _encode("dense<1> : tensor<i32>") is None


def test_sets_parse_constraints() -> None:
    dims, syms, cons = parse_integer_set("affine_set<(d0, d1)[s0] : (d0 >= s0, d1 <= 4, d0 == d1)>")
    assert (dims, syms, [eq for _, eq in cons]) == (2, 1, [False, False, True])


# -- against iree-opt -------------------------------------------------------------------------------------
def _random_expr(rng: random.Random, dims: int, syms: int, depth: int) -> str:
    if depth == 0 or rng.random() < 0.3:
        choice = rng.random()
        if choice < 0.45 and dims:
            return f"d{rng.randrange(dims)}"
        if choice < 0.7 and syms:
            return f"s{rng.randrange(syms)}"
        return str(rng.randint(-12, 12))
    lhs = _random_expr(rng, dims, syms, depth - 1)
    op = rng.choice(["+", "-", "+", "*", "floordiv", "ceildiv", "mod", "neg"])
    if op == "neg":
        return f"-({lhs})"
    if op == "*":
        factor = str(rng.choice([-4, -2, -1, 0, 1, 2, 3, 8])) if rng.random() < 0.7 or not syms \
            else f"s{rng.randrange(syms)}"
        return f"({lhs}) * {factor}" if rng.random() < 0.5 else f"{factor} * ({lhs})"
    if op in ("floordiv", "ceildiv", "mod"):
        divisor = str(rng.choice([1, 2, 3, 4, 8, 16, -2])) if rng.random() < 0.8 or not syms \
            else f"s{rng.randrange(syms)}"
        return f"({lhs}) {op} {divisor}"
    return f"({lhs}) {op} ({_random_expr(rng, dims, syms, depth - 1)})"


def _random_map(rng: random.Random) -> str:
    dims, syms = rng.randint(0, 4), rng.randint(0, 2)
    if rng.random() < 0.3 and dims:  # permutation-like maps, as linalg has them
        picks = rng.sample(range(dims), rng.randint(0, dims))
        results = [f"d{p}" for p in picks]
    else:
        results = [_random_expr(rng, dims, syms, rng.randint(0, 4)) for _ in range(rng.randint(0, 3))]
    head = f"({', '.join(f'd{i}' for i in range(dims))})" + \
        (f"[{', '.join(f's{i}' for i in range(syms))}]" if syms else "")
    return f"affine_map<{head} -> ({', '.join(results)})>"


def _random_set(rng: random.Random) -> str:
    dims, syms = rng.randint(1, 3), rng.randint(0, 2)
    cons = [f"{_random_expr(rng, dims, syms, 3)} {rng.choice(['>=', '==', '<='])} "
            f"{_random_expr(rng, dims, syms, 1)}" for _ in range(rng.randint(1, 3))]
    head = f"({', '.join(f'd{i}' for i in range(dims))})" + \
        (f"[{', '.join(f's{i}' for i in range(syms))}]" if syms else "")
    return f"affine_set<{head} : ({', '.join(cons)})>"


def _iree_entries(texts: list[str]) -> list[tuple[str, bytes]]:
    """iree-opt's canonical print of each attribute, and the entry bytes iree-opt writes when it reads
    that print (the trees MLIR's parser builds from it)."""
    attrs = ", ".join(f"t.a{i} = {t}" for i, t in enumerate(texts))
    src = f'"builtin.module"() ({{\n^bb0:\n}}) {{{attrs}}} : () -> ()\n'.encode()
    printed = iree_opt(["--mlir-print-op-generic"], src)
    parsed = parse_module(printed.decode())
    assert parsed.module is not None and parsed.module.root is not None, parsed.errors[:3]
    assert parsed.module.root.attributes is not None
    texts_printed = {k.text: v for k, v in parsed.module.root.attributes.entries}
    m = read_bytecode(iree_opt(["--emit-bytecode"], printed))
    assert m.root is not None and m.root.attributes is not None and m.source is not None
    values = {k.text: v for k, v in m.root.attributes.entries}
    entries = {id(e.value): bytes(m.source.data[e.offset:e.offset + e.size]) for e in m.source.attrs}
    out = []
    for i in range(len(texts)):
        p = texts_printed[f"t.a{i}"]
        assert isinstance(p, DialectAttr), p
        out.append((p.text, entries[id(values[f"t.a{i}"])]))
    return out


SEEDS = range(8)


@needs_iree
@pytest.mark.parametrize("seed", SEEDS)
def test_generated_maps_and_sets_encode_as_iree_opt_writes_them(seed: int) -> None:
    rng = random.Random(seed)
    texts = [_random_map(rng) for _ in range(150)] + [_random_set(rng) for _ in range(50)]
    texts += ["strided<[?, 1], offset: ?>", "strided<[8, 1], offset: 4>", "strided<[]>"]
    mismatches = []
    for printed, expected in _iree_entries(texts):
        ours = _encode(printed)
        if ours != expected:
            mismatches.append(f"{printed}: iree-opt {expected.hex(' ')}, ours "
                              f"{ours.hex(' ') if ours is not None else 'text form'}")
    assert not mismatches, f"{len(mismatches)} of {len(texts)}:\n" + "\n".join(mismatches[:15])
