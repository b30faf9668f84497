module {
  func.func @f(%arg0: memref<?x?x?xf32, strided<[?, ?, 1]>>, %arg1: memref<4x8xf32>) {
    %transpose = memref.transpose %arg0 (d0, d1, d2) -> (d2, d1, d0) : memref<?x?x?xf32, strided<[?, ?, 1]>> to memref<?x?x?xf32, strided<[1, ?, ?]>>
    %transpose_0 = memref.transpose %arg1 (d0, d1) -> (d1, d0) {foo} : memref<4x8xf32> to memref<8x4xf32, strided<[1, 8]>>
    return
  }
}
