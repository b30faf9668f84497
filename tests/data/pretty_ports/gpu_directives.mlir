module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: f32) kernel {
      gpu.return
    }
    gpu.func @k2() kernel {
      gpu.return
    }
  }
  gpu.binary @bin <#gpu.select_object<0 : i64>> [#gpu.object<#nvvm.target, "">]
  gpu.binary @bin2  [#gpu.object<#nvvm.target, "">]
  func.func @f(%arg0: f32, %arg1: i64, %arg2: index, %arg3: !gpu.async.token) {
    %0 = gpu.all_reduce  mul %arg0 uniform {
    } : (f32) -> f32
    %1 = gpu.all_reduce  %arg0 {
    ^bb0(%arg4: f32, %arg5: f32):
      %4 = arith.addf %arg4, %arg5 : f32
      gpu.yield %4 : f32
    } : (f32) -> f32
    %2 = gpu.subgroup_reduce  maximumf %arg0 cluster(size = 4, stride = 2) : (f32) -> f32
    gpu.launch_func  @kernels::@k blocks in (%arg1, %arg1, %arg1) threads in (%arg1, %arg1, %arg1) : i64 args(%arg0 : f32)
    gpu.launch_func  @kernels::@k2 clusters in (%arg2, %arg2, %arg2) blocks in (%arg2, %arg2, %arg2) threads in (%arg2, %arg2, %arg2)  
    %3 = gpu.launch_func async [%arg3] @kernels::@k2 blocks in (%arg2, %arg2, %arg2) threads in (%arg2, %arg2, %arg2)  
    return
  }
}
