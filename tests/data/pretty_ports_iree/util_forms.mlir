module {
  util.func public @list_access(%arg0: !util.list<i32>) {
    %c10 = arith.constant 10 : index
    %0 = util.list.get %arg0[%c10] : !util.list<i32>
    %1 = util.list.get %arg0[%c10] : !util.list<i32>
    %c100_i32 = arith.constant 100 : i32
    util.list.set %arg0[%c10], %c100_i32 : !util.list<i32>
    util.return
  }
  util.func public @rangeExtentsFoldConstants() -> (index, index) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %min, %max = util.range.extents [%c1 for %c2], [%c2 for %c3] : index
    util.return %min, %max : index, index
  }
  util.func public @foldSwitchI32Nop(%arg0: index) -> i32 {
    %c5_i32 = arith.constant 5 : i32
    %0 = util.switch i32 from [] at %arg0 else %c5_i32 : i32
    util.return %0 : i32
  }
  util.func public @f() -> (i32, i32, tensor<2xf32>) {
    %0 = util.unfoldable_constant 42 : i32
    %1 = util.unfoldable_constant  {attr = "foo"} 43 : i32
    %2 = util.unfoldable_constant dense<1.000000e+00> : tensor<2xf32>
    util.return %0, %1, %2 : i32, i32, tensor<2xf32>
  }
}
