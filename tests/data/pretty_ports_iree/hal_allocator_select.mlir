module {
  util.func public @FoldAllocatorSelect1(%arg0: !hal.device, %arg1: i64) -> (!hal.device, i64) {
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %device, %queue_affinity = hal.allocator.select from([
      (%arg0, %arg1 : !hal.device, i64)
    ]) type(%c2_i32) usage(%c3_i32) : !hal.device, i64
    util.return %device, %queue_affinity : !hal.device, i64
  }
  util.func public @two(%arg0: !hal.device, %arg1: i64, %arg2: !hal.device, %arg3: i64) -> (!hal.device, i64) {
    %c2_i32 = arith.constant 2 : i32
    %device, %queue_affinity = hal.allocator.select from([
      (%arg0, %arg1 : !hal.device, i64),
      (%arg2, %arg3 : !hal.device, i64)
    ]) type(%c2_i32) usage(%c2_i32) : !hal.device, i64
    util.return %device, %queue_affinity : !hal.device, i64
  }
}
