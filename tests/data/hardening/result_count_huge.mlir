// mlirbc: {"producer": "MLIR22.1.8", "version": 6}
"builtin.module"() ({
  %0:99999999999999999999 = "test.op"() : () -> i32 loc(unknown)
  "test.use"(%0#5) : (i32) -> () loc(unknown)
}) : () -> () loc(unknown)
