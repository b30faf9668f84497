"""IREE's dialects: `util` returns against the enclosing function-like op, globals named by `util.global.*`
ops, and `vm`'s branches (which follow `cf`'s rules)."""

from __future__ import annotations

from ...ir.attributes import FlatSymbolRefAttr, SymbolRefAttr, TypeAttr
from ...ir.types import FunctionType
from ..core import SYMBOLS, Finding, OpContext, OpVerifier, Related, attr_of
from .cf import verify_br, verify_cond_br


def verify_util_return(ctx: OpContext) -> Finding | None:
    fn = ctx.parent
    if fn is None or ctx.parent_failed():
        return None
    ft = attr_of(fn, "function_type")
    if not isinstance(ft, TypeAttr) or not isinstance(ft.type, FunctionType):
        return None
    n = len(ft.type.results)
    if len(ctx.op.operands) != n:
        return ctx.fail(f"has {len(ctx.op.operands)} operands, but enclosing function-like op returns {n}",
                        related=(Related(fn, "the enclosing function"),), check="util.return")
    return None


def verify_global_use(ctx: OpContext) -> Finding | None:
    ref = ctx.attr("global")
    if not isinstance(ref, FlatSymbolRefAttr | SymbolRefAttr):
        return None
    target = ctx.verifier.symbols.resolve(ctx.ancestors, ref)
    if target is None:
        return ctx.fail(f"undefined global: @{ref.root.text}", part=("attribute", "global"), check=ctx.name)
    return None


_BR = "successor operands against the target blocks' arguments"
VERIFIERS = {
    "util.return": OpVerifier(verify_util_return, label="operand count against the enclosing function"),
    "vm.br": OpVerifier(verify_br, label=_BR),
    "vm.cond_br": OpVerifier(verify_cond_br, label=_BR),
}
SYMBOL_VERIFIERS = {
    name: OpVerifier(verify_global_use, SYMBOLS, label="the global it names exists")
    for name in ("util.global.load", "util.global.store", "util.global.address")
}
