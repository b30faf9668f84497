module {
  llvm.mlir.global private constant @"__constant_2xcomplex<f32>"(dense<[(1.000000e+00,2.000000e+00), (3.000000e+00,4.000000e+00)]> : tensor<2xcomplex<f32>>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<2 x struct<(f32, f32)>>
  llvm.mlir.global internal @g(7 : i32) {addr_space = 0 : i32} : i32
}
