"""`llvm`: functions against their `!llvm.func<...>` type (entry block, returns), calls and address-of
against the symbols they name.

LLVM types are kept as text (`!llvm.func<i32 (ptr, i64)>`; nested LLVM types drop their `!llvm.` prefix),
so a value's type is compared with a parameter by text: the type as printed, its `!llvm.` prefix dropped.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from ...ir.attributes import DenseArrayAttr, FlatSymbolRefAttr, SymbolRefAttr, TypeAttr
from ...ir.operation import Operation
from ...ir.types import DialectType, IntegerType, Type
from ..core import SYMBOLS, Finding, OpContext, OpVerifier, Related, attr_of, type_text
from ..ods import segment_sizes

_PREFIX = "!llvm."
_LLVM_WORDS = ("ptr", "struct", "array", "void", "token", "label", "metadata", "target", "ppc_fp128",
               "x86_amx", "func", "vec")


@dataclass(frozen=True)
class LLVMFunctionType:
    result: str
    params: tuple[str, ...]
    vararg: bool

    @property
    def void(self) -> bool:
        return self.result == "void"


def _split_top(text: str) -> list[str]:
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    last = text[start:].strip()
    if last:
        out.append(last)
    return out


def function_type(op: Operation) -> LLVMFunctionType | None:
    """The `function_type` of an `llvm.func` (None when it is not one this can read)."""
    a = attr_of(op, "function_type")
    t = a.type if isinstance(a, TypeAttr) else None
    if not isinstance(t, DialectType) or not t.text.startswith("!llvm.func<") or not t.text.endswith(">"):
        return None
    body = t.text[len("!llvm.func<"):-1].strip()
    depth = 0
    for i, ch in enumerate(body):
        if ch in "<([{":
            if ch == "(" and depth == 0:
                result = body[:i].strip()
                rest = body[i:]
                if not rest.endswith(")") or not result:
                    return None
                params = _split_top(rest[1:-1])
                vararg = bool(params) and params[-1] == "..."
                return LLVMFunctionType(result, tuple(params[:-1] if vararg else params), vararg)
            depth += 1
        elif ch in ">)]}":
            depth -= 1
    return None


def short(t: Type) -> str:
    """A type as it appears nested in an LLVM type (`!llvm.ptr` -> `ptr`)."""
    text = type_text(t)
    return text[len(_PREFIX):] if text.startswith(_PREFIX) else text


def full(text: str) -> str:
    """A nested LLVM type's text as a type of its own (`ptr` -> `!llvm.ptr`)."""
    word = text.split("<", 1)[0].split("(", 1)[0]
    return _PREFIX + text if word in _LLVM_WORDS else text


def verify_func(ctx: OpContext) -> Finding | None:
    op = ctx.op
    ft = function_type(op)
    if ft is None or len(op.regions) != 1 or not op.regions[0].blocks:
        return None
    args = op.regions[0].blocks[0].arguments
    if len(args) != len(ft.params):
        return ctx.fail(f"entry block must have {len(ft.params)} arguments to match function signature",
                        part=("block", 0), check="FunctionOpInterface")
    for i, (a, p) in enumerate(zip(args, ft.params, strict=True)):
        if short(a.type) != p:
            return ctx.fail(f"type of entry block argument #{i}('{type_text(a.type)}') must match the type "
                            f"of the corresponding argument in function signature('{full(p)}')",
                            part=("block", 0), check="FunctionOpInterface")
    return None


def _enclosing_func(ctx: OpContext) -> Operation | None:
    for a in reversed(ctx.ancestors):
        if a.name == "llvm.func":
            return a
    return None


def verify_return(ctx: OpContext) -> Finding | None:
    fn = _enclosing_func(ctx)
    if fn is None or ctx.verifier.failed(fn):
        return None
    ft = function_type(fn)
    if ft is None:
        return None
    related = (Related(fn, "when returning from function"),)
    ops = ctx.op.operands
    if ft.void:
        return ctx.fail("expected no operands", related=related, check="llvm.return") if ops else None
    if not ops:
        return ctx.fail("expected 1 operand", related=related, check="llvm.return")
    if short(ops[0].type) != ft.result:
        return ctx.fail("mismatching result types", related=related, check="llvm.return")
    return None


