module {
  llvm.func @f(%arg0: !llvm.ptr, %arg1: i32, %arg2: i1, %arg3: vector<4xf32>, %arg4: vector<[4]xf32>) {
    %0 = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i32) -> !llvm.ptr, i32
    %1 = llvm.getelementptr inbounds|nuw %arg0[1, %arg1] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x i32>
    %2 = llvm.getelementptr nusw %arg0[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i8, f32)>
    %3 = llvm.mul %arg1, %arg1 overflow<nsw, nuw> : i32
    %4 = llvm.add %arg1, %arg1 overflow<nuw> : i32
    %5 = llvm.shufflevector %arg3, %arg3 [0, 5, 2] : vector<4xf32> 
    %6 = llvm.shufflevector %arg4, %arg4 [0, 0, 0, 0] : vector<[4]xf32> 
    llvm.intr.assume %arg2 ["align"(%arg0, %arg1 : !llvm.ptr, i32), "nonnull"(%arg0 : !llvm.ptr), "cold"()] : i1
    llvm.intr.assume %arg2 : i1
    llvm.return
  }
}
