"""Memory and tensor ops of `memref`, `tensor`, `vector`, `affine`, `bufferization` and `gpu`: loads, stores
and element accesses with as many indices as the shaped value has dimensions (through the affine map for
`affine`'s), one size per dynamic dimension of an allocation, dynamic offsets/sizes/strides against their
static lists, `affine.if` against its integer set, `tensor.pad`'s body, `bufferization.dealloc`'s lists,
`tensor.from_elements`, `vector.create_mask`, `memref.get_global` against the global it names."""

from __future__ import annotations

import struct

from ...ir.attributes import ArrayAttr, DenseArrayAttr, FlatSymbolRefAttr, IntegerAttr, SymbolRefAttr
from ...ir.operation import Value
from ...ir.types import DYNAMIC, IndexType, IntegerType, MemRefType, RankedTensorType, ShapedType, VectorType
from ..affine_text import map_shape, set_shape
from ..core import REGIONS, SYMBOLS, Finding, OpContext, OpVerifier, attr_of, type_text
from ..ods import operand_groups, segment_sizes
from .regions import terminator


def _rank(v: Value) -> int | None:
    t = v.type
    return len(t.shape) if isinstance(t, MemRefType | RankedTensorType) else None


def _groups(a: object) -> list[list[int]] | None:
    """A reassociation (`[[0, 1], [2]]`) as lists of dimensions; None if it is not one."""
    if not isinstance(a, ArrayAttr):
        return None
    out: list[list[int]] = []
    for g in a.elements:
        if not isinstance(g, ArrayAttr) or not all(isinstance(e, IntegerAttr) for e in g.elements):
            return None
        out.append([e.bits for e in g.elements if isinstance(e, IntegerAttr)])
    return out


def verify_tensor_reshape(ctx: OpContext) -> Finding | None:
    """`tensor.expand_shape`/`collapse_shape`: the collapsed rank is the number of reassociation groups and
    the groups list the expanded dimensions in order, each once (upstream's reshape-like type checks)."""
    op = ctx.op
    groups = _groups(ctx.attr("reassociation"))
    if groups is None or not op.operands or not op.results:
        return None
    src, res = op.operands[0].type, op.results[0].type
    if not isinstance(src, RankedTensorType) or not isinstance(res, RankedTensorType):
        return None
    expanded, collapsed = (res, src) if op.name == "tensor.expand_shape" else (src, res)
    if len(expanded.shape) < len(collapsed.shape):
        return ctx.fail(f"expected the expanded type, {type_text(expanded)} to have a higher (or same) rank "
                        f"than the collapsed type, {type_text(collapsed)}.", check=op.name)
    if len(collapsed.shape) != len(groups):
        return ctx.fail(f"expected collapsed rank ({len(collapsed.shape)}) to equal the number of "
                        f"reassociation maps ({len(groups)}).", part=("attribute", "reassociation"),
                        check=op.name)
    if not groups:
        return None
    nxt, bad = 0, None
    for i, g in enumerate(groups):
        for d in g:
            if d != nxt:
                bad = i
                break
            nxt += 1
        if bad is not None:
            break
    if bad is None and nxt != len(expanded.shape):
        bad = len(groups) - 1
    if bad is not None:
        return ctx.fail(f"expected reassociation map #{bad} to be valid and contiguous.",
                        part=("attribute", "reassociation"), check=op.name)
    return None


