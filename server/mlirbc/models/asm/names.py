"""Result names ops give themselves (ports of upstream's `getAsmResultNames`), for ops whose syntax is
declarative; hand-written syntax models name their results themselves.

Each entry maps an op name to a function of the op's view returning (result number, name) pairs; the
view's naming makes each name unique (`%c0`, `%c0_1`, ...).  Names are facts of upstream's C++ (what each
op's method passes to `setNameFn`), checked against mlir-opt's prints of the corpus.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...ir.attributes import IntegerAttr, StringAttr
from ...ir.operation import OpResult
from ...ir.types import FunctionType, IndexType, IntegerType, Type
from ...syntax.attr_printer import print_type
from .adaptor import OpView

NamesFn = Callable[[OpView], list[tuple[int, str]]]
BlockNamesFn = Callable[[OpView, int], list[tuple[int, str]]]
"""An op's `getAsmBlockArgumentNames` for its region number N: (argument number of the entry block, name)."""


def int_value(a: IntegerAttr) -> int:
    """The attribute's value as APInt's signed print shows it."""
    t = a.type
    width = t.width if isinstance(t, IntegerType) else 64
    bits = a.bits
    if width and bits >> (width - 1):
        return bits - (1 << width)
    return bits


def type_suffix(t: Type) -> str:
    return print_type(t)


def _arith_constant(v: OpView) -> list[tuple[int, str]]:
    value = v.attr("value")
    if not v.op.results:
        return []
    t = v.op.results[0].type
    if isinstance(value, IntegerAttr):
        if isinstance(t, IntegerType) and t.width == 1:
            return [(0, "true" if value.bits else "false")]
        name = f"c{int_value(value)}"
        if isinstance(t, IntegerType):
            name += "_" + type_suffix(t)
        return [(0, name)]
    return [(0, "cst")]


def _index_constant(v: OpView) -> list[tuple[int, str]]:
    value = v.attr("value")
    if isinstance(value, IntegerAttr):
        return [(0, f"idx{int_value(value)}")]
    return []


def _fixed(*names: str) -> NamesFn:
    def fn(v: OpView) -> list[tuple[int, str]]:
        return [(i, n) for i, n in enumerate(names) if i < len(v.op.results)]
    return fn


def _shape_const_size(v: OpView) -> list[tuple[int, str]]:
    value = v.attr("value")
    return [(0, f"c{int_value(value)}")] if isinstance(value, IntegerAttr) and v.op.results else []


def _bool_constant(attr: str) -> NamesFn:
    def fn(v: OpView) -> list[tuple[int, str]]:
        value = v.attr(attr)
        if not isinstance(value, IntegerAttr):
            return []
        bits = value.bits
        return [(0, "true" if bits else "false")] if v.op.results else []
    return fn


def _name_prefix(v: OpView) -> list[tuple[int, str]]:
    prefix = v.attr("namePrefix")
    if isinstance(prefix, StringAttr) and v.op.results:
        return [(0, prefix.value.decode("utf-8", "surrogateescape"))]
    return []


def _address_of(v: OpView) -> list[tuple[int, str]]:
    var = v.attr("variable")
    root = getattr(var, "root", None)
    if isinstance(root, StringAttr) and v.op.results:
        return [(0, root.value.decode("utf-8", "surrogateescape") + "_addr")]
    return []


def _gpu_dimension(prefix: str) -> NamesFn:
    """`<prefix>_x` from a `#gpu<dim x>` dimension (`#gpu.dim<x>` in MLIR 24; GPU index ops, as mlir-opt
    names them)."""
    def fn(v: OpView) -> list[tuple[int, str]]:
        from ...syntax.attr_printer import plain_attribute_text

        dim = v.attr("dimension")
        if dim is None or not v.op.results:
            return []
        text = plain_attribute_text(dim)
        for head in ("#gpu<dim ", "#gpu.dim<"):
            if text.startswith(head) and text.endswith(">"):
                return [(0, f"{prefix}_{text[len(head):-1]}")]
        return []
    return fn


def _bv_constant(v: OpView) -> list[tuple[int, str]]:
    """smt.bv.constant: `c<value>_bv<width>` (the value signed, as the attribute prints it)."""
    from ...syntax.attr_printer import plain_attribute_text

    value = v.attr("value")
    text = plain_attribute_text(value) if value is not None else ""
    m = re.fullmatch(r"#smt\.bv<(-?\d+)> : !smt\.bv<(\d+)>", text)
    return [(0, f"c{m.group(1)}_bv{m.group(2)}")] if m and v.op.results else []


def _global_leaf(v: OpView) -> list[tuple[int, str]]:
    """ml_program.global_load(_const): the global's leaf name."""
    ref = v.attr("global")
    nested = getattr(ref, "nested", ())
    leaf = nested[-1].root if nested else getattr(ref, "root", None)
    if isinstance(leaf, StringAttr) and v.op.results:
        return [(0, leaf.value.decode("utf-8", "surrogateescape"))]
    return []


_INDEX_CONSTANTS = frozenset(("arith.constant", "index.constant"))
"""ConstantLike ops whose folded value is their `value` IntegerAttr (what `m_Constant` matches)."""


def _muli_vscale(v: OpView) -> list[tuple[int, str]]:
    """arith.muli of index type, one operand a constant and the other a `vector.vscale`:
    `c<constant>_vscale` (the lhs tried as the constant first)."""
    op = v.op
    if len(op.results) != 1 or not isinstance(op.results[0].type, IndexType) or len(op.operands) != 2:
        return []
    lhs, rhs = op.operands
    for const, other in ((lhs, rhs), (rhs, lhs)):
        if not (isinstance(const, OpResult) and isinstance(other, OpResult)):
            continue
        if other.owner.name != "vector.vscale" or const.owner.name not in _INDEX_CONSTANTS:
            continue
        value = OpView(const.owner, {}).attr("value")
        if isinstance(value, IntegerAttr):
            return [(0, f"c{int_value(value)}_vscale")]
    return []


