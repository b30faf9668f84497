// mlirbc: {"producer": "MLIR22.1.8", "version": 6}
"builtin.module"() ({
  "test.op"() {s = "xí €"} : () -> () loc(unknown)
}) : () -> () loc(unknown)
