module {
  llvm.func @g(%arg0: i32, %arg1: f32, %arg2: i32, %arg3: i32, %arg4: f16, %arg5: vector<4xf32>) -> f32 {
    %0 = nvvm.shfl.sync bfly %arg0, %arg1, %arg2, %arg3 : f32 -> f32
    %1 = nvvm.shfl.sync idx %arg0, %arg1, %arg2, %arg3 {foo} : f32 -> f32
    nvvm.barrier id = %arg0 number_of_threads = %arg2 aligned = false
    nvvm.barrier id = %arg0
    nvvm.barrier
    %2 = llvm.fptrunc %arg1 : f32 to bf16
    %3 = llvm.fptrunc %arg1 fastmath<nnan, ninf> : f32 to bf16
    %4 = llvm.fpext %arg4 fastmath<fast> {foo} : f16 to f32
    %5 = rocdl.mfma.f32.16x16x4f32 %arg1, %arg1, %arg5, 1, 2, bcast_first_32 : (f32, f32, vector<4xf32>) -> vector<4xf32>
    %6 = rocdl.mfma.f32.16x16x4f32 %arg1, %arg1, %arg5, 0, 0, none {foo} : (f32, f32, vector<4xf32>) -> vector<4xf32>
    rocdl.sched.barrier none
    llvm.return %0 : f32
  }
  spirv.module Logical GLSL450 {
    spirv.func @s(%arg0: f32, %arg1: vector<4xf32>, %arg2: !spirv.ptr<!spirv.struct<(!spirv.array<4 x f32, stride=4> [0])>, StorageBuffer>, %arg3: i32) "None" {
      %0 = spirv.GL.NMax %arg0, %arg0 : f32
      %1 = spirv.GL.NMin %arg1, %arg1 : vector<4xf32>
      %cst0_i32 = spirv.Constant 0 : i32
      %2 = spirv.InBoundsAccessChain %arg2[%cst0_i32, %arg3] : !spirv.ptr<!spirv.struct<(!spirv.array<4 x f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
      spirv.Return
    }
  }
}
