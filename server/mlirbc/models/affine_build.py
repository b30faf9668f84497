"""Affine maps and integer sets from their MLIR text, built as MLIR builds them, and their binary form.

MLIR newer than 22 writes `affine_map<...>` (builtin attribute code 23) and `affine_set<...>` (code 24) in
binary: the expression trees in prefix order.  To write a fresh file as `iree-opt` does, the text must
become the very trees MLIR's parser makes, and MLIR simplifies every expression as it constructs it
(`AffineExpr::operator+` and friends): constants fold and move right, `x * 1` and `x + 0` vanish,
`c1 * e + c2 * e` becomes `(c1 + c2) * e`, `e - (e floordiv c) * c` becomes `e mod c`, dims and symbols
of a commutative operation are ordered by position (dims first), ... .  This module parses the text with
MLIR's grammar (`+ -` below `* floordiv ceildiv mod`, left to right, unary minus as `* -1`, `a - b` as
`a + b * -1`) and applies those construction rules; `tests/test_affine_build.py` checks it against
`iree-opt` (iree-base-compiler 3.13) on generated expressions.

As in MLIR, the tree built from a text need not print back as that text (`d1 + d0` is built as
`d0 + d1`; a print of an unsimplified tree is simplified when read): the bytes are those of the tree MLIR's
parser would build.  Text that is not an affine map MLIR accepts is left to the text form.
"""

from __future__ import annotations

import math
import re

from .api import EntryWriter
from .builtin_newer import (
    ADD,
    AFFINE_MAP,
    CEILDIV,
    CONSTANT,
    DIM,
    FLOORDIV,
    GENERAL,
    IDENTITY,
    INTEGER_SET,
    MOD,
    MUL,
    PERMUTATION,
    PROJECTED_PERMUTATION,
    STRIDED_LAYOUT,
    SYMBOL,
    Expr,
)

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1


class AffineSyntaxError(ValueError):
    """The text is not an affine map / integer set MLIR would parse (or not one this module handles)."""


# -- construction with MLIR's simplifications -----------------------------------------------------------
def _const(v: int) -> Expr:
    return (CONSTANT, v)


def _is_const(e: Expr) -> bool:
    return e[0] == CONSTANT


def _value(e: Expr) -> int:
    """The position of a dim/symbol or the value of a constant."""
    if len(e) != 2:
        raise AssertionError("not a leaf expression")
    return e[1]


def _operands(e: Expr) -> tuple[Expr, Expr]:
    if len(e) != 3:
        raise AssertionError("not a binary expression")
    return e[1], e[2]


def _is(e: Expr, kind: int) -> bool:
    return e[0] == kind


def _const_rhs(e: Expr, kind: int) -> int | None:
    """c when `e` is `x <kind> c` with a constant c, else None."""
    if len(e) == 3 and e[0] == kind and e[2][0] == CONSTANT:
        return _value(e[2])
    return None


def _fits(v: int) -> bool:
    return INT64_MIN <= v <= INT64_MAX


def symbolic_or_constant(e: Expr) -> bool:
    stack = [e]
    while stack:
        x = stack.pop()
        if x[0] == DIM:
            return False
        if len(x) == 3:
            stack += [x[1], x[2]]
    return True


def largest_known_divisor(e: Expr) -> int:
    kind = e[0]
    if kind in (DIM, SYMBOL):
        return 1
    if kind == CONSTANT:
        return abs(_value(e))
    lhs, rhs = _operands(e)
    if kind in (FLOORDIV, CEILDIV):
        if _is_const(rhs) and _value(rhs) != 0:
            d = largest_known_divisor(lhs)
            if _cmod(d, _value(rhs)) == 0:
                return abs(_cdiv(d, _value(rhs)))
        return 1
    if kind == MUL:
        return largest_known_divisor(lhs) * largest_known_divisor(rhs)
    return math.gcd(largest_known_divisor(lhs), largest_known_divisor(rhs))  # ADD, MOD


