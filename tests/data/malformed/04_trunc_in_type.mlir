// expect: 6:48 end of input
// like: upstream/Dialect__SCF__ops.f08.mlirbc
// disable-model: arith
// mlirbc: {"producer": "MLIR22.1.8", "version": 6}
"builtin.module"() ({
  "func.func"() <{function_type = (memref<1024x