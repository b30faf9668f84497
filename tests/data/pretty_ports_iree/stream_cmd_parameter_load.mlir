module {
  util.func private @FoldParameterLoadTargetSubview(%arg0: !stream.timepoint, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: !util.buffer, %arg6: !util.buffer, %arg7: !util.buffer) -> (!stream.resource<constant>, !stream.resource<constant>, !stream.timepoint) {
    %c50_i64 = arith.constant 50 : i64
    %c51_i64 = arith.constant 51 : i64
    %c100 = arith.constant 100 : index
    %c200 = arith.constant 200 : index
    %results:2, %result_timepoint = stream.cmd.parameter.load await(%arg0) => {
      %arg5::%arg6[%c50_i64] : !stream.resource<constant>{%c100},
      %arg5::%arg7[%c51_i64] : !stream.resource<constant>{%c200}
    } => !stream.timepoint
    %0 = stream.resource.subview %results#0[%arg1] : !stream.resource<constant>{%c100} -> !stream.resource<constant>{%arg2}
    %1 = stream.resource.subview %results#1[%arg3] : !stream.resource<constant>{%c200} -> !stream.resource<constant>{%arg4}
    util.return %0, %1, %result_timepoint : !stream.resource<constant>, !stream.resource<constant>, !stream.timepoint
  }
}
