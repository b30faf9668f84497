// expect: 52:27 expected
// like: upstream/Dialect__GPU__canonicalize.p02.mlirbc
// disable-model: arith
// mlirbc: {"producer": "MLIR22.1.8", "version": 6}
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "simplify_gpu_launch"}> ({
    %0 = "arith.constant"() {mlirbc.properties = "0x17"} : () -> f32 loc("Dialect__GPU__canonicalize.p02.mlir":2:10)
    // mlirbc: uselist 0=[5,0,1,2,3,4,8,7,6]
    %1 = "arith.constant"() {mlirbc.properties = "0x1B"} : () -> index loc("Dialect__GPU__canonicalize.p02.mlir":3:9)
    // mlirbc: uselist 0=[1,2,3,0]
    %2 = "arith.constant"() {mlirbc.properties = "0x1F"} : () -> index loc("Dialect__GPU__canonicalize.p02.mlir":4:10)
    // mlirbc: uselist 0=[0,2,1]
    %3 = "arith.constant"() {mlirbc.properties = "0x23"} : () -> index loc("Dialect__GPU__canonicalize.p02.mlir":5:10)
    %4 = "arith.constant"() {mlirbc.properties = "0x27"} : () -> index loc("Dialect__GPU__canonicalize.p02.mlir":6:9)
    // mlirbc: uselist 0=pairs[6,4,4,6]
    %5 = "arith.constant"() {mlirbc.properties = "0x2B"} : () -> index loc("Dialect__GPU__canonicalize.p02.mlir":7:9)
    %6 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<2x16x16xf32> loc("Dialect__GPU__canonicalize.p02.mlir":8:8)
    "scf.for"(%5, %4, %1) ({
    ^bb0(%arg12: index loc("Dialect__GPU__canonicalize.p02.mlir":9:11)):
      "scf.for"(%5, %3, %1) ({
      ^bb0(%arg13: index loc("Dialect__GPU__canonicalize.p02.mlir":10:13)):
        "scf.for"(%5, %3, %1) ({
        ^bb0(%arg14: index loc("Dialect__GPU__canonicalize.p02.mlir":11:15)):
          "memref.store"(%0, %6, %arg12, %arg13, %arg14) : (f32, memref<2x16x16xf32>, index, index, index) -> () loc("Dialect__GPU__canonicalize.p02.mlir":12:9)
          "scf.yield"() : () -> () loc("Dialect__GPU__canonicalize.p02.mlir":11:7)
        }) : (index, index, index) -> () loc("Dialect__GPU__canonicalize.p02.mlir":11:7)
        "scf.yield"() : () -> () loc("Dialect__GPU__canonicalize.p02.mlir":10:5)
      }) : (index, index, index) -> () loc("Dialect__GPU__canonicalize.p02.mlir":10:5)
      "scf.yield"() : () -> () loc("Dialect__GPU__canonicalize.p02.mlir":9:3)
    }) : (index, index, index) -> () loc("Dialect__GPU__canonicalize.p02.mlir":9:3)
    %7 = "gpu.wait"() : () -> !gpu.async.token loc("Dialect__GPU__canonicalize.p02.mlir":16:8)
    %8:2 = "gpu.alloc"(%7) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!gpu.async.token) -> (memref<2x16x16xf32>, !gpu.async.token) loc("Dialect__GPU__canonicalize.p02.mlir":17:26)
    %9 = "gpu.memcpy"(%7, %8#0, %6) : (!gpu.async.token, memref<2x16x16xf32>, memref<2x16x16xf32>) -> !gpu.async.token loc("Dialect__GPU__canonicalize.p02.mlir":18:8)
    "gpu.wait"(%7) : (!gpu.async.token) -> () loc("Dialect__GPU__canonicalize.p02.mlir":19:3)
    "gpu.launch"(%1, %1, %1, %2, %1, %1) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}> ({
    ^bb0(%arg0: index loc("Dialect__GPU__canonicalize.p02.mlir":20:21), %arg1: index loc("Dialect__GPU__canonicalize.p02.mlir":20:28), %arg2: index loc("Dialect__GPU__canonicalize.p02.mlir":20:35), %arg3: index loc("Dialect__GPU__canonicalize.p02.mlir":21:13), %arg4: index loc("Dialect__GPU__canonicalize.p02.mlir":21:20), %arg5: index loc("Dialect__GPU__canonicalize.p02.mlir":21:27), %arg6: index loc("Dialect__GPU__canonicalize.p02.mlir":20:46), %arg7: index loc("Dialect__GPU__canonicalize.p02.mlir":20:59), %arg8: index loc("Dialect__GPU__canonicalize.p02.mlir":20:72), %arg9: index loc("Dialect__GPU__canonicalize.p02.mlir":21:38), %arg10: index loc("Dialect__GPU__canonicalize.p02.mlir":21:52), %arg11: index loc("Dialect__GPU__canonicalize.p02.mlir":21:66)):
      %10 = "arith.muli"(%arg5, %2) {mlirbc.properties = "0x0E02"} : (index, index) -> index loc("Dialect__GPU__canonicalize.p02.mlir":22:10)
      %11 = "arith.muli"(%arg4, %2) {mlirbc.properties = "0x0E02"} : (index, index) -> index loc("Dialect__GPU__canonicalize.p02.mlir":23:10)
      %12 = "arith.addi"(%10, %11) {mlirbc.properties = "0x0E02"} : (index, index) -> index loc("Dialect__GPU__canonicalize.p02.mlir":24:10)
      %13 = "arith.addi"(%12, %arg3) {mlirbc.properties = "0x0E02"} : (index, index) -> index loc("Dialect__GPU__canonicalize.p02.mlir":25:10)
      %14 = "arith.divui"(%13, %2) {mlirbc.properties = "0x01"} : (index, index) -> index loc("Dialect__GPU__canonicalize.p02.mlir":26:10)
      %15 = "arith.muli"(%arg0, %3) {mlirbc.properties = "0x0E02"} : (index, index) -> index loc("Dialect__GPU__canonicalize.p02.mlir":27:10)
      %16 = "arith.muli"(%arg1, %4) {mlirbc.properties = "0x0E02"} : (index, index) -> index loc("Dialect__GPU__canonicalize.p02.mlir":28:10)
      %17 = "arith.muli"(%14, %4) {mlirbc.properties = "0x0E02"} : (index, index) -> index loc("Dialect__GPU__canonicalize.p02.mlir":29:11)
      %18 = "arith.addi"(%16, %17) {mlirbc.properties = "0x0E02"} : (index, index) -> index loc("Dialect__GPU__canonicalize.p02.mlir":30:11)
      %19 = "memref.load"(%8#0, %18, %5, %15) : (memref<2x16x16xf32>, index, index, index) -> f32 loc("Dialect__GPU__canonicalize.p02.mlir":31:11)
      %20 = "arith.addi"(%18, %1) {mlirbc.properties = "0x0E02"} : (index, index) -> index loc("Dialect__GPU__canonicalize.p02.mlir":32:11)
      %21 = "memref.load"(%8#0, %20, %5, %15) : (memref<2x16x16xf32>, index, index, index) -> f32 loc("Dialect__GPU__canonicalize.p02.mlir":33:11)
      "memref.store"(%19, %8#0, %18, %5, %15) : (f32, memref<2x16x16xf32>, index, index, index) -> () loc("Dialect__GPU__canonicalize.p02.mlir":34:5)
      "memref.store"(%21, %8#0, %20, %5, %15) : (f32, memref<2x16x16xf32>, index, index, index) -> () loc("Dialect__GPU__canonicalize.p02.mlir":35:5)
      "gpu.terminator"() : () -> () loc("Dialect__GPU__canonicalize.p02.mlir":36:5)
    }) {a = array<i32: 1, x>, workgroup_attributions = 0 : i64} : (index, index, index, index, index, index) -> () loc("Dialect__GPU__canonicalize.p02.mlir":20:3)
    "func.return"() : () -> () loc("Dialect__GPU__canonicalize.p02.mlir":38:3)
  }) {llvm.emit_c_interface} : () -> () loc("Dialect__GPU__canonicalize.p02.mlir":1:1)
}) : () -> () loc("Dialect__GPU__canonicalize.p02.mlir":0:0)
