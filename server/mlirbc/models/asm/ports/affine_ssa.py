"""Affine maps written over SSA values, as upstream's affine ops print them (`%arg0[%i + 1, symbol(%n)]`,
`max(%a, %b)`): a map kept as text printed with its operands in place of its dimensions and symbols
(`printAffineMapOfSSAIds`), and such text read back into a map and its operands as MLIR's parser builds
them (`parseAffineMapOfSSAIds`: dimensions, then symbols, numbered by first appearance).

A map prints this way only when the text says all of it: its dimension (and symbol) operands distinct,
each one used, first used in the order of their positions.  Otherwise reading the text back would give
another map (an unused operand dropped, `%a + %a` merged), and the op prints generic.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ....ir.attributes import Attribute
from ....ir.operation import Value
from ....syntax.attr_parser import parse_attribute_text
from ....syntax.attr_printer import plain_attribute_text
from ...affine_build import AffineSyntaxError, parse_affine_map
from ...builtin_newer import affine_map_text, print_affine_expr
from ..api import AsmParser, AsmPrinter, OperandRef, SyntaxModelError

_LEAF = re.compile(r"\b([ds])(\d+)\b")


@dataclass(frozen=True)
class MapText:
    """An affine map as MLIR prints it: dimension and symbol counts, each result's text."""

    dims: int
    syms: int
    results: tuple[str, ...]

    def slice(self, start: int, size: int) -> MapText:
        return MapText(self.dims, self.syms, self.results[start:start + size])


def map_of(a: Attribute | None, what: str = "map") -> MapText:
    """The map an `affine_map<...>` attribute holds (SyntaxModelError: not one, or not as MLIR prints it)."""
    text = plain_attribute_text(a) if a is not None else ""
    if not text.startswith("affine_map<"):
        raise SyntaxModelError(f"'{what}' is not an affine map")
    try:
        dims, syms, results = parse_affine_map(text)
    except AffineSyntaxError as exc:
        raise SyntaxModelError(f"'{what}': {exc}") from None
    if affine_map_text(dims, syms, results) != text:
        raise SyntaxModelError(f"'{what}' is not printed as MLIR prints it")
    return MapText(dims, syms, tuple(print_affine_expr(e) for e in results))


def map_attr(dims: int, syms: int, results: Sequence[str]) -> Attribute:
    """The `affine_map<...>` attribute MLIR's parser builds from these results (simplified as it does)."""
    d = ", ".join(f"d{i}" for i in range(dims))
    s = f"[{', '.join(f's{i}' for i in range(syms))}]" if syms else ""
    text = f"affine_map<({d}){s} -> ({', '.join(results)})>"
    try:
        return parse_attribute_text(affine_map_text(*parse_affine_map(text)))
    except AffineSyntaxError as exc:
        raise ValueError(str(exc)) from None


def check_readable(m: MapText, operands: Sequence[Value], disjoint: bool = True) -> None:
    """Raise SyntaxModelError unless the SSA form of `m` over `operands` reads back as `m` and `operands`.

    `disjoint`: the same value may not be both a dimension and a symbol (parseAffineMapOfSSAIds looks
    names up across both kinds; affine.parallel's bounds deduplicate each kind by itself)."""
    if len(operands) != m.dims + m.syms:
        raise SyntaxModelError("the map's operands do not match its dimensions and symbols")
    dims, syms = operands[:m.dims], operands[m.dims:]
    seen: dict[str, list[int]] = {"d": [], "s": []}
    for result in m.results:
        for leaf in _LEAF.finditer(result):
            order = seen[leaf.group(1)]
            i = int(leaf.group(2))
            if i not in order:
                order.append(i)
    if seen["d"] != list(range(m.dims)) or seen["s"] != list(range(m.syms)):
        raise SyntaxModelError("the map's operands are not used in the order of their positions")
    if len({id(v) for v in dims}) != len(dims) or len({id(v) for v in syms}) != len(syms):
        raise SyntaxModelError("a value is two of the map's operands")
    if disjoint and {id(v) for v in dims} & {id(v) for v in syms}:
        raise SyntaxModelError("a value is both a dimension and a symbol of the map")


