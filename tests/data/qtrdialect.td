// Two made-up dialects for tests/test_models_ods_bytes.py.  Their ops declare the same arguments as
// upstream ops that have native properties and segment sizes, so their generated property encoding is the
// same byte for byte:
//
//   qtr.load, qtr.store, qtr.ptr_add, qtr.ptr_diff  =  ptr.load, ptr.store, ptr.ptr_add, ptr.ptr_diff
//   qffine.linearize_index                          =  affine.linearize_index
//
// The dialect names have the length of the upstream ones (`qtr`/`ptr`, `qffine`/`affine`): the test renames
// the dialects in bytecode written by mlir-opt for the upstream ops without moving any offset.  Nothing
// upstream is included except the ODS base classes, so the enums and properties below are this file's own.

include "mlir/IR/OpBase.td"
include "mlir/IR/Properties.td"
include "mlir/IR/EnumAttr.td"

// -- qtr (ptr) ----------------------------------------------------------------------------------------
def Qtr_Dialect : Dialect {
  let name = "qtr";
  let summary = "Pointer-like ops laid out like the upstream ptr dialect's (mlirbc tests only)";
  let cppNamespace = "::qtr";
}

class Qtr_Op<string mnemonic, list<Trait> traits = []> : Op<Qtr_Dialect, mnemonic, traits>;

def Qtr_Ordering : I32Enum<"Ordering", "memory ordering", [
    I32EnumCase<"not_atomic", 0>, I32EnumCase<"unordered", 1>, I32EnumCase<"monotonic", 2>,
    I32EnumCase<"acquire", 3>, I32EnumCase<"release", 4>, I32EnumCase<"acq_rel", 5>,
    I32EnumCase<"seq_cst", 6>
  ]> {
  let cppNamespace = "::qtr";
}

def Qtr_AddFlags : I32Enum<"AddFlags", "pointer add flags", [
    I32EnumCase<"none", 0>, I32EnumCase<"nusw", 1>, I32EnumCase<"nuw", 2>, I32EnumCase<"inbounds", 3>
  ]> {
  let cppNamespace = "::qtr";
}

def Qtr_DiffFlags : I8BitEnum<"DiffFlags", "pointer difference flags", [
    I8BitEnumCase<"none", 0>, I8BitEnumCase<"nuw", 1>, I8BitEnumCase<"nsw", 2>
  ]> {
  let cppNamespace = "::qtr";
}

def Qtr_Alignment : OptionalProp<I64Prop>;

def Qtr_LoadOp : Qtr_Op<"load"> {
  let summary = "load through a pointer (qtr)";
  let arguments = (ins AnyType:$ptr,
                       Qtr_Alignment:$alignment,
                       UnitProp:$volatile_,
                       UnitProp:$nontemporal,
                       UnitProp:$invariant,
                       UnitProp:$invariantGroup,
                       DefaultValuedProp<EnumProp<Qtr_Ordering>, "Ordering::not_atomic">:$ordering,
                       OptionalAttr<StrAttr>:$syncscope);
  let results = (outs AnyType:$value);
}

def Qtr_StoreOp : Qtr_Op<"store"> {
  let summary = "store through a pointer (qtr)";
  let arguments = (ins AnyType:$value,
                       AnyType:$ptr,
                       Qtr_Alignment:$alignment,
                       UnitProp:$volatile_,
                       UnitProp:$nontemporal,
                       UnitProp:$invariantGroup,
                       DefaultValuedProp<EnumProp<Qtr_Ordering>, "Ordering::not_atomic">:$ordering,
                       OptionalAttr<StrAttr>:$syncscope);
}

def Qtr_PtrAddOp : Qtr_Op<"ptr_add"> {
  let summary = "pointer plus offset (qtr)";
  let arguments = (ins AnyType:$base, AnyType:$offset,
                       DefaultValuedProp<EnumProp<Qtr_AddFlags>, "AddFlags::none">:$flags);
  let results = (outs AnyType:$result);
}

def Qtr_PtrDiffOp : Qtr_Op<"ptr_diff"> {
  let summary = "pointer difference (qtr)";
  let arguments = (ins AnyType:$lhs, AnyType:$rhs,
                       DefaultValuedProp<EnumProp<Qtr_DiffFlags>, "DiffFlags::none">:$flags);
  let results = (outs AnyType:$result);
}

// -- qffine (affine) ----------------------------------------------------------------------------------
def Qffine_Dialect : Dialect {
  let name = "qffine";
  let summary = "An index op laid out like upstream affine.linearize_index (mlirbc tests only)";
  let cppNamespace = "::qffine";
}

def Qffine_LinearizeIndexOp : Op<Qffine_Dialect, "linearize_index", [AttrSizedOperandSegments]> {
  let summary = "linearize an index (qffine)";
  let arguments = (ins Variadic<Index>:$multi_index,
                       Variadic<Index>:$dynamic_basis,
                       DenseI64ArrayAttr:$static_basis,
                       UnitProp:$disjoint);
  let results = (outs Index:$linear_index);
}
