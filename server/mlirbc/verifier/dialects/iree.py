"""IREE's dialects: `util` returns against the enclosing function-like op, globals named by `util.global.*`
ops, `vm`'s branches (which follow `cf`'s rules), executable exports' workgroup count regions and the
dispatches naming them (their workload against the region's arguments), and `flow`'s shape-aware ops (one
dimension value per dynamic dimension of the values they carry)."""

from __future__ import annotations

from ...ir.attributes import ArrayAttr, FlatSymbolRefAttr, SymbolRefAttr, TypeAttr
from ...ir.operation import Value
from ...ir.types import DYNAMIC, FunctionType, IndexType, RankedTensorType, ShapedType
from ..core import SYMBOLS, Finding, OpContext, OpVerifier, Related, attr_of, type_text
from ..ods import operand_groups
from ..predicates import dialect_and_mnemonic, is_builtin_type, opaque
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


def _export_count_region(return_name: str) -> OpVerifier:
    """`stream`'s and `flow`'s executable exports: each return of the workgroup count region gives X, Y and
    Z as indices."""
    def check(ctx: OpContext) -> Finding | None:
        op = ctx.op
        if not op.regions:
            return None
        for block in op.regions[0].blocks:
            for inner in block.operations:
                if inner.name == return_name and (len(inner.operands) != 3
                                                  or not all(isinstance(v.type, IndexType)
                                                             for v in inner.operands)):
                    return Finding(inner, f"'{return_name}' op workgroup count region must return the XYZ "
                                          "dimension counts", check=op.name)
        return None
    return OpVerifier(check, label="the workgroup count region's results")


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


def _dynamic_dims(v: Value) -> int | None:
    """How many dynamic dimensions a value carries as IREE counts them (a ranked tensor's or a dispatch
    tensor's `?`s; 0 for other builtin types); None where it cannot be said."""
    t = v.type
    if isinstance(t, RankedTensorType):
        return sum(1 for d in t.shape if d == DYNAMIC)
    if opaque(t) or isinstance(t, ShapedType):
        return None
    if is_builtin_type(t):
        return 0
    if dialect_and_mnemonic(t) != ("iree_tensor_ext", "dispatch.tensor"):
        return None
    text = type_text(t)
    start = text.find(":tensor<")
    if start < 0:
        return None
    count = 0
    for part in text[start + len(":tensor<"):].split("x"):
        if part == "?":
            count += 1
        elif not part.isdigit():
            break
    return count


def _dims_pairs(groups: dict[str, list[Value]]) -> list[tuple[list[Value], list[Value]]]:
    """(values, their dimension values) per operand group pair: `operand`/`dynamic_dims`,
    `arguments`/`argument_dims`, `values`/`value_dims`, `x`/`x_dims`."""
    plural = {"dynamic_dims": "operand", "argument_dims": "arguments", "value_dims": "values"}
    pairs = []
    for name, dims in groups.items():
        if name == "result_dims" or not name.endswith("_dims"):
            continue
        values = plural.get(name, name[:-len("_dims")])
        if values in groups:
            pairs.append((groups[values], dims))
    return pairs


def verify_flow_dynamic_dims(ctx: OpContext) -> Finding | None:
    """`flow`'s ops with a verifier check each value set against the dimension values attached to it
    (IREE's `verifyOpDynamicDims`): operands against their `*_dims` group, results against `result_dims`."""
    op = ctx.op
    c = ctx.constraints
    if c is None or "verify" not in c.cpp:
        return None
    groups = operand_groups(ctx)
    if groups is None:
        return None
    pairs = _dims_pairs(groups)
    if "result_dims" in groups:
        pairs.append((list(op.results), groups["result_dims"]))
    for values, dims in pairs:
        counts = [_dynamic_dims(v) for v in values]
        if None in counts:
            continue
        need = sum(n for n in counts if n is not None)
        if need != len(dims):
            return ctx.fail(f"value set has {need} dynamic dimensions but only {len(dims)} dimension values "
                            f"are attached", check=op.name)
    return None


_BR = "successor operands against the target blocks' arguments"
DIALECT_VERIFIERS = {
    "flow": OpVerifier(verify_flow_dynamic_dims, label="one dimension value per dynamic dimension"),
}
VERIFIERS = {
    "util.return": OpVerifier(verify_util_return, label="operand count against the enclosing function"),
    "vm.br": OpVerifier(verify_br, label=_BR),
    "vm.cond_br": OpVerifier(verify_cond_br, label=_BR),
    "hal.executable.export": OpVerifier(verify_hal_export, label="the workgroup count region's signature"),
    "stream.executable.export": _export_count_region("stream.return"),
    "flow.executable.export": _export_count_region("flow.return"),
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