def print_ssa_expr(p: AsmPrinter, result: str, dims: Sequence[Value], syms: Sequence[Value]) -> None:
    """One result with `%value` for each dimension, `symbol(%value)` for each symbol."""
    pos = 0
    for leaf in _LEAF.finditer(result):
        p.write(result[pos:leaf.start()])
        i = int(leaf.group(2))
        if leaf.group(1) == "d":
            p.operand(dims[i])
        else:
            p.write("symbol(")
            p.operand(syms[i])
            p.write(")")
        pos = leaf.end()
    p.write(result[pos:])


def print_ssa_map(p: AsmPrinter, m: MapText, operands: Sequence[Value]) -> None:
    """printAffineMapOfSSAIds: the results, comma-separated."""
    for i, result in enumerate(m.results):
        if i:
            p.write(", ")
        print_ssa_expr(p, result, operands[:m.dims], operands[m.dims:])


class SsaNames:
    """The dimensions and symbols read so far, each operand once (by name), in order of appearance."""

    def __init__(self, shared: bool = True) -> None:
        self.shared = shared
        self.dims: list[OperandRef] = []
        self.syms: list[OperandRef] = []
        self._names: dict[tuple[str, bool], str] = {}

    def leaf(self, ref: OperandRef, symbol: bool) -> str:
        if self.shared:  # parseAffineMapOfSSAIds: a name read before keeps its kind
            for kind in (False, True):
                if (ref.name, kind) in self._names:
                    return self._names[ref.name, kind]
        key = (ref.name, symbol)
        if key not in self._names:
            group = self.syms if symbol else self.dims
            self._names[key] = f"{'s' if symbol else 'd'}{len(group)}"
            group.append(ref)
        return self._names[key]

    def known(self, ref: OperandRef, symbol: bool) -> bool:
        """Whether `leaf` gives `ref` a name read before (no new operand)."""
        if self.shared:
            return (ref.name, False) in self._names or (ref.name, True) in self._names
        return (ref.name, symbol) in self._names

    def operands(self) -> list[OperandRef]:
        return [*self.dims, *self.syms]

    def attr(self, p: AsmParser, results: Sequence[str]) -> Attribute:
        try:
            return map_attr(len(self.dims), len(self.syms), results)
        except ValueError as exc:
            raise p.error(f"expected an affine expression: {exc}") from None


def parse_ssa_expr(p: AsmParser, names: SsaNames) -> str:
    """One affine expression over SSA values, up to a `,` or closing bracket outside it; the result's
    text over `d`/`s` names."""
    out: list[str] = []
    depth = 0
    while True:
        ref = p.parse_optional_operand()
        if ref is None and p.parse_optional_keyword("symbol"):
            p.parse_punct("(")
            ref = p.parse_operand()
            p.parse_punct(")")
            symbol = True
        else:
            symbol = False
        if ref is not None:
            if names.known(ref, symbol):
                p.mention(ref)
            out.append(names.leaf(ref, symbol))
            continue
        number = p.parse_optional_integer()
        if number is not None:
            out.append(str(number))
            continue
        if p.parse_optional_punct("("):
            depth += 1
            out.append("(")
            continue
        if depth and p.parse_optional_punct(")"):
            depth -= 1
            out.append(")")
            continue
        op = next((x for x in ("+", "-", "*") if p.parse_optional_punct(x)), None)
        if op is None:
            for word in ("mod", "floordiv", "ceildiv"):
                if p.parse_optional_keyword(word):
                    op = word
                    break
        if op is None:
            break
        out.append(op)
    if depth or not out:
        raise p.error("expected an affine expression")
    return " ".join(out)


def parse_ssa_list(p: AsmParser, names: SsaNames, close: str) -> list[str]:
    """Expressions separated by commas up to `close` (consumed); the list may be empty."""
    results: list[str] = []
    if p.parse_optional_punct(close):
        return results
    while True:
        results.append(parse_ssa_expr(p, names))
        if not p.parse_optional_punct(","):
            break
    p.parse_punct(close)
    return results
