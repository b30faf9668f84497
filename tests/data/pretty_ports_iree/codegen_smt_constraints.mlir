module {
  func.func @tuning(%arg0: index, %arg1: index, %arg2: index) {
    iree_codegen.smt.constraints target = <set = 1>, pipeline = #iree_gpu.pipeline<TileAndFuse>, 
     knobs = {tile = [#iree_codegen.smt.int_knob<"tm">, #iree_codegen.smt.int_knob<"tn">], unroll = #iree_codegen.smt.int_knob<"u">}
     dims(%arg0, %arg1, %arg2) {
    ^bb0(%arg3: !smt.int, %arg4: !smt.int, %arg5: !smt.int):
      %0 = iree_codegen.smt.knob "tm" : !smt.int
    }
    return
  }
}
