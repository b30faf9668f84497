module {
  func.func @f(%arg0: index, %arg1: index, %arg2: index, %arg3: memref<?xf32>) -> f32 {
    %cst = arith.constant 0.000000e+00 : f32
    affine.for %arg4 = 0 to 10 {
    } {some_attr = true}
    affine.for %arg4 = %arg0 to %arg1 step 4 {
      affine.for %arg5 = max affine_map<(d0)[s0] -> (d0, s0)>(%arg4)[%arg2] to min affine_map<(d0) -> (d0 + 8, 100)>(%arg4) {
        %2 = affine.load %arg3[%arg5 * 2] : memref<?xf32>
      }
    }
    affine.for %arg4 = affine_map<(d0) -> (d0 floordiv 2)>(%arg0) to -5 {
    }
    %0 = affine.for %arg4 = 0 to 8 iter_args(%arg5 = %cst) -> (f32) {
      %2 = affine.load %arg3[%arg4] : memref<?xf32>
      %3 = arith.addf %arg5, %2 : f32
      affine.yield %3 : f32
    }
    %1:2 = affine.for %arg4 = 0 to 8 iter_args(%arg5 = %cst, %arg6 = %0) -> (f32, f32) {
      affine.yield %arg6, %arg5 : f32, f32
    }
    return %1#0 : f32
  }
}
