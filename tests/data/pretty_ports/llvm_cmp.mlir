module {
  llvm.func @cmp(%arg0: f32, %arg1: f32, %arg2: vector<4xf32>, %arg3: i64, %arg4: !llvm.ptr, %arg5: vector<[4]xi32>) -> i1 {
    %0 = llvm.fcmp "ult" %arg0, %arg1 {fastmathFlags = #llvm.fastmath<fast>, foo} : f32
    %1 = llvm.fcmp "_true" %arg2, %arg2 : vector<4xf32>
    %2 = llvm.icmp "uge" %arg3, %arg3 : i64
    %3 = llvm.icmp "eq" %arg4, %arg4 {bar = 1 : i32} : !llvm.ptr
    %4 = llvm.icmp "slt" %arg5, %arg5 : vector<[4]xi32>
    %5 = llvm.fcmp "oeq" %arg0, %arg1 : f32
    llvm.return %0 : i1
  }
}
