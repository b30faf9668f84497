"""StableHLO's shape rules for the ops JAX emits most, run on VHLO ops as the StableHLO ops they become
once deserialized (the engine's legalized checks: types are their builtin twins), and VHLO's own rule
that an op's attributes are VHLO attributes (anything else cannot be legalized).

Each rule holds only where every shape it reads is static and every attribute it reads is there:
otherwise it says nothing.
"""

from __future__ import annotations

import struct

from ...ir.attributes import Attribute, DenseArrayAttr, DenseElementsAttr, IntegerAttr
from ...ir.operation import PROPS_DECODED, Region
from ...ir.structured import StructuredAttr
from ...ir.types import (
    DYNAMIC,
    FloatType,
    IndexType,
    IntegerType,
    RankedTensorType,
    ShapedType,
    Type,
    num_elements,
)
from ..core import Finding, OpContext, OpVerifier, attr_of, type_text
from ..predicates import is_builtin_type
from ..traits import compatible_shape, hlo_compatible

_INT_FORMATS = {8: "b", 16: "h", 32: "i", 64: "q"}  # struct formats of signless integers by width


def ints(a: Attribute | None) -> list[int] | None:
    """The integers of a dense integer attribute (a VHLO tensor's data, a dense array), else None."""
    shaped: Type | None = None
    data: bytes | memoryview | None = None
    if isinstance(a, StructuredAttr):
        payload = a.payload()
        if payload is None or payload.encoding != "raw":
            return None
        shaped, data = payload.shaped_type, payload.data
    elif isinstance(a, DenseElementsAttr):
        shaped, data = a.type, a.data
    elif isinstance(a, DenseArrayAttr) and isinstance(a.element_type, IntegerType):
        width = a.element_type.width
        fmt = _INT_FORMATS.get(width)
        return list(struct.unpack(f"<{a.count}{fmt}", bytes(a.data))) if fmt else None
    if not isinstance(shaped, RankedTensorType) or not isinstance(shaped.element, IntegerType):
        return None
    if data is None:
        return None
    width = shaped.element.width
    fmt = _INT_FORMATS.get(width)
    if fmt is None or DYNAMIC in shaped.shape:
        return None
    n = 1
    for d in shaped.shape:
        n *= d
    raw = bytes(data)
    size = width // 8
    if len(raw) == size and n != 1:
        return list(struct.unpack(f"<{fmt}", raw)) * n  # a splat
    if len(raw) != size * n:
        return None
    return list(struct.unpack(f"<{n}{fmt}", raw))


def _ranked_operand_and_result(ctx: OpContext) -> tuple[RankedTensorType, RankedTensorType] | None:
    """The types of an op with one operand and one result, both ranked tensors, else None."""
    op = ctx.op
    if len(op.operands) != 1 or len(op.results) != 1:
        return None
    operand, result = ctx.t(op.operands[0]), ctx.t(op.results[0])
    if not isinstance(operand, RankedTensorType) or not isinstance(result, RankedTensorType):
        return None
    return operand, result


def _incompatible(ctx: OpContext, inferred: str | None, actual: str, check: str) -> Finding:
    """Type inference's complaint; the type texts come quoted as MLIR prints them."""
    what = "inferred type(s)" if inferred is None else f"inferred type(s) {inferred}"
    return ctx.fail(f"{what} are incompatible with return type(s) of operation {actual}", check=check)


def _static(t: Type) -> tuple[int, ...] | None:
    if isinstance(t, RankedTensorType) and DYNAMIC not in t.shape:
        return t.shape
    return None


# -- VHLO's own rule ---------------------------------------------------------------------------------------
LENIENT = {
    # attributes deserialization does not convert when they do not matter (a dot without an algorithm
    # drops them; seen with jaxlib 0.10.2): any value there is accepted
    "vhlo.dot_general_v2": frozenset({"lhs_precision_type", "rhs_precision_type", "accumulation_type"}),
}


