module {
  func.func @f(%arg0: index, %arg1: f32) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %0 = scf.parallel (%arg2, %arg3) = (%c0, %c0) to (%arg0, %arg0) step (%c1, %c1) init (%arg1) -> f32 {
      %2 = arith.index_cast %arg2 : index to i32
      %3 = arith.sitofp %2 : i32 to f32
      scf.reduce(%3 : f32) {
      ^bb0(%arg4: f32, %arg5: f32):
        %4 = arith.addf %arg4, %arg5 : f32
        scf.reduce.return %4 : f32
      }
    }
    %1 = scf.execute_region -> f32 no_inline {
      scf.yield %0 : f32
    }
    return %1 : f32
  }
}
