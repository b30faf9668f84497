module {
  llvm.func @f(%arg0: vector<4x!llvm.ptr>, %arg1: vector<4xi1>, %arg2: vector<4xf32>, %arg3: !llvm.ptr<1>, %arg4: i16, %arg5: i64, %arg6: i32, %arg7: i32, %arg8: !llvm.ptr<3>) -> vector<4xf32> {
    %0 = rocdl.ds.read.tr4.b64 %arg8 : <3> -> vector<16xi4>
    %1 = rocdl.ds.read.tr6.b96 %arg8 : <3> -> vector<3xi32>
    rocdl.load.to.lds %arg3, %arg8, 4, 0, 0 : <1>
    %2 = llvm.intr.masked.gather(%arg0, %arg1, %arg2), alignment(8) : (vector<4x!llvm.ptr>, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
    %3 = llvm.intr.masked.gather(%arg0, %arg1), alignment(4) {foo} : (vector<4x!llvm.ptr>, vector<4xi1>) -> vector<4xf32>
    llvm.intr.masked.scatter(%arg2, %arg0, %arg1), alignment(8) : vector<4xf32>, vector<4xi1> into vector<4x!llvm.ptr>
    %4 = rocdl.make.buffer.rsrc %arg3, %arg4, %arg5, %arg7 : <1>, i64 to <7>
    %5 = rocdl.make.buffer.rsrc %arg3, %arg4, %arg6, %arg7 {foo} : <1>, i32 to <7>
    llvm.return %2 : vector<4xf32>
  }
}
