"""Builtin attribute codes written by MLIR newer than 22 (IREE's `MLIR24.0.0git`), as a registry codec.

The reader asks this codec (key `attr:builtin`) only when the builtin codec does not know a code and the
producer may be newer (`attrtypes.producer_may_be_newer`).  Decoded values are `DialectAttr("builtin", text)`
with the exact text mlir-opt 22 prints, which is also what the text parser keeps for these keywords.

Codes (the entry's first varint; the table continues format 5.3):

* 23 AffineMapAttr: `header = (numDims << 2) | form`, then by form
  0 identity (nothing more), 1 permutation (numDims dim positions),
  2 projected permutation (numResults, then that many dim positions),
  3 general (numSymbols, numResults, then each result as an expression tree in prefix order:
  `0 pos` dim, `1 pos` symbol, `2 svarint` constant, `3..7 lhs rhs` add, mul, mod, floordiv, ceildiv).
* 24 IntegerSetAttr: numDims, numSymbols, numConstraints, each constraint's expression as above, then one
  raw byte per constraint (1: `== 0`, 0: `>= 0`).
* 25 StridedLayoutAttr: offset (svarint), then `varint n` and n strides (svarint); INT64_MIN is `?`.

Types: MLIR 24 gives the small float types their own codes (MLIR 22 stores them as text), in this order:
21 tf32, 22 f8E5M2, 23 f8E4M3, 24 f8E4M3FN, 25 f8E5M2FNUZ, 26 f8E4M3FNUZ, 27 f8E4M3B11FNUZ, 28 f8E3M4,
29 f4E2M1FN, 30 f6E2M3FN, 31 f6E3M2FN, 32 f8E8M0FNU (established with iree-opt 3.13: each type alone).

Other codes are not known here: the entry stays a fallback.

Writing: the codec registered for every model set answers False (the text form, which MLIR 22 reads);
the one registered for the `mlir24` set (`binary=True`) writes codes 23-25 as MLIR 24 does, from the
trees `affine_build` rebuilds out of the text.
"""

from __future__ import annotations

from typing import TypeAlias

from ..ir.attributes import Attribute, DialectAttr
from ..ir.types import FloatType, Type
from .api import EntryReader, EntryWriter, ModelError

AFFINE_MAP = 23
INTEGER_SET = 24
STRIDED_LAYOUT = 25

FLOAT_TYPE_CODES: dict[int, str] = {
    21: "tf32", 22: "f8E5M2", 23: "f8E4M3", 24: "f8E4M3FN", 25: "f8E5M2FNUZ", 26: "f8E4M3FNUZ",
    27: "f8E4M3B11FNUZ", 28: "f8E3M4", 29: "f4E2M1FN", 30: "f6E2M3FN", 31: "f6E3M2FN", 32: "f8E8M0FNU",
}
"""MLIR 24's builtin type codes for float types that MLIR 22 writes as text."""
_FLOAT_CODE_OF = {name: code for code, name in FLOAT_TYPE_CODES.items()}

IDENTITY, PERMUTATION, PROJECTED_PERMUTATION, GENERAL = 0, 1, 2, 3
DIM, SYMBOL, CONSTANT, ADD, MUL, MOD, FLOORDIV, CEILDIV = range(8)
_BINOP_SPELLING = {ADD: " + ", MUL: " * ", MOD: " mod ", FLOORDIV: " floordiv ", CEILDIV: " ceildiv "}

_DYNAMIC = -(1 << 63)
_MAX_WORK = 128
"""Upstream's reader refuses an expression whose work stack grows past this (malformed input guard)."""
_MAX_IDS = 1 << 16
"""More dims or symbols than this is damage: an identity header costs one byte but names them all."""

Expr: TypeAlias = "tuple[int, int] | tuple[int, Expr, Expr]"
"""`(DIM|SYMBOL|CONSTANT, value)` or `(binop kind, lhs, rhs)`."""


def _list_count(r: EntryReader, what: str) -> int:
    n = r.varint()
    remaining = getattr(r, "remaining", None)
    # Every listed item takes at least one byte: a larger count is damage, not a huge map.
    if isinstance(remaining, int) and n > remaining:
        raise ModelError(f"{what} count {n} is longer than the entry")
    return n


