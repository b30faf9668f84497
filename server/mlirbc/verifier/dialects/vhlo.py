"""StableHLO portable artifacts (`vhlo`): functions, returns and calls as they are verified once
deserialized (legalized to `func.func`, `func.return`, `func.call`), on the builtin twins of their VHLO
types.  (Each VHLO op is also checked as the StableHLO op it becomes: the engine's legalized checks.)"""

from __future__ import annotations

from ...ir.attributes import ArrayAttr, FlatSymbolRefAttr, StringAttr, TypeAttr
from ...ir.operation import Operation
from ...ir.structured import StructuredAttr
from ...ir.types import FunctionType
from ..core import SYMBOLS, Finding, OpContext, OpVerifier, attr_of, type_text
from ..symbols import builtin_twin
from .func import check_call_types, check_return_types

FUNC = "vhlo.func_v1"


def function_type(op: Operation) -> FunctionType | None:
    a = builtin_twin(attr_of(op, "function_type"))
    return a.type if isinstance(a, TypeAttr) and isinstance(a.type, FunctionType) else None


def _array_size(a: object) -> int | None:
    """How many entries an argument/result attribute array holds as func.func sees it (an empty VHLO array
    is dropped when legalized: none)."""
    if isinstance(a, ArrayAttr):
        return len(a.elements)
    if isinstance(a, StructuredAttr) and a.kind.name == "array_v1" and isinstance(a.fields[0], tuple):
        return len(a.fields[0]) or None
    return None


def _legal(ctx: OpContext, name: str) -> OpContext:
    return OpContext(ctx.op, ctx.parent, ctx.block, ctx.verifier, None, ctx.ancestors, name=name,
                     legalized=True)


def verify_func(ctx: OpContext) -> Finding | None:
    op = ctx.op
    ft = function_type(op)
    if ft is None or len(op.regions) != 1 or not op.regions[0].blocks:
        return None
    lctx = _legal(ctx, "func.func")
    for what, key, n in (("argument", "arg_attrs", len(ft.inputs)), ("result", "res_attrs", len(ft.results))):
        count = _array_size(ctx.attr(key))
        # an empty result array is dropped when legalized (an empty argument array is not: seen with jaxlib
        # 0.10.2)
        if count is not None and count != n and (count or key == "arg_attrs"):
            return lctx.fail(f"expects {what} attribute array to have the same number of elements as the "
                             f"number of function {what}s, got {count}, but expected {n}",
                             part=("attribute", key), check=FUNC)
    args = op.regions[0].blocks[0].arguments
    if len(args) != len(ft.inputs):
        return lctx.fail(f"entry block must have {len(ft.inputs)} arguments to match function signature",
                         part=("block", 0), check=FUNC)
    for i, (a, t) in enumerate(zip(args, ft.inputs, strict=True)):
        if lctx.t(a) is not t:
            return lctx.fail(f"type of entry block argument #{i}('{type_text(lctx.t(a))}') must match the "
                             f"type "
                             f"of the corresponding argument in function signature('{type_text(t)}')",
                             part=("block", 0), check=FUNC)
    return None


def verify_return(ctx: OpContext) -> Finding | None:
    fn = ctx.parent
    if fn is None or fn.name != FUNC or ctx.parent_failed():
        return None
    ft = function_type(fn)
    name = builtin_twin(attr_of(fn, "sym_name"))
    if ft is None or not isinstance(name, StringAttr):
        return None
    return check_return_types(_legal(ctx, "func.return"), fn, ft, name.text, "vhlo.return_v1")


def verify_call(ctx: OpContext) -> Finding | None:
    callee = builtin_twin(ctx.attr("callee"))
    if not isinstance(callee, StringAttr):
        return None
    lctx = _legal(ctx, "func.call")
    fn = ctx.verifier.symbols.resolve(ctx.ancestors, FlatSymbolRefAttr.get(callee))
    if fn is None or fn.name != FUNC:
        return lctx.fail(f"'{callee.text}' does not reference a valid function", part=("attribute", "callee"),
                         check="vhlo.call_v1")
    return check_call_types(lctx, fn, function_type(fn), "vhlo.call_v1")


VERIFIERS = {
    FUNC: OpVerifier(verify_func, label="entry block against its function type (as func.func)"),
    "vhlo.return_v1": OpVerifier(verify_return,
                                 label="operands against the function's results (as func.return)"),
}
SYMBOL_VERIFIERS = {
    "vhlo.call_v1": OpVerifier(verify_call, SYMBOLS,
                               label="callee exists and its type matches (as func.call)"),
}
