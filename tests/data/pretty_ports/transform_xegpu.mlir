module {
  transform.sequence  failures(propagate) {
  ^bb0(%arg0: !transform.any_op):
    %0 = sequence %arg0 : !transform.any_op -> !transform.any_op failures(suppress) {
    ^bb0(%arg1: !transform.any_op):
      yield %arg1 : !transform.any_op
    }
    sequence %arg0, %0, %0 : (!transform.any_op, !transform.any_op, !transform.any_op) failures(propagate) {
    ^bb0(%arg1: !transform.any_op, %arg2: !transform.any_op, %arg3: !transform.any_op):
    }
  }
  gpu.module @m {
    gpu.func @f(%arg0: memref<24x32xf32>, %arg1: index) {
      %0 = xegpu.create_nd_tdesc %arg0[%arg1, 4] : memref<24x32xf32> -> !xegpu.tensor_desc<8x16xf32>
      %1 = xegpu.create_nd_tdesc %arg0 : memref<24x32xf32> -> !xegpu.tensor_desc<8x16xf32>
      xegpu.prefetch_nd %1[0, %arg1]  : !xegpu.tensor_desc<8x16xf32>
      gpu.return
    }
  }
}
