module {
  func.func @gpu_enums(%arg0: f32, %arg1: i32, %arg2: i32, %arg3: !gpu.mma_matrix<16x16xf16, "COp">) -> (index, f32) {
    %thread_id_x = gpu.thread_id x
    %block_id_y = gpu.block_id y upper_bound 4
    %block_dim_z = gpu.block_dim z
    %grid_dim_x = gpu.grid_dim x
    %cluster_id_y = gpu.cluster_id y
    %cluster_dim_z = gpu.cluster_dim z
    %cluster_block_id_x = gpu.cluster_block_id x
    %cluster_dim_blocks_y = gpu.cluster_dim_blocks y
    %global_id_z = gpu.global_id z
    %0 = gpu.all_reduce add %arg0 {
    } : (f32) -> f32
    %shuffleResult, %valid = gpu.shuffle xor %arg0, %arg1, %arg2 : f32
    %1 = gpu.subgroup_reduce maximumf %arg0 : (f32) -> f32
    %2 = gpu.subgroup_broadcast %arg0, specific_lane %arg1 : f32
    %3 = gpu.subgroup_mma_elementwise addf %arg3, %arg3 : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    %4 = arith.addi %thread_id_x, %block_id_y : index
    return %4, %0 : index, f32
  }
}
