module {
  func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<1x4x4x1xf32>) -> tensor<4xf32> {
    %0 = tosa.clamp %arg0 {max_val = 1.000000e+00 : f32, min_val = 0.000000e+00 : f32, nan_mode = IGNORE} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = tosa.max_pool2d %arg1 {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x1xf32>) -> tensor<1x2x2x1xf32>
    return %0 : tensor<4xf32>
  }
}
