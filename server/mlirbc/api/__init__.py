"""The public Python API: MLIR's Python bindings' names over mlirbc's own IR, reader and faithful writer.

    import mlirbc
    module = mlirbc.load("model.mlirbc")
    for op in module.walk():
        if op.name == "func.func":
            op.attributes["sym_name"] = mlirbc.StringAttr.get("renamed")
    module.save("out.mlirbc")

Everything here is also `mlirbc.NAME` and `mlirbc.ir.NAME` (the names MLIR's bindings use in `mlir.ir`).
The objects are faces of the IR the reader built and the writer writes (no second copy of the module):
see `mlirbc.api._state` for how changes stay safe and what a save copies from the original bytes.
"""

from __future__ import annotations

from .attributes import (
    ArrayAttr,
    Attribute,
    BoolAttr,
    DenseBoolArrayAttr,
    DenseElementsAttr,
    DenseF32ArrayAttr,
    DenseF64ArrayAttr,
    DenseFPElementsAttr,
    DenseI8ArrayAttr,
    DenseI16ArrayAttr,
    DenseI32ArrayAttr,
    DenseI64ArrayAttr,
    DenseIntElementsAttr,
    DenseResourceElementsAttr,
    DictAttr,
    FlatSymbolRefAttr,
    FloatAttr,
    IntegerAttr,
    Location,
    NamedAttribute,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
)
from .context import Context
from .errors import DecodeError, EncodeError, Error, IRError, OpaqueError
from .insertion import InsertionPoint
from .module import Module, load, module_of, parse
from .operations import (
    Block,
    BlockArgument,
    BlockArgumentList,
    BlockList,
    OpAttributeMap,
    Operation,
    OperationList,
    OpOperand,
    OpOperandList,
    OpResult,
    OpResultList,
    OpSuccessors,
    OpView,
    Region,
    RegionSequence,
    Value,
    WalkOrder,
    WalkResult,
)
from .rewrite import PatternRewriter, RewritePattern, apply_patterns_greedily
from .types import (
    BF16Type,
    ComplexType,
    F16Type,
    F32Type,
    F64Type,
    Float4E2M1FNType,
    Float6E2M3FNType,
    Float6E3M2FNType,
    Float8E3M4Type,
    Float8E4M3B11FNUZType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E4M3Type,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float80Type,
    Float128Type,
    FloatTF32Type,
    FloatType,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    NoneType,
    RankedTensorType,
    ShapedType,
    TupleType,
    Type,
    UnrankedMemRefType,
    UnrankedTensorType,
    VectorType,
)

__all__ = [
    # modules and files
    "load", "parse", "Module", "module_of", "Context",
    # structure
    "Operation", "OpView", "Block", "Region", "Value", "OpResult", "BlockArgument", "OpOperand",
    "InsertionPoint", "Location", "WalkOrder", "WalkResult",
    "OpAttributeMap", "OpOperandList", "OpResultList", "RegionSequence", "OpSuccessors",
    "BlockArgumentList", "OperationList", "BlockList",
    # attributes
    "Attribute", "NamedAttribute", "StringAttr", "IntegerAttr", "BoolAttr", "FloatAttr", "UnitAttr",
    "TypeAttr", "FlatSymbolRefAttr", "SymbolRefAttr", "ArrayAttr", "DictAttr", "DenseElementsAttr",
    "DenseIntElementsAttr", "DenseFPElementsAttr", "DenseResourceElementsAttr", "DenseBoolArrayAttr",
    "DenseI8ArrayAttr", "DenseI16ArrayAttr", "DenseI32ArrayAttr", "DenseI64ArrayAttr", "DenseF32ArrayAttr",
    "DenseF64ArrayAttr",
    # types
    "Type", "IntegerType", "IndexType", "NoneType", "FloatType", "BF16Type", "F16Type", "F32Type",
    "F64Type", "FloatTF32Type", "Float8E5M2Type", "Float8E4M3Type", "Float8E4M3FNType", "Float8E5M2FNUZType",
    "Float8E4M3FNUZType", "Float8E4M3B11FNUZType", "Float8E3M4Type", "Float8E8M0FNUType",
    "Float6E2M3FNType", "Float6E3M2FNType", "Float4E2M1FNType", "Float80Type", "Float128Type",
    "ComplexType", "TupleType", "FunctionType", "ShapedType", "RankedTensorType", "UnrankedTensorType",
    "MemRefType", "UnrankedMemRefType", "VectorType",
    # rewriting
    "RewritePattern", "PatternRewriter", "apply_patterns_greedily",
    # errors
    "Error", "DecodeError", "EncodeError", "IRError", "OpaqueError",
]
