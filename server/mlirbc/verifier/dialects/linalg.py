"""`linalg`'s structured ops (LinalgStructuredInterface, DestinationStyleOpInterface) and `linalg.yield`:
indexing maps against the operands, the body's arguments against the operands' element types, results
against the init tensors, yielded values against the inits."""

from __future__ import annotations

from ...ir.attributes import ArrayAttr
from ...ir.operation import Operation, Value
from ...ir.types import (
    DYNAMIC,
    MemRefType,
    RankedTensorType,
    ShapedType,
    Type,
    UnrankedMemRefType,
    UnrankedTensorType,
)
from ..affine_text import evaluate, map_shape, parse_map
from ..core import Finding, OpContext, OpVerifier, attr_of, type_text
from ..ods import segment_sizes


def ins_outs(op: Operation) -> tuple[list[Value], list[Value]] | None:
    """The inputs and the inits (outs) of a structured op."""
    sizes = segment_sizes(op, "operandSegmentSizes")
    if isinstance(sizes, list) and len(sizes) == 2 and sum(sizes) == len(op.operands):
        return list(op.operands[:sizes[0]]), list(op.operands[sizes[0]:])
    if op.name in ("linalg.map", "linalg.transpose", "linalg.broadcast") and op.operands:
        return list(op.operands[:-1]), [op.operands[-1]]
    return None


def _element_or_self(t: Type) -> Type:
    return t.element if isinstance(t, MemRefType | RankedTensorType) else t


def _rank(t: Type) -> int | None:
    if isinstance(t, RankedTensorType | MemRefType):
        return len(t.shape)
    if isinstance(t, ShapedType):
        return None
    return 0


def _ranks(*names_and_ranks: tuple[str, tuple[int, ...]]) -> dict[str, tuple[int, ...]]:
    return dict(names_and_ranks)


_POOL = ("sum", "max", "max_unsigned", "min", "min_unsigned")
NAMED_RANKS: dict[str, tuple[int, ...]] = {
    # the result count of each default indexing map of linalg's named ops (their OpDSL definitions), one per
    # operand: inputs then init; ops that take an `indexing_maps` attribute use these only without it
    **_ranks(("linalg.matmul", (2, 2, 2)), ("linalg.batch_matmul", (3, 3, 3)),
             ("linalg.batch_reduce_matmul", (3, 3, 2)), ("linalg.matvec", (2, 1, 1)),
             ("linalg.vecmat", (1, 2, 1)), ("linalg.batch_matvec", (3, 2, 2)),
             ("linalg.batch_vecmat", (2, 3, 2)), ("linalg.dot", (1, 1, 0)), ("linalg.mmt4d", (4, 4, 4)),
             ("linalg.batch_mmt4d", (5, 5, 5)), ("linalg.quantized_matmul", (2, 2, 0, 0, 2)),
             ("linalg.quantized_batch_matmul", (3, 3, 0, 0, 3)),
             ("linalg.conv_1d", (1, 1, 1)), ("linalg.conv_2d", (2, 2, 2)), ("linalg.conv_3d", (3, 3, 3)),
             ("linalg.conv_1d_nwc_wcf", (3, 3, 3)), ("linalg.conv_1d_ncw_fcw", (3, 3, 3)),
             ("linalg.conv_2d_nhwc_hwcf", (4, 4, 4)), ("linalg.conv_2d_nhwc_fhwc", (4, 4, 4)),
             ("linalg.conv_2d_nchw_fchw", (4, 4, 4)), ("linalg.conv_3d_ndhwc_dhwcf", (5, 5, 5)),
             ("linalg.conv_3d_ncdhw_fcdhw", (5, 5, 5)),
             ("linalg.depthwise_conv_1d_nwc_wc", (3, 2, 3)), ("linalg.depthwise_conv_1d_ncw_cw", (3, 2, 3)),
             ("linalg.depthwise_conv_1d_nwc_wcm", (3, 3, 4)),
             ("linalg.depthwise_conv_2d_nhwc_hwc", (4, 3, 4)),
             ("linalg.depthwise_conv_2d_nchw_chw", (4, 3, 4)),
             ("linalg.depthwise_conv_2d_nhwc_hwcm", (4, 4, 5)),
             ("linalg.depthwise_conv_3d_ndhwc_dhwc", (5, 4, 5)),
             ("linalg.depthwise_conv_3d_ncdhw_cdhw", (5, 4, 5)),
             ("linalg.depthwise_conv_3d_ndhwc_dhwcm", (5, 5, 6))),
    **{f"linalg.pooling_nhwc_{k}": (4, 2, 4) for k in _POOL},
    **{f"linalg.pooling_nwc_{k}": (3, 1, 3) for k in _POOL},
    **{f"linalg.pooling_nchw_{k}": (4, 2, 4) for k in ("sum", "max")},
    **{f"linalg.pooling_ncw_{k}": (3, 1, 3) for k in ("sum", "max")},
    **{f"linalg.pooling_ndhwc_{k}": (5, 3, 5) for k in ("sum", "max", "min")},
}


