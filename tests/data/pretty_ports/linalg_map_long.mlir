module {
  func.func @f(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8x16xf32>, %arg3: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %mapped = linalg.map ins(%arg0 : tensor<8xf32>) outs(%arg1 : tensor<8xf32>) {foo}
      (%in: f32, %init: f32) {
        %cst = arith.constant 1.000000e+00 : f32
        %0 = arith.addf %in, %cst : f32
        linalg.yield %0 : f32
      }
    %reduced = linalg.reduce ins(%arg2 : tensor<8x16xf32>) outs(%arg3 : tensor<8xf32>) dimensions = [1] 
      (%in: f32, %init: f32) {
        %0 = arith.mulf %in, %in : f32
        %1 = arith.addf %0, %init : f32
        linalg.yield %1 : f32
      }
    return %mapped, %reduced : tensor<8xf32>, tensor<8xf32>
  }
}