def verify_vhlo_attributes(ctx: OpContext) -> Finding | None:
    """A VHLO op's attributes are VHLO attributes, converted when it is legalized; another dialect's value
    passes through only where the StableHLO op takes that attribute and the value fits its constraint."""
    props = ctx.op.properties
    if props is None or props.kind != PROPS_DECODED:
        return None
    legal = ctx.verifier.kind(ctx.op.name).legal
    lenient = LENIENT.get(ctx.op.name, frozenset())
    for name, value in props.values.items():
        if value.dialect == "vhlo" or value.dialect.startswith("mlirbc") or name in lenient:
            continue
        if legal is None:
            return None  # nothing known of what it becomes
        lname, lc = legal
        spec = next((a for a in lc.attrs if a.name == name), None)
        if spec is None:
            return ctx.error(f"failed to legalize operation '{ctx.op.name}' that was explicitly marked "
                             "illegal", check="vhlo")
        if spec.constraint is not None and ctx.verifier.preds.answer(spec.constraint.pred, value) is False:
            return Finding(ctx.op, f"'{lname}' op attribute '{name}' failed to satisfy constraint: "
                                   f"{spec.constraint.summary}", part=("attribute", name), check="vhlo")
    return None


# -- StableHLO ops -----------------------------------------------------------------------------------------
def verify_constant(ctx: OpContext) -> Finding | None:
    value = attr_of(ctx.op, "value")
    if not isinstance(value, StructuredAttr) or len(ctx.op.results) != 1:
        return None
    payload = value.payload()
    if payload is None:
        return None
    inferred = payload.shaped_type
    actual = ctx.t(ctx.op.results[0])
    if isinstance(inferred, RankedTensorType) and isinstance(actual, RankedTensorType) \
            and inferred is not actual:
        return _incompatible(ctx, f"'{type_text(inferred)}'", f"'{type_text(actual)}'", "stablehlo.constant")
    return None


def verify_broadcast_in_dim(ctx: OpContext) -> Finding | None:
    op = ctx.op
    dims = ints(attr_of(op, "broadcast_dimensions"))
    ranked = _ranked_operand_and_result(ctx)
    if dims is None or ranked is None:
        return None
    operand, result = ranked
    if len(dims) != len(operand.shape):
        return ctx.fail(f"broadcast_dimensions size ({len(dims)}) does not match operand rank "
                        f"({len(operand.shape)})", check="stablehlo.broadcast_in_dim")
    if len(result.shape) < len(operand.shape):
        return ctx.fail(f"result rank ({len(result.shape)}) is less than operand rank ({len(operand.shape)})",
                        check="stablehlo.broadcast_in_dim")
    for i, d in enumerate(dims):
        if d < 0 or d >= len(result.shape):
            return ctx.fail(f"broadcast_dimensions contains invalid value {d} for result with rank "
                            f"{len(result.shape)}", check="stablehlo.broadcast_in_dim")
        a, b = operand.shape[i], result.shape[d]
        if a != DYNAMIC and b != DYNAMIC and a != 1 and a != b:
            return ctx.fail(f"size of operand dimension {i} ({a}) is not equal to 1 or size of result "
                            f"dimension {d} ({b})", check="stablehlo.broadcast_in_dim")
    if operand.element is not result.element:
        return ctx.fail("requires the same element type for all operands and results",
                        check="stablehlo.broadcast_in_dim")
    return None


