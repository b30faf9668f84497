module {
  spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
    spirv.GlobalVariable @var bind(1, 2) : !spirv.ptr<f32, StorageBuffer>
    spirv.func @f(%arg0: f32, %arg1: i32) "None" {
      %cst_f32 = spirv.Constant 1.000000e+00 : f32
      %0 = spirv.Variable init(%cst_f32) : !spirv.ptr<f32, Function>
      %1 = spirv.Load "Function" %0 ["Volatile|Aligned", 4] : f32
      spirv.Store "Function" %0, %1 ["Aligned", 8] : f32
      %2 = spirv.GL.FClamp %1, %1, %1 : f32
      %3 = spirv.IAddCarry %arg1, %arg1 : !spirv.struct<(i32, i32)>
      %4 = spirv.CompositeExtract %3[1 : i32] : !spirv.struct<(i32, i32)>
      %5 = spirv.CompositeInsert %4, %3[0 : i32] : i32 into !spirv.struct<(i32, i32)>
      spirv.Return
    }
  }
}
