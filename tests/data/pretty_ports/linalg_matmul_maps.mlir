module {
  func.func @mm(%arg0: tensor<6x7xf32>, %arg1: tensor<6x7xf32>, %arg2: tensor<6x6xf32>, %arg3: tensor<2x4x3xf32>, %arg4: tensor<2x5x3xf32>, %arg5: tensor<2x4x5xf32>, %arg6: tensor<7x6xf32>) -> (tensor<6x6xf32>, tensor<2x4x5xf32>) {
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%arg0, %arg1 : tensor<6x7xf32>, tensor<6x7xf32>) outs(%arg2 : tensor<6x6xf32>) -> tensor<6x6xf32>
    %1 = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%arg3, %arg4 : tensor<2x4x3xf32>, tensor<2x5x3xf32>) outs(%arg5 : tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
    %2 = linalg.matmul ins(%arg0, %arg6 : tensor<6x7xf32>, tensor<7x6xf32>) outs(%arg2 : tensor<6x6xf32>) -> tensor<6x6xf32>
    return %0, %1 : tensor<6x6xf32>, tensor<2x4x5xf32>
  }
}
