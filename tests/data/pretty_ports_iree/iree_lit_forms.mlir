module {
  util.func private @ElideUnusedParameterLoad(%arg0: !util.buffer, %arg1: !util.buffer) {
    %c0_i64 = arith.constant 0 : i64
    %c100 = arith.constant 100 : index
    %result, %result_timepoint = stream.async.parameter.load %arg0::%arg1[%c0_i64] : !stream.resource<constant>{%c100} => !stream.timepoint
    util.return
  }
  flow.func private @externArg0()
  flow.func private @externArg1(%arg0: tensor<4x?xi32>)
  flow.func private @externArg1Attrs(%arg0: tensor<4x?xi32> {arg.attr})
  flow.func private @externArg2(%arg0: tensor<4x?xi32>, %arg1: i32)
  flow.func private @externArg2Attrs(%arg0: tensor<4x?xi32> {arg.attr0}, %arg1: i32 {arg.attr1})
  util.func private @ElideImmediateAsyncExecuteWaits(%arg0: !stream.resource<*>, %arg1: index) -> (!stream.resource<*>, !stream.timepoint) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %0 = stream.timepoint.immediate => !stream.timepoint
    %results, %result_timepoint = stream.async.execute await(%0) => with(%arg0 as %arg2: !stream.resource<*>{%arg1}) -> %arg0{%arg1} {
      %1 = stream.async.dispatch @executable::@dispatch0[%c1, %c1, %c1](%arg2[%c0 to %arg1 for %arg1]) : (!stream.resource<*>{%arg1}) -> !stream.resource<*>{%arg1}
      stream.yield %1 : !stream.resource<*>{%arg1}
    } => !stream.timepoint
    util.return %results, %result_timepoint : !stream.resource<*>, !stream.timepoint
  }
  util.func private @SinkSplatsToConsumers(%arg0: i1, %arg1: i1, %arg2: !stream.resource<*>, %arg3: !stream.resource<*>, %arg4: !stream.resource<*>) -> !stream.resource<*> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c100 = arith.constant 100 : index
    %c123_i32 = arith.constant 123 : i32
    %0 = stream.async.splat %c123_i32 : i32 -> !stream.resource<*>{%c100}
    cf.cond_br %arg0, ^bb1, ^bb4(%arg4 : !stream.resource<*>)
  ^bb1:  // pred: ^bb0
    cf.cond_br %arg1, ^bb2, ^bb3
  ^bb2:  // pred: ^bb1
    %1 = stream.async.dispatch @executable::@dispatch0[%c1, %c2, %c3](%0[%c0 to %c100 for %c100]) : (!stream.resource<*>{%c100}) -> !stream.resource<*>{%c100}
    cf.br ^bb4(%1 : !stream.resource<*>)
  ^bb3:  // pred: ^bb1
    %2 = stream.async.dispatch @executable::@dispatch1[%c1, %c2, %c3](%0[%c0 to %c100 for %c100]) : (!stream.resource<*>{%c100}) -> !stream.resource<*>{%c100}
    cf.br ^bb4(%2 : !stream.resource<*>)
  ^bb4(%3: !stream.resource<*>):  // 3 preds: ^bb0, ^bb2, ^bb3
    util.return %3 : !stream.resource<*>
  }
  util.func public @format_fold_all_constant() -> !util.buffer {
    %c5 = arith.constant 5 : index
    %blk_N_attn_q_weight = util.string.format "blk.{}.attn_q.weight"(%c5) : (index) -> !util.buffer
    util.return %blk_N_attn_q_weight : !util.buffer
  }
  func.func @fold_input_pad_into_im2col(%arg0: tensor<2x34x34x640xf32>) -> tensor<2x1296x5760xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %padded = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<2x34x34x640xf32> to tensor<2x36x36x640xf32>
    %0 = tensor.empty() : tensor<2x1296x5760xf32>
    %1 = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3] offsets = [0, 0, 0] output_sizes = [[2], [32, 32], [3, 3, 640]] batch_pos = [0] m_pos = [1, 2] k_pos = [3] input_k_perm = [0, 1, 2] output_perm = [0, 1, 2] ins(%padded : tensor<2x36x36x640xf32>) outs(%0 : tensor<2x1296x5760xf32>) -> tensor<2x1296x5760xf32>
    return %1 : tensor<2x1296x5760xf32>
  }
  func.func @bufferize_async_dma(%arg0: tensor<20x64xf16>, %arg1: tensor<1x64xf16>, %arg2: index, %arg3: index, %arg4: index) -> tensor<1x64xf16> {
    %0 = iree_gpu.async_dma %arg0[%arg2, %arg3] to %arg1[%arg4, %arg4], vector<1x64xf16> : tensor<20x64xf16>, tensor<1x64xf16> -> tensor<1x64xf16>
    return %0 : tensor<1x64xf16>
  }
  func.func @coalesced_gather_dma_static(%arg0: vector<64xi32>, %arg1: tensor<4096xf32>, %arg2: tensor<64xf32>, %arg3: index) -> tensor<64xf32> {
    %c1 = arith.constant 1 : index
    %0 = scf.forall (%arg4) in (%c1) shared_outs(%arg5 = %arg2) -> (tensor<64xf32>) {
      scf.forall.in_parallel {
        %1 = iree_gpu.coalesced_gather_dma %arg1[%arg0] into %arg5 lane(%arg3) : tensor<4096xf32>, vector<64xi32>, tensor<64xf32>, index -> tensor<64xf32>
      }
    }
    return %0 : tensor<64xf32>
  }
}
