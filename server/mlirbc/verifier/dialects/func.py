"""`func`: returns against the enclosing function's type, calls against their callee, functions against
their own signature (FunctionOpInterface) and symbol visibility (SymbolOpInterface)."""

from __future__ import annotations

from ...ir.attributes import ArrayAttr, DictionaryAttr, FlatSymbolRefAttr, StringAttr, SymbolRefAttr, TypeAttr
from ...ir.operation import Operation
from ...ir.types import FunctionType
from ..core import SYMBOLS, Finding, OpContext, OpVerifier, Related, attr_of, type_text


def function_type(op: Operation) -> FunctionType | None:
    """A function op's builtin signature (`wasmssa.func` names its attribute `functionType`)."""
    for name in ("function_type", "functionType"):
        a = attr_of(op, name)
        if isinstance(a, TypeAttr) and isinstance(a.type, FunctionType):
            return a.type
    return None


def _types(ts: tuple[object, ...]) -> str:
    return ", ".join(type_text(t) for t in ts)  # type: ignore[arg-type]


def verify_return(ctx: OpContext) -> Finding | None:
    fn = ctx.parent
    if fn is None or fn.name != "func.func" or ctx.parent_failed():
        return None
    ft = function_type(fn)
    name = attr_of(fn, "sym_name")
    if ft is None or not isinstance(name, StringAttr):
        return None
    return check_return_types(ctx, fn, ft, name.text, "func.return")


def check_return_types(ctx: OpContext, fn: Operation, ft: FunctionType, name: str,
                       check: str) -> Finding | None:
    """func.return's rule: the operands' types (as `ctx.t` sees them) are the enclosing function's results."""
    operands = ctx.op.operands
    if len(operands) != len(ft.results):
        return ctx.fail(f"has {len(operands)} operands, but enclosing function (@{name}) returns "
                        f"{len(ft.results)}", related=(Related(fn, "the enclosing function"),), check=check)
    for i, (v, t) in enumerate(zip(operands, ft.results, strict=True)):
        if ctx.t(v) is not t:
            return ctx.error(f"type of return operand {i} ('{type_text(ctx.t(v))}') doesn't match function "
                             f"result type ('{type_text(t)}') in function @{name}", check=check)
    return None


def verify_call(ctx: OpContext) -> Finding | None:
    callee = ctx.attr("callee")
    if not isinstance(callee, FlatSymbolRefAttr | SymbolRefAttr):
        return ctx.fail("requires a 'callee' symbol reference attribute", part=("attribute", "callee"),
                        check="func.call")
    fn = ctx.verifier.symbols.resolve(ctx.ancestors, callee)
    if fn is None or fn.name != "func.func":
        return ctx.fail(f"'{callee.root.text}' does not reference a valid function",
                        part=("attribute", "callee"),
                        check="func.call")
    return check_call_types(ctx, fn, function_type(fn), "func.call")


def check_call_types(ctx: OpContext, fn: Operation, ft: FunctionType | None, check: str) -> Finding | None:
    """func.call's rule once the callee is found: operand and result types (as `ctx.t` sees them) against
    the callee's function type `ft`; nothing to say of a callee without one or that failed itself."""
    if ft is None or ctx.verifier.failed(fn):
        return None
    op = ctx.op
    related = (Related(fn, "the callee"),)
    if len(ft.inputs) != len(op.operands):
        return ctx.fail("incorrect number of operands for callee", related=related, check=check)
    for i, (v, t) in enumerate(zip(op.operands, ft.inputs, strict=True)):
        if ctx.t(v) is not t:
            return ctx.fail(f"operand type mismatch: expected operand type '{type_text(t)}', but provided "
                            f"'{type_text(ctx.t(v))}' for operand number {i}", part=("operand", i),
                            related=related, check=check)
    if len(ft.results) != len(op.results):
        return ctx.fail("incorrect number of results for callee", related=related, check=check)
    for i, (r, t) in enumerate(zip(op.results, ft.results, strict=True)):
        if ctx.t(r) is not t:
            return ctx.fail(f"result type mismatch at index {i}", part=("result", i), related=related,
                            check=check)
    return None


def verify_constant(ctx: OpContext) -> Finding | None:
    ref = ctx.attr("value")
    if not isinstance(ref, FlatSymbolRefAttr | SymbolRefAttr) or len(ctx.op.results) != 1:
        return None
    fn = ctx.verifier.symbols.resolve(ctx.ancestors, ref)
    if fn is None or fn.name != "func.func":
        return ctx.fail(f"reference to undefined function '{ref.root.text}'", part=("attribute", "value"),
                        check="func.constant")
    ft = function_type(fn)
    if ft is not None and ft is not ctx.op.results[0].type:
        return ctx.fail("reference to function with mismatched type", related=(Related(fn, "the function"),),
                        check="func.constant")
    return None


