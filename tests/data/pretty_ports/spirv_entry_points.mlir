module {
  spirv.module @m Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> attributes {foo} {
    spirv.GlobalVariable @v bind(1, 2) {foo} : !spirv.ptr<f32, Private>
    spirv.GlobalVariable @w built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @x : !spirv.ptr<f32, Private>
    spirv.func @f(%arg0: i32) -> i32 "None" attributes {foo} {
      spirv.ReturnValue %arg0 : i32
    }
    spirv.func @g() "None" {
      spirv.Return
    }
    spirv.EntryPoint "GLCompute" @g, @w, @x
    spirv.EntryPoint "Kernel" @f
    spirv.ExecutionMode @g "LocalSize", 4, 4, -2
    spirv.ExecutionMode @f "ContractionOff"
  }
}
