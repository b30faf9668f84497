module {
  func.func @f(%arg0: index, %arg1: index, %arg2: index, %arg3: index, %arg4: memref<?xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    affine.parallel (%arg5, %arg6, %arg7) = (max(%arg0, %arg1), %arg1, max(%arg0, %arg2)) to (%arg2, min(%arg2, %arg3), %arg1) {
    }
    affine.parallel () = () to () {
    }
    affine.parallel (%arg5, %arg6) = (0, symbol(%arg3)) to (%arg0 + 4, 10) step (2, 3) {
      affine.store %cst, %arg4[%arg5 + %arg6] : memref<?xf32>
    } {tag}
    %0:2 = affine.parallel (%arg5) = (0) to (10) reduce ("addf", "mulf") -> (f32, f32) {
      %2 = affine.load %arg4[%arg5] : memref<?xf32>
      affine.yield %2, %2 : f32, f32
    }
    %1 = affine.parallel (%arg5) = (0) to (min(%arg0 * 2, symbol(%arg1) floordiv 3)) reduce ("muli") -> (i32) {
      %c1_i32 = arith.constant 1 : i32
      affine.yield %c1_i32 : i32
    }
    return
  }
}
