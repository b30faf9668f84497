// expect: 8:105 expected integer column number in FileLineColRange, found end of input
// like: upstream/Dialect__SCF__ops.f08.mlirbc
// disable-model: arith
// mlirbc: {"producer": "MLIR22.1.8", "version": 6}
"builtin.module"() ({
  "func.func"() <{function_type = (memref<1024xf32>, index, index, index) -> f32, sym_name = "conditional_reduce"}> ({
  ^bb0(%arg0: memref<1024xf32> loc("Dialect__SCF__ops.f08.mlir":1:31), %arg1: index loc("Dialect__SCF__ops.f08.mlir":1:58), %arg2: index loc("Dialect__SCF__ops.f08.mlir":1:70), %arg3: index loc("Dialect__SCF__ops.f08.mlir":1:82)):
    %0 = "arith.constant"() {mlirbc.properties = "0x03"} : () -> f32 loc("Dialect__SCF__ops.f08.mlir":2: