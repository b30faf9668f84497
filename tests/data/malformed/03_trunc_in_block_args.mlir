// expect: 7:72 expected a block argument name, found end of input
// like: upstream/Dialect__SCF__ops.f08.mlirbc
// disable-model: arith
// mlirbc: {"producer": "MLIR22.1.8", "version": 6}
"builtin.module"() ({
  "func.func"() <{function_type = (memref<1024xf32>, index, index, index) -> f32, sym_name = "conditional_reduce"}> ({
  ^bb0(%arg0: memref<1024xf32> loc("Dialect__SCF__ops.f08.mlir":1:31), 