def _cdiv(a: int, b: int) -> int:
    """C++ integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _cmod(a: int, b: int) -> int:
    """C++ `%` (the sign of the dividend)."""
    return a - _cdiv(a, b) * b


def _ordered(lhs: Expr, rhs: Expr) -> tuple[Expr, Expr]:
    """Operands of a commutative node as MLIR stores them: by position within dims or symbols, and a dim
    before a symbol; anything else keeps its order."""
    if lhs[0] == rhs[0] and lhs[0] in (DIM, SYMBOL):
        return (lhs, rhs) if _value(lhs) < _value(rhs) else (rhs, lhs)
    if lhs[0] == SYMBOL and rhs[0] == DIM:
        return rhs, lhs
    return lhs, rhs


def add(lhs: Expr, rhs: Expr) -> Expr:
    s = _simplify_add(lhs, rhs)
    if s is not None:
        return s
    a, b = _ordered(lhs, rhs)
    return (ADD, a, b)


def _simplify_add(lhs: Expr, rhs: Expr) -> Expr | None:
    if _is_const(lhs) and _is_const(rhs):
        total = _value(lhs) + _value(rhs)
        return _const(total) if _fits(total) else None
    if _is_const(lhs) or (symbolic_or_constant(lhs) and not symbolic_or_constant(rhs)):
        return add(rhs, lhs)
    if _is_const(rhs) and _value(rhs) == 0:
        return lhs
    lhs_plus_c = _const_rhs(lhs, ADD)
    if lhs_plus_c is not None and _is_const(rhs):
        return add(_operands(lhs)[0], _const(lhs_plus_c + _value(rhs)))
    # c1 * e + c2 * e -> (c1 + c2) * e
    c1 = _const_rhs(lhs, MUL)
    first = _operands(lhs)[0] if c1 is not None else lhs
    c2 = _const_rhs(rhs, MUL)
    second = _operands(rhs)[0] if c2 is not None else rhs
    if first == second:
        return mul(first, _const((1 if c1 is None else c1) + (1 if c2 is None else c2)))
    if lhs_plus_c is not None:
        inner, c = _operands(lhs)
        return add(add(inner, rhs), c)
    if len(rhs) != 3:
        return None
    lrhs, rrhs = _operands(rhs)
    # e + ((e floordiv q) * q) * -1 -> e mod q
    if _is_const(rrhs) and _value(rrhs) == -1 and _is(lrhs, MUL):
        llrhs, rlrhs = _operands(lrhs)
        if not _is(llrhs, FLOORDIV):
            return None
        dividend, divisor = _operands(llrhs)
        if divisor == rlrhs and lhs == dividend:
            return mod(lhs, rlrhs)
    # e + (e floordiv c) * -c -> e mod c
    if not _is(rhs, MUL) or not _is(lrhs, FLOORDIV):
        return None
    dividend, divisor = _operands(lrhs)
    if _is_const(divisor) and _value(divisor) > 0 and lhs == dividend and divisor == neg(rrhs):
        return mod(lhs, divisor)
    # (a + e) + (e floordiv c) * -c -> a + e mod c
    if _is(lhs, ADD):
        a, b = _operands(lhs)
        s = _simplify_add(b, rhs)
        if s is not None:
            return add(a, s)
    return None


def mul(lhs: Expr, rhs: Expr) -> Expr:
    s = _simplify_mul(lhs, rhs)
    if s is not None:
        return s
    a, b = _ordered(lhs, rhs)
    return (MUL, a, b)


def _simplify_mul(lhs: Expr, rhs: Expr) -> Expr | None:
    if _is_const(lhs) and _is_const(rhs):
        product = _value(lhs) * _value(rhs)
        return _const(product) if _fits(product) else None
    if not symbolic_or_constant(lhs) and not symbolic_or_constant(rhs):
        return None
    if not symbolic_or_constant(rhs) or _is_const(lhs):
        return mul(rhs, lhs)
    if _is_const(rhs):
        if _value(rhs) == 1:
            return lhs
        if _value(rhs) == 0:
            return rhs
    c = _const_rhs(lhs, MUL)
    if c is not None:
        inner = _operands(lhs)[0]
        if _is_const(rhs):
            return mul(inner, _const(c * _value(rhs)))
        return mul(mul(inner, rhs), _const(c))
    return None


def neg(e: Expr) -> Expr:
    return mul(e, _const(-1))


def floordiv(lhs: Expr, rhs: Expr) -> Expr:
    s = _simplify_div(lhs, rhs, FLOORDIV)
    return s if s is not None else (FLOORDIV, lhs, rhs)


def ceildiv(lhs: Expr, rhs: Expr) -> Expr:
    s = _simplify_div(lhs, rhs, CEILDIV)
    return s if s is not None else (CEILDIV, lhs, rhs)


def _simplify_div(lhs: Expr, rhs: Expr, kind: int) -> Expr | None:
    if not _is_const(rhs) or _value(rhs) == 0:
        return None
    r = _value(rhs)
    if _is_const(lhs):
        v = _value(lhs)
        if v == INT64_MIN and r == -1:
            return None
        return _const(v // r if kind == FLOORDIV else -((-v) // r))
    if r == 1:
        return lhs
    c = _const_rhs(lhs, MUL)
    if c is not None and _cmod(c, r) == 0:
        return mul(_operands(lhs)[0], _const(_cdiv(c, r)))
    if kind == FLOORDIV and _is(lhs, ADD):
        a, b = _operands(lhs)
        if _cmod(largest_known_divisor(a), r) == 0 or _cmod(largest_known_divisor(b), r) == 0:
            return add(floordiv(a, rhs), floordiv(b, rhs))
    return None


def mod(lhs: Expr, rhs: Expr) -> Expr:
    s = _simplify_mod(lhs, rhs)
    return s if s is not None else (MOD, lhs, rhs)


def _simplify_mod(lhs: Expr, rhs: Expr) -> Expr | None:
    if not _is_const(rhs) or _value(rhs) < 1:
        return None
    r = _value(rhs)
    if _is_const(lhs):
        return _const(_value(lhs) % r)
    if largest_known_divisor(lhs) % r == 0:
        return _const(0)
    if _is(lhs, ADD):
        a, b = _operands(lhs)
        if largest_known_divisor(a) % r == 0:
            return mod(b, rhs)
        if largest_known_divisor(b) % r == 0:
            return mod(a, rhs)
    inner_mod = _const_rhs(lhs, MOD)
    if inner_mod is not None and inner_mod >= 1 and inner_mod % r == 0:
        return mod(_operands(lhs)[0], rhs)
    return None


# -- the text -------------------------------------------------------------------------------------------
_TOKEN = re.compile(r"\s*(?:(?P<num>\d+)|(?P<id>[A-Za-z_][\w$.]*)|(?P<op>->|>=|<=|==|[-+*()\[\],:<>]))")
_HIGH = {"*": MUL, "floordiv": FLOORDIV, "ceildiv": CEILDIV, "mod": MOD}
_BUILD = {MUL: mul, FLOORDIV: floordiv, CEILDIV: ceildiv, MOD: mod}


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens: list[str] = []
        pos = 0
        while pos < len(text):
            if text[pos:].strip() == "":
                break
            m = _TOKEN.match(text, pos)
            if m is None or m.end() == pos:
                raise AffineSyntaxError(f"unexpected character {text[pos:pos + 1]!r}")
            self.tokens.append(m.group("num") or m.group("id") or m.group("op") or "")
            pos = m.end()
        self.i = 0
        self.names: dict[str, Expr] = {}

    def peek(self) -> str:
        return self.tokens[self.i] if self.i < len(self.tokens) else ""

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if not tok or (expected is not None and tok != expected):
            raise AffineSyntaxError(f"expected {expected or 'more'}, found {tok or 'the end'!r}")
        self.i += 1
        return tok

    def id_list(self, close: str, kind: int) -> int:
        n = 0
        if self.peek() != close:
            while True:
                name = self.take()
                if not re.match(r"[A-Za-z_]", name) or name in self.names or name in _HIGH:
                    raise AffineSyntaxError(f"bad identifier {name!r}")
                self.names[name] = (kind, n)
                n += 1
                if self.peek() != ",":
                    break
                self.take(",")
        self.take(close)
        return n

    def dims_and_symbols(self) -> tuple[int, int]:
        self.take("(")
        dims = self.id_list(")", DIM)
        syms = 0
        if self.peek() == "[":
            self.take("[")
            syms = self.id_list("]", SYMBOL)
        return dims, syms

    def expr(self) -> Expr:
        lhs = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            rhs = self.term()
            lhs = add(lhs, rhs) if op == "+" else add(lhs, neg(rhs))
        return lhs

    def term(self) -> Expr:
        lhs = self.operand()
        while self.peek() in _HIGH:
            kind = _HIGH[self.take()]
            rhs = self.operand()
            if kind == MUL and not symbolic_or_constant(lhs) and not symbolic_or_constant(rhs):
                raise AffineSyntaxError("non-affine multiplication")
            if kind != MUL and not symbolic_or_constant(rhs):
                raise AffineSyntaxError("non-affine division")
            lhs = _BUILD[kind](lhs, rhs)
        return lhs

    def operand(self) -> Expr:
        tok = self.take()
        if tok == "(":
            e = self.expr()
            self.take(")")
            return e
        if tok == "-":
            return neg(self.operand())
        if tok.isdigit():
            v = int(tok)
            if v > INT64_MAX:
                raise AffineSyntaxError(f"constant {tok} does not fit 64 bits")
            return _const(v)
        named = self.names.get(tok)
        if named is None:
            raise AffineSyntaxError(f"unknown identifier {tok!r}")
        return named

    def end(self) -> None:
        if self.peek():
            raise AffineSyntaxError(f"unexpected {self.peek()!r}")


def parse_affine_map(text: str) -> tuple[int, int, list[Expr]]:
    """`affine_map<(d0)[s0] -> (...)>` -> (numDims, numSymbols, results) as MLIR's parser builds them."""
    body = _inside(text, "affine_map<")
    p = _Parser(body)
    dims, syms = p.dims_and_symbols()
    p.take("->")
    p.take("(")
    results: list[Expr] = []
    if p.peek() != ")":
        while True:
            results.append(p.expr())
            if p.peek() != ",":
                break
            p.take(",")
    p.take(")")
    p.end()
    return dims, syms, results


