// mlirbc: {"producer": "MLIR22.1.8", "version": 6}
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
  ^bb0(%arg0: i64 loc(unknown)):
    "func.return"() : () -> () loc(unknown)
  }) : () -> () loc(unknown)
}) : () -> () loc(unknown)
