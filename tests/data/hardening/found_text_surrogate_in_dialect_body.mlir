// mlirbc: {"producer": "MLIR22.1.8", "version": 2}
"builtin.module"() ({
  "wasmssa.table"() {exported, sym_name = "tab0", type = !wasmssa<tabletyí°€pe !wasmssa.externref [0: 65536]>} : () -> () loc("Dialect__WasmSSA__custom_parser__table.mlir":1:1)
  "wasmssa.table"() {sym_name = "tab1", type = !wasmssa<tabletype !wasmssa.funcref [348:]>} : () -> () loc("Dialect__WasmSSA__custom_parser__table.mlir":3:1)
}) : () -> () loc("Dialect__WasmSSA__custom_parser__table.mlir":0:0)
