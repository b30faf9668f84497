"""The public Python API: MLIR's Python bindings' names over mlirbc's own IR, reader and faithful writer.

    import mlirbc
    module = mlirbc.load("model.mlirbc")
    for op in module.walk():
        if op.name == "func.func":
            op.attributes["sym_name"] = mlirbc.StringAttr.get("renamed")
    module.save("out.mlirbc")

Everything here is also `mlirbc.NAME` and `mlirbc.ir.NAME` (the names MLIR's bindings use in `mlir.ir`).

Where mlirbc deliberately differs from `mlir.ir` (the rest behaves as MLIR's bindings, checked against
jaxlib's on the same input by the tests):

* no context or location is required: `Operation.create` without `loc=` and outside `with Location` gives
  `loc(unknown)`; `Context.current` and `Location.current` are None outside a `with`, as MLIR's;
* `Module.parse` takes the view's text, generic MLIR text or the custom forms the pretty view prints, or
  bytecode bytes; `Module.parseFile` and `mlirbc.load` read bytecode files.  As MLIR's, text that is not
  one `builtin.module` (several top-level ops, one func, none) comes in a new module located at
  `loc("-":0:0)`, and a file whose top-level op is not a module in an implicit one (saved without it
  while it still holds just that op); a view's text (with its `// mlirbc:` header) is the file's one
  top-level op, as the view shows it;
* `op.parent` of a detached op is None (MLIR raises ValueError); `op.opview` is the op itself (there are
  no per-op Python classes);
* refused at the call where MLIR would build IR its verifier rejects later: a value of another module
  (IRError), a result count or property kind the op's model forbids (IRError), an integer that does not
  fit its type (MLIR truncates), a name that may be one of a fallback op's opaque properties
  (OpaqueError; dialect-prefixed names such as `my.tag` are never properties and work on every op);
* printing is the pretty view's, with locations: `str(op)` is the op in its custom form as MLIR prints
  an op on its own (attributes inline, values named as in the module's view), `str(module)` the module
  with aliases (`mlirbc decode --form pretty`); values print as `%3 : i32 (result #0 of 'op')`, not as
  their defining op;
* `op.verify()` checks what the writer and reader need, not dialect verifiers; saving (`Module.save`,
  `to_bytes`, `write_bytecode`) a module the program changed or made runs the verifier (ODS constraints
  and dialect verifiers, `docs/verification.md`) and refuses one that does not verify (MLIR's writer
  does not verify; `verify=False` writes it anyway).
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