def verify_call(ctx: OpContext) -> Finding | None:
    op = ctx.op
    callee = ctx.attr("callee")
    if callee is None:
        return None  # an indirect call: the callee is its first operand
    if not isinstance(callee, FlatSymbolRefAttr | SymbolRefAttr):
        return None
    target = ctx.verifier.symbols.resolve(ctx.ancestors, callee)
    name = callee.root.text
    if target is None:
        return ctx.fail(f"'{name}' does not reference a symbol in the current scope", part=("attribute",
                                                                                            "callee"),
                        check="llvm.call")
    if target.name == "llvm.mlir.ifunc":
        return None
    if target.name != "llvm.func":
        return ctx.fail(f"'{name}' does not reference a valid LLVM function or IFunc", part=("attribute",
                                                                                             "callee"),
                        check="llvm.call")
    ft = function_type(target)
    if ft is None or ft.vararg or ctx.verifier.failed(target):
        return None
    sizes = segment_sizes(op, "operandSegmentSizes")
    if not isinstance(sizes, list) or not sizes:
        return None
    operands = op.operands[:sizes[0]]
    related = (Related(target, "the callee"),)
    if len(operands) != len(ft.params):
        return ctx.fail(f"incorrect number of operands ({len(operands)}) for callee (expecting: "
                        f"{len(ft.params)})",
                        related=related, check="llvm.call")
    for i, (v, p) in enumerate(zip(operands, ft.params, strict=True)):
        if short(v.type) != p:
            return ctx.fail(f"operand type mismatch for operand {i}: '{type_text(v.type)}' != '{full(p)}'",
                            part=("operand", i), related=related, check="llvm.call")
    if not op.results and not ft.void:
        return ctx.fail("expected function call to produce a value", related=related, check="llvm.call")
    if op.results and ft.void:
        return ctx.fail("calling function with void result must not produce values", related=related,
                        check="llvm.call")
    if op.results and short(op.results[0].type) != ft.result:
        return ctx.fail(f"result type mismatch: '{type_text(op.results[0].type)}' != '{full(ft.result)}'",
                        related=related, check="llvm.call")
    return None


_GLOBALS = ("llvm.mlir.global", "llvm.func", "llvm.mlir.alias", "llvm.mlir.ifunc")


def verify_addressof(ctx: OpContext) -> Finding | None:
    ref = ctx.attr("global_name")
    if not isinstance(ref, FlatSymbolRefAttr | SymbolRefAttr):
        return None
    target = ctx.verifier.symbols.resolve(ctx.ancestors, ref)
    if target is None or target.name not in _GLOBALS:
        return ctx.fail("must reference a global defined by 'llvm.mlir.global', 'llvm.mlir.alias' or "
                        "'llvm.func' "
                        "or 'llvm.mlir.ifunc'", part=("attribute", "global_name"),
                        check="llvm.mlir.addressof")
    return None


_DYNAMIC_INDEX = -(1 << 31)


def verify_gep(ctx: OpContext) -> Finding | None:
    raw = attr_of(ctx.op, "rawConstantIndices")
    if not isinstance(raw,
                      DenseArrayAttr) or raw.element_type is not IntegerType.get(32) or not ctx.op.operands:
        return None
    indices = struct.unpack(f"<{raw.count}i", bytes(raw.data))
    if sum(1 for i in indices if i == _DYNAMIC_INDEX) != len(ctx.op.operands) - 1:
        return ctx.fail("expected as many dynamic indices as specified in 'rawConstantIndices'",
                        check="llvm.getelementptr")
    return None


def verify_nvvm_barrier(ctx: OpContext) -> Finding | None:
    """`nvvm.barrier`: a thread count names the barrier it counts for."""
    sizes = segment_sizes(ctx.op, "operandSegmentSizes")
    if isinstance(sizes, list) and len(sizes) == 3 and sizes[1] > 0 and sizes[0] == 0:
        return ctx.fail("barrier id is missing, it should be set between 0 to 15", check="nvvm.barrier")
    return None


VERIFIERS = {
    "nvvm.barrier": OpVerifier(verify_nvvm_barrier, label="a thread count comes with a barrier id"),
    "llvm.getelementptr": OpVerifier(verify_gep, label="dynamic indices against the constant ones"),
    "llvm.func": OpVerifier(verify_func, label="entry block against its !llvm.func type"),
    "llvm.return": OpVerifier(verify_return, label="operand against the enclosing function's result type"),
}
SYMBOL_VERIFIERS = {
    "llvm.call": OpVerifier(verify_call, SYMBOLS, label="callee exists and its type matches"),
    "llvm.mlir.addressof": OpVerifier(verify_addressof, SYMBOLS, label="the global it names exists"),
}
