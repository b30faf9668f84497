// mlirbc: {"producer": "MLIR22.1.8", "version": 6, "dialect_versions": {"func": "01"}}
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "f"}> ({
    "func.return"() : () -> () loc(unknown)
  }) : () -> () loc(unknown)
}) : () -> () loc(unknown)