def group_heads(v: OpView) -> list[tuple[int, str]]:
    """The first value of each non-empty result group by its ODS name (what ops whose C++ names each
    group after its accessor give: memref.extract_strided_metadata's `%base_buffer, %offset, %sizes:2`)."""
    out: list[tuple[int, str]] = []
    at = 0
    groups = v.result_groups()
    for name, _, _ in v.data.get("results", []):
        size = len(groups[name])
        if size:
            out.append((at, str(name)))
        at += size
    return out


def _func_constant(v: OpView) -> list[tuple[int, str]]:
    if not v.op.results:
        return []
    return [(0, "f" if isinstance(v.op.results[0].type, FunctionType) else "cst")]


def _foreach_match(v: OpView) -> list[tuple[int, str]]:
    """transform.foreach_match: the updated root, then each forwarded output on its own."""
    results = v.op.results
    return [(0, "updated_root")] + [(i, "yielded") for i in range(1, len(results))] if results else []


RESULT_NAMES: dict[str, NamesFn] = {
    "ml_program.global_load": _global_leaf,
    "ml_program.global_load_const": _global_leaf,
    "smt.bv.constant": _bv_constant,
    **{f"gpu.{op}": _gpu_dimension(op) for op in ("block_dim", "block_id", "global_id", "grid_dim",
                                                  "thread_id")},
    "shape.const_size": _shape_const_size,
    "index.bool.constant": _bool_constant("value"),
    "smt.constant": _bool_constant("value"),
    "smt.declare_fun": _name_prefix,
    "spirv.mlir.addressof": _address_of,
    "tensor.generate": _fixed("generated"),
    "arith.constant": _arith_constant,
    "index.constant": _index_constant,
    "memref.alloc": _fixed("alloc"),
    "memref.alloca": _fixed("alloca"),
    "memref.cast": _fixed("cast"),
    "memref.collapse_shape": _fixed("collapse_shape"),
    "memref.dim": _fixed("dim"),
    "memref.expand_shape": _fixed("expand_shape"),
    "memref.reinterpret_cast": _fixed("reinterpret_cast"),
    "memref.reshape": _fixed("reshape"),
    "memref.subview": _fixed("subview"),
    "memref.transpose": _fixed("transpose"),
    "memref.view": _fixed("view"),
    "tensor.cast": _fixed("cast"),
    "tensor.collapse_shape": _fixed("collapsed"),
    "tensor.dim": _fixed("dim"),
    "tensor.expand_shape": _fixed("expanded"),
    "tensor.extract": _fixed("extracted"),
    "tensor.from_elements": _fixed("from_elements"),
    "tensor.insert": _fixed("inserted"),
    "tensor.pad": _fixed("padded"),
    "tensor.rank": _fixed("rank"),
    "tensor.reshape": _fixed("reshape"),
    "tensor.splat": _fixed("splat"),
    "arith.addui_extended": _fixed("sum", "overflow"),
    "arith.muli": _muli_vscale,
    "complex.constant": _fixed("cst"),
    "func.constant": _func_constant,
    **{f"gpu.{op}": _gpu_dimension(op) for op in ("cluster_block_id", "cluster_dim", "cluster_dim_blocks",
                                                  "cluster_id")},
    "linalg.pack": _fixed("pack"),
    "linalg.unpack": _fixed("unpack"),
    "memref.assume_alignment": _fixed("assume_align"),
    "memref.extract_aligned_pointer_as_index": _fixed("intptr"),
    "memref.extract_strided_metadata": group_heads,
    "memref.memory_space_cast": _fixed("memspacecast"),
    "tensor.concat": _fixed("concat"),
    "tensor.extract_slice": _fixed("extracted_slice"),
    "tensor.gather": _fixed("gather"),
    "tensor.insert_slice": _fixed("inserted_slice"),
    "tensor.scatter": _fixed("scatter"),
    "transform.foreach_match": _foreach_match,
    "vector.vscale": _fixed("vscale"),
    # ShardOps.cpp: one name each; a variadic result list is named as one group by its first value
    **{f"shard.{op}": _fixed(op) for op in ("all_gather", "all_reduce", "all_slice", "all_to_all",
                                            "broadcast", "gather", "grid_shape", "recv", "reduce",
                                            "reduce_scatter", "scatter", "send", "shard_shape",
                                            "sharding", "shift")},
    "shard.shard": _fixed("sharding_annotated"),
    "shard.process_linear_index": _fixed("proc_linear_idx"),
    "shard.process_multi_index": _fixed("proc_linear_idx"),
    "shard.neighbors_linear_indices": _fixed("down_linear_idx", "up_linear_idx"),
    "gpu.shuffle": _fixed("shuffleResult", "valid"),
}


DEFAULT_DIALECTS: dict[str, str] = {
    # getDefaultDialect of ops with a declarative form: ops in their regions drop this prefix
    "builtin.module": "builtin",
    "emitc.file": "emitc",  # EmitC.td: OpAsmOpInterface's getDefaultDialect, as its C++-form ops
    "emitc.switch": "emitc",
    "pdl.pattern": "pdl",
    "pdl.rewrite": "pdl",
    "transform.sequence": "transform",  # TransformOps.td: static getDefaultDialect with OpAsmOpInterface
    "transform.with_pdl_patterns": "transform",
}
