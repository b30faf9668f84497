"""`wasmssa`: a function's entry block against its signature (each argument a local reference to the
signature's type, as `wasmssa.func`'s own `verifyBody` wants it)."""

from __future__ import annotations

from ..core import Finding, OpContext, OpVerifier, type_text
from ..predicates import is_builtin_type, opaque
from .func import function_type

_LOCAL = "!wasmssa<local ref to "


def verify_func_body(ctx: OpContext) -> Finding | None:
    op = ctx.op
    ft = function_type(op)
    if ft is None or len(op.regions) != 1 or not op.regions[0].blocks:
        return None
    args = op.regions[0].blocks[0].arguments
    if len(args) != len(ft.inputs):
        return ctx.error(f"entry block should have same number of arguments as function type. Function type "
                         f"has {len(ft.inputs)}, entry block has {len(args)}", check=op.name)
    for i, (a, t) in enumerate(zip(args, ft.inputs, strict=True)):
        if opaque(a.type):
            return None
        if is_builtin_type(a.type):
            return ctx.error(f"entry block argument type should be LocalRefType, got {type_text(a.type)} for "
                             f"block argument {i}", check=op.name)
        text = type_text(a.type)
        if not (text.startswith(_LOCAL) and text.endswith(">")):
            return None  # a type this module cannot read
        held = text[len(_LOCAL):-1]
        if held != type_text(t):
            return ctx.error(f"func argument type #{i}({type_text(t)}) doesn't match entry block referenced "
                             f"type ({held})", check=op.name)
    return None


VERIFIERS = {
    "wasmssa.func": OpVerifier(verify_func_body,
                               label="entry block against the signature (local references)"),
}
