module {
  shard.grid @grid0(shape = 2x2)
  func.func @names(%arg0: tensor<4x4xf32>, %arg1: memref<4x4xf32>, %arg2: i32, %arg3: tensor<2x2xf32>, %arg4: tensor<1x1xindex>, %arg5: tensor<1x4xf32>, %arg6: index) {
    %extracted_slice = tensor.extract_slice %arg0[0, 0] [2, 2] [1, 1] : tensor<4x4xf32> to tensor<2x2xf32>
    %inserted_slice = tensor.insert_slice %arg3 into %arg0[0, 0] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x4xf32>
    %concat = tensor.concat dim(0) %arg0, %arg0 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
    %intptr = memref.extract_aligned_pointer_as_index %arg1 : memref<4x4xf32> -> index
    %cst = complex.constant [1.000000e+00 : f32, 2.000000e+00 : f32] : complex<f32>
    %memspacecast = memref.memory_space_cast %arg1 : memref<4x4xf32> to memref<4x4xf32, 1>
    %assume_align = memref.assume_alignment %arg1, 16 : memref<4x4xf32>
    %f = constant @names : (tensor<4x4xf32>, memref<4x4xf32>, i32, tensor<2x2xf32>, tensor<1x1xindex>, tensor<1x4xf32>, index) -> ()
    %cluster_block_id_x = gpu.cluster_block_id  x
    %cluster_dim_y = gpu.cluster_dim  y
    %cluster_dim_blocks_z = gpu.cluster_dim_blocks  z
    %cluster_id_x = gpu.cluster_id  x
    %gather = tensor.gather %arg0[%arg4] gather_dims([0]) unique : (tensor<4x4xf32>, tensor<1x1xindex>) -> tensor<1x4xf32>
    %scatter = tensor.scatter %arg5 into %arg0[%arg4] scatter_dims([0]) unique : (tensor<1x4xf32>, tensor<4x4xf32>, tensor<1x1xindex>) -> tensor<4x4xf32>
    %0 = tensor.empty() : tensor<2x2x2x2xf32>
    %pack = linalg.pack %arg0 inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %0 : tensor<4x4xf32> -> tensor<2x2x2x2xf32>
    %unpack = linalg.unpack %pack inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %arg0 : tensor<2x2x2x2xf32> -> tensor<4x4xf32>
    %c4 = arith.constant 4 : index
    %c-2 = arith.constant -2 : index
    %vscale = vector.vscale
    %c4_vscale = arith.muli %c4, %vscale : index
    %c-2_vscale = arith.muli %vscale, %c-2 : index
    %1 = arith.muli %arg6, %vscale : index
    %idx5 = index.constant 5
    %c5_vscale = arith.muli %vscale, %idx5 : index
    %2 = arith.muli %arg2, %arg2 : i32
    %c5 = smt.int.constant 5
    %c-8 = smt.int.constant -8
    %c0 = smt.int.constant 0
    %c123456789012345678901234567890 = smt.int.constant 123456789012345678901234567890
    %all_gather = shard.all_gather %arg0 on @grid0 grid_axes = [0] gather_axis = 0 : tensor<4x4xf32> -> tensor<8x4xf32>
    %all_reduce = shard.all_reduce %arg0 on @grid0 grid_axes = [0] : tensor<4x4xf32> -> tensor<4x4xf32>
    %all_slice = shard.all_slice %arg0 on @grid0 grid_axes = [0] slice_axis = 0 : tensor<4x4xf32> -> tensor<2x4xf32>
    %all_to_all = shard.all_to_all %arg0 on @grid0 grid_axes = [0] split_axis = 0 concat_axis = 1 : tensor<4x4xf32> -> tensor<2x8xf32>
    %broadcast = shard.broadcast %arg0 on @grid0 grid_axes = [0] root = [0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %gather_0 = shard.gather %arg0 on @grid0 grid_axes = [0] gather_axis = 0 root = [0] : (tensor<4x4xf32>) -> tensor<8x4xf32>
    %recv = shard.recv %arg0 on @grid0 grid_axes = [0] source = [0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %reduce = shard.reduce %arg0 on @grid0 grid_axes = [0] root = [0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %reduce_scatter = shard.reduce_scatter %arg0 on @grid0 grid_axes = [0] scatter_axis = 0 : tensor<4x4xf32> -> tensor<2x4xf32>
    %scatter_1 = shard.scatter %arg0 on @grid0 grid_axes = [0] scatter_axis = 0 root = [0] : (tensor<4x4xf32>) -> tensor<2x4xf32>
    %send = shard.send %arg0 on @grid0 grid_axes = [0] destination = [0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %shift = shard.shift %arg0 on @grid0 grid_axes = [0] shift_axis = 0 offset = 1 : tensor<4x4xf32> -> tensor<4x4xf32>
    %sharding = shard.sharding @grid0 split_axes = [[0]] : !shard.sharding
    %sharding_annotated = shard.shard %arg0 to %sharding : tensor<4x4xf32>
    %shard_shape:2 = shard.shard_shape dims = [4, 4] sharding = %sharding device = [0, 0] : index, index
    %proc_linear_idx:2 = shard.process_multi_index on @grid0 : index, index
    %3 = shard.get_sharding %arg0 : tensor<4x4xf32> -> !shard.sharding
    %proc_linear_idx_2 = shard.process_linear_index on @grid0 : index
    %grid_shape:2 = shard.grid_shape @grid0 : index, index
    %down_linear_idx, %up_linear_idx = shard.neighbors_linear_indices on @grid0[%proc_linear_idx_2, %proc_linear_idx_2] split_axes = [0] : index, index
    %low, %high = arith.mului_extended %arg2, %arg2 : i32
    %base_buffer, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %arg1 : memref<4x4xf32> -> memref<f32>, index, index, index, index, index
    return
  }
}
