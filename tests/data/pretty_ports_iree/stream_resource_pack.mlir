module {
  util.func private @FoldResourcePackOpEmpty(%arg0: !hal.allocator) -> index {
    %0 = stream.resource.pack slices({}) : index
    util.return %0 : index
  }
  util.func private @PropagateResourcePackZeroOffset(%arg0: index) -> (index, index, index) {
    %c0 = arith.constant 0 : index
    %0:3 = stream.resource.pack offset(%c0) slices({
      [0, 4] = %arg0,
      [1, 2] = %arg0
    }) : index
    util.return %0#0, %0#1, %0#2 : index, index, index
  }
  util.func private @resourcePack(%arg0: index, %arg1: index) -> (index, index, index) {
    %c128 = arith.constant 128 : index
    %0:3 = stream.resource.pack offset(%c128) slices({
      [0, 9] = %arg0,
      [3, 8] = %arg1
    }) : index
    util.return %0#0, %0#1, %0#2 : index, index, index
  }
}