def _named_ranks(ctx: OpContext) -> Finding | None:
    """A named op without explicit indexing maps: each operand's rank against its default map's."""
    op = ctx.op
    ranks = NAMED_RANKS.get(op.name)
    if ranks is None or len(ranks) != len(op.operands) or attr_of(op, "indexing_maps") is not None:
        return None
    for i, (v, want) in enumerate(zip(op.operands, ranks, strict=True)):
        rank = _rank(v.type)
        if rank is not None and rank != want:
            return ctx.fail(f"expected operand #{i} rank ({rank}) to match the result rank of indexing_map "
                            f"({want})", check="LinalgStructuredInterface")
    return None


def verify_destination_style(ctx: OpContext) -> Finding | None:
    op = ctx.op
    parts = ins_outs(op)
    if parts is None:
        return None
    outs = parts[1]
    tensors: list[tuple[int, Value]] = []
    start = len(op.operands) - len(outs)
    for i, v in enumerate(outs):
        if isinstance(v.type, RankedTensorType | UnrankedTensorType):
            tensors.append((start + i, v))
        elif not isinstance(v.type, MemRefType | UnrankedMemRefType):
            return ctx.fail(f"expected that operand #{start + i} is a tensor or a memref",
                            check="DestinationStyleOpInterface")
    tensor_results = [r for r in op.results if isinstance(r.type, RankedTensorType | UnrankedTensorType)]
    if len(tensor_results) != len(tensors):
        return ctx.fail(f"expected the number of tensor results ({len(tensor_results)}) to be equal to the "
                        f"number of output tensors ({len(tensors)})", check="DestinationStyleOpInterface")
    for (n, v), r in zip(tensors, tensor_results, strict=True):
        if r.type is not v.type:
            return ctx.fail(f"expected type of operand #{n} ('{type_text(v.type)}') to match type of "
                            f"corresponding result ('{type_text(r.type)}')",
                            check="DestinationStyleOpInterface")
    return None


def verify_structured(ctx: OpContext) -> Finding | None:
    op = ctx.op
    parts = ins_outs(op)
    if parts is None or op.name in ("linalg.map", "linalg.transpose", "linalg.broadcast"):
        return None
    ins, outs = parts
    check = "LinalgStructuredInterface"
    if len(op.results) > len(outs):
        return ctx.fail("unexpected #results > #outputs", check=check)
    maps = attr_of(op, "indexing_maps")
    iterators = attr_of(op, "iterator_types")
    if isinstance(maps, ArrayAttr) and op.name == "linalg.generic":
        if len(maps.elements) != len(op.operands):
            return ctx.fail(f"expected the number of indexing_map ({len(maps.elements)}) to be equal to the "
                            f"number of input/output operands ({len(op.operands)})", check=check)
        loops = len(iterators.elements) if isinstance(iterators, ArrayAttr) else None
        for i, (m, v) in enumerate(zip(maps.elements, op.operands, strict=True)):
            shape = map_shape(m)
            if shape is None:
                return None
            if shape.symbols:
                return ctx.fail(f"unexpected symbols in indexing_map #{i}", check=check)
            if loops is not None and shape.dims != loops:
                return ctx.fail(f"expected indexing_map #{i} to have {loops} dim(s) to match the number of "
                                "loops", check=check)
            rank = _rank(v.type)
            if rank is not None and rank != shape.results:
                return ctx.fail(f"expected operand rank ({rank}) to match the result rank of indexing_map "
                                f"#{i} "
                                f"({shape.results})", check=check)
    found = _named_ranks(ctx)
    if found is not None:
        return found
    if isinstance(maps, ArrayAttr) and len(maps.elements) == len(op.operands):
        found = _loop_ranges_against_shapes(ctx, maps)
        if found is not None:
            return found
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        return ctx.fail("expects to have 1 region with 1 block", check=check)
    # every structured op with inputs and inits has one body argument per operand (named ops too)
    args = op.regions[0].blocks[0].arguments
    if len(args) != len(op.operands):
        return ctx.fail("expected as many non-induction variable region arguments as the number of "
                        "input/output operands", check=check)
    for i, (v, a) in enumerate(zip(op.operands, args, strict=True)):
        want = _element_or_self(v.type)
        if a.type is not want:
            return ctx.fail(f"expected type of bb argument #{i} ('{type_text(a.type)}') to match element or "
                            f"self type of the corresponding operand ('{type_text(want)}')", check=check)
    return None


def _shape_text(t: Type) -> str | None:
    return ", ".join(str(d) for d in t.shape) if isinstance(t, RankedTensorType | MemRefType) else None


def verify_map(ctx: OpContext) -> Finding | None:
    """`linalg.map`'s own checks (its mapper's arity, argument types and the inputs' shapes), then what
    its structured interface says of the body's arguments (upstream verifies that after the op)."""
    op = ctx.op
    parts = ins_outs(op)
    if parts is None or len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        return None
    ins, outs = parts
    args = op.regions[0].blocks[0].arguments
    if len(op.operands) != len(args):
        return ctx.fail(f"expects number of operands to match the arity of mapper, but got: "
                        f"{len(op.operands)} "
                        f"and {len(args)}", check=op.name)
    for a, v in zip(args, ins, strict=False):
        if not isinstance(v.type, ShapedType):
            return None
        if a.type is not v.type.element:
            return ctx.fail(f"expected element type of input '{type_text(v.type.element)}' to match bbArg "
                            f"type '{type_text(a.type)}'", check=op.name)
    out = _shape_text(outs[0].type)
    for v in ins:
        shape = _shape_text(v.type)
        if shape is None or out is None:
            return None
        if shape != out:
            return ctx.fail(f"expected shape of input ({shape}) to match shape of output ({out})",
                            check=op.name)
    for i, (v, a) in enumerate(zip(op.operands, args, strict=True)):
        want = _element_or_self(v.type)
        if a.type is not want:
            return ctx.fail(f"expected type of bb argument #{i} ('{type_text(a.type)}') to match element or "
                            f"self type of the corresponding operand ('{type_text(want)}')",
                            check="LinalgStructuredInterface")
    return None


