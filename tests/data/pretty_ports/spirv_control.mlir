module {
  spirv.module Logical GLSL450 {
    spirv.func @sel(%arg0: i1, %arg1: i32) -> i32 "None" {
      %cst0_i32 = spirv.Constant 0 : i32
      %0 = spirv.Variable : !spirv.ptr<i32, Function>
      spirv.mlir.selection control(Flatten) {
        spirv.BranchConditional %arg0 [5, 10], ^bb1(%arg1 : i32), ^bb2
      ^bb1(%3: i32):  // pred: ^bb0
        spirv.Store "Function" %0, %3 : i32
        spirv.Branch ^bb3
      ^bb2:  // pred: ^bb0
        spirv.Branch ^bb3
      ^bb3:  // 2 preds: ^bb1, ^bb2
        spirv.mlir.merge
      }
      %1 = spirv.mlir.selection -> i32 {
        spirv.BranchConditional %arg0, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        spirv.Branch ^bb3(%arg1 : i32)
      ^bb2:  // pred: ^bb0
        spirv.Branch ^bb3(%cst0_i32 : i32)
      ^bb3(%3: i32):  // 2 preds: ^bb1, ^bb2
        spirv.mlir.merge %3 : i32
      }
      spirv.mlir.loop {
        spirv.Branch ^bb1(%cst0_i32 : i32)
      ^bb1(%3: i32):  // 2 preds: ^bb0, ^bb3
        %4 = spirv.SLessThan %3, %arg1 : i32
        spirv.BranchConditional %4, ^bb2, ^bb4
      ^bb2:  // pred: ^bb1
        %cst1_i32 = spirv.Constant 1 : i32
        %5 = spirv.IAdd %3, %cst1_i32 : i32
        spirv.Branch ^bb3
      ^bb3:  // pred: ^bb2
        spirv.Branch ^bb1(%5 : i32)
      ^bb4:  // pred: ^bb1
        spirv.mlir.merge
      }
      spirv.mlir.loop control(Unroll) {
        spirv.Branch ^bb1
      ^bb1:  // 2 preds: ^bb0, ^bb3
        spirv.BranchConditional %arg0, ^bb2, ^bb4
      ^bb2:  // pred: ^bb1
        spirv.Branch ^bb3
      ^bb3:  // pred: ^bb2
        spirv.Branch ^bb1
      ^bb4:  // pred: ^bb1
        spirv.mlir.merge
      }
      %2 = spirv.Load "Function" %0 : i32
      spirv.ReturnValue %1 : i32
    }
  }
}
