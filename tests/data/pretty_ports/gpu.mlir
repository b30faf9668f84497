module attributes {gpu.container_module} {
  func.func @f(%arg0: index, %arg1: !gpu.async.token, %arg2: i32) {
    %0 = gpu.launch async [%arg1] blocks(%arg3, %arg4, %arg5) in (%arg9 = %arg0, %arg10 = %arg0, %arg11 = %arg0) threads(%arg6, %arg7, %arg8) in (%arg12 = %arg0, %arg13 = %arg0, %arg14 = %arg0) dynamic_shared_memory_size %arg2 {
      %thread_id_x = gpu.thread_id  x
      gpu.terminator
    }
    return
  }
  gpu.module @kernels {
    gpu.func @k(%arg0: f32) workgroup(%arg1 : memref<4xf32, 3>) private(%arg2 : memref<2xf32, 5>) kernel attributes {foo = "bar"} {
      gpu.return
    }
  }
}
