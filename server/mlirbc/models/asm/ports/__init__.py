"""Hand-written syntax models of upstream ops whose custom form is C++ (`hasCustomAssemblyFormat`), one
module per dialect, each a port of upstream's `print`/`parse` pair checked against mlir-opt's prints.

`register_ports` registers every one (an op syntax registration per op, replacing the data-driven one).
"""

from __future__ import annotations

from importlib import import_module

from ...registry import Registry

# Imported when a registry is built, not when this package is imported (as before: startup stays light).
_PORT_MODULES = (
    "affine",
    "affine_loops",
    "arith",
    "async_ops",
    "bufferization",
    "emitc",
    "builtin",
    "func",
    "functions",
    "gpu",
    "linalg",
    "linalg_map",
    "linalg_dps",
    "llvm",
    "llvm_call",
    "llvm_cmp",
    "llvm_more",
    "nvvm",
    "memref",
    "scf",
    "omp",
    "scf_more",
    "shape",
    "smt",
    "spirv",
    "spirv_forms",
    "spirv_control",
    "tosa",
    "vector",
    "wasmssa",
)


def register_ports(reg: Registry, origin: str) -> None:
    for name in _PORT_MODULES:
        module = import_module(f".{name}", __package__)
        for model in module.MODELS:
            reg.register_op_syntax(model, origin)
