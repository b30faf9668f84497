// expect: 25:1 the view must hold exactly one top-level op, the file's 'builtin.module': MLIR would wrap them all in a new implicit module
// like: upstream/Dialect__SCF__ops.f08.mlirbc
// disable-model: arith
// mlirbc: {"producer": "MLIR22.1.8", "version": 6}
"builtin.module"() ({
  "func.func"() <{function_type = (memref<1024xf32>, index, index, index) -> f32, sym_name = "conditional_reduce"}> ({
  ^bb0(%arg0: memref<1024xf32> loc("Dialect__SCF__ops.f08.mlir":1:31), %arg1: index loc("Dialect__SCF__ops.f08.mlir":1:58), %arg2: index loc("Dialect__SCF__ops.f08.mlir":1:70), %arg3: index loc("Dialect__SCF__ops.f08.mlir":1:82)):
    %0 = "arith.constant"() {mlirbc.properties = "0x03"} : () -> f32 loc("Dialect__SCF__ops.f08.mlir":2:12)
    %1 = "arith.constant"() {mlirbc.properties = "0x03"} : () -> f32 loc("Dialect__SCF__ops.f08.mlir":3:9)
    %2 = "scf.for"(%arg1, %arg2, %arg3, %0) ({
    ^bb0(%arg4: index loc("Dialect__SCF__ops.f08.mlir":4:18), %arg5: f32 loc("Dialect__SCF__ops.f08.mlir":4:56)):
      %3 = "memref.load"(%arg0, %arg4) : (memref<1024xf32>, index) -> f32 loc("Dialect__SCF__ops.f08.mlir":5:9)
      %4 = "arith.cmpf"(%3, %1) {mlirbc.properties = "0x6725"} : (f32, f32) -> i1 loc("Dialect__SCF__ops.f08.mlir":6:12)
      %5 = "scf.if"(%4) ({
        %6 = "arith.addf"(%arg5, %3) {mlirbc.properties = "0x67"} : (f32, f32) -> f32 loc("Dialect__SCF__ops.f08.mlir":8:17)
        "scf.yield"(%6) : (f32) -> () loc("Dialect__SCF__ops.f08.mlir":9:7)
      }, {
        "scf.yield"(%arg5) : (f32) -> () loc("Dialect__SCF__ops.f08.mlir":11:5)
      }) : (i1) -> f32 loc("Dialect__SCF__ops.f08.mlir":7:16)
      "scf.yield"(%5) : (f32) -> () loc("Dialect__SCF__ops.f08.mlir":13:5)
    }) : (index, index, index, f32) -> f32 loc("Dialect__SCF__ops.f08.mlir":4:10)
    "func.return"(%2) : (f32) -> () loc("Dialect__SCF__ops.f08.mlir":15:3)
  }) : () -> () loc("Dialect__SCF__ops.f08.mlir":1:1)
}) : () -> () loc("Dialect__SCF__ops.f08.mlir":0:0)
"builtin.module"() ({
}) : () -> ()
