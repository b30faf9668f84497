module {
  func.func @f(%arg0: tensor<64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<16x64xf32>, %arg3: tensor<16xf32>) -> tensor<16xf32> {
    %mapped = linalg.map { arith.addf {fastmath = #arith.fastmath<fast>} } ins(%arg0, %arg1 : tensor<64xf32>, tensor<64xf32>) outs(%arg0 : tensor<64xf32>)
    %reduced = linalg.reduce { arith.maximumf } ins(%arg2 : tensor<16x64xf32>) outs(%arg3 : tensor<16xf32>) dimensions = [1] 
    return %reduced : tensor<16xf32>
  }
}
