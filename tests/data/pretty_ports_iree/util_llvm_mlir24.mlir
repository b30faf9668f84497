module {
  util.func public @assume(%arg0: index, %arg1: index, %arg2: i32) -> (index, index, i32) {
    %0 = util.assume.int %arg0<umin = 0, umax = 7> : index
    %1:3 = util.assume.int 
        %arg0[<umin = 0, umax = 0>, <umin = 8, umax = 8, udiv = 8>], 
        %arg1[<umax = 3>, <umax = 5>], 
        %arg2[<udiv = 4>, <umin = 1>]
      : index, index, i32 {foo = 1 : i64}
    util.return %0, %1#1, %1#2 : index, index, i32
  }
  llvm.func @cmp(%arg0: f32, %arg1: f32, %arg2: vector<4xf32>, %arg3: i64, %arg4: !llvm.ptr) -> f32 {
    %0 = llvm.fcmp "ult" %arg0, %arg1 fastmath<fast> {foo} : f32
    %1 = llvm.fcmp "_true" %arg2, %arg2 : vector<4xf32>
    %2 = llvm.icmp "uge" %arg3, %arg3 : i64
    %3 = llvm.icmp "eq" %arg4, %arg4 {bar = 1 : i32} : !llvm.ptr
    %4 = llvm.fadd %arg0, %arg1 fastmath<nnan, contract> : f32
    %5 = llvm.intr.vector.reduce.fadd(%arg0, %arg2) fastmath<reassoc> : (f32, vector<4xf32>) -> f32
    %6 = llvm.intr.vector.reduce.fmul(%arg0, %arg2) : (f32, vector<4xf32>) -> f32
    %7 = llvm.select %0, %arg0, %arg1 fastmath<fast> : i1, f32
    llvm.return %7 : f32
  }
}
