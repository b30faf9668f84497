"""What ODS says an op must be, derived from TableGen's JSON (`llvm-tblgen --dump-json`) into a closed
vocabulary of checkable predicates.

Shared by the data generator (`server/tools/gen_constraints.py`) and by user-named ODS JSON files at run
time (`--ods-json`).  Per op the output (`derive_constraints`) lists its operand and result groups (with
their quantifier: one, optional, variadic, variadic of variadic), its attributes (required, optional or
default-valued) and properties, its regions and successors, each with an index into a table of constraints
(`[summary, predicate]`), and its traits in the order upstream verifies them.

A predicate is a small JSON tree (`translate`): `["and", ...]`, `["or", ...]`, `["not", p]`, `["T"]`
(always true), `["?", text]` (a C++ condition this vocabulary does not model: never checked), `["at",
path, atom, *args]` (an atom applied to the value reached from the constrained value by `path`, a list of
steps: `elem` a shaped type's element type, `celem` a complex type's, `tattr` a type attribute's type,
`atype` a typed attribute's type, `eos` the element type or the type itself) and `["all", path, p]` (`p`
holds for every element of an array attribute).  The atoms are those of `verifier.predicates`; TableGen's
C++ snippets are recognised only where their meaning is exact, everything else stays `?`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .ods_derive import OdsError, Record, Records, _ref, _supers
from .ods_derive import _unwrap_arg as _unwrap

Pred = list[Any]
UNKNOWN_PATH = "?"

# -- builtin classes -------------------------------------------------------------------------------------
BUILTIN_TYPES = frozenset({
    "IntegerType", "IndexType", "NoneType", "FunctionType", "ComplexType", "TupleType", "RankedTensorType",
    "UnrankedTensorType", "TensorType", "MemRefType", "UnrankedMemRefType", "BaseMemRefType", "VectorType",
    "ShapedType", "FloatType", "FixedVectorType", "ScalableVectorType", "OpaqueType",
})
FLOAT_CLASSES = {
    "BFloat16Type": "bf16", "Float16Type": "f16", "FloatTF32Type": "tf32", "Float32Type": "f32",
    "Float64Type": "f64", "Float80Type": "f80", "Float128Type": "f128", "Float8E5M2Type": "f8E5M2",
    "Float8E4M3FNType": "f8E4M3FN", "Float8E5M2FNUZType": "f8E5M2FNUZ", "Float8E4M3FNUZType": "f8E4M3FNUZ",
    "Float8E4M3B11FNUZType": "f8E4M3B11FNUZ", "Float8E4M3Type": "f8E4M3", "Float8E3M4Type": "f8E3M4",
    "Float8E8M0FNUType": "f8E8M0FNU", "Float6E2M3FNType": "f6E2M3FN", "Float6E3M2FNType": "f6E3M2FN",
    "Float4E2M1FNType": "f4E2M1FN",
}
FLOAT_METHODS = {"isBF16": "bf16", "isF16": "f16", "isTF32": "tf32", "isF32": "f32", "isF64": "f64",
                 "isF80": "f80", "isF128": "f128"}
BUILTIN_ATTRS = frozenset({
    "IntegerAttr", "FloatAttr", "BoolAttr", "StringAttr", "ArrayAttr", "DictionaryAttr", "UnitAttr",
    "TypeAttr", "SymbolRefAttr", "FlatSymbolRefAttr", "DenseElementsAttr", "DenseIntElementsAttr",
    "DenseFPElementsAttr", "DenseIntOrFPElementsAttr", "DenseStringElementsAttr", "DenseResourceElementsAttr",
    "SparseElementsAttr", "ElementsAttr", "TypedAttr", "AffineMapAttr", "IntegerSetAttr", "DenseArrayAttr",
    "DenseBoolArrayAttr", "DenseI8ArrayAttr", "DenseI16ArrayAttr", "DenseI32ArrayAttr", "DenseI64ArrayAttr",
    "DenseF32ArrayAttr", "DenseF64ArrayAttr", "LocationAttr", "StridedLayoutAttr", "DistinctAttr",
})
CPP_TYPES = {
    # dialect types defined in C++ (no TypeDef record): their mnemonic, as mlir-opt prints them
    "mlir::gpu::AsyncTokenType": ("gpu", "async.token"),
    "mlir::gpu::MMAMatrixType": ("gpu", "mma_matrix"),
    "mlir::gpu::SparseDnTensorHandleType": ("gpu", "sparse.dntensor_handle"),
    "mlir::gpu::SparseSpMatHandleType": ("gpu", "sparse.spmat_handle"),
    "mlir::gpu::SparseSpGEMMOpHandleType": ("gpu", "sparse.spgemmop_handle"),
    # TypeDefs of files an op's dump does not include (LLVM's types are not in LLVMOps.td's)
    "mlir::LLVM::LLVMPointerType": ("llvm", "ptr"),
    "mlir::LLVM::LLVMStructType": ("llvm", "struct"),
    "mlir::LLVM::LLVMArrayType": ("llvm", "array"),
    "mlir::LLVM::LLVMFunctionType": ("llvm", "func"),
    "mlir::LLVM::LLVMTokenType": ("llvm", "token"),
    "mlir::LLVM::LLVMMetadataType": ("llvm", "metadata"),
    "mlir::LLVM::LLVMTargetExtType": ("llvm", "target"),
    "mlir::spirv::PointerType": ("spirv", "ptr"),
    "mlir::spirv::ArrayType": ("spirv", "array"),
    "mlir::spirv::RuntimeArrayType": ("spirv", "rtarray"),
    "mlir::spirv::StructType": ("spirv", "struct"),
    "mlir::spirv::ImageType": ("spirv", "image"),
    "mlir::spirv::SampledImageType": ("spirv", "sampled_image"),
    "mlir::spirv::CooperativeMatrixType": ("spirv", "coopmatrix"),
    "mlir::spirv::MatrixType": ("spirv", "matrix"),
    # IREE's types defined in C++
    "mlir::iree_compiler::IREE::HAL::AllocatorType": ("hal", "allocator"),
    "mlir::iree_compiler::IREE::HAL::BufferType": ("hal", "buffer"),
    "mlir::iree_compiler::IREE::HAL::BufferViewType": ("hal", "buffer_view"),
    "mlir::iree_compiler::IREE::HAL::ChannelType": ("hal", "channel"),
    "mlir::iree_compiler::IREE::HAL::CommandBufferType": ("hal", "command_buffer"),
    "mlir::iree_compiler::IREE::HAL::DeviceType": ("hal", "device"),
    "mlir::iree_compiler::IREE::HAL::ExecutableType": ("hal", "executable"),
    "mlir::iree_compiler::IREE::HAL::FenceType": ("hal", "fence"),
    "mlir::iree_compiler::IREE::HAL::FileType": ("hal", "file"),
    "mlir::iree_compiler::IREE::TensorExt::DispatchTensorType": ("iree_tensor_ext", "dispatch.tensor"),
}
TYPE_INTERFACES = {
    # type interfaces whose builtin implementations are known (external models attached by their dialect):
    # see `verifier.predicates` for what each says of a type
    "mlir::acc::PointerLikeType": "pointer_like",
    "mlir::omp::PointerLikeType": "pointer_like",
    "mlir::acc::MappableType": "mappable",
    "mlir::transform::TransformHandleTypeInterface": "transform",
    "mlir::transform::TransformParamTypeInterface": "transform",
    "mlir::transform::TransformValueHandleTypeInterface": "transform",
}
ATTR_INTERFACES = {
    # attribute interfaces with known builtin implementations (see `verifier.predicates`)
    "mlir::iree_compiler::IREE::Util::SerializableAttrInterface": "iree.SerializableAttr",
    "mlir::iree_compiler::IREE::Stream::AffinityAttr": "iree.AffinityAttr",
}
DIALECT_BASES = {
    # C++ base classes whose every subclass is a type of one dialect (never an interface another dialect's
    # types may implement): a type of another dialect, or a builtin one, is not one of them
    "mlir::quant::QuantizedType": "quant",
    "mlir::quant::UniformQuantizedType": "quant",
    "mlir::quant::UniformQuantizedPerAxisType": "quant",
    "mlir::quant::AnyQuantizedType": "quant",
    "mlir::quant::CalibratedQuantizedType": "quant",
    "mlir::pdl::PDLType": "pdl",
    # a VM reference prints as what it holds (`!vm.buffer`, `!vm.list<i32>`) or `!vm.ref<...>`
    "mlir::iree_compiler::IREE::VM::RefType": "vm",
}
_SHAPED = {"ShapedType", "VectorType", "TensorType", "RankedTensorType", "UnrankedTensorType", "MemRefType",
           "BaseMemRefType", "UnrankedMemRefType"}
_TYPED_ATTRS = {"IntegerAttr", "FloatAttr", "TypedAttr", "ElementsAttr", "DenseElementsAttr",
                "DenseIntElementsAttr", "DenseFPElementsAttr", "DenseIntOrFPElementsAttr"}


def _short(cls: str) -> str:
    """`::mlir::arith::CmpIPredicateAttr` -> `mlir::arith::CmpIPredicateAttr` (one spelling per class)."""
    return "".join(cls.split()).lstrip(":")


def _builtin(cls: str) -> str | None:
    """The builtin class a C++ name spells (`::mlir::IntegerType` or `IntegerType` -> `IntegerType`), else
    None (a dialect's class)."""
    c = _short(cls).removeprefix("mlir::")
    return c if c.isidentifier() else None


# -- the classes the records define ---------------------------------------------------------------------
def _qualified(rec: Record, name_field: str) -> str:
    ns = "".join(str(rec.get("cppNamespace") or "").split()).strip(":")
    return f"{ns}::{rec.get(name_field)}" if ns else str(rec.get(name_field))


class ClassMap:
    """C++ class names of one dump's records -> what a value of that class looks like in the IR."""

    def __init__(self, d: Records) -> None:
        self.types: dict[str, tuple[str, str]] = {}
        self.attrs: dict[str, tuple[str, str]] = {}
        self.enums: dict[str, list[Any]] = {}
        self.ops: dict[str, str] = {}
        inst = d.get("!instanceof") or {}
        for kind, table in (("TypeDef", self.types), ("AttrDef", self.attrs)):
            for name in inst.get(kind, []):
                rec = d.get(name)
                if not isinstance(rec, dict):
                    continue
                dialect = _ref(d, rec.get("dialect"))
                mnemonic = rec.get("mnemonic")
                if dialect is None or not isinstance(mnemonic, str) or not mnemonic:
                    continue
                cls = str(rec.get("cppType") or "") or _qualified(rec, "cppClassName")
                table[_short(cls)] = (str(dialect.get("name")), mnemonic)
        for name in inst.get("EnumAttrInfo", []):
            rec = d.get(name)
            if not isinstance(rec, dict):
                continue
            supers = _supers(rec)
            storage = _short(str(rec.get("storageType") or ""))
            if not storage or ("IntEnumAttr" not in supers and "BitEnumAttr" not in supers):
                continue
            width = rec.get("bitwidth")
            if not isinstance(width, int):
                continue
            values = []
            for c in rec.get("enumerants") or []:
                case = _ref(d, c)
                if case is None or not isinstance(case.get("value"), int):
                    break
                values.append(case["value"])
            else:
                if "BitEnumAttr" in supers:
                    mask = 0
                    for v in values:
                        mask |= v
                    self.enums[storage] = ["bitenum", width, mask]
                else:
                    self.enums[storage] = ["enum", width, sorted(set(values))]
        for name in inst.get("Op", []):
            rec = d.get(name)
            if not isinstance(rec, dict):
                continue
            dialect = _ref(d, rec.get("opDialect"))
            if dialect is None:
                continue
            cls = name.split("_", 1)[1] if "_" in name else name
            ns = "".join(str(rec.get("cppNamespace") or "").split()).strip(":")
            self.ops[f"{ns}::{cls}" if ns else cls] = f"{dialect.get('name')}.{rec.get('opName')}"

    def op_name(self, cls: str, namespace: str) -> str | None:
        """The op a C++ class names, unqualified names resolved in `namespace` (then its parents)."""
        c = "".join(cls.split()).lstrip(":")
        if c in self.ops:
            return self.ops[c]
        ns = namespace.strip(":")
        while ns:
            hit = self.ops.get(f"{ns}::{c}")
            if hit is not None:
                return hit
            ns = ns.rsplit("::", 1)[0] if "::" in ns else ""
        return None


# -- predicates ------------------------------------------------------------------------------------------
_STEP_METHODS = ("getElementType", "getValue", "getType")


def _step(cls: str | None, method: str) -> str | None:
    b = _builtin(cls) if cls is not None else None
    if method == "getElementType":
        if cls is None or b in _SHAPED:
            return "elem"
        if b == "ComplexType":
            return "celem"
        return None
    if method == "getValue":
        return "tattr" if b == "TypeAttr" else None
    if method == "getType":
        return "atype" if cls is None or b in _TYPED_ATTRS else None
    return None


class _Paths:
    """Markers `@N` standing for subject expressions, each with its path from the constrained value."""

    def __init__(self) -> None:
        self.paths: list[list[str] | None] = []

    def marker(self, path: list[str] | None) -> str:
        self.paths.append(path)
        return f"@{len(self.paths) - 1}"

    def path(self, marker: str) -> list[str] | None:
        return self.paths[int(marker[1:])]


_PARENS = re.compile(r"(?<![\w>])\(\s*(@\d+)\s*\)")
_CAST_STEP = re.compile(r"(?:::)?llvm::cast<\s*([\w:]+)\s*>\(\s*(@\d+)\s*\)\s*\.\s*("
                        + "|".join(_STEP_METHODS)
                        + r")\(\)")
_BARE_STEP = re.compile(r"(@\d+)\s*\.\s*(getElementType|getType)\(\)")
_EOS = re.compile(r"(?:::)?mlir::getElementTypeOrSelf\(\s*(@\d+)\s*\)")


def _reduce(text: str, paths: _Paths) -> str:
    """Rewrite subject chains (`cast<ShapedType>(@0).getElementType()`) into markers until none is left."""
    for _ in range(32):
        before = text
        text = _PARENS.sub(r"\1", text)

        def cast_step(m: re.Match[str]) -> str:
            base = paths.path(m.group(2))
            step = _step(m.group(1), m.group(3))
            if step is None:  # not a step: an atom may still read it (`cast<IntegerAttr>(@0).getValue()...`)
                return m.group(0)
            return paths.marker(None if base is None else [*base, step])

        def bare_step(m: re.Match[str]) -> str:
            base = paths.path(m.group(1))
            step = _step(None, m.group(2))
            return paths.marker(None if base is None or step is None else [*base, step])

        def eos(m: re.Match[str]) -> str:
            base = paths.path(m.group(1))
            return paths.marker(None if base is None else [*base, "eos"])

        text = _CAST_STEP.sub(cast_step, text)
        text = _BARE_STEP.sub(bare_step, text)
        text = _EOS.sub(eos, text)
        if text == before:
            return text
    return text


_OPS = {"==": "eq", "!=": "ne", ">=": "ge", "<=": "le", ">": "gt", "<": "lt"}
_INT = r"(-?\d+)"
_CMP = r"\s*(==|!=|>=|<=|>|<)\s*"
_M = r"(@\d+)"
_CLS = r"([\w:]+)"
_CAST = r"(?:::)?llvm::cast<\s*" + _CLS + r"\s*>\(\s*" + _M + r"\s*\)"
_ALL_DIMS = r"\.getShape\(\),\s*\[\]\(auto v\)\s*\{\s*"


def _ints(text: str) -> list[int] | None:
    items = [t.strip() for t in text.split(",") if t.strip()]
    try:
        return [int(t) for t in items]
    except ValueError:
        return None


class _Atoms:
    """Recognises one reduced C++ condition (subjects are markers) as an atom."""

    def __init__(self, classes: ClassMap, paths: _Paths) -> None:
        self.classes = classes
        self.paths = paths
        self.rules: list[tuple[re.Pattern[str], Any]] = [(re.compile(r"^" + p + r"$"), f) for p, f in (
            (r"true", lambda m: ["T"]),
            (r"false", lambda m: ["not", ["T"]]),
            (_M + r"\.(isBF16|isF16|isTF32|isF32|isF64|isF80|isF128)\(\)",
             lambda m: self.at(m[1], "float", FLOAT_METHODS[m[2]])),
            (_M + r"\.isSignlessInteger\(\)", lambda m: self.at(m[1], "int", None, "signless")),
            (_M + r"\.isSignlessInteger\(" + _INT + r"\)",
             lambda m: self.at(m[1], "int", int(m[2]), "signless")),
            (_M + r"\.isUnsignedInteger\(\)", lambda m: self.at(m[1], "int", None, "unsigned")),
            (_M + r"\.isUnsignedInteger\(" + _INT + r"\)",
             lambda m: self.at(m[1], "int", int(m[2]), "unsigned")),
            (_M + r"\.isSignedInteger\(\)", lambda m: self.at(m[1], "int", None, "signed")),
            (_M + r"\.isSignedInteger\(" + _INT + r"\)", lambda m: self.at(m[1], "int", int(m[2]), "signed")),
            (_M + r"\.isInteger\(\)", lambda m: self.at(m[1], "int", None, "any")),
            (_M + r"\.isInteger\(" + _INT + r"\)", lambda m: self.at(m[1], "int", int(m[2]), "any")),
            (_M + r"\.isIndex\(\)", lambda m: self.at(m[1], "index")),
            (_M + r"\.isSignlessIntOrIndex\(\)", lambda m: ["or", self.at(m[1], "int", None, "signless"),
                                                            self.at(m[1], "index")]),
            (_M + r"\.isIntOrIndex\(\)", lambda m: ["or", self.at(m[1], "int", None, "any"),
                                                    self.at(m[1], "index")]),
            (_M + r"\.isSignlessIntOrIndexOrFloat\(\)",
             lambda m: ["or", self.at(m[1], "int", None, "signless"), self.at(m[1], "index"),
                        self.at(m[1], "float", None)]),
            (_M + r"\.isSignlessIntOrFloat\(\)", lambda m: ["or", self.at(m[1], "int", None, "signless"),
                                                            self.at(m[1], "float", None)]),
            (_M + r"\.isIntOrFloat\(\)", lambda m: ["or", self.at(m[1], "int", None, "any"),
                                                    self.at(m[1], "float", None)]),
            (_M + r"\.isIntOrIndexOrFloat\(\)", lambda m: ["or", self.at(m[1], "int", None, "any"),
                                                           self.at(m[1], "index"),
                                                           self.at(m[1], "float", None)]),
            (_M + r"\.hasTrait<\s*(?:::)?mlir::ValueSemantics\s*>\(\)", lambda m: self.at(m[1], "valsem")),
            (r"(?:::)?mlir::LLVM::isCompatibleVectorType\(\s*" + _M + r"\s*\)",
             lambda m: self.at(m[1], "llvm_vector")),
            (r"(?:::)?mlir::LLVM::isCompatibleFloatingPointType\(\s*" + _M + r"\s*\)",
             lambda m: self.at(m[1], "llvm_float")),
            (r"(?:::)?mlir::LLVM::isCompatibleOuterType\(\s*" + _M + r"\s*\)",
             lambda m: self.at(m[1], "llvm_outer")),
            (r"(?:::)?llvm::isa<\s*([\w:,\s]+?)\s*>\(\s*" + _M + r"\s*\)", lambda m: self.isa(m[1], m[2])),
            (_CAST + r"\.getRank\(\)" + _CMP + _INT, lambda m: self.shaped(m[1], m[2], "rank", _OPS[m[3]],
                                                                             int(m[4]))),
            (_M + r"\.getRank\(\)" + _CMP + _INT, lambda m: self.at(m[1], "rank", _OPS[m[2]], int(m[3]))),
            (_CAST + r"\.hasRank\(\)", lambda m: self.shaped(m[1], m[2], "hasrank")),
            (_CAST + r"\.hasStaticShape\(\)", lambda m: self.shaped(m[1], m[2], "static")),
            (_CAST + r"\.getNumElements\(\)" + _CMP + _INT,
             lambda m: self.shaped(m[1], m[2], "numel", _OPS[m[3]], int(m[4]))),
            (_CAST + r"\.getShape\(\)\s*==\s*(?:::)?(?:llvm|mlir)::ArrayRef<int64_t>\(\{([-\d,\s]*)\}\)",
             lambda m: self.shape(m[1], m[2], m[3])),
            (_M + r"\.getShape\(\)\s*==\s*(?:::)?(?:llvm|mlir)::ArrayRef<int64_t>\(\{([-\d,\s]*)\}\)",
             lambda m: self.shape(None, m[1], m[2])),
            (r"(?:::)?llvm::all_of\(" + _CAST + _ALL_DIMS + r"return v != 0;\s*\}\)",
             lambda m: self.shaped(m[1], m[2], "nozero")),
            (r"(?:::)?llvm::all_of\(" + _CAST + _ALL_DIMS + r"return v == 1;\s*\}\)",
             lambda m: self.shaped(m[1], m[2], "ones")),
            (_CAST + r"\.allDimsScalable\(\)", lambda m: self.vector(m[1], m[2], "all")),
            (_CAST + r"\.getAddressSpace\(\)\s*==\s*" + _INT, lambda m: self.llvm_ptr(m[1], m[2], int(m[3]))),
            # attributes
            (_CAST + r"\.getInt\(\)" + _CMP + _INT, lambda m: self.ival(m[1], m[2], _OPS[m[3]], int(m[4]))),
            (_CAST + r"\.getValue\(\)\.getSExtValue\(\)" + _CMP + _INT,
             lambda m: self.ival(m[1], m[2], _OPS[m[3]], int(m[4]))),
            (_CAST + r"\.getValue\(\)\.isStrictlyPositive\(\)", lambda m: self.ival(m[1], m[2], "gt", 0)),
            (r"!\s*" + _CAST + r"\.getValue\(\)\.isNegative\(\)", lambda m: self.ival(m[1], m[2], "ge", 0)),
            (_CAST + r"\.getValue\(\)\.isNegative\(\)", lambda m: self.ival(m[1], m[2], "lt", 0)),
            (_CAST + r"\.getValue\(\)\.isPowerOf2\(\)", lambda m: self.int_attr(m[1], m[2], "pow2")),
            (r"(?:::)?llvm::is_contained\(\{([-\d,\s]*)\},\s*" + _CAST + r"\.getInt\(\)\)",
             lambda m: self.ivals(m[2], m[3], m[1])),
            (_CAST + r"\.size\(\)" + _CMP + _INT, lambda m: self.size(m[1], m[2], _OPS[m[3]], int(m[4]))),
        )]

    def at(self, marker: str, atom: str, *args: Any) -> Pred:
        path = self.paths.path(marker)
        if path is None:
            return ["?", f"{atom} of an unmodelled value"]
        return ["at", path, atom, *args]

    def isa(self, classes: str, marker: str) -> Pred:
        parts = [self.isa_one(c.strip(), marker) for c in classes.split(",") if c.strip()]
        return parts[0] if len(parts) == 1 else ["or", *parts]

    def isa_one(self, cls: str, marker: str) -> Pred:
        c = _short(cls)
        b = _builtin(cls)
        if b in FLOAT_CLASSES:
            return self.at(marker, "float", FLOAT_CLASSES[b])
        if b in BUILTIN_TYPES:
            return self.at(marker, "isa", b)
        if b in BUILTIN_ATTRS:
            return self.at(marker, "aisa", b)
        if b == "Type":
            return self.at(marker, "istype")
        if c in self.classes.enums:
            return self.at(marker, *self.classes.enums[c])
        if c in self.classes.types:
            return self.at(marker, "dtype", *self.classes.types[c])
        if c in CPP_TYPES:
            return self.at(marker, "dtype", *CPP_TYPES[c])
        if c in self.classes.attrs:
            return self.at(marker, "adialect", *self.classes.attrs[c])
        if c in DIALECT_BASES:
            return self.at(marker, "dbase", DIALECT_BASES[c])
        if c in TYPE_INTERFACES:
            return self.at(marker, "tiface", TYPE_INTERFACES[c])
        if c in ATTR_INTERFACES:
            return self.at(marker, "aisa", ATTR_INTERFACES[c])
        return ["?", f"isa<{c}>"]

    def shaped(self, cls: str, marker: str, atom: str, *args: Any) -> Pred:
        b = _builtin(cls)
        if b not in _SHAPED:
            return ["?", f"{atom} of {cls}"]
        return self.at(marker, atom, *args)

    def shape(self, cls: str | None, marker: str, dims: str) -> Pred:
        values = _ints(dims)
        if values is None or (cls is not None and _builtin(cls) not in _SHAPED):
            return ["?", "shape"]
        return self.at(marker, "shape", values)

    def vector(self, cls: str, marker: str, which: str) -> Pred:
        return self.at(marker, "scalable", which) if _builtin(cls) == "VectorType" else ["?", "scalable"]

    def llvm_ptr(self, cls: str, marker: str, space: int) -> Pred:
        if self.classes.types.get(_short(cls)) != ("llvm", "ptr"):
            return ["?", f"address space of {cls}"]
        return self.at(marker, "llvm_ptr_as", space)

    def int_attr(self, cls: str, marker: str, atom: str, *args: Any) -> Pred:
        if _builtin(cls) != "IntegerAttr":
            return ["?", f"{atom} of {cls}"]
        return self.at(marker, atom, *args)

    def ival(self, cls: str, marker: str, op: str, value: int) -> Pred:
        return self.int_attr(cls, marker, "ival", op, value)

    def ivals(self, cls: str, marker: str, values: str) -> Pred:
        items = _ints(values)
        return ["?", "ivals"] if items is None else self.int_attr(cls, marker, "ivals", items)

    def size(self, cls: str, marker: str, op: str, n: int) -> Pred:
        b = _builtin(cls)
        if b == "ArrayAttr":
            return self.at(marker, "asize", op, n)
        if b is not None and b.startswith("Dense") and b.endswith("ArrayAttr"):
            return self.at(marker, "dasize", op, n)
        return ["?", f"size of {cls}"]

    def atom(self, text: str) -> Pred:
        t = re.sub(r"\s*\.\s*(?=[A-Za-z_])", ".", text.strip())
        while t.startswith("(") and _balanced(t[1:-1]) and t.endswith(")"):
            t = t[1:-1].strip()
        parts = _split_top(t, "||")
        if len(parts) > 1:
            return ["or", *(self.atom(p) for p in parts)]
        parts = _split_top(t, "&&")
        if len(parts) > 1:
            return ["and", *(self.atom(p) for p in parts)]
        for rule, make in self.rules:
            m = rule.match(t)
            if m is not None:
                out: Pred = make(m)
                return out
        if t.startswith("!") and not t.startswith("!="):
            inner = self.atom(t[1:])
            return ["?", t] if inner[0] == "?" else ["not", inner]
        return ["?", t]


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _split_top(text: str, sep: str) -> list[str]:
    """`text` split at `sep` outside brackets."""
    out, depth, start, i = [], 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and text.startswith(sep, i):
            out.append(text[start:i])
            i += len(sep)
            start = i
            continue
        i += 1
    out.append(text[start:])
    return [p.strip() for p in out if p.strip()]


_LAMBDA_PREFIX = re.compile(r"^\s*\[\]\((?:::)?mlir::(?:Type|Attribute) (\w+)\)\s*\{\s*return\s*$")
_LAMBDA_SUFFIX = re.compile(r"^\s*;\s*\}\((.*)\)\s*$", re.S)
_ALL_OF_PREFIX = re.compile(
    r"^\s*(?:::)?llvm::all_of\((?:::)?llvm::cast<(?:::)?mlir::ArrayAttr>\(\$_self\),\s*"
    r"\[&\]\((?:::)?mlir::Attribute (\w+)\)\s*\{\s*return \1 && \(\s*$")
_ALL_OF_SUFFIX = re.compile(r"^\s*\);\s*\}\)\s*$")


class Translator:
    """Translates the predicate records of one dump (memoised per record and environment)."""

    def __init__(self, d: Records, classes: ClassMap | None = None) -> None:
        self.d = d
        self.classes = classes if classes is not None else ClassMap(d)

    def translate(self, pred_ref: Any) -> Pred:
        rec = _ref(self.d, pred_ref)
        if rec is None:
            return ["T"]
        return _simplify(self._pred(rec, {"$_self": []}))

    def _subject(self, text: str, env: dict[str, list[str] | None]) -> list[str] | None:
        paths = _Paths()
        reduced = _reduce(self._substitute(text, env, paths), paths)
        m = re.fullmatch(r"\s*(@\d+)\s*", reduced)
        return paths.path(m.group(1)) if m else None

    @staticmethod
    def _substitute(text: str, env: dict[str, list[str] | None], paths: _Paths) -> str:
        out = text
        for name, path in env.items():
            marker = paths.marker(path)
            if name == "$_self":
                out = out.replace("$_self", marker)
            else:
                out = re.sub(r"(?<![\w$@])" + re.escape(name) + r"(?!\w)", marker, out)
        return out

    def _pred(self, rec: Record, env: dict[str, list[str] | None]) -> Pred:
        supers = _supers(rec)
        if "CPred" in supers:
            paths = _Paths()
            text = " ".join(str(rec.get("predExpr") or "").split())
            reduced = _reduce(self._substitute(text, env, paths), paths)
            return _Atoms(self.classes, paths).atom(reduced)
        children = [c for c in (_ref(self.d, c) for c in rec.get("children") or []) if c is not None]
        if "And" in supers:
            return ["and", *(self._pred(c, env) for c in children)]
        if "Or" in supers:
            return ["or", *(self._pred(c, env) for c in children)]
        if "Negative" in supers and len(children) == 1:
            return ["not", self._pred(children[0], env)]
        if "SubstLeaves" in supers and len(children) == 1:
            pattern = str(rec.get("pattern") or "")
            replacement = str(rec.get("replacement") or "")
            inner = dict(env)
            inner[pattern] = self._subject(replacement, env) if replacement not in env else env[replacement]
            return self._pred(children[0], inner)
        if "Concat" in supers and len(children) == 1:
            prefix, suffix = str(rec.get("prefix") or ""), str(rec.get("suffix") or "")
            m, s = _LAMBDA_PREFIX.match(prefix), _LAMBDA_SUFFIX.match(suffix)
            if m and s:
                inner = dict(env)
                inner[m.group(1)] = self._subject(" ".join(s.group(1).split()), env)
                return self._pred(children[0], inner)
            m = _ALL_OF_PREFIX.match(" ".join(prefix.split()))
            if m and _ALL_OF_SUFFIX.match(suffix):
                base = env.get("$_self")
                if base is None:
                    return ["?", "all_of over an unmodelled value"]
                # the elements are the subject inside (the child substitutes `$_self` by the lambda's name)
                return ["all", base, self._pred(children[0], {m.group(1): [], "$_self": []})]
            return ["?", f"concat {prefix.strip()[:40]}"]
        return ["?", str(rec.get("!name"))]


def _simplify(p: Pred) -> Pred:
    """Flatten nested and/or, drop `T` from conjunctions, keep the tree small."""
    head = p[0]
    if head in ("and", "or"):
        kids: list[Pred] = []
        for k in (_simplify(k) for k in p[1:]):
            if k[0] == head:
                kids.extend(k[1:])
            elif head == "and" and k == ["T"]:
                continue
            else:
                kids.append(k)
        if head == "or" and ["T"] in kids:
            return ["T"]
        if not kids:
            return ["T"]
        if len(kids) == 1:
            return kids[0]
        return [head, *kids]
    if head == "not":
        return ["not", _simplify(p[1])]
    if head == "all":
        return ["all", p[1], _simplify(p[2])]
    return p


def can_fail(p: Pred) -> bool:
    """Whether the predicate can ever say False (one that cannot is not worth storing)."""
    head = p[0]
    if head in ("?", "T"):
        return False
    if head == "and":
        return any(can_fail(k) for k in p[1:])
    if head == "or":
        return all(can_fail(k) for k in p[1:])
    if head == "not":
        return _can_hold(p[1])
    if head == "all":
        return can_fail(p[2])
    return True


def _can_hold(p: Pred) -> bool:
    head = p[0]
    if head == "?":
        return False
    if head == "and":
        return all(_can_hold(k) for k in p[1:])
    if head == "or":
        return any(_can_hold(k) for k in p[1:])
    if head == "not":
        return can_fail(p[1])
    return True


# -- ops --------------------------------------------------------------------------------------------------
STRUCTURAL_TRAITS = frozenset({"SingleBlock", "SingleBlockImplicitTerminator", "HasParent", "NoTerminator",
                               "AffineScope", "IsolatedFromAbove"})
NATIVE_TRAITS = {
    # NativeOpTrait `trait` -> the name the verifier knows
    "SameOperandsAndResultType": "SameOperandsAndResultType", "SameTypeOperands": "SameTypeOperands",
    "SameOperandsShape": "SameOperandsShape", "SameOperandsAndResultShape": "SameOperandsAndResultShape",
    "SameOperandsElementType": "SameOperandsElementType",
    "SameOperandsAndResultElementType": "SameOperandsAndResultElementType",
    "SameOperandsAndResultRank": "SameOperandsAndResultRank", "Elementwise": "Elementwise",
    "IsTerminator": "IsTerminator", "NoTerminator": "NoTerminator", "SingleBlock": "SingleBlock",
    "IsIsolatedFromAbove": "IsolatedFromAbove", "NoRegionArguments": "NoRegionArguments",
    "SymbolTable": "SymbolTable", "AttrSizedOperandSegments": "AttrSizedOperandSegments",
    "AttrSizedResultSegments": "AttrSizedResultSegments",
    "SameVariadicOperandSize": "SameVariadicOperandSize",
    "SameVariadicResultSize": "SameVariadicResultSize", "ReturnLike": "ReturnLike",
    "ConstantLike": "ConstantLike", "AffineScope": "AffineScope", "Scalarizable": "Scalarizable",
    "Vectorizable": "Vectorizable", "Tensorizable": "Tensorizable",
    # StableHLO's own (mlir::hlo::OpTrait)
    "CompatibleOperandsAndResultType": "CompatibleOperandsAndResultType",
    "CompatibleOperandsAndResultElementType": "CompatibleOperandsAndResultElementType",
    "CompatibleOperandsElementType": "CompatibleOperandsElementType",
}
QUIET_TRAITS = frozenset({
    # traits that verify nothing (markers, effects, speculation)
    "ConstantLike", "Scalarizable", "Vectorizable", "Tensorizable", "ReturnLike", "AffineScope",
    "Commutative", "IsCommutative", "IsIdempotent", "IsInvolution", "Idempotent", "Involution",
    "HasRecursiveMemoryEffects", "AlwaysSpeculatableImplTrait",
    "RecursivelySpeculatableImplTrait", "AutomaticAllocationScope", "MemRefsNormalizable",
    "IsolatedFromAbove", "HasOnlyGraphRegion", "ResultsAreFloatLike", "InferTypeOpAdaptor",
    "SpeculatableIfStaticDimInOutputIsStaticInInputImplTrait", "SpeculatableIfAllInputsStaticImplTrait",
    "RecursivelySpeculatableIfAllInputsStaticImplTrait",
    "SpeculatableIfAllInputsStaticAndShapeConstantImplTrait",
    "RecursivelySpeculatableIfStaticDimInOutputIsStaticInInputImplTrait",
})
ALL_MATCH = {"AllTypesMatch": "type", "AllElementTypesMatch": "element type", "AllShapesMatch": "shape",
             "AllRanksMatch": "rank", "AllElementCountsMatch": "element count"}
TRANSFORMERS = {
    # TypesMatchWith transformers (C++ on `$_self`) -> the transformation the verifier applies
    "$_self": "same",
    "::llvm::cast<::mlir::ShapedType>($_self).getElementType()": "elem",
    "::llvm::cast<ShapedType>($_self).getElementType()": "elem",
    "::mlir::getElementTypeOrSelf($_self)": "eos",
    "getElementTypeOrSelf($_self)": "eos",
    "::getI1SameShape($_self)": "i1_same_shape",
    "::llvm::cast<::mlir::TensorType>($_self).getElementType()": "elem",
    "::llvm::cast<::mlir::VectorType>($_self).getElementType()": "elem",
    "::llvm::cast<::mlir::MemRefType>($_self).getElementType()": "elem",
    "::llvm::cast<MemRefType>($_self).getElementType()": "elem",
    "::llvm::cast<VectorType>($_self).getElementType()": "elem",
    "::llvm::cast<TensorType>($_self).getElementType()": "elem",
    "::llvm::cast<::mlir::ComplexType>($_self).getElementType()": "celem",
    "::llvm::cast<ComplexType>($_self).getElementType()": "celem",
}


class OpConstraints:
    """The constraint data of the ops of one dump, with their shared table of constraints."""

    def __init__(self, d: Records) -> None:
        self.d = d
        self.classes = ClassMap(d)
        self.tr = Translator(d, self.classes)
        self.table: list[list[Any]] = []
        self._index: dict[str, int] = {}
        self._memo: dict[str, Pred] = {}

    def constraint(self, rec: Record) -> int | None:
        """The table index of a constraint record ([summary, predicate]); None when nothing is checkable."""
        pred_ref = rec.get("predicate")
        key = str(pred_ref.get("def")) if isinstance(pred_ref, dict) else ""
        pred = self._memo.get(key)
        if pred is None:
            pred = self.tr.translate(pred_ref)
            self._memo[key] = pred
        if not can_fail(pred):
            return None
        summary = " ".join(str(rec.get("summary") or "").split())
        entry = json.dumps([summary, pred], sort_keys=True)
        hit = self._index.get(entry)
        if hit is None:
            hit = len(self.table)
            self.table.append([summary, pred])
            self._index[entry] = hit
        return hit

    def op(self, op_def: str) -> dict[str, Any]:
        r = self.d[op_def]
        ns = "".join(str(r.get("cppNamespace") or "").split()).strip(":")
        out: dict[str, Any] = {}
        operands: list[list[Any]] = []
        attrs: list[list[Any]] = []
        props: list[str] = []
        for arg, name in (r.get("arguments") or {}).get("args", []):
            rec = _ref(self.d, arg)
            if rec is None:
                raise OdsError(f"{op_def}: argument {name} is not a def")
            rec = _unwrap(self.d, rec)
            supers = _supers(rec)
            if "TypeConstraint" in supers:
                operands.append(self._value(rec, str(name)))
            elif "Attr" in supers:
                if "DerivedAttr" in supers:
                    continue
                optional = bool(rec.get("isOptional"))
                default = bool(str(rec.get("defaultValue") or "").strip())
                presence = "opt" if optional else "def" if default else "req"
                attrs.append([str(name), presence, self.constraint(rec)])
            elif "Property" in supers:
                props.append(str(name))
        results = [self._value(_unwrap(self.d, rec), str(name))
                   for rec, name in ((_ref(self.d, a), n) for a, n in (r.get("results") or {}).get("args",
                                                                                                   []))
                   if rec is not None]
        regions = []
        for arg, name in (r.get("regions") or {}).get("args", []):
            rec = _ref(self.d, arg)
            if rec is None:
                continue
            regions.append([str(name or ""), "VariadicRegion" in _supers(rec), self._region(rec)])
        successors = []
        for arg, name in (r.get("successors") or {}).get("args", []):
            rec = _ref(self.d, arg)
            if rec is None:
                continue
            successors.append([str(name or ""), "VariadicSuccessor" in _supers(rec)])
        out["operands"] = operands
        out["results"] = results
        if attrs:
            out["attrs"] = attrs
        if props:
            out["props"] = props
        if regions:
            out["regions"] = regions
        if successors:
            out["successors"] = successors
        traits, cpp = self._traits(r, ns)
        out["traits"] = traits
        if r.get("hasVerifier"):
            cpp.append("verify")
        if r.get("hasRegionVerifier"):
            cpp.append("verifyRegions")
        if cpp:
            out["cpp"] = cpp
        return out

    def _value(self, rec: Record, name: str) -> list[Any]:
        supers = _supers(rec)
        if "VariadicOfVariadic" in supers:
            q = "**"
        elif "Variadic" in supers:
            q = "*"
        elif "Optional" in supers:
            q = "?"
        else:
            q = "1"
        entry: list[Any] = [name, q, self.constraint(rec)]
        if q == "**":
            entry.append(str(rec.get("segmentAttrName") or ""))
        return entry

    def _region(self, rec: Record) -> list[Any] | None:
        summary = " ".join(str(rec.get("summary") or "").split())
        pred = _ref(self.d, rec.get("predicate"))
        if pred is None:
            return None
        text = " ".join(str(pred.get("predExpr") or "").split())
        for pattern, kind in ((r"\(?::llvm::hasNItems\(\$_self, (\d+)\)\)?", "eq"),
                              (r"\(?::llvm::hasNItemsOrMore\(\$_self, (\d+)\)\)?", "ge"),
                              (r"\(?::llvm::hasNItemsOrLess\(\$_self, (\d+)\)\)?", "le")):
            m = re.fullmatch(pattern, text)
            if m:
                return [summary, kind, int(m.group(1))]
        return None

    def _traits(self, r: Record, ns: str) -> tuple[list[list[Any]], list[str]]:
        traits: list[list[Any]] = []
        cpp: list[str] = []
        stack = list(reversed(r.get("traits") or []))
        seen_ifaces: set[str] = set()
        while stack:
            rec = _ref(self.d, stack.pop())
            if rec is None:
                continue
            supers = _supers(rec)
            if "TraitList" in supers:
                stack.extend(reversed(rec.get("traits") or []))
                continue
            structural = "StructuralOpTrait" in supers
            if "OpInterfaceTrait" in supers or "OpInterface" in supers:
                self._interface(rec, cpp, seen_ifaces)
                continue
            if "PredOpTrait" in supers:
                traits.append(self._pred_trait(rec))
                continue
            trait = str(rec.get("trait") or "")
            if "ParamNativeOpTrait" in supers or "<" in trait:
                m = re.fullmatch(r"(\w+)<(.*)>::Impl", trait)
                if m and m.group(1) == "HasParent":
                    names = [self.classes.op_name(c.strip(), ns) for c in m.group(2).split(",")]
                    if all(n is not None for n in names):
                        traits.append(["HasParent", 1, names])
                    else:
                        traits.append(["unchecked", 1, trait])
                    continue
                if m and m.group(1) == "SingleBlockImplicitTerminator":
                    name = self.classes.op_name(m.group(2).strip(), ns)
                    traits.append(["SingleBlockImplicitTerminator", 1, name] if name is not None
                                  else ["unchecked", 1, trait])
                    continue
                traits.append(["unchecked", int(structural), trait or str(rec.get("!name"))])
                continue
            if "NativeOpTrait" in supers or "NativeTrait" in supers:
                known = NATIVE_TRAITS.get(trait)
                if known is not None:
                    traits.append([known, int(structural or known in STRUCTURAL_TRAITS)])
                elif trait not in QUIET_TRAITS:
                    traits.append(["unchecked", int(structural), trait])
                continue
            # effects, speculation and other marker traits verify nothing
        return traits, cpp

    def _interface(self, rec: Record, cpp: list[str], seen: set[str]) -> None:
        name = str(rec.get("cppInterfaceName") or rec.get("!name"))
        if name in seen:
            return
        seen.add(name)
        if str(rec.get("verify") or "").strip():
            cpp.append(name)
        for base in rec.get("baseInterfaces") or []:
            b = _ref(self.d, base)
            if b is not None:
                self._interface(b, cpp, seen)

    def _pred_trait(self, rec: Record) -> list[Any]:
        supers = _supers(rec)
        summary = " ".join(str(rec.get("summary") or "").split())
        for cls, what in ALL_MATCH.items():
            if cls in supers and isinstance(rec.get("values"), list):
                return ["AllMatch", 0, summary, what, [str(v) for v in rec["values"]]]
        if "TypesMatchWith" in supers and "OptionalTypesMatchWith" not in supers \
                and "RangedTypesMatchWith" not in supers:
            transformer = " ".join(str(rec.get("transformer") or "").split())
            kind = TRANSFORMERS.get(transformer)
            if kind is not None:
                return ["TypesMatchWith", 0, summary, str(rec.get("lhs")), str(rec.get("rhs")), kind]
        return ["unchecked", 0, f"PredOpTrait: {summary}"]


def derive_constraints(d: Records) -> tuple[dict[str, dict[str, Any]], list[list[Any]]]:
    """Every op of one `--dump-json` output (full name -> constraint data) and the constraint table the
    ops' indices refer to."""
    instances = d.get("!instanceof")
    if not isinstance(instances, dict):
        raise OdsError("not llvm-tblgen --dump-json output (no !instanceof)")
    oc = OpConstraints(d)
    out: dict[str, dict[str, Any]] = {}
    for op_def in instances.get("Op", []):
        r = d[op_def]
        dialect = _ref(d, r.get("opDialect"))
        if dialect is None:
            continue
        out[f"{dialect.get('name')}.{r.get('opName')}"] = oc.op(op_def)
    return out, oc.table