def _loop_ranges_against_shapes(ctx: OpContext, maps_attr: ArrayAttr) -> Finding | None:
    """The operands' static shapes against the loop ranges their indexing maps infer (upstream's check
    of `getStaticLoopRanges`, for static loop ranges only)."""
    op = ctx.op
    maps = [parse_map(m) for m in maps_attr.elements]
    if any(m is None or m.symbols for m in maps):
        return None
    parsed = [m for m in maps if m is not None]
    n = parsed[0].dims if parsed else 0
    if any(m.dims != n for m in parsed):
        return None
    shapes: list[tuple[int, ...]] = []
    for v in op.operands:
        t = v.type
        if isinstance(t, RankedTensorType | MemRefType):
            shapes.append(tuple(t.shape))
        elif isinstance(t, ShapedType):
            return None
        else:
            shapes.append(())
    if any(len(s) != len(m.results) for s, m in zip(shapes, parsed, strict=True)):
        return None  # the rank check's business
    ranges: list[int | None] = [None] * n
    for s, m in zip(shapes, parsed, strict=True):
        for size, e in zip(s, m.results, strict=True):
            if e[0] == "d":
                d = int(str(e[1]))
                if ranges[d] is None:
                    ranges[d] = size
    check = "LinalgStructuredInterface"
    if any(r is None for r in ranges):
        every = ", ".join(t for m in parsed for t in m.result_texts)
        return ctx.fail(f"invalid indexing maps are non-invertible: (({parsed[0].dims_text}) -> ({every}))",
                        check=check)
    if any(r == DYNAMIC for r in ranges):
        return None  # upstream checks static ranges only
    start = [0] * n
    end = [int(r) - 1 for r in ranges if r is not None]
    for i, (s, m, a) in enumerate(zip(shapes, parsed, maps_attr.elements, strict=True)):
        for dim, (size, e) in enumerate(zip(s, m.results, strict=True)):
            if size == DYNAMIC or size == 0:
                continue
            lo, hi = evaluate(e, start), evaluate(e, end)
            if lo is None or hi is None:
                return None
            inferred = max(lo, hi) + 1
            if min(lo, hi) < 0:
                text = getattr(a, "text", "")
                text = text[len("affine_map<"):-1] if text.startswith("affine_map<") else text
                return ctx.fail(f"unexpected result less than 0 at expression #{dim} in {text}", check=check)
            if e[0] == "d":
                if inferred != size:
                    return ctx.fail(f"inferred input/output operand #{i} has shape's dimension #{dim} to be "
                                    f"{inferred}, but found {size}", check=check)
            elif inferred > size:
                return ctx.fail(f"inferred input/output operand #{i} has shape's dimension #{dim} to be "
                                f"greater "
                                f"than or equal to {inferred}, but found {size}", check=check)
    return None


def verify_yield(ctx: OpContext) -> Finding | None:
    parent = ctx.parent
    if parent is None or ctx.parent_failed() or not parent.name.startswith("linalg."):
        return None
    model = ctx.model_of(parent)
    parts = ins_outs(parent)
    if parts is None or model is None or "LinalgOp" not in model.cpp:
        return None
    outs = parts[1]
    op = ctx.op
    if len(op.operands) != len(outs):
        return ctx.fail(f"expected number of yield values ({len(op.operands)}) to match the number of "
                        f"inits / "
                        f"outs operands of the enclosing LinalgOp ({len(outs)})", check="linalg.yield")
    for i, (v, out) in enumerate(zip(op.operands, outs, strict=True)):
        want = _element_or_self(out.type)
        if v.type is not want:
            return ctx.fail(f"type of yield operand {i + 1} ('{type_text(v.type)}') doesn't match the "
                            f"element "
                            f"type of the enclosing linalg.generic op ('{type_text(want)}')",
                            check="linalg.yield")
    return None


INTERFACES = {
    "DestinationStyleOpInterface": OpVerifier(verify_destination_style,
                                              label="result types against the init tensors"),
    "LinalgOp": OpVerifier(verify_structured, label="indexing maps and body arguments against the operands"),
}
VERIFIERS = {
    "linalg.map": OpVerifier(verify_map, label="the mapper's arity and arguments, the inputs' shapes"),
    "linalg.yield": OpVerifier(verify_yield, label="yielded values against the enclosing op's inits"),
}
