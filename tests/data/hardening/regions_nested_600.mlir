// mlirbc: {"producer": "MLIR22.1.8", "version": 6}
"builtin.module"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  "t.r"() ({
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
  }) : () -> () loc(unknown)
}) : () -> () loc(unknown)