def parse_integer_set(text: str) -> tuple[int, int, list[tuple[Expr, bool]]]:
    """`affine_set<(d0)[s0] : (e >= 0, ...)>` -> (numDims, numSymbols, [(expr, is_equality)])."""
    body = _inside(text, "affine_set<")
    p = _Parser(body)
    dims, syms = p.dims_and_symbols()
    p.take(":")
    p.take("(")
    constraints: list[tuple[Expr, bool]] = []
    while True:
        lhs = p.expr()
        op = p.take()
        rhs = p.expr()
        if op == ">=":
            constraints.append((add(lhs, neg(rhs)), False))
        elif op == "<=":
            constraints.append((add(rhs, neg(lhs)), False))
        elif op == "==":
            constraints.append((add(lhs, neg(rhs)), True))
        else:
            raise AffineSyntaxError(f"expected >=, <= or ==, found {op!r}")
        if p.peek() != ",":
            break
        p.take(",")
    p.take(")")
    p.end()
    return dims, syms, constraints


def _inside(text: str, prefix: str) -> str:
    if not text.startswith(prefix) or not text.endswith(">"):
        raise AffineSyntaxError(f"not {prefix}...>")
    return text[len(prefix):-1]


# -- the binary form ------------------------------------------------------------------------------------
def write_expr(w: EntryWriter, e: Expr) -> None:
    """Prefix order: the kind, then a position, a signed constant, or both operands."""
    stack = [e]
    while stack:
        x = stack.pop()
        w.varint(x[0])
        if x[0] in (DIM, SYMBOL):
            w.varint(_value(x))
        elif x[0] == CONSTANT:
            w.signed_varint(_value(x))
        else:
            lhs, rhs = _operands(x)
            stack += [rhs, lhs]


