// mlirbc: {"producer": "MLIR\ud800", "version": 6}
"builtin.module"() ({
  "test.op"() : () -> () loc(unknown)
}) : () -> () loc(unknown)
