// expect: 6:1 expected an op in generic form
// like: upstream/Dialect__SCF__ops.f08.mlirbc
// disable-model: arith
// nothing here
// mlirbc: uselist 0=[1,0]
