module {
  util.func private @f(%arg0: i32, %arg1: tensor<?xf32>) -> (i32, %arg1) {
    util.return %arg0, %arg1 : i32, tensor<?xf32>
  }
  util.func public @g(%arg0: i32, %arg1: tensor<?xf32>, %arg2: tensor<4xi32>, %arg3: tensor<1xi32>, %arg4: index, %arg5: tensor<?x4xi32>, %arg6: tensor<1x4xi32>) -> (i32, tensor<?xf32>) {
    %0:2 = util.call @f(%arg0, %arg1) : (i32, tensor<?xf32>) -> (i32, %arg1)
    %1 = util.call @f2(%arg1) : (tensor<?xf32>) -> %arg1 as tensor<4xf32>
    %c1 = arith.constant 1 : index
    %2 = flow.tensor.update %arg3, %arg2[%c1] : tensor<1xi32> -> %arg2 as tensor<4xi32>
    %3 = flow.tensor.update %arg6, %arg5[%c1, %c1] : tensor<1x4xi32> -> %arg5 as tensor<?x4xi32>{%arg4}
    util.return %0#0, %0#1 : i32, tensor<?xf32>
  }
  util.func private @f2(%arg0: tensor<?xf32>) -> %arg0 as tensor<4xf32>
  util.func public @s(%arg0: !stream.resource<*>, %arg1: !stream.resource<*>, %arg2: index, %arg3: index) -> !stream.resource<*> {
    %c0 = arith.constant 0 : index
    %0 = stream.async.update %arg1, %arg0[%c0 to %arg3] : !stream.resource<*>{%arg3} -> %arg0 as !stream.resource<*>{%arg2}
    util.return %0 : !stream.resource<*>
  }
  util.func public @q(%arg0: !hal.device, %arg1: i64, %arg2: !hal.fence, %arg3: !hal.fence, %arg4: !hal.command_buffer, %arg5: !hal.buffer, %arg6: !hal.buffer, %arg7: index, %arg8: index) {
    hal.device.queue.execute.indirect<%arg0 : !hal.device> affinity(%arg1) wait(%arg2) signal(%arg3) commands(%arg4) bindings([
      (%arg5 : !hal.buffer)[%arg7, %arg8], 
      (%arg6 : !hal.buffer)[%arg7, %arg8]
    ]) flags("None")
    util.return
  }
}
