module {
  func.func @f(%arg0: index, %arg1: index, %arg2: memref<?x?xf32>, %arg3: memref<8xf32>, %arg4: memref<f32>) {
    %0 = affine.load %arg2[%arg0 + 1, symbol(%arg1) * 4] : memref<?x?xf32>
    affine.store %0, %arg2[%arg0, %arg1 - 3] {tag} : memref<?x?xf32>
    %1 = affine.load %arg4[] : memref<f32>
    affine.store %1, %arg3[(%arg0 + symbol(%arg1)) mod 8] : memref<8xf32>
    %2 = affine.vector_load %arg3[%arg0 floordiv 2] : memref<8xf32>, vector<4xf32>
    affine.vector_store %2, %arg3[0] : memref<8xf32>, vector<4xf32>
    affine.prefetch %arg2[%arg0, %arg1 ceildiv 3], read, locality<3>, data : memref<?x?xf32>
    affine.prefetch %arg2[%arg0, -%arg1], write, locality<0>, instr : memref<?x?xf32>
    return
  }
}
