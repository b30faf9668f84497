// expect: 6:3 expected '"' in string literal
// like: upstream/Dialect__SCF__ops.f08.mlirbc
// disable-model: arith
// mlirbc: {"producer": "MLIR22.1.8", "version": 6}
"builtin.module"() ({
  "func.fu