module {
  util.func private @ElideImmediateAsyncParameterGatherWait(%arg0: !stream.resource<transient>, %arg1: index, %arg2: !util.buffer, %arg3: !util.buffer, %arg4: !util.buffer) -> (!stream.resource<transient>, !stream.timepoint) {
    %c0_i64 = arith.constant 0 : i64
    %c10_i64 = arith.constant 10 : i64
    %c0 = arith.constant 0 : index
    %c100 = arith.constant 100 : index
    %c200 = arith.constant 200 : index
    %0 = stream.timepoint.immediate => !stream.timepoint
    %result, %result_timepoint = stream.async.parameter.gather await(%0) {
      %arg2::%arg3[%c0_i64] -> %arg0[%c0 to %c100 for %c100] : !stream.resource<transient>{%arg1},
      %arg2::%arg4[%c10_i64] -> %arg0[%c100 to %c200 for %c100] : !stream.resource<transient>{%arg1}
    } : !stream.resource<transient> => !stream.timepoint
    util.return %result, %result_timepoint : !stream.resource<transient>, !stream.timepoint
  }
  util.func private @ElideImmediateAsyncParameterScatterWait(%arg0: !stream.resource<transient>, %arg1: index, %arg2: !util.buffer, %arg3: !util.buffer, %arg4: !util.buffer) -> (!stream.resource<transient>, !stream.timepoint) {
    %c0_i64 = arith.constant 0 : i64
    %c10_i64 = arith.constant 10 : i64
    %c0 = arith.constant 0 : index
    %c100 = arith.constant 100 : index
    %c200 = arith.constant 200 : index
    %0 = stream.timepoint.immediate => !stream.timepoint
    %result, %result_timepoint = stream.async.parameter.scatter await(%0) {
      %arg0[%c0 to %c100 for %c100] : !stream.resource<transient>{%arg1} -> %arg2::%arg3[%c0_i64],
      %arg0[%c100 to %c200 for %c100] : !stream.resource<transient>{%arg1} -> %arg2::%arg4[%c10_i64]
    } : !stream.resource<transient> => !stream.timepoint
    util.return %result, %result_timepoint : !stream.resource<transient>, !stream.timepoint
  }
  util.func private @FoldParameterGatherTargetSubview(%arg0: !stream.timepoint, %arg1: !stream.resource<transient>, %arg2: index, %arg3: index, %arg4: !util.buffer, %arg5: !util.buffer, %arg6: !util.buffer) -> !stream.timepoint {
    %c50_i64 = arith.constant 50 : i64
    %c51_i64 = arith.constant 51 : i64
    %c100 = arith.constant 100 : index
    %c101 = arith.constant 101 : index
    %c200 = arith.constant 200 : index
    %c201 = arith.constant 201 : index
    %c300 = arith.constant 300 : index
    %0 = stream.resource.subview %arg1[%arg2] : !stream.resource<transient>{%arg3} -> !stream.resource<transient>{%c300}
    %1 = stream.cmd.parameter.gather await(%arg0) => {
      %arg4::%arg5[%c50_i64] -> %0[%c100 for %c200] : !stream.resource<transient>{%c300},
      %arg4::%arg6[%c51_i64] -> %0[%c101 for %c201] : !stream.resource<transient>{%c300}
    } => !stream.timepoint
    util.return %1 : !stream.timepoint
  }
  util.func private @FoldParameterScatterSourceSubview(%arg0: !stream.timepoint, %arg1: !stream.resource<transient>, %arg2: index, %arg3: index, %arg4: !util.buffer, %arg5: !util.buffer, %arg6: !util.buffer) -> !stream.timepoint {
    %c50_i64 = arith.constant 50 : i64
    %c51_i64 = arith.constant 51 : i64
    %c100 = arith.constant 100 : index
    %c101 = arith.constant 101 : index
    %c200 = arith.constant 200 : index
    %c201 = arith.constant 201 : index
    %c300 = arith.constant 300 : index
    %0 = stream.resource.subview %arg1[%arg2] : !stream.resource<transient>{%arg3} -> !stream.resource<transient>{%c300}
    %1 = stream.cmd.parameter.scatter await(%arg0) => {
      %0[%c100 for %c200] : !stream.resource<transient>{%c300} -> %arg4::%arg5[%c50_i64],
      %0[%c101 for %c201] : !stream.resource<transient>{%c300} -> %arg4::%arg6[%c51_i64]
    } => !stream.timepoint
    util.return %1 : !stream.timepoint
  }
}