def read_affine_expr(r: EntryReader, num_dims: int, num_symbols: int) -> Expr:
    """One expression in prefix order, without recursion (as upstream reads it)."""
    work: list[int] = [-1]  # -1: read an operand; k >= 0: combine the last two operands with binop k
    operands: list[Expr] = []
    while work:
        if len(work) > _MAX_WORK:
            raise ModelError("affine expression nested too deeply")
        item = work.pop()
        if item >= 0:
            rhs = operands.pop()
            lhs = operands.pop()
            operands.append((item, lhs, rhs))
            continue
        kind = r.varint()
        if kind == DIM or kind == SYMBOL:
            pos = r.varint()
            # Upstream does not check positions, but a map naming d5 of two dims has no valid text.
            limit = num_dims if kind == DIM else num_symbols
            if pos >= limit:
                raise ModelError(f"affine {'dim' if kind == DIM else 'symbol'} position {pos} "
                                 f"out of range ({limit})")
            operands.append((kind, pos))
        elif kind == CONSTANT:
            operands.append((CONSTANT, r.signed_varint()))
        elif kind in _BINOP_SPELLING:
            work += [kind, -1, -1]
        else:
            raise ModelError(f"unknown affine expression kind {kind}")
    assert len(operands) == 1
    return operands[0]


def read_affine_map(r: EntryReader) -> tuple[int, int, list[Expr]]:
    """(numDims, numSymbols, results) of one encoded map (the code already read)."""
    header = r.varint()
    form, num_dims = header & 3, header >> 2
    if num_dims > _MAX_IDS:
        raise ModelError(f"affine map with {num_dims} dims")
    if form == IDENTITY:
        return num_dims, 0, [(DIM, i) for i in range(num_dims)]
    if form == PERMUTATION:
        if num_dims > getattr(r, "remaining", num_dims):
            raise ModelError(f"permutation of {num_dims} dims is longer than the entry")
        perm = [r.varint() for _ in range(num_dims)]
        if sorted(perm) != list(range(num_dims)):
            raise ModelError(f"affine permutation {perm} is not a permutation of {num_dims} dims")
        return num_dims, 0, [(DIM, p) for p in perm]
    if form == PROJECTED_PERMUTATION:
        positions = [r.varint() for _ in range(_list_count(r, "affine map result"))]
        if any(p >= num_dims for p in positions):
            raise ModelError(f"projected permutation {positions} names a dim beyond {num_dims}")
        return num_dims, 0, [(DIM, p) for p in positions]
    num_symbols = r.varint()
    if num_symbols > _MAX_IDS:
        raise ModelError(f"affine map with {num_symbols} symbols")
    n = _list_count(r, "affine map result")
    return num_dims, num_symbols, [read_affine_expr(r, num_dims, num_symbols) for _ in range(n)]


def _neg(v: int) -> int:
    # C++ negates int64_t: INT64_MIN stays INT64_MIN.
    return v if v == _DYNAMIC else -v


def print_affine_expr(e: Expr, strong: bool = False) -> str:
    """MLIR's affine expression printer (AsmPrinter printAffineExprInternal): `strong` is the binding
    strength of the enclosing context; subtraction and negation are printed from their `* -1` forms."""
    kind = e[0]
    if kind == DIM:
        return f"d{e[1]}"
    if kind == SYMBOL:
        return f"s{e[1]}"
    if kind == CONSTANT:
        return str(e[1])
    assert len(e) == 3
    lhs, rhs = e[1], e[2]
    if kind != ADD:
        if rhs[0] == CONSTANT and kind == MUL and rhs[1] == -1:
            s = "-" + print_affine_expr(lhs, True)
        else:
            s = print_affine_expr(lhs, True) + _BINOP_SPELLING[kind] + print_affine_expr(rhs, True)
        return f"({s})" if strong else s
    s = ""
    if rhs[0] == MUL and len(rhs) == 3 and rhs[2][0] == CONSTANT:
        rlhs, factor = rhs[1], rhs[2][1]
        assert isinstance(factor, int)
        if factor == -1:
            s = print_affine_expr(lhs) + " - " + print_affine_expr(rlhs, rlhs[0] == ADD)
        elif factor < -1:
            s = print_affine_expr(lhs) + " - " + print_affine_expr(rlhs, True) + f" * {_neg(factor)}"
    if not s and rhs[0] == CONSTANT and isinstance(rhs[1], int) and rhs[1] < 0:
        s = print_affine_expr(lhs) + f" - {_neg(rhs[1])}"
    if not s:
        s = print_affine_expr(lhs) + " + " + print_affine_expr(rhs)
    return f"({s})" if strong else s


