"""Loads, stores and element accesses of `memref`, `tensor`, `vector` and `affine`: as many indices as
the shaped value has dimensions (through the affine map for `affine`'s)."""

from __future__ import annotations

from ...ir.operation import Value
from ...ir.types import MemRefType, RankedTensorType
from ..affine_text import map_shape
from ..core import Finding, OpContext, OpVerifier, attr_of


def _rank(v: Value) -> int | None:
    t = v.type
    return len(t.shape) if isinstance(t, MemRefType | RankedTensorType) else None


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


def _affine_access(base: int) -> OpVerifier:
    def check(ctx: OpContext) -> Finding | None:
        op = ctx.op
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


VERIFIERS = {
    "memref.load": OpVerifier(verify_memref_load, label="as many indices as the memref's rank"),
    "memref.store": OpVerifier(verify_memref_store, label="as many indices as the memref's rank"),
    "tensor.extract": OpVerifier(verify_tensor_extract, label="as many indices as the tensor's rank"),
    "tensor.insert": OpVerifier(verify_tensor_insert, label="as many indices as the tensor's rank"),
    "vector.load": _vector_access(0),
    "vector.store": _vector_access(1),
    "affine.load": _affine_access(0),
    "affine.store": _affine_access(1),
}
