"""IREE's PCF (parallel control flow) `custom<...>` directives (PCFOps.cpp, IREE 3.13, checked against
iree-opt): `custom<ParallelExecutionBody>` (pcf.generic, pcf.loop: the optional leading arguments, then on a
line of its own `execute(%ref = %init, ...)[%id: index, ...]`, the reference and result types on two more
lines, and the region) and `custom<InferNumIndexArgs>` (nothing printed; the count of trailing index
arguments read from the region)."""

from __future__ import annotations

from ...ir.attributes import ArrayAttr, Attribute, IntegerAttr
from ...ir.operation import BlockArgument, Region, Value
from ...ir.types import IndexType, IntegerType, Type
from .api import Argument, AsmParser, AsmPrinter, OperandRef, SyntaxModelError
from .directives import ParseArgs, PrintArgs, parser, printer
from .directives_iree import _dynamic_dims, parse_dims


def _flags(value: Attribute | None, count: int) -> list[bool]:
    if not isinstance(value, ArrayAttr) or len(value.elements) != count or \
            not all(isinstance(e, IntegerAttr) and e.bits in (0, 1) for e in value.elements):
        raise SyntaxModelError("is_tied does not hold one flag per result")
    return [bool(e.bits) for e in value.elements]  # type: ignore[attr-defined]


def _count(value: Attribute | None) -> int:
    return value.bits if isinstance(value, IntegerAttr) else 0


def _arguments(p: AsmPrinter, args: list[BlockArgument]) -> None:
    for i, arg in enumerate(args):
        if i:
            p.write(", ")
        p.region_argument(arg)


# -- custom<ParallelExecutionBody>($inits, type($inits), $dynamic_sizes, type($results), $is_tied, $region
#    [, $num_leading_args, "true"]) --------------------------------------------------------------------------
@printer("ParallelExecutionBody")
def print_parallel_execution_body(p: AsmPrinter, a: PrintArgs) -> None:
    inits, sizes, results = a.values(0), a.values(2), a.types(3)
    tied = _flags(a.attr(4), len(results))
    body = a.region(5)
    leading = _count(a.attr(6)) if len(a) > 7 else 0
    if not body.blocks:
        raise SyntaxModelError("the body has no block")
    args = list(body.blocks[0].arguments)
    n_index = len(args) - len(results) - leading
    if n_index < 0 or sum(tied) != len(inits):
        raise SyntaxModelError("the body's arguments do not fit the results and leading arguments")
    if leading:
        p.write("-> (")
        _arguments(p, args[:leading])
        p.write(")")
    refs = args[leading:leading + len(results)]
    p.newline()
    p.write("  execute")
    if results:
        p.write("(")
        at = 0
        for i, ref in enumerate(refs):
            if i:
                p.write(", ")
            p.operand(ref)
            if tied[i]:
                p.write(" = ")
                p.operand(inits[at])
                at += 1
        p.write(")")
    p.write("[")
    _arguments(p, args[len(args) - n_index:])
    p.write("]")
    if not results:
        p.write(" ")
        p.region(body, False, True)
        return
    p.newline()
    p.write("       : (")
    for i, ref in enumerate(refs):
        if i:
            p.write(", ")
        p.type(ref.type)
    p.write(")")
    p.newline()
    p.write("      -> (")
    at = 0
    for i, t in enumerate(results):
        if i:
            p.write(", ")
        p.type(t)
        n = _dynamic_dims(t)
        if not tied[i] and n:
            if n < 0 or at + n > len(sizes):
                raise SyntaxModelError("fewer dynamic sizes than dynamic dimensions")
            p.write("{")
            for j in range(n):
                if j:
                    p.write(", ")
                p.operand(sizes[at + j])
            p.write("}")
            at += n
    p.write(") ")
    if at != len(sizes):
        raise SyntaxModelError("more dynamic sizes than dynamic dimensions")
    p.region(body, False, True)


def _typed_arguments(p: AsmParser, close: str) -> list[Argument]:
    out: list[Argument] = []
    if p.parse_optional_punct(close):
        return out
    while True:
        out.append(p.parse_argument(allow_type=True, allow_attrs=True))
        if not p.parse_optional_punct(","):
            break
    p.parse_punct(close)
    return out


@parser("ParallelExecutionBody")
def parse_parallel_execution_body(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    with_leading = len(a) > 7
    leading: list[Argument] = []
    if with_leading and p.parse_optional_punct("->"):
        p.parse_punct("(")
        leading = _typed_arguments(p, ")")
    p.parse_keyword("execute")
    refs: list[Argument] = []
    inits: list[OperandRef] = []
    tied: list[bool] = []
    if p.parse_optional_punct("("):
        while True:
            refs.append(p.parse_argument(allow_type=False, allow_attrs=True))
            if p.parse_optional_punct("="):
                inits.append(p.parse_operand())
                tied.append(True)
            else:
                tied.append(False)
            if not p.parse_optional_punct(","):
                break
        p.parse_punct(")")
    p.parse_punct("[")
    index_args = _typed_arguments(p, "]")
    results: list[Type] = []
    init_types: list[Type] = []
    sizes: list[OperandRef] = []
    if refs:
        p.parse_punct(":")
        p.parse_punct("(")
        for i, ref in enumerate(refs):
            if i:
                p.parse_punct(",")
            ref.type = p.parse_type()
        p.parse_punct(")")
        p.parse_punct("->")
        p.parse_punct("(")
        for i, is_tied in enumerate(tied):
            if i:
                p.parse_punct(",")
            t = p.parse_type()
            if _dynamic_dims(t) is None:
                raise p.error("result type must be a shaped type")
            if is_tied:
                init_types.append(t)
            else:
                parse_dims(p, t, sizes)
            results.append(t)
        p.parse_punct(")")
    region = p.parse_region([*leading, *refs, *index_args])
    a.set_values(0, inits)
    a.set_types(1, init_types)
    a.set_values(2, sizes)
    a.set_types(3, results)
    a.set_attr(4, ArrayAttr.get(tuple(IntegerAttr.get(IntegerType.get(1), int(t)) for t in tied)))
    a.set_region(5, region)
    if with_leading:
        a.set_attr(6, IntegerAttr.get(IntegerType.get(64), len(leading)))
    return True


# -- custom<InferNumIndexArgs>(ref($region), ref($num_leading_args), $num_index_args) ------------------------
@printer("InferNumIndexArgs")
def print_infer_num_index_args(p: AsmPrinter, a: PrintArgs) -> None:
    """Nothing: the count comes back from the region's trailing index arguments, which must be all of them
    (else the count would read back otherwise)."""
    body = a.region(0)
    leading = _count(a.attr(1))
    args: list[Value] = list(body.blocks[0].arguments[leading:]) if body.blocks else []
    trailing = 0
    for arg in reversed(args):
        if not isinstance(arg.type, IndexType):
            break
        trailing += 1
    if trailing != _count(a.attr(2)):
        raise SyntaxModelError("num_index_args is not the count of trailing index arguments")


@parser("InferNumIndexArgs")
def parse_infer_num_index_args(p: AsmParser, a: ParseArgs, optional: bool) -> bool:
    region: Region | None = a.region(0)
    leading = _count(a.attr(1))
    count = 0
    if region is not None and region.blocks:
        for arg in reversed(list(region.blocks[0].arguments[leading:])):
            if not isinstance(arg.type, IndexType):
                break
            count += 1
    a.set_attr(2, IntegerAttr.get(IntegerType.get(64), count))
    return True
