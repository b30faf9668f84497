module {
  func.func @f(%arg0: memref<?x?xf32>, %arg1: index, %arg2: vector<4xi1>, %arg3: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = vector.transfer_read %arg0[%arg1, %arg1], %cst, %arg2 {in_bounds = [true]} : memref<?x?xf32>, vector<4xf32>
    %1 = vector.transfer_read %arg0[%arg1, %arg1], %cst {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<?x?xf32>, vector<4xf32>
    %2 = vector.transfer_write %0, %arg3[%arg1, %arg1] : vector<4xf32>, tensor<?x?xf32>
    vector.transfer_write %1, %arg0[%arg1, %arg1], %arg2 : vector<4xf32>, memref<?x?xf32>
    return %2 : tensor<?x?xf32>
  }
}