def map_form(num_dims: int, num_symbols: int, results: list[Expr]) -> int:
    """The header form MLIR 24 writes: only maps without symbols get the short forms."""
    if num_symbols:
        return GENERAL
    positions = [_value(e) if e[0] == DIM else -1 for e in results]
    if positions == list(range(num_dims)):
        return IDENTITY
    if -1 in positions or len(set(positions)) != len(positions) or len(positions) > num_dims:
        return GENERAL
    return PERMUTATION if len(positions) == num_dims else PROJECTED_PERMUTATION


def write_affine_map(w: EntryWriter, num_dims: int, num_symbols: int, results: list[Expr]) -> None:
    form = map_form(num_dims, num_symbols, results)
    w.varint(AFFINE_MAP)
    w.varint(num_dims << 2 | form)
    if form == IDENTITY:
        return
    if form == PERMUTATION:
        for e in results:
            w.varint(_value(e))
        return
    if form == PROJECTED_PERMUTATION:
        w.varint(len(results))
        for e in results:
            w.varint(_value(e))
        return
    w.varint(num_symbols)
    w.varint(len(results))
    for e in results:
        write_expr(w, e)


def encode_affine_text(text: str, w: EntryWriter) -> bool:
    """Write `affine_map<...>`, `affine_set<...>` or `strided<...>` text in MLIR 24's binary form; False
    (nothing written) when the text is none of them or would not come back identical."""
    try:
        if text.startswith("affine_map<"):
            dims, syms, results = parse_affine_map(text)
            write_affine_map(w, dims, syms, results)
            return True
        if text.startswith("affine_set<"):
            dims, syms, constraints = parse_integer_set(text)
            w.varint(INTEGER_SET)
            w.varint(dims)
            w.varint(syms)
            w.varint(len(constraints))
            for e, _ in constraints:
                write_expr(w, e)
            for _, eq in constraints:
                w.byte(1 if eq else 0)
            return True
        if text.startswith("strided<"):
            parsed = parse_strided(text)
            if parsed is None:
                return False
            offset, strides = parsed
            w.varint(STRIDED_LAYOUT)
            w.signed_varint(offset)
            w.varint(len(strides))
            for s in strides:
                w.signed_varint(s)
            return True
    except (AffineSyntaxError, RecursionError):
        return False
    return False


_DYNAMIC = INT64_MIN
_STRIDED = re.compile(r"strided<\[([^\]]*)\](?:, offset: (\?|-?\d+))?>\Z")


def parse_strided(text: str) -> tuple[int, list[int]] | None:
    """`strided<[s0, ?], offset: o>` -> (offset, strides), `?` as INT64_MIN; None if not that form."""
    m = _STRIDED.match(text)
    if m is None:
        return None

    def value(s: str) -> int | None:
        s = s.strip()
        if s == "?":
            return _DYNAMIC
        try:
            v = int(s)
        except ValueError:
            return None
        return v if _fits(v) else None

    strides = [value(s) for s in m.group(1).split(",")] if m.group(1).strip() else []
    offset = value(m.group(2)) if m.group(2) is not None else 0
    if offset is None or any(s is None for s in strides):
        return None
    return offset, [s for s in strides if s is not None]
