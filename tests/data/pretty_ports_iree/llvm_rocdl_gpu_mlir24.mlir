module {
  llvm.func @f(%arg0: vector<4x!llvm.ptr>, %arg1: vector<4xi1>, %arg2: vector<4xf32>, %arg3: !llvm.ptr<1>, %arg4: i16, %arg5: i64, %arg6: i32, %arg7: i32) -> vector<4xf32> {
    %0 = llvm.intr.masked.gather(%arg0, %arg1, %arg2), alignment(8) : (vector<4x!llvm.ptr>, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
    %1 = llvm.intr.masked.gather(%arg0, %arg1), alignment(4) {foo} : (vector<4x!llvm.ptr>, vector<4xi1>) -> vector<4xf32>
    llvm.intr.masked.scatter(%arg2, %arg0, %arg1), alignment(8) : vector<4xf32>, vector<4xi1> into vector<4x!llvm.ptr>
    %2 = rocdl.make.buffer.rsrc %arg3, %arg4, %arg5, %arg7 : <1>, i64 to <7>
    %3 = rocdl.make.buffer.rsrc %arg3, %arg4, %arg6, %arg7 {foo} : <1>, i32 to <7>
    llvm.return %0 : vector<4xf32>
  }
}
