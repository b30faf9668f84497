module {
  memref.global "private" constant @sparse_scalar : memref<2x2x2xf16> = sparse<1, -2.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @sparse_list : memref<4x4x4xf16> = sparse<[[0, 0, 0], [1, 1, 1]], [-5.000000e+00, -2.000000e+00]>
  memref.global "private" constant @complex : memref<complex<f32>> = dense<(1.200000e+00,2.300000e+00)>
  memref.global @empty_sparse : memref<2xi32> = sparse<>
}