def verify_function_interface(ctx: OpContext) -> Finding | None:
    """FunctionOpInterface's own checks where the function type is a builtin one: argument and result
    attribute arrays, one body region, and (for the ops known to use the default) the entry block against
    the signature."""
    op = ctx.op
    ft = function_type(op)
    if ft is None:
        return None
    for what, key, n in (("argument", "arg_attrs", len(ft.inputs)), ("result", "res_attrs", len(ft.results))):
        attrs = ctx.attr(key)
        if attrs is None:
            continue
        if not isinstance(attrs, ArrayAttr):
            return None
        if len(attrs.elements) != n:
            return ctx.fail(f"expects {what} attribute array to have the same number of elements as the "
                            f"number "
                            f"of function {what}s, got {len(attrs.elements)}, but expected {n}",
                            part=("attribute", key), check="FunctionOpInterface")
        for d in attrs.elements:
            if not isinstance(d, DictionaryAttr):
                return None
            for k, _ in d.entries:
                if b"." not in k.value:
                    plural = "arguments" if what == "argument" else "results"
                    return ctx.fail(f"{plural} may only have dialect attributes", part=("attribute", key),
                                    check="FunctionOpInterface")
    if len(op.regions) != 1:
        return ctx.fail("expects one region", check="FunctionOpInterface")
    if op.name in OWN_BODY or not op.regions[0].blocks:
        return None
    args = op.regions[0].blocks[0].arguments
    if len(args) != len(ft.inputs):
        return ctx.fail(f"entry block must have {len(ft.inputs)} arguments to match function signature",
                        part=("block", 0), check="FunctionOpInterface")
    for i, (a, t) in enumerate(zip(args, ft.inputs, strict=True)):
        if a.type is not t:
            return ctx.fail(f"type of entry block argument #{i}('{type_text(a.type)}') must match the type "
                            f"of the corresponding argument in function signature('{type_text(t)}')",
                            part=("block", 0),
                            check="FunctionOpInterface")
    return None


OWN_BODY = frozenset({"gpu.func", "wasmssa.func"})
"""Function ops that replace FunctionOpInterface's default `verifyBody` (`gpu.func` takes attributions
after its arguments: `dialects.gpu`; `wasmssa.func`'s arguments are local references: `dialects.wasmssa`);
the others' entry block must match the signature exactly."""

OPTIONAL_SYMBOLS = frozenset({"builtin.module", "gpu.module"})
"""Ops whose symbol name may be absent (`isOptionalSymbol`)."""


def verify_symbol_interface(ctx: OpContext) -> Finding | None:
    """SymbolOpInterface: a string name, a known visibility, and no public declaration."""
    op = ctx.op
    name = ctx.attr("sym_name")
    if name is None and op.name in OPTIONAL_SYMBOLS:
        return None
    if not isinstance(name, StringAttr):
        if name is None and op.name not in ("func.func",):
            return None
        return ctx.fail("requires string attribute 'sym_name'", part=("attribute", "sym_name"),
                        check="SymbolOpInterface")
    vis = ctx.attr("sym_visibility")
    if vis is not None:
        if not isinstance(vis, StringAttr):
            return None
        if vis.text not in ("public", "private", "nested"):
            return ctx.fail(f'visibility expected to be one of ["public", "private", "nested"], but got '
                            f'"{vis.text}"', part=("attribute", "sym_visibility"), check="SymbolOpInterface")
    public = vis is None or (isinstance(vis, StringAttr) and vis.text == "public")
    if public and op.name == "func.func" and op.regions and not op.regions[0].blocks:
        return ctx.fail("symbol declaration cannot have public visibility", check="SymbolOpInterface")
    return None


VERIFIERS = {
    "func.return": OpVerifier(verify_return, label="operands against the enclosing function's result types"),
    "func.call": OpVerifier(verify_call, SYMBOLS, label="callee exists and its type matches"),
    "func.constant": OpVerifier(verify_constant, SYMBOLS, label="referenced function exists, type matches"),
}
INTERFACES = {
    "FunctionOpInterface": OpVerifier(verify_function_interface,
                                      label="argument/result attributes, entry block against the signature"),
    "SymbolOpInterface": OpVerifier(verify_symbol_interface, label="symbol name and visibility"),
}