def affine_map_text(num_dims: int, num_symbols: int, results: list[Expr]) -> str:
    """`affine_map<(d0, d1)[s0] -> (...)>` exactly as mlir-opt 22 prints the attribute."""
    dims = ", ".join(f"d{i}" for i in range(num_dims))
    syms = f"[{', '.join(f's{i}' for i in range(num_symbols))}]" if num_symbols else ""
    body = ", ".join(print_affine_expr(e) for e in results)
    return f"affine_map<({dims}){syms} -> ({body})>"


def integer_set_text(num_dims: int, num_symbols: int, constraints: list[tuple[Expr, bool]]) -> str:
    """`affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 == 0)>` as mlir-opt prints the attribute."""
    dims = ", ".join(f"d{i}" for i in range(num_dims))
    syms = f"[{', '.join(f's{i}' for i in range(num_symbols))}]" if num_symbols else ""
    body = ", ".join(print_affine_expr(e) + (" == 0" if eq else " >= 0") for e, eq in constraints)
    return f"affine_set<({dims}){syms} : ({body})>"


def read_integer_set(r: EntryReader) -> str:
    num_dims = r.varint()
    num_symbols = r.varint()
    if num_dims > _MAX_IDS or num_symbols > _MAX_IDS:
        raise ModelError(f"integer set with {num_dims} dims and {num_symbols} symbols")
    exprs = [read_affine_expr(r, num_dims, num_symbols) for _ in range(_list_count(r, "constraint"))]
    flags = []
    for _ in exprs:
        b = r.byte()
        if b > 1:
            raise ModelError(f"integer set equality flag must be 0 or 1, got {b}")
        flags.append(bool(b))
    return integer_set_text(num_dims, num_symbols, list(zip(exprs, flags, strict=True)))


def _int_or_question(v: int) -> str:
    return "?" if v == _DYNAMIC else str(v)


def read_strided_layout(r: EntryReader) -> str:
    """`strided<[s0, s1], offset: o>` as mlir-opt 22 prints it (the offset is left out when 0)."""
    offset = r.signed_varint()
    strides = [r.signed_varint() for _ in range(_list_count(r, "stride"))]
    text = "strided<[" + ", ".join(_int_or_question(s) for s in strides) + "]"
    if offset != 0:
        text += ", offset: " + _int_or_question(offset)
    return text + ">"


class NewerBuiltinCodec:
    """`AttrTypeCodec` for builtin codes newer than MLIR 22 (see the module docstring).

    Encoding always answers False: the writer then stores these attributes as text, the form MLIR 22 (and
    every reader of the file's declared version) understands.  Template-mode writing keeps the original
    entries' bytes anyway, so a file read from a newer producer keeps its binary maps where unchanged.
    """

    dialect = "builtin"

    def __init__(self, binary: bool = False) -> None:
        self.binary = binary
        """Write codes 23-25 (MLIR 24's writer) instead of the text form."""

    def decode_attribute(self, r: EntryReader) -> Attribute:
        code = r.varint()
        if code == AFFINE_MAP:
            return DialectAttr.get("builtin", affine_map_text(*read_affine_map(r)))
        if code == INTEGER_SET:
            return DialectAttr.get("builtin", read_integer_set(r))
        if code == STRIDED_LAYOUT:
            return DialectAttr.get("builtin", read_strided_layout(r))
        raise ModelError(f"builtin attribute code {code} is not known to the newer-codes model either")

    def decode_type(self, r: EntryReader) -> Type:
        code = r.varint()
        name = FLOAT_TYPE_CODES.get(code)
        if name is not None:
            return FloatType.get(name)
        raise ModelError(f"builtin type code {code} is not known to the newer-codes model either")

    def encode_attribute(self, a: Attribute, w: EntryWriter) -> bool:
        """MLIR 24's binary form when `binary`, else False: the text form (MLIR 22 has no binary affine map,
        integer set or strided layout)."""
        if not self.binary or not isinstance(a, DialectAttr) or a.dialect_name != "builtin":
            return False
        from .affine_build import encode_affine_text

        return encode_affine_text(a.text, w)

    def encode_type(self, t: Type, w: EntryWriter) -> bool:
        """MLIR 24's code for a small float type when `binary`, else False (the text form)."""
        code = _FLOAT_CODE_OF.get(t.name) if self.binary and isinstance(t, FloatType) else None
        if code is None:
            return False
        w.varint(code)
        return True