def verify_memref_load(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if not op.operands:
        return None
    rank = _rank(op.operands[0])
    if isinstance(op.operands[0].type, MemRefType) and rank is not None and len(op.operands) - 1 != rank:
        return ctx.fail(f"incorrect number of indices for load, expected {rank} but got "
                        f"{len(op.operands) - 1}",
                        check="memref.load")
    return None


def verify_memref_store(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if len(op.operands) < 2:
        return None
    rank = _rank(op.operands[1])
    if isinstance(op.operands[1].type, MemRefType) and rank is not None and len(op.operands) != 2 + rank:
        return ctx.fail("store index operand count not equal to memref rank", check="memref.store")
    return None


def verify_tensor_extract(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if not op.operands or not isinstance(op.operands[0].type, RankedTensorType):
        return None
    if _rank(op.operands[0]) != len(op.operands) - 1:
        return ctx.fail("incorrect number of indices for extract_element", check="tensor.extract")
    return None


def verify_tensor_insert(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if len(op.operands) < 2 or not isinstance(op.operands[1].type, RankedTensorType):
        return None
    if _rank(op.operands[1]) != len(op.operands) - 2:
        return ctx.fail("incorrect number of indices", check="tensor.insert")
    return None


def _vector_access(base: int) -> OpVerifier:
    def check(ctx: OpContext) -> Finding | None:
        op = ctx.op
        if len(op.operands) <= base:
            return None
        target = op.operands[base]
        if not isinstance(target.type, MemRefType):
            return None
        rank = len(target.type.shape)
        if len(op.operands) - base - 1 != rank:
            return ctx.fail(f"requires {rank} indices", check=op.name)
        return None
    return OpVerifier(check, label="as many indices as the memref's rank")


def _indexed(element_of: str = "") -> OpVerifier:
    """An op reading or writing `base` at `indices` (one per dimension of base); `element_of`: the group
    whose (vector) element type must be base's, checked first."""
    def check(ctx: OpContext) -> Finding | None:
        groups = operand_groups(ctx)
        if groups is None or len(groups.get("base", ())) != 1 or "indices" not in groups:
            return None
        base = groups["base"][0].type
        if not isinstance(base, MemRefType | RankedTensorType):
            return None
        if element_of:
            other = (list(ctx.op.results) if element_of == "result" else groups.get(element_of, []))
            if len(other) == 1 and isinstance(other[0].type, VectorType) \
                    and other[0].type.element is not base.element:
                return ctx.fail(f"base and {element_of} element type should match", check=ctx.op.name)
        rank = len(base.shape)
        if len(groups["indices"]) != rank:
            return ctx.fail(f"requires {rank} indices", check=ctx.op.name)
        return None
    return OpVerifier(check, label="as many indices as the base's rank")


def _affine_access(base: int) -> OpVerifier:
    def check(ctx: OpContext) -> Finding | None:
        op = ctx.op
        if base == 0 and op.operands and len(op.results) == 1:
            memref = op.operands[0].type
            if isinstance(memref, MemRefType) and op.results[0].type is not memref.element:
                return ctx.fail("result type must match element type of memref", check=op.name)
        shape = map_shape(attr_of(op, "map"))
        if shape is None or len(op.operands) <= base:
            return None
        if len(op.operands) - base - 1 != shape.dims + shape.symbols:
            return ctx.fail("expects as many subscripts as affine map inputs", check=op.name)
        rank = _rank(op.operands[base])
        if isinstance(op.operands[base].type, MemRefType) and rank != shape.results:
            return ctx.fail("affine map num results must equal memref rank", check=op.name)
        return None
    return OpVerifier(check, label="subscripts against the affine map, map results against the rank")


def verify_raw_buffer(ctx: OpContext) -> Finding | None:
    """`amdgpu.raw_buffer_*`: one index per dimension of the ranked memref."""
    groups = operand_groups(ctx)
    if groups is None or len(groups.get("memref", ())) != 1 or "indices" not in groups:
        return None
    memref = groups["memref"][0]
    rank = _rank(memref)
    if isinstance(memref.type, MemRefType) and rank is not None and len(groups["indices"]) != rank:
        return ctx.fail(f"Expected {rank} indices to memref", check=ctx.op.name)
    return None


def verify_affine_if(ctx: OpContext) -> Finding | None:
    shape = set_shape(ctx.attr("condition"))
    if shape is not None and len(ctx.op.operands) != shape.dims + shape.symbols:
        return ctx.fail("operand count and condition integer set dimension and symbol count must match",
                        check="affine.if")
    return None


def verify_dealloc(ctx: OpContext) -> Finding | None:
    op = ctx.op
    sizes = segment_sizes(op, "operandSegmentSizes")
    if not isinstance(sizes, list) or len(sizes) != 3:
        return None
    if sizes[0] != sizes[1]:
        return ctx.fail("must have the same number of conditions as memrefs to deallocate",
                        check="bufferization.dealloc")
    if sizes[2] != len(op.results):
        return ctx.fail("must have the same number of updated conditions (results) as retained operands",
                        check="bufferization.dealloc")
    return None


def verify_pad_regions(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if len(op.results) != 1 or not isinstance(op.results[0].type, RankedTensorType) or len(op.regions) != 1 \
            or not op.regions[0].blocks:
        return None
    rtype = op.results[0].type
    block = op.regions[0].blocks[0]
    if len(block.arguments) != len(rtype.shape):
        return ctx.error(f"expected the block to have {len(rtype.shape)} arguments", check="tensor.pad")
    for i, a in enumerate(block.arguments):
        if not isinstance(a.type, IndexType):
            return ctx.fail(f"expected block argument {i + 1} to be an index", check="tensor.pad")
    yield_op = terminator(op.regions[0], "tensor.yield")
    if yield_op is not None and yield_op.operands and isinstance(rtype, ShapedType) \
            and yield_op.operands[0].type is not rtype.element:
        return ctx.fail("expected yield type to match shape element type", check="tensor.pad")
    return None


def verify_get_global(ctx: OpContext) -> Finding | None:
    ref = ctx.attr("name")
    if not isinstance(ref, FlatSymbolRefAttr | SymbolRefAttr):
        return None
    target = ctx.verifier.symbols.resolve(ctx.ancestors, ref)
    if target is None or target.name != "memref.global":
        return ctx.fail(f"'{ref.root.text}' does not reference a valid global memref", part=("attribute",
                                                                                             "name"),
                        check="memref.get_global")
    return None


def verify_dynamic_sizes(ctx: OpContext) -> Finding | None:
    """Allocations and `tensor.empty`: one size operand per dynamic dimension of the result."""
    op = ctx.op
    if len(op.results) != 1:
        return None
    t = op.results[0].type
    if not isinstance(t, MemRefType | RankedTensorType):
        return None
    want = sum(1 for d in t.shape if d == DYNAMIC)
    sizes = segment_sizes(op, "operandSegmentSizes")
    if isinstance(sizes, list):
        groups = ctx.constraints.operands if ctx.constraints is not None else ()
        names = [g.name for g in groups]
        key = next((k for k in ("dynamicSizes", "dynamic_sizes") if k in names), None)
        if key is None or len(sizes) != len(names):
            return None
        have = sizes[names.index(key)]
    else:
        have = len(op.operands)
    if have != want:
        return ctx.fail(f"incorrect number of dynamic sizes, has {have}, expected {want}", check=op.name)
    return None


def verify_alloc_tensor(ctx: OpContext) -> Finding | None:
    op, c = ctx.op, ctx.constraints
    sizes = segment_sizes(op, "operandSegmentSizes")
    if c is None or not isinstance(sizes, list) or len(sizes) != len(c.operands) or len(op.results) != 1:
        return None
    names = [g.name for g in c.operands]
    if "copy" not in names or "dynamic_sizes" not in names:
        return None
    copies, dynamic = sizes[names.index("copy")], sizes[names.index("dynamic_sizes")]
    if copies and dynamic:
        return ctx.error("dynamic sizes not needed when copying a tensor", check=op.name)
    if not copies:
        return verify_dynamic_sizes(ctx)
    copy = op.operands[sum(sizes[:names.index("copy")])]
    if copy.type is not op.results[0].type:
        return ctx.error("expected that `copy` and return type match", check=op.name)
    return None


def verify_from_elements(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if len(op.results) != 1 or not isinstance(op.results[0].type, RankedTensorType):
        return None
    t = op.results[0].type
    if DYNAMIC in t.shape:
        return None
    n = 1
    for d in t.shape:
        n *= d
    if len(op.operands) != n or any(v.type is not t.element for v in op.operands):
        return ctx.fail("failed to verify that operand types match result element type", check=op.name)
    return None


def verify_create_mask(ctx: OpContext) -> Finding | None:
    op = ctx.op
    if len(op.results) == 1 and isinstance(op.results[0].type, VectorType) \
            and len(op.operands) != len(op.results[0].type.shape):
        return ctx.fail("must specify an operand for each result vector dimension", check=op.name)
    return None


_DYNAMIC_LISTS = (("offsets", "static_offsets"), ("sizes", "static_sizes"), ("strides", "static_strides"))


def verify_offset_size_stride(ctx: OpContext) -> Finding | None:
    """OffsetSizeAndStrideOpInterface: as many operands in each list as dynamic entries in its static
    counterpart."""
    op, c = ctx.op, ctx.constraints
    sizes = segment_sizes(op, "operandSegmentSizes")
    if c is None or not isinstance(sizes, list) or len(sizes) != len(c.operands):
        return None
    names = [g.name for g in c.operands]
    for dynamic, static in _DYNAMIC_LISTS:
        values = ints_of(attr_of(op, static))
        if dynamic not in names or values is None:
            continue
        have = sizes[names.index(dynamic)]
        want = sum(1 for v in values if v == DYNAMIC)
        if have != want:
            return ctx.error(f"expected the number of '{dynamic}' to match the number of dynamic entries in "
                             f"'{static}' ({have} vs {want})", check="OffsetSizeAndStrideOpInterface")
    return None


def ints_of(a: object) -> list[int] | None:
    if isinstance(a, DenseArrayAttr) and a.element_type is IntegerType.get(64):
        return list(struct.unpack(f"<{a.count}q", bytes(a.data)))
    return None


VERIFIERS = {
    "tensor.expand_shape": OpVerifier(verify_tensor_reshape, label="reassociation against the ranks"),
    "tensor.collapse_shape": OpVerifier(verify_tensor_reshape, label="reassociation against the ranks"),
    "tensor.empty": OpVerifier(verify_dynamic_sizes, label="one size per dynamic dimension"),
    "memref.alloc": OpVerifier(verify_dynamic_sizes, label="one size per dynamic dimension"),
    "memref.alloca": OpVerifier(verify_dynamic_sizes, label="one size per dynamic dimension"),
    "bufferization.alloc_tensor": OpVerifier(verify_alloc_tensor,
                                             label="one size per dynamic dimension, or a copy of the type"),
    "gpu.alloc": OpVerifier(verify_dynamic_sizes, label="one size per dynamic dimension"),
    "tensor.from_elements": OpVerifier(verify_from_elements, label="one operand per element"),
    "vector.create_mask": OpVerifier(verify_create_mask, label="one operand per dimension"),
    "affine.if": OpVerifier(verify_affine_if, label="operands against the integer set"),
    "bufferization.dealloc": OpVerifier(verify_dealloc, label="as many conditions as memrefs"),
    "memref.load": OpVerifier(verify_memref_load, label="as many indices as the memref's rank"),
    "memref.store": OpVerifier(verify_memref_store, label="as many indices as the memref's rank"),
    "tensor.extract": OpVerifier(verify_tensor_extract, label="as many indices as the tensor's rank"),
    "tensor.insert": OpVerifier(verify_tensor_insert, label="as many indices as the tensor's rank"),
    "vector.load": _vector_access(0),
    "vector.transfer_read": _indexed(),
    "vector.transfer_write": _indexed(),
    "vector.maskedload": _indexed("result"),
    "vector.maskedstore": _indexed("valueToStore"),
    "vector.expandload": _indexed("result"),
    "vector.compressstore": _indexed("valueToStore"),
    "vector.store": _vector_access(1),
    **{f"amdgpu.raw_buffer_{k}": OpVerifier(verify_raw_buffer, label="as many indices as the memref's rank")
       for k in ("load", "store", "atomic_fadd", "atomic_fmax", "atomic_smax", "atomic_umin",
                 "atomic_cmpswap")},
    "affine.load": _affine_access(0),
    "affine.store": _affine_access(1),
}
INTERFACES = {
    "OffsetSizeAndStrideOpInterface": OpVerifier(verify_offset_size_stride,
                                                 label="one operand per dynamic offset, size and stride"),
}
REGION_VERIFIERS = {
    "tensor.pad": OpVerifier(verify_pad_regions, REGIONS, label="its body's arguments and yielded type"),
}
SYMBOL_VERIFIERS = {
    "memref.get_global": OpVerifier(verify_get_global, SYMBOLS, label="the global it names exists"),
}
