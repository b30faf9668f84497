"""`gpu.func`: the body's arguments are the function's, then its workgroup and private attributions."""

from __future__ import annotations

from ...ir.attributes import IntegerAttr
from ...ir.types import MemRefType
from ..core import Finding, OpContext, OpVerifier, type_text
from .func import function_type


def verify_gpu_func(ctx: OpContext) -> Finding | None:
    op = ctx.op
    ft = function_type(op)
    if ft is None or len(op.regions) != 1:
        return None
    if not op.regions[0].blocks:
        return ctx.fail("expected body with at least one block", check="gpu.func")
    workgroup = ctx.attr("workgroup_attributions")
    n_workgroup = workgroup.bits if isinstance(workgroup, IntegerAttr) else 0
    args = op.regions[0].blocks[0].arguments
    n_func = len(ft.inputs)
    if len(args) < n_func + n_workgroup:
        return ctx.fail(f"expected at least {n_func + n_workgroup} arguments to body region", part=("block",
                                                                                                    0),
                        check="gpu.func")
    for i in range(n_func):
        if args[i].type is not ft.inputs[i]:
            return ctx.fail(f"expected body region argument #{i} to be of type "
                            f"'{type_text(ft.inputs[i])}', got "
                            f"'{type_text(args[i].type)}'", part=("block", 0), check="gpu.func")
    for a in args[n_func:]:
        if not isinstance(a.type, MemRefType):
            return ctx.fail("expected memref type in attribution", part=("block", 0), check="gpu.func")
    return None


VERIFIERS = {
    "gpu.func": OpVerifier(verify_gpu_func, label="body arguments: the function's, then memref attributions"),
}
