#config = #iree_codegen.lowering_config<tile_sizes = [[2, 8, 0]]>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = [64, 1, 1] subgroup_size = 64>
#translation1 = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<Default>>
#compilation = #iree_codegen.compilation_info<lowering_config = #iree_gpu.lowering_config<{reduction = [0, 0, 8], workgroup = [4, 16, 0]}>, translation_info = #translation>
#compilation1 = #iree_codegen.compilation_info<lowering_config = #config, translation_info = #translation1>
module {
  func.func @tuned(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32>, %arg2: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {translation_info = #translation} {
    %0 = linalg.matmul {compilation_info = #compilation} ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%arg2 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %1 = linalg.matmul {compilation_info = #compilation1} ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%0 : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %1 : tensor<4x16xf32>
  }
}

