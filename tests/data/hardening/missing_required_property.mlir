// mlirbc: {"producer": "MLIR22.1.8", "version": 6}
"builtin.module"() ({
  "func.func"() ({
    "func.return"() : () -> () loc(unknown)
  }) : () -> () loc(unknown)
}) : () -> () loc(unknown)
