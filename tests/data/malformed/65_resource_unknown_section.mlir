// expect: 9:3 expected 'dialect_resources' or 'external_resources'
// like: upstream/Bytecode__resources.mlirbc
// mlirbc: {"producer": "MLIR22.1.8", "version": 6}
"builtin.module"() <{sym_name = "TestDialectResources"}> ({
^bb0:
}) {bytecode.test = dense_resource<decl_resource> : tensor<2xui32>, bytecode.test2 = dense_resource<resource> : tensor<4xf64>, bytecode.test3 = dense_resource<resource_2> : tensor<4xf64>} : () -> () loc("Bytecode__resources.mlir":1:1)

{-#
  weird_resources: {
    builtin: {
      resource: "0x08000000010000000000000002000000000000000300000000000000",
      resource_2: "0x08000000010000000000000002000000000000000300000000000000"
    }
  }
#-}