def verify_reshape(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if len(op.operands) != 1 or len(op.results) != 1:
        return None
    a, b = _static(ctx.t(op.operands[0])), _static(ctx.t(op.results[0]))
    if a is None or b is None:
        return None
    na, nb = num_elements(a), num_elements(b)
    if na != nb:
        return ctx.fail(f"number of output elements ({nb}) doesn't match expected number of elements ({na})",
                        check="stablehlo.reshape")
    return None


def verify_transpose(ctx: OpContext) -> Finding | None:
    op = ctx.op
    perm = ints(attr_of(op, "permutation"))
    ranked = _ranked_operand_and_result(ctx)
    if perm is None or ranked is None:
        return None
    operand, result = ranked
    if len(perm) != len(operand.shape) or sorted(perm) != list(range(len(perm))):
        return ctx.fail(f"TransposeOp operand rank {len(operand.shape)} does not match permutation size "
                        f"{len(perm)}", check="stablehlo.transpose")
    want = tuple(operand.shape[p] for p in perm)
    if len(want) != len(result.shape) or any(
            x != y and DYNAMIC not in (x, y) for x, y in zip(want, result.shape, strict=True)):
        shape = "x".join(map(str, want))
        return _incompatible(ctx, f"'tensor<{shape}x{type_text(operand.element)}>'", f"'{type_text(result)}'",
                             "stablehlo.transpose")
    return None


def verify_dot_general(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if len(op.operands) != 2 or len(op.results) != 1:
        return None
    lhs, rhs, res = (ctx.t(v) for v in (*op.operands, op.results[0]))
    ls, rs, out = _static(lhs), _static(rhs), _static(res)
    lb, rb = ints(attr_of(op, "lhs_batching_dimensions")), ints(attr_of(op, "rhs_batching_dimensions"))
    lc, rc = ints(attr_of(op, "lhs_contracting_dimensions")), ints(attr_of(op, "rhs_contracting_dimensions"))
    if ls is None or rs is None or out is None or None in (lb, rb, lc, rc):
        return None
    assert lb is not None and rb is not None and lc is not None and rc is not None
    check = "stablehlo.dot_general"
    if len(lb) != len(rb):
        return ctx.fail("lhs and rhs should have the same number of batching dimensions", check=check)
    if len(lc) != len(rc):
        return ctx.fail("lhs and rhs should have the same number of contracting dimensions", check=check)
    if any(not 0 <= d < len(ls) for d in lb + lc) or any(not 0 <= d < len(rs) for d in rb + rc):
        return ctx.fail("dimension index out of range", check=check)
    for a, b in zip(lb, rb, strict=True):
        if ls[a] != rs[b]:
            return ctx.fail("batching dimension sizes must match for lhs/rhs", check=check)
    for a, b in zip(lc, rc, strict=True):
        if ls[a] != rs[b]:
            return ctx.fail("contracting dimension sizes must match for lhs/rhs", check=check)
    want = [ls[d] for d in lb] + [n for i, n in enumerate(ls) if i not in lb and i not in lc] + \
        [n for i, n in enumerate(rs) if i not in rb and i not in rc]
    if tuple(want) != out:
        return ctx.fail(f"inferred shape '[{', '.join(map(str, want))}]' is incompatible with return type of "
                        f"operation '{type_text(res)}'", check=check)
    return None


def verify_no_branch_arguments(ctx: OpContext) -> Finding | None:
    for i, region in enumerate(ctx.op.regions):
        if region.blocks and region.blocks[0].arguments:
            return ctx.error(f"branch {i} must have 0 arguments, but found {len(region.blocks[0].arguments)}",
                             check="stablehlo.case")
    return None


def _returned(ctx: OpContext, region: Region) -> list[Type] | None:
    """The types a region's (single) block returns, None when it has no block or no ops."""
    if not region.blocks or not region.blocks[0].operations:
        return None
    return [ctx.t(v) for v in region.blocks[0].operations[-1].operands]


def _types_text(types: list[Type]) -> str:
    return ", ".join(f"'{type_text(t)}'" for t in types)


def _compatible_all(a: list[Type], b: list[Type]) -> bool:
    return len(a) == len(b) and all(hlo_compatible(x, y) is not False for x, y in zip(a, b, strict=True))


def _same_element(a: Type, b: Type, ignore_fp_precision: bool = False) -> bool | None:
    if not isinstance(a, RankedTensorType) or not isinstance(b, RankedTensorType):
        return None
    if a.element is b.element:
        return True
    if ignore_fp_precision and isinstance(a.element, FloatType) and isinstance(b.element, FloatType):
        return True
    if not all(isinstance(e, IntegerType | FloatType | IndexType) for e in (a.element, b.element)):
        return None  # quantized, complex, a dialect's element: cannot say
    return False


def _shape_and_element(a: Type, b: Type, ignore_fp_precision: bool = False) -> bool | None:
    same = _same_element(a, b, ignore_fp_precision)
    if same is None:
        return None
    assert isinstance(a, RankedTensorType) and isinstance(b, RankedTensorType)
    return same and compatible_shape(a, b)


def reducer_shape(ctx: OpContext, region: Region, inputs: list[Type], inits: list[Type]) -> Finding | None:
    """StableHLO's `verifyReducerShape` (its first rules): the reduction region's parameters and what it
    returns against the op's inputs and init values."""
    if not region.blocks:
        return None
    block = region.blocks[0]
    n = len(inputs)
    args = [ctx.t(a) for a in block.arguments]
    if len(args) != 2 * n:
        return ctx.error(f"Reduction-region must take {2 * n} parameters, but takes {len(args)} parameter(s)",
                         check=ctx.name)
    returned = _returned(ctx, region)
    if returned is None:
        return None
    if not returned:
        return ctx.error("The reduction-region expected to return some value(s)", check=ctx.name)
    if len(returned) != n:
        return ctx.error(f"Reduction-region here must produce {n} tensors, but produces {len(returned)} "
                         "instead", check=ctx.name)
    for acc in returned:
        if not isinstance(acc, ShapedType):
            if is_builtin_type(acc):
                return ctx.error(f"Reduction-region here must produce tensor-typed result(s), but produces "
                                 f"'{type_text(acc)}' instead", check=ctx.name)
            return None
    for i in range(n):
        acc = returned[i]
        if _shape_and_element(acc, args[i]) is False:
            return ctx.error(f"The type of reduction-region's parameter at index {i} is different than the "
                             f"corresponding result type: '{type_text(args[i])}' vs '{type_text(acc)}'",
                             check=ctx.name)
        if _shape_and_element(acc, args[n + i], ignore_fp_precision=True) is False:
            return ctx.error(f"The type of reduction-region's parameter at index {n + i} is different than "
                             f"the corresponding result type: '{type_text(args[n + i])}' vs "
                             f"'{type_text(acc)}'",
                             check=ctx.name)
        init = inits[i]
        if isinstance(init, RankedTensorType) and isinstance(acc, RankedTensorType) \
                and not compatible_shape(init, acc):
            return ctx.error(f"The shape of reduction-region's result type at index {i} differs from the "
                             f"op's "
                             f"corresponding init-value type: '{type_text(acc)}' vs '{type_text(init)}'",
                             check=ctx.name)
    return None


def verify_branches(ctx: OpContext) -> Finding | None:
    """`stablehlo.case` / `stablehlo.if`: branches take no arguments, return the same types, which are the
    op's result types."""
    op = ctx.op
    found = verify_no_branch_arguments(ctx)
    if found is not None or not op.regions:
        return found
    first = _returned(ctx, op.regions[0])
    if first is None:
        return None
    for i, region in enumerate(op.regions):
        mine = _returned(ctx, region)
        if mine is None:
            return None
        if not _compatible_all(first, mine):
            return ctx.error(f"branch 0 and branch {i} have mismatched return types: {_types_text(first)} vs "
                             f"{_types_text(mine)}", check=ctx.name)
    results = [ctx.t(r) for r in op.results]
    if not _compatible_all(first, results):
        return _incompatible(ctx, _types_text(first), _types_text(results), ctx.name)
    return None


def verify_add(ctx: OpContext) -> Finding | None:
    """`hlo::verifyAddOp` (non-quantized): one element type for both operands and the result."""
    op = ctx.op
    if len(op.operands) != 2 or len(op.results) != 1:
        return None
    elements = []
    for v in (*op.operands, *op.results):
        t = ctx.t(v)
        e = t.element if isinstance(t, ShapedType) else t
        if not isinstance(e, IntegerType | FloatType | IndexType) or not is_builtin_type(t):
            return None  # quantized, complex, a dialect's: not judged here
        elements.append(e)
    if any(e is not elements[0] for e in elements[1:]):
        return ctx.error("op requires the same element type for all operands and results", check=ctx.name)
    return None


def verify_select(ctx: OpContext) -> Finding | None:
    """`inferSelectOp`: on_true and on_false alike, the predicate a scalar or of their shape, the result
    their type."""
    op = ctx.op
    if len(op.operands) != 3 or len(op.results) != 1:
        return None
    pred, on_true, on_false = (ctx.t(v) for v in op.operands)
    if _shape_and_element(on_true, on_false) is False:
        return ctx.error("requires compatible types for non-predicate operands", check=ctx.name)
    if isinstance(pred, RankedTensorType) and isinstance(on_true, RankedTensorType) and pred.shape != () \
            and not compatible_shape(pred, on_true):
        return ctx.error("requires the same shape for all operands", check=ctx.name)
    result = ctx.t(op.results[0])
    if hlo_compatible(on_true, result) is False:
        return _incompatible(ctx, f"'{type_text(on_true)}'", f"'{type_text(result)}'", ctx.name)
    return None


def _even_operands(ctx: OpContext) -> Finding | None:
    """Inputs and init values, as many of each (upstream's accessors split the operands in halves)."""
    if len(ctx.op.operands) % 2:
        return ctx.fail(f"expects as many init values as inputs, but has {len(ctx.op.operands)} operands",
                        check=ctx.name)
    return None


def verify_collective_reduce(ctx: OpContext) -> Finding | None:
    """`all_reduce` / `reduce_scatter`: the computation reduces each operand's elements (0-d tensors)."""
    op = ctx.op
    if len(op.regions) != 1:
        return None
    for v in op.operands:
        t = ctx.t(v)
        if not isinstance(t, RankedTensorType):
            return None
        scalar = RankedTensorType.get((), t.element)
        found = reducer_shape(ctx, op.regions[0], [t], [scalar])
        if found is not None:
            return found
    return None


def verify_reduce_window(ctx: OpContext) -> Finding | None:
    op = ctx.op
    found = _even_operands(ctx)
    if found is not None:
        return found
    n = len(op.operands) // 2
    if len(op.operands) != 2 * n or len(op.regions) != 1:
        return None
    return reducer_shape(ctx, op.regions[0], [ctx.t(v) for v in op.operands[:n]],
                         [ctx.t(v) for v in op.operands[n:]])


def verify_reduce(ctx: OpContext) -> Finding | None:
    op = ctx.op
    found = _even_operands(ctx)
    if found is not None:
        return found
    n = len(op.operands) // 2
    if len(op.operands) != 2 * n or len(op.regions) != 1 or not op.regions[0].blocks:
        return None
    found = reducer_shape(ctx, op.regions[0], [ctx.t(v) for v in op.operands[:n]],
                          [ctx.t(v) for v in op.operands[n:]])
    if found is not None:
        return found
    dims = ints(attr_of(op, "dimensions"))
    if dims is None or len(op.results) != n:
        return None
    for i in range(n):
        inp, init, res = ctx.t(op.operands[i]), ctx.t(op.operands[n + i]), ctx.t(op.results[i])
        if not all(isinstance(x, RankedTensorType) for x in (inp, init, res)):
            continue
        assert isinstance(inp, RankedTensorType) and isinstance(init, RankedTensorType)
        assert isinstance(res, RankedTensorType)
        if init.shape != () or init.element is not inp.element:
            return ctx.fail(f"The element-type of reduction-region's argument at index {i} is expected to be "
                            f"'{type_text(inp.element)}', but got '{type_text(init)}' as its type.",
                            check="stablehlo.reduce")
        if any(not 0 <= d < len(inp.shape) for d in dims):
            return None
        want = tuple(s for j, s in enumerate(inp.shape) if j not in dims)
        if res.element is not inp.element or len(want) != len(res.shape) or any(
                a != b and DYNAMIC not in (a, b) for a, b in zip(want, res.shape, strict=True)):
            return _incompatible(ctx, None, f"'{type_text(res)}'", "stablehlo.reduce")
    return None


def verify_slice(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if len(op.operands) != 1 or len(op.results) != 1:
        return None
    operand, result = _static(ctx.t(op.operands[0])), _static(ctx.t(op.results[0]))
    starts, limits = ints(attr_of(op, "start_indices")), ints(attr_of(op, "limit_indices"))
    strides = ints(attr_of(op, "strides"))
    if operand is None or result is None or starts is None or limits is None or strides is None:
        return None
    if not len(starts) == len(limits) == len(strides) == len(operand):
        return None
    if any(s <= 0 for s in strides):
        return None
    want = tuple(max(0, (lim - s + st - 1) // st) for s, lim, st in zip(starts, limits, strides, strict=True))
    if want != result:
        return _incompatible(ctx, None, f"'{type_text(ctx.t(op.results[0]))}'", "stablehlo.slice")
    return None


def scalar_int(a: Attribute | None) -> int | None:
    """A scalar integer attribute's value (`#vhlo.integer_v1<3 : i64>` or a builtin `3 : i64`), else None."""
    if isinstance(a, StructuredAttr) and a.kind.name == "integer_v1" and len(a.fields) == 2:
        v = a.fields[1]
        return v if isinstance(v, int) and not isinstance(v, bool) else None
    if isinstance(a, IntegerAttr) and isinstance(a.type, IntegerType) and a.type.width == 64:
        return a.bits - (1 << 64) if a.bits >= 1 << 63 else a.bits
    return None


def _array_len(a: Attribute | None) -> int | None:
    """The number of elements of a VHLO array attribute, else None."""
    if isinstance(a, StructuredAttr) and a.kind.name == "array_v1" and len(a.fields) == 1:
        items = a.fields[0]
        return len(items) if isinstance(items, tuple) else None
    return None


def verify_convolution(ctx: OpContext) -> Finding | None:
    """StableHLO's convolution rules on ranks and feature counts (static sizes only): both arguments of one
    rank, and the input's features split in `feature_group_count` groups of the kernel's input features."""
    op = ctx.op
    if len(op.operands) != 2:
        return None
    lhs, rhs = ctx.t(op.operands[0]), ctx.t(op.operands[1])
    if not isinstance(lhs, RankedTensorType) or not isinstance(rhs, RankedTensorType):
        return None
    check = "stablehlo.convolution"
    if len(lhs.shape) != len(rhs.shape):
        return ctx.fail(f"expects convolution arguments to have same number of dimensions. Got: "
                        f"'{type_text(lhs)}' and '{type_text(rhs)}'.", check=check)
    f_in, k_in = scalar_int(attr_of(op, "input_feature_dimension")), \
        scalar_int(attr_of(op, "kernel_input_feature_dimension"))
    groups = scalar_int(attr_of(op, "feature_group_count"))
    if f_in is None or k_in is None or groups is None or groups <= 0:
        return None
    rank = len(lhs.shape)
    if not (0 <= f_in < rank and 0 <= k_in < rank):
        return None
    features, kernel_features = lhs.shape[f_in], rhs.shape[k_in]
    if features == DYNAMIC:
        return None
    if features % groups != 0:
        return ctx.error(f"expects input feature dimension ({features}) to be a multiple of "
                         f"feature_group_count. Got feature_group_count = {groups}.", check=check)
    if kernel_features != DYNAMIC and features // groups != kernel_features:
        return ctx.error(f"expects input feature dimension ({features}) / feature_group_count = kernel input "
                         f"feature dimension ({kernel_features}). Got feature_group_count = {groups}.",
                         check=check)
    return _convolution_shape(ctx, lhs, rhs)


def _window_ints(ctx: OpContext, name: str, n: int, default: int) -> list[int] | None:
    a = attr_of(ctx.op, name)
    if a is None:
        return [default] * n
    got = ints(a)
    return got if got is not None and len(got) == n else None


def _convolution_shape(ctx: OpContext, lhs: RankedTensorType, rhs: RankedTensorType) -> Finding | None:
    """The result's shape as StableHLO infers it (batch, features, each spatial dimension's window), for
    static shapes and readable dimension numbers."""
    op = ctx.op
    result = ctx.t(op.results[0]) if len(op.results) == 1 else None
    out = _static(result) if result is not None else None
    ls, rs = _static(lhs), _static(rhs)
    names = ("input_batch_dimension", "kernel_output_feature_dimension", "output_batch_dimension",
             "output_feature_dimension", "batch_group_count")
    scalars = [scalar_int(attr_of(op, n)) for n in names]
    spatial = [ints(attr_of(op, n)) for n in ("input_spatial_dimensions", "kernel_spatial_dimensions",
                                                "output_spatial_dimensions")]
    if out is None or ls is None or rs is None or None in scalars or any(x is None for x in spatial):
        return None
    in_b, k_out, out_b, out_f, batch_groups = (int(x) for x in scalars if x is not None)
    in_sp, k_sp, out_sp = (x for x in spatial if x is not None)
    rank, n = len(ls), len(in_sp)
    dims_ok = len(k_sp) == n and len(out_sp) == n and len(out) == rank and batch_groups > 0
    if not dims_ok or any(not 0 <= d < rank for d in (in_b, k_out, out_b, out_f, *in_sp, *k_sp, *out_sp)):
        return None
    strides = _window_ints(ctx, "window_strides", n, 1)
    lhs_dil, rhs_dil = _window_ints(ctx, "lhs_dilation", n, 1), _window_ints(ctx, "rhs_dilation", n, 1)
    padding = _window_ints(ctx, "padding", 2 * n, 0)
    if strides is None or lhs_dil is None or rhs_dil is None or padding is None:
        return None
    if any(x <= 0 for x in (*strides, *lhs_dil, *rhs_dil)):
        return None
    want = [0] * rank
    want[out_b] = ls[in_b] // batch_groups
    want[out_f] = rs[k_out]
    for i in range(n):
        size, window = ls[in_sp[i]], rs[k_sp[i]]
        base = (size - 1) * lhs_dil[i] + 1 if size > 0 else 0
        padded = padding[2 * i] + base + padding[2 * i + 1]
        win = (window - 1) * rhs_dil[i] + 1 if window > 0 else 0
        want[out_sp[i]] = (padded - win) // strides[i] + 1 if padded >= win else 0
    if tuple(want) != out:
        assert result is not None
        return ctx.error(f"inferred shape '[{', '.join(map(str, want))}]' is incompatible with return type "
                         f"of operation '{type_text(result)}'", check="stablehlo.convolution")
    return None


def verify_dynamic_slice(ctx: OpContext) -> Finding | None:
    """One start index per dimension of the operand, one slice size per start index."""
    op = ctx.op
    sizes = ints(attr_of(op, "slice_sizes"))
    if not op.operands or sizes is None:
        return None
    starts = len(op.operands) - 1
    if len(sizes) != starts:
        return ctx.error(f"has mismatched number of slice sizes ({len(sizes)}) and number of start indices "
                         f"({starts})", check="stablehlo.dynamic_slice")
    operand = ctx.t(op.operands[0])
    if isinstance(operand, RankedTensorType) and len(operand.shape) != starts:
        return ctx.error(f"has mismatched number of start indices ({starts}) and the rank of operand "
                         f"({len(operand.shape)})", check="stablehlo.dynamic_slice")
    return None


def verify_concatenate(ctx: OpContext) -> Finding | None:
    """The result's size along `dimension` is the operands' sum (all of them static)."""
    op = ctx.op
    dim = scalar_int(attr_of(op, "dimension"))
    if dim is None or not op.operands or len(op.results) != 1:
        return None
    shapes = [_static(ctx.t(v)) for v in op.operands]
    out = _static(ctx.t(op.results[0]))
    if out is None or any(sh is None or len(sh) != len(out) for sh in shapes) or not 0 <= dim < len(out):
        return None
    total = sum(sh[dim] for sh in shapes if sh is not None)
    result = ctx.t(op.results[0])
    if total != out[dim] and isinstance(result, RankedTensorType):
        want = [*out[:dim], total, *out[dim + 1:]]
        inferred = "tensor<" + "".join(f"{d}x" for d in want) + type_text(result.element) + ">"
        return _incompatible(ctx, f"'{inferred}'", f"'{type_text(result)}'", "stablehlo.concatenate")
    return None


def verify_custom_call_layouts(ctx: OpContext) -> Finding | None:
    """Where both layout lists are given (non-empty), one layout per operand and one per result."""
    op = ctx.op
    operands, results = _array_len(attr_of(op, "operand_layouts")), _array_len(attr_of(op, "result_layouts"))
    if not operands or not results:
        return None
    if operands != len(op.operands):
        return ctx.fail(f"Number of operands must match the number of operand layouts, {len(op.operands)} != "
                        f"{operands}", check="stablehlo.custom_call")
    if results != len(op.results):
        return ctx.fail(f"Number of results must match the number of result layouts, {len(op.results)} != "
                        f"{results}", check="stablehlo.custom_call")
    return None


def verify_while(ctx: OpContext) -> Finding | None:
    op = ctx.op
    for i, region in enumerate(op.regions[:2]):
        if not region.blocks:
            continue
        args = region.blocks[0].arguments
        which = "condition" if i == 0 else "body"
        if len(args) != len(op.operands):
            return ctx.fail(f"expect operands to be compatible with {which} block arguments but got "
                            f"{len(op.operands)} vs {len(args)}", check="stablehlo.while")
        for a, v in zip(args, op.operands, strict=True):
            if ctx.t(a) is not ctx.t(v):
                return ctx.fail(f"expect operands to be compatible with {which} block arguments but got "
                                f"'{type_text(ctx.t(v))}' vs '{type_text(ctx.t(a))}'",
                                check="stablehlo.while")
    if len(op.regions) != 2:
        return None
    operands = [ctx.t(v) for v in op.operands]
    body = _returned(ctx, op.regions[1])
    if body is not None and not _compatible_all(operands, body):
        return ctx.error(f"expect operands to be compatible with body block return types but got "
                         f"{_types_text(operands)} vs {_types_text(body)}", check="stablehlo.while")
    cond = _returned(ctx, op.regions[0])
    if cond is not None:
        if len(cond) != 1:
            return ctx.error(f"expect condition body returns a single value but got {len(cond)}",
                             check="stablehlo.while")
        t = cond[0]
        if isinstance(t, RankedTensorType) and (t.shape != () or t.element is not IntegerType.get(1)):
            return ctx.error(f"expect condition block return a zero-ranked tensor of i1 but got "
                             f"'{type_text(t)}'", check="stablehlo.while")
    return None


def verify_same_types_as_operands(ctx: OpContext) -> Finding | None:
    """Ops whose results are their operands' types (optimization_barrier): what type inference gives."""
    op = ctx.op
    have = [ctx.t(r) for r in op.results]
    want = [ctx.t(v) for v in op.operands]
    if len(have) != len(want) or any(a is not b for a, b in zip(have, want, strict=True)):
        inferred = ", ".join(type_text(t) for t in want)
        actual = ", ".join(type_text(t) for t in have)
        return _incompatible(ctx, f"'{inferred}'", f"'{actual}'", ctx.name)
    return None


DIALECT_VERIFIERS = {
    "vhlo": OpVerifier(verify_vhlo_attributes, label="its attributes are VHLO attributes"),
}
LEGALIZED_VERIFIERS = {
    "stablehlo.constant": OpVerifier(verify_constant, label="result type against the value's"),
    "stablehlo.broadcast_in_dim": OpVerifier(verify_broadcast_in_dim, label="broadcast dimensions"),
    "stablehlo.reshape": OpVerifier(verify_reshape, label="element counts"),
    "stablehlo.transpose": OpVerifier(verify_transpose, label="permutation and result shape"),
    "stablehlo.dot_general": OpVerifier(verify_dot_general, label="dimension numbers and result shape"),
    "stablehlo.case": OpVerifier(verify_branches, label="branches take no arguments, return the results"),
    "stablehlo.if": OpVerifier(verify_branches, label="branches take no arguments, return the results"),
    "stablehlo.reduce": OpVerifier(verify_reduce, label="the reduction region's parameters"),
    "stablehlo.add": OpVerifier(verify_add, label="one element type"),
    "stablehlo.select": OpVerifier(verify_select, label="operand types and the inferred result"),
    "stablehlo.reduce_window": OpVerifier(verify_reduce_window, label="the reduction region's parameters"),
    "stablehlo.all_reduce": OpVerifier(verify_collective_reduce, label="the reduction region's parameters"),
    "stablehlo.reduce_scatter": OpVerifier(verify_collective_reduce,
                                           label="the reduction region's parameters"),
    "stablehlo.while": OpVerifier(verify_while, label="region arguments against the operands"),
    "stablehlo.slice": OpVerifier(verify_slice, label="result shape from the slice bounds"),
    "stablehlo.convolution": OpVerifier(verify_convolution, label="ranks and feature counts"),
    "stablehlo.dynamic_slice": OpVerifier(verify_dynamic_slice, label="start indices and slice sizes"),
    "stablehlo.concatenate": OpVerifier(verify_concatenate, label="result size along the dimension"),
    "stablehlo.custom_call": OpVerifier(verify_custom_call_layouts,
                                        label="one layout per operand and result"),
    "stablehlo.optimization_barrier": OpVerifier(verify_same_types_as_operands,
                                                 label="results are its operands"),
}
