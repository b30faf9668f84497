// expect: 7:51 reference to an undefined block ^bb9
// like: upstream/Dialect__ControlFlow__ops.f01.mlirbc
// mlirbc: {"producer": "MLIR22.1.8", "version": 6}
"builtin.module"() ({
  "func.func"() <{function_type = (i32, i32) -> (), sym_name = "switch"}> ({
  ^bb0(%arg0: i32 loc("Dialect__ControlFlow__ops.f01.mlir":1:19), %arg1: i32 loc("Dialect__ControlFlow__ops.f01.mlir":1:32)):
    "cf.switch"(%arg0, %arg1, %arg1, %arg1)[^bb1, ^bb9, ^bb3] <{case_operand_segments = array<i32: 1, 1>, case_values = dense<[42, 43]> : vector<2xi32>, operandSegmentSizes = array<i32: 1, 1, 2>}> : (i32, i32, i32, i32) -> () loc("Dialect__ControlFlow__ops.f01.mlir":2:3)
  ^bb1(%0: i32 loc("Dialect__ControlFlow__ops.f01.mlir":8:8)):  // pred: ^bb0
    "func.return"() : () -> () loc("Dialect__ControlFlow__ops.f01.mlir":9:5)
  ^bb2(%1: i32 loc("Dialect__ControlFlow__ops.f01.mlir":10:8)):  // pred: ^bb0
    "func.return"() : () -> () loc("Dialect__ControlFlow__ops.f01.mlir":11:5)
  ^bb3(%2: i32 loc("Dialect__ControlFlow__ops.f01.mlir":12:8)):  // pred: ^bb0
    "func.return"() : () -> () loc("Dialect__ControlFlow__ops.f01.mlir":13:5)
  }) : () -> () loc("Dialect__ControlFlow__ops.f01.mlir":1:1)
}) : () -> () loc("Dialect__ControlFlow__ops.f01.mlir":0:0)
