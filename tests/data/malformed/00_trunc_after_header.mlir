// expect: 5:1 expected an op in generic form
// like: upstream/Dialect__SCF__ops.f08.mlirbc
// disable-model: arith
// mlirbc: {"producer": "MLIR22.1.8", "version": 6}
