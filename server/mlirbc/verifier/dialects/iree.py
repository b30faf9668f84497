"""IREE's dialects: `util` returns against the enclosing function-like op, globals named by `util.global.*`
ops, `vm`'s branches (which follow `cf`'s rules), executable exports' workgroup count regions and the
dispatches naming them (their workload against the region's arguments)."""

from __future__ import annotations

from ...ir.attributes import ArrayAttr, FlatSymbolRefAttr, SymbolRefAttr, TypeAttr
from ...ir.types import FunctionType, IndexType
from ..core import SYMBOLS, Finding, OpContext, OpVerifier, Related, attr_of, type_text
from ..ods import operand_groups
from ..predicates import is_builtin_type
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
        if ctx.name.endswith(".global.address"):
            return ctx.fail("attribute 'global' failed to satisfy constraint: flat symbol reference "
                            "attribute "
                            "referencing to a 'IREE::Util::GlobalOpInterface' symbol", part=("attribute",
                                                                                             "global"),
                            check=ctx.name)
        return ctx.fail(f"undefined global: @{ref.root.text}", part=("attribute", "global"), check=ctx.name)
    return None


def verify_rodata_use(ctx: OpContext) -> Finding | None:
    ref = ctx.attr("rodata")
    if isinstance(ref, FlatSymbolRefAttr | SymbolRefAttr) and ctx.verifier.symbols.resolve(ctx.ancestors,
                                                                                           ref) is None:
        return ctx.error(f"undefined rodata section: '{ref.root.text}'", check=ctx.name)
    return None


def verify_hal_export(ctx: OpContext) -> Finding | None:
    """`hal.executable.export`'s workgroup count region: `(%device: !hal.device, %workload...: index)`,
    returning three `index` counts."""
    op = ctx.op
    c = ctx.constraints
    if c is None or not op.regions:
        return None
    names = [r.name for r in c.regions]
    if "workgroup_count" not in names or names.index("workgroup_count") >= len(op.regions):
        return None
    region = op.regions[names.index("workgroup_count")]
    if not region.blocks:
        return None
    if len(region.blocks) != 1:
        return ctx.fail("expected a single region block for the workgroup count", check=op.name)
    args = region.blocks[0].arguments
    valid = bool(args) and type_text(args[0].type) == "!hal.device" \
        and all(isinstance(a.type, IndexType) for a in args[1:])
    if not valid:
        return ctx.fail("expected workgroup_count to take (%device: !hal.device, %workload_0: index, "
                        "%workload_1: index, ...", check=op.name)
    for inner in region.blocks[0].operations:
        if inner.name == "hal.return" and (len(inner.operands) != 3
                                           or not all(isinstance(v.type, IndexType) for v in inner.operands)):
            return ctx.error("workgroup count region must return the XYZ dimension counts as `index` types",
                             check=op.name)
    return None


def verify_stream_export(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if not op.regions or not op.regions[0].blocks:
        return None
    for inner in op.regions[0].blocks[0].operations:
        if inner.name == "stream.return" and (len(inner.operands) != 3
                                              or not all(isinstance(v.type,
                                                                    IndexType) for v in inner.operands)):
            return Finding(inner, "'stream.return' op workgroup count region must return the XYZ dimension "
                                  "counts", check=op.name)
    return None


def verify_cmd_dispatch(ctx: OpContext) -> Finding | None:
    groups = operand_groups(ctx)
    accesses = ctx.attr("resource_accesses")
    if groups is None or not isinstance(accesses, ArrayAttr):
        return None
    n = len(groups.get("resources", ()))
    counts = [len(groups.get(k, ())) for k in ("resource_sizes", "resource_offsets", "resource_lengths")]
    if any(k != n for k in counts) or len(accesses.elements) != n:
        return ctx.fail(f"dispatch with {n} resources has mismatched associated ranges", check=ctx.op.name)
    return None


def _dispatch_symbols(export_name: str) -> OpVerifier:
    def check(ctx: OpContext) -> Finding | None:
        refs = ctx.attr("entry_points")
        groups = operand_groups(ctx)
        if not isinstance(refs, ArrayAttr) or groups is None or "workload" not in groups:
            return None
        if not refs.elements:
            return ctx.fail("at least one entry point must be defined", check=ctx.op.name)
        workload = groups["workload"]
        for ref in refs.elements:
            export = ctx.verifier.symbols.resolve(ctx.ancestors, ref)
            if export is None or export.name != export_name:
                return None  # upstream does not check an entry point it cannot find
            if not export.regions or not export.regions[0].blocks:
                continue
            args = export.regions[0].blocks[0].arguments
            if not all(is_builtin_type(a.type) for a in args):
                return None  # which of them are implicitly captured: cannot say
            if len(args) != len(workload):
                return ctx.fail(f"workload mismatch; entry point expects {len(args)} arguments but dispatch "
                                f"provides {len(workload)}", related=(Related(export, "the entry point"),),
                                check=ctx.op.name)
            for i, (a, v) in enumerate(zip(args, workload, strict=True)):
                if a.type is not v.type:
                    return ctx.fail(f"workload operand {i} type mismatch; expected '{type_text(a.type)}' but "
                                    f"passed '{type_text(v.type)}'", related=(Related(export,
                                                                                      "the entry point"),),
                                    check=ctx.op.name)
        return None

    return OpVerifier(check, SYMBOLS, label="workload against the entry point's workgroup count arguments")


_BR = "successor operands against the target blocks' arguments"
VERIFIERS = {
    "util.return": OpVerifier(verify_util_return, label="operand count against the enclosing function"),
    "vm.br": OpVerifier(verify_br, label=_BR),
    "vm.cond_br": OpVerifier(verify_cond_br, label=_BR),
    "hal.executable.export": OpVerifier(verify_hal_export, label="the workgroup count region's signature"),
    "stream.executable.export": OpVerifier(verify_stream_export,
                                           label="the workgroup count region's results"),
    "stream.cmd.dispatch": OpVerifier(verify_cmd_dispatch, label="one size, offset, length and access per "
                                      "resource"),
}
SYMBOL_VERIFIERS = {
    name: OpVerifier(verify_global_use, SYMBOLS, label="the global it names exists")
    for name in ("util.global.load", "util.global.store", "util.global.address")
}
_VM_GLOBALS = [f"vm.global.{verb}.{kind}" for verb in ("load", "store")
               for kind in ("i32", "i64", "f32", "f64", "ref")] + ["vm.global.address"]
SYMBOL_VERIFIERS.update({name: OpVerifier(verify_global_use, SYMBOLS, label="the global it names exists")
                         for name in _VM_GLOBALS})
SYMBOL_VERIFIERS.update({
    "vm.const.ref.rodata": OpVerifier(verify_rodata_use, SYMBOLS, label="the rodata it names exists"),
    "flow.dispatch": _dispatch_symbols("flow.executable.export"),
    "stream.async.dispatch": _dispatch_symbols("stream.executable.export"),
    "stream.cmd.dispatch": _dispatch_symbols("stream.executable.export"),
    "stream.tensor.dispatch": _dispatch_symbols("stream.executable.export"),
})
