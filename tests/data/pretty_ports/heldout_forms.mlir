module {
  shard.grid @grid0(shape = 2x2)
  shard.grid @grid1(shape = 2x?x4) {foo}
  shard.grid @grid2(shape = 4)
  memref.global "private" @g : memref<2xf32>
  memref.global @g1 : memref<2xf32> = uninitialized
  memref.global "private" constant @g2 : memref<2x2xf32, 1> = dense<1.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @g3 : memref<8xi1> = dense<[true, false, true, false, true, false, true, false]> {alignment = 64 : i64}
  memref.global "nested" @g4 : memref<f32> = dense<2.000000e+00>
  llvm.func @make_i32() -> i32 attributes {sym_visibility = "private"}
  llvm.func @body(%arg0: i32) -> i32 attributes {passthrough = ["noinline"], sym_visibility = "private"} {
    llvm.return %arg0 : i32
  }
  func.func @smt() {
    %c7 = smt.int.constant 7 {foo}
    %c-3 = smt.int.constant -3
    return
  }
}
