"""Hand-written syntax models of upstream ops whose custom form is C++ (`hasCustomAssemblyFormat`), one
module per dialect, each a port of upstream's `print`/`parse` pair checked against mlir-opt's prints.

`register_ports` registers every one (an op syntax registration per op, replacing the data-driven one).
"""

from __future__ import annotations

from ...registry import Registry


def register_ports(reg: Registry, origin: str) -> None:
    from . import (
        affine,
        affine_loops,
        arith,
        async_ops,
        bufferization,
        builtin,
        func,
        functions,
        gpu,
        linalg,
        linalg_map,
        llvm,
        llvm_more,
        scf,
        scf_more,
        shape,
        spirv,
        spirv_forms,
        tosa,
        vector,
    )

    modules = (
        affine,
        affine_loops,
        arith,
        async_ops,
        bufferization,
        builtin,
        func,
        functions,
        gpu,
        linalg,
        linalg_map,
        llvm,
        llvm_more,
        scf,
        scf_more,
        shape,
        spirv,
        spirv_forms,
        tosa,
        vector,
    )
    for module in modules:
        for model in module.MODELS:
            reg.register_op_syntax(model, origin)
