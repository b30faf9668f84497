// expect: 7:40 expected hex string in mlirbc.fallback, found end of input
// like: jax/mlp2.mlirbc
// disable-model: vhlo
// mlirbc: {"producer": "StableHLO_v1.15.0", "version": 6}
"builtin.module"() <{sym_name = "jit_mlp"}> ({
  "vhlo.func_v1"() ({
  ^bb0(%arg6: !mlirbc.fallback<"vhlo", 