module {
  llvm.func @f(%arg0: i32) {
    %0 = llvm.alloca %arg0 x i8 {alignment = 8 : i64} : (i32) -> !llvm.ptr<5>
    %1 = llvm.alloca inalloca %arg0 x !llvm.struct<(i32, f32)> : (i32) -> !llvm.ptr
    llvm.return
  }
  pdl_interp.func @matcher(%arg0: !pdl.range<operation>) {
    pdl_interp.foreach %arg1 : !pdl.operation in %arg0 {
      %0 = pdl_interp.get_result 0 of %arg1
      pdl_interp.continue
    } -> ^bb1
  ^bb1:  // pred: ^bb0
    pdl_interp.finalize
  }
}
