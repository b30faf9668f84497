// mlirbc: {"producer": "MLIR22.1.8", "version": 1}
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: !smt.bool loc("Dialect__SMT__array.mlir":1:28)):
    %0 = "smt.array.broadcast"(%arg0) {smt.some_attr} : (!smt.bool) -> !smt.array<[!smt.bool -> !smt.bool]> loc("Dialect__SMT__array.mlir":2:8)
    %1 = "smt.array.select"(%0, %arg0) {smt.some_attr} : (!smt.array<[!smt.bool -> !smt.bool]>, !smt.bool) -> !smt.bool loc("Dialect__SMT__array.mlir": loc("Dialect__SparseTensor__roundtrip_encoding.p09.mlir":5:9.mlir":5:1)
}) : () -> () loc("Dialect__SparseTensor__roundtrip_encoding.p09.mlir":0:0)
// mlirbc: {"pro, !smt.bool, !smt.bool) -> !smt.array<[!smt.bool -> !smt.bool]> loc("Dialect__SMT__array.mlir":4:8)
    "func.return"() : () -> () loc("Dialect__SMT__array.mlir":6:3)
  }) {function_type = (!smt.bool) -> (), sym_name = "arrayOperations"} : () -> () loc("Dialect__SMT__array.mlir":1:1)
}) : () -> () loc("Dialect__SMT__array.mlir":0:0)
