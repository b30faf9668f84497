module {
  func.func @f(%arg0: tensor<64xf32>, %arg1: index, %arg2: memref<64xf32>, %arg3: index) -> tensor<64xf32> {
    %cst = arith.constant 1.000000e+00 : f32
    %0 = scf.forall (%arg4) in (%arg1) shared_outs(%arg5 = %arg0) -> (tensor<64xf32>) {
      %extracted_slice = tensor.extract_slice %arg5[%arg4] [1] [1] : tensor<64xf32> to tensor<1xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %extracted_slice into %arg5[%arg4] [1] [1] : tensor<1xf32> into tensor<64xf32>
      }
    }
    scf.forall (%arg4, %arg5) in (8, %arg1) {
      memref.store %cst, %arg2[%arg4] : memref<64xf32>
    } {mapping = [#gpu.thread<x>, #gpu.thread<y>]}
    scf.forall (%arg4) = (%arg3) to (%arg1) step (2) {
      memref.store %cst, %arg2[%arg4] : memref<64xf32>
    }
    %1:2 = scf.forall (%arg4) = (0) to (64) step (8) shared_outs(%arg5 = %arg0, %arg6 = %arg0) -> (tensor<64xf32>, tensor<64xf32>) {
      scf.forall.in_parallel {
      }
    }
    return %0 : tensor<64xf32>
  }
}
