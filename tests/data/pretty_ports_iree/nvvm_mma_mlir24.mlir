module {
  llvm.func @mma(%arg0: vector<2xf16>, %arg1: f32, %arg2: f64, %arg3: i32) -> !llvm.struct<(f32, f32, f32, f32)> {
    %0 = nvvm.mma.sync A[%arg0, %arg0, %arg0, %arg0]  B[%arg0, %arg0]  C[%arg0, %arg0]  shape = <m = 16, n = 8, k = 16>, layout_a = row, layout_b = col : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
    %1 = nvvm.mma.sync A[%arg0, %arg0, %arg0, %arg0]  B[%arg0, %arg0]  C[%arg1, %arg1, %arg1, %arg1]  shape = <m = 16, n = 8, k = 16>, layout_a = row, layout_b = col : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    %2 = nvvm.mma.sync A[%arg0, %arg0]  B[%arg0, %arg0]  C[%arg1, %arg1, %arg1, %arg1, %arg1, %arg1, %arg1, %arg1]  shape = <m = 8, n = 8, k = 4>, layout_a = col, layout_b = row : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
    %3 = nvvm.mma.sync A[%arg2]  B[%arg2]  C[%arg2, %arg2]  shape = <m = 8, n = 8, k = 4>, layout_a = row, layout_b = col : (f64, f64, f64) -> !llvm.struct<(f64, f64)>
    %4 = nvvm.mma.sync A[%arg3, %arg3, %arg3, %arg3]  B[%arg3, %arg3]  C[%arg3, %arg3, %arg3, %arg3]  shape = <m = 16, n = 8, k = 32>, int_overflow = satfinite, layout_a = row, layout_b = col, multiplicand_a_ptx_type = s8, multiplicand_b_ptx_type = u8 {bar, foo = 1 : i64} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
    %5 = nvvm.mma.sync A[%arg3, %arg3, %arg3, %arg3]  B[%arg3, %arg3]  C[%arg1, %arg1, %arg1, %arg1]  shape = <m = 16, n = 8, k = 8>, layout_a = row, layout_b = col, multiplicand_a_ptx_type = tf32, multiplicand_b_ptx_type = tf32 : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    %6 = nvvm.mma.sync A[%arg3, %arg3, %arg3, %arg3]  B[%arg3, %arg3]  C[%arg1, %arg1, %arg1, %arg1]  shape = <m = 16, n = 8, k = 16>, layout_a = row, layout_b = col, multiplicand_a_ptx_type = bf16, multiplicand_b_ptx_type = bf16 : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    %7 = nvvm.mma.sync A[%arg3]  B[%arg3]  C[%arg3, %arg3]  shape = <m = 8, n = 8, k = 128>, b1_op = xor_popc, layout_a = row, layout_b = col, multiplicand_a_ptx_type = b1, multiplicand_b_ptx_type = b1 : (i32, i32, i32) -> !llvm.struct<(i32, i32)>
    %8 = nvvm.mma.sync A[%arg3]  B[%arg3]  C[%arg3, %arg3]  shape = <m = 8, n = 8, k = 32>, int_overflow = wrapped, layout_a = row, layout_b = col, multiplicand_a_ptx_type = u4, multiplicand_b_ptx_type = s4 : (i32, i32, i32) -> !llvm.struct<(i32, i32)>
    %9 = nvvm.mma.sync A[%arg0, %arg0, %arg0, %arg0]  B[%arg0, %arg0]  C[%arg0, %arg0]  shape = <m = 16, n = 8, k = 16>, layout_a = row, layout_b = col : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
    llvm.return %5 : !llvm.struct<(f32, f32, f32, f32)>
  }
}
