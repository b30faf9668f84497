module {
  util.func public @castToRaggedDynamicMemRef(%arg0: memref<?x?x?xf32>, %arg1: memref<?xindex>, %arg2: index, %arg3: index, %arg4: index, %arg5: index) -> memref<?x?x?x?xf32, #iree_tensor_ext.ragged_shape<1>> {
    %0 = iree_tensor_ext.cast_to_ragged_shape %arg0 ragged_dim(1) column_lengths(%arg1) num_ragged_rows(%arg2) : (memref<?x?x?xf32>{%arg3, %arg4, %arg5}, memref<?xindex>) -> memref<?x?x?x?xf32, #iree_tensor_ext.ragged_shape<1>>
    util.return %0 : memref<?x?x?x?xf32, #iree_tensor_ext.ragged_shape<1>>
  }
  util.func public @linearize(%arg0: memref<?x3x?x?xf32, #iree_tensor_ext.ragged_shape<1>>, %arg1: index, %arg2: index, %arg3: index) -> memref<?x?x?xf32> {
    %0 = iree_tensor_ext.linearize_ragged_dims %arg0 : memref<?x3x?x?xf32, #iree_tensor_ext.ragged_shape<1>> -> memref<?x?x?xf32>{%arg1, %arg2, %arg3}
    util.return %0 : memref<?x?x?xf32>
  }
  util.func public @space(%arg0: memref<4xf32, #hal.descriptor_type<storage_buffer>>) {
    util.return
  }
}
