module {
  func.func @f(%arg0: tensor<16x32xf32>, %arg1: tensor<32x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<16x64xf32>, %arg4: memref<4x8xf32>, %arg5: memref<8x4xf32>) -> (tensor<32x16xf32>, tensor<16x64xf32>) {
    %transposed = linalg.transpose ins(%arg0 : tensor<16x32xf32>) outs(%arg1 : tensor<32x16xf32>) permutation = [1, 0] 
    %broadcasted = linalg.broadcast ins(%arg2 : tensor<16xf32>) outs(%arg3 : tensor<16x64xf32>) dimensions = [1]  {tag = "x"}
    linalg.transpose ins(%arg4 : memref<4x8xf32>) outs(%arg5 : memref<8x4xf32>) permutation = [1, 0] 
    return %transposed, %broadcasted : tensor<32x16xf32>, tensor<16x64xf32>
  }
}
