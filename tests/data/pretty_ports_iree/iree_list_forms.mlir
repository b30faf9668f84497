module {
  util.global private @dev : !hal.device
  util.func private @lists(%arg0: !stream.resource<*>, %arg1: index, %arg2: index, %arg3: tensor<?x4xf32>, %arg4: !stream.channel, %arg5: index, %arg6: i32, %arg7: !util.buffer, %arg8: !hal.executable, %arg9: index, %arg10: index, %arg11: !stream.resource<staging>) -> (!stream.resource<*>, !stream.resource<*>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c7_i64 = arith.constant 7 : i64
    flow.tensor.trace "in" = [%arg3 : tensor<?x4xf32>{%arg2}]
    stream.tensor.trace "res" = [
      %arg11 : tensor<?x4xf32>{%arg2} in !stream.resource<staging>{%arg1},
      %arg11 : tensor<8xi8> in !stream.resource<staging>{%arg1}
    ]
    %0:2 = stream.tensor.dispatch @ex::@fn[%c1, %c1, %c1](%arg0, %c0) : (tensor<?x4xf32>{%arg2} in !stream.resource<*>{%arg1}, index) -> (tensor<?x4xf32>{%arg2} in %arg0{%arg1}, !stream.resource<*>{%c64})
    %1 = stream.tensor.dispatch on(#hal.device.affinity<@dev>) @ex::@fn2(%arg0) : (!stream.resource<*>{%arg1}) -> tensor<4xf32> in !stream.resource<*>{%c64}
    %results:2, %result_timepoint = stream.resource.constants on(#hal.device.affinity<@dev>) : 
      !stream.resource<constant>{%c64} = dense<1.000000e+00> : tensor<16xf32>,
      !stream.resource<constant>{%c1} = dense<7> : tensor<1xi8>
      => !stream.timepoint
    %2 = stream.async.collective<broadcast : f32>[%arg5] on(#hal.device.affinity<@dev>) channel(%arg4) source(%arg6) %arg0[%c0 to %arg1 for %arg1], %0#1[%c0 to %c64 for %c64] : !stream.resource<*>{%arg1} -> %0#1 as !stream.resource<*>{%c64}
    %3 = util.list.construct [] : !util.list<?>
    %4 = util.list.construct [%c0 : index, %3 : !util.list<?>] : !util.list<?>
    hal_loader.executable.dispatch executable(%arg8 : !hal.executable)[%c7_i64] workgroups([%c1, %c1, %c1]) bindings([
      (%arg7 : !util.buffer)[%arg9, %arg10], 
      (%arg7 : !util.buffer)[%c0, %c64]
    ])
    util.return %0#0, %2 : !stream.resource<*>, !stream.resource<*>
  }
  vm.module public @m {
    vm.func @table(%arg0: i32, %arg1: i32, %arg2: i32) -> i32 {
      vm.br_table %arg0 {
        default: ^bb1(%arg1 : i32),
        0: ^bb1(%arg2 : i32),
        1: ^bb2
      }
    ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb0
      vm.return %0 : i32
    ^bb2:  // pred: ^bb0
      vm.return %arg1 : i32
    }
  }
}
