"builtin.module"() ({
  "func.func"() <{function_type = (i32, f32) -> i32, sym_name = "f"}> ({
  ^bb0(%a: i32, %b: f32):
    %0 = "arith.addi"(%b, %b) : (f32, f32) -> f32
    "func.return"(%a) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> i32, sym_name = "f"}> ({
  ^bb0(%a: i32):
    %c = "arith.cmpi"(%a) <{predicate = 1 : i64}> : (i32) -> i1
    "func.return"(%a) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> i32, sym_name = "f"}> ({
  ^bb0(%a: i32):
    %c = "arith.cmpi"(%a, %a) <{predicate = 1 : i64}> : (i32, i32) -> i32
    "func.return"(%a) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> i32, sym_name = "f"}> ({
  ^bb0(%a: i32):
    %c = "arith.cmpi"(%a, %a) <{predicate = 1 : i64}> ({}) : (i32, i32) -> (i1)
    "func.return"(%a) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> i32, sym_name = "f"}> ({
  ^bb0(%a: i32):
    %c = "arith.constant"() <{value = 1 : i64}> : () -> (i32)
    "func.return"(%a) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4xf32>, index) -> (), sym_name = "f"}> ({
  ^bb0(%m: memref<4xf32>, %i: index):
    %v = "memref.load"(%m, %i, %i) : (memref<4xf32>, index, index) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4xf32>, index) -> (), sym_name = "f"}> ({
  ^bb0(%m: memref<4xf32>, %i: index):
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (index) -> (), sym_name = "f"}> ({
  ^bb0(%i: index):
    "scf.yield"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (index) -> (), sym_name = "f"}> ({
  ^bb0(%i: index):
    "scf.for"(%i, %i, %i) ({
    ^bb0(%iv: index):
      "scf.yield"() : () -> ()
    ^bb1:
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (index) -> (), sym_name = "f"}> ({
  ^bb0(%i: index):
    "scf.for"(%i, %i, %i) ({
    ^bb0(%iv: index, %x: index):
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (i1) -> (), sym_name = "f"}> ({
  ^bb0(%c: i1):
    "scf.if"(%c) ({
    ^bb0(%x: index):
      "scf.yield"() : () -> ()
    }, {
    }) : (i1) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "f"}> ({
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = () -> (), sym_name = "f"}> ({
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "f"}> ({
    "func.call"() <{callee = @g}> : () -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
  ^bb0(%a: i32, %b: i32):
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
  ^bb0(%a: i32):
    "func.return"() ({}) : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
  ^bb0(%a: i32):
    "cf.br"()[^bb1] : () -> ()
  ^bb1(%x: i32):
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4xf32>, index) -> (), sym_name = "f"}> ({
  ^bb0(%m: memref<4xf32>, %i: index):
    %c = "arith.constant"() <{value = 0.0 : f32}> : () -> f32
    %v = "vector.transfer_read"(%m, %i, %c) <{in_bounds = [true], operandSegmentSizes = array<i32: 2, 0, 1, 0>, permutation_map = affine_map<(d0) -> (d0)>}> : (memref<4xf32>, index, f32) -> vector<4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4xf32>, index) -> (), sym_name = "f"}> ({
  ^bb0(%m: memref<4xf32>, %i: index):
    %c = "arith.constant"() <{value = 0.0 : f32}> : () -> f32
    %v = "vector.transfer_read"(%m, %i, %c) <{in_bounds = [true], operandSegmentSizes = array<i32: 1, 1, 1, 1>, permutation_map = affine_map<(d0) -> (d0)>}> : (memref<4xf32>, index, f32) -> vector<4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4xf32>, index) -> (), sym_name = "f"}> ({
  ^bb0(%m: memref<4xf32>, %i: index):
    %c = "arith.constant"() <{value = 0.0 : f32}> : () -> f32
    %v = "vector.transfer_read"(%m, %i, %c) <{in_bounds = [true], operandSegmentSizes = array<i32: 1, 0, 1, 1>, permutation_map = affine_map<(d0) -> (d0)>}> : (memref<4xf32>, index, f32) -> vector<4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (i1) -> (), sym_name = "f"}> ({
  ^bb0(%c: i1):
    "scf.if"(%c) ({
      "scf.yield"() : () -> ()
    }, {
    }) : (i1) -> ()
    "scf.if"(%c) ({
      "foo.bar"() : () -> ()
    }, {
    }) : (i1) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
  ^bb0(%a: i32):
    %x = "arith.addi"(%a) : (i32) -> (f32)
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (i1, i32) -> (), sym_name = "f"}> ({
  ^bb0(%c: i1, %a: i32):
    %r = "scf.if"(%c) ({
      "scf.yield"() : () -> ()
    }, {
      "scf.yield"(%a) : (i32) -> ()
    }) : (i1) -> i32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (i1, i32, f32) -> (), sym_name = "f"}> ({
  ^bb0(%c: i1, %a: i32, %b: f32):
    %r = "scf.if"(%c) ({
      "scf.yield"(%b) : (f32) -> ()
    }, {
      "scf.yield"(%a) : (i32) -> ()
    }) : (i1) -> i32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (index, i32) -> (), sym_name = "f"}> ({
  ^bb0(%i: index, %a: i32):
    %r = "scf.for"(%i, %i, %i, %a) ({
    ^bb0(%iv: index, %x: i32):
      "scf.yield"() : () -> ()
    }) : (index, index, index, i32) -> i32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (index, i32, f32) -> (), sym_name = "f"}> ({
  ^bb0(%i: index, %a: i32, %b: f32):
    %r = "scf.for"(%i, %i, %i, %a) ({
    ^bb0(%iv: index, %x: i32):
      "scf.yield"(%b) : (f32) -> ()
    }) : (index, index, index, i32) -> i32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (index, i32, f32) -> (), sym_name = "f"}> ({
  ^bb0(%i: index, %a: i32, %b: f32):
    %r = "scf.for"(%i, %i, %i, %a) ({
    ^bb0(%iv: index, %x: f32):
      "scf.yield"(%b) : (f32) -> ()
    }) : (index, index, index, i32) -> i32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (index, i32, f32) -> (), sym_name = "f"}> ({
  ^bb0(%i: index, %a: i32, %b: f32):
    %r = "scf.for"(%i, %i, %i, %a) ({
    ^bb0(%iv: index, %x: i32):
      "scf.yield"(%x) : (i32) -> ()
    }) : (index, index, index, i32) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (index, i32, f32) -> (), sym_name = "f"}> ({
  ^bb0(%i: index, %a: i32, %b: f32):
    %r = "scf.for"(%i, %i, %i, %a) ({
    ^bb0(%iv: i32, %x: i32):
      "scf.yield"(%x) : (i32) -> ()
    }) : (index, index, index, i32) -> i32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
  ^bb0(%a: i32):
    %r = "scf.while"(%a) ({
    ^bb0(%x: i32):
      %c = "arith.constant"() <{value = true}> : () -> i1
      "scf.condition"(%c, %x) : (i1, i32) -> ()
    }, {
    ^bb0(%y: i32):
      "scf.yield"() : () -> ()
    }) : (i32) -> i32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
  ^bb0(%a: i32):
    %r = "scf.while"(%a) ({
    ^bb0(%x: i32):
      %c = "arith.constant"() <{value = true}> : () -> i1
      "scf.condition"(%c) : (i1) -> ()
    }, {
    ^bb0(%y: i32):
      "scf.yield"(%y) : (i32) -> ()
    }) : (i32) -> i32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
  ^bb0(%a: i32):
    %r = "scf.while"(%a) ({
    ^bb0(%x: i32, %z: i32):
      %c = "arith.constant"() <{value = true}> : () -> i1
      "scf.condition"(%c, %x) : (i1, i32) -> ()
    }, {
    ^bb0(%y: i32):
      "scf.yield"(%y) : (i32) -> ()
    }) : (i32) -> i32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
  ^bb0(%a: i32):
    %r = "scf.execute_region"() ({
      "scf.yield"() : () -> ()
    }) : () -> i32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (i1) -> (), sym_name = "f"}> ({
  ^bb0(%c: i1):
    %r = "scf.if"(%c) ({
      %x = "arith.constant"() <{value = 1 : i32}> : () -> i32
      "scf.yield"(%x) : (i32) -> ()
    }, {
    }) : (i1) -> i32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4x4xf32>, index, f32) -> (), sym_name = "f"}> ({
  ^bb0(%m: memref<4x4xf32>, %i: index, %v: f32):
    "memref.store"(%v, %m, %i) : (f32, memref<4x4xf32>, index) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x4xf32>, index, f32) -> (), sym_name = "f"}> ({
  ^bb0(%m: tensor<4x4xf32>, %i: index, %v: f32):
    %x = "tensor.extract"(%m, %i) : (tensor<4x4xf32>, index) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x4xf32>, index, f32) -> (), sym_name = "f"}> ({
  ^bb0(%m: tensor<4x4xf32>, %i: index, %v: f32):
    %x = "tensor.insert"(%v, %m, %i) : (f32, tensor<4x4xf32>, index) -> tensor<4x4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4x4xf32>, index, f32) -> (), sym_name = "f"}> ({
  ^bb0(%m: memref<4x4xf32>, %i: index, %v: f32):
    %x = "vector.load"(%m, %i) : (memref<4x4xf32>, index) -> vector<4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4x4xf32>, index, f32) -> (), sym_name = "f"}> ({
  ^bb0(%m: memref<4x4xf32>, %i: index, %v: f32):
    %x = "affine.load"(%m, %i) <{map = affine_map<(d0, d1) -> (d0, d1)>}> : (memref<4x4xf32>, index) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4x4xf32>, index, f32) -> (), sym_name = "f"}> ({
  ^bb0(%m: memref<4x4xf32>, %i: index, %v: f32):
    %x = "affine.load"(%m, %i) <{map = affine_map<(d0) -> (d0)>}> : (memref<4x4xf32>, index) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4x4xf32>, index, f32) -> (), sym_name = "f"}> ({
  ^bb0(%m: memref<4x4xf32>, %i: index, %v: f32):
    "affine.store"(%v, %m, %i) <{map = affine_map<(d0, d1) -> (d0, d1)>}> : (f32, memref<4x4xf32>, index) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xf32>, tensor<4xf32>) -> (), sym_name = "f"}> ({
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %r = "linalg.generic"(%a, %b) <{indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%x: f32, %y: f32):
      "linalg.yield"(%x) : (f32) -> ()
    }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xf32>, tensor<4xf32>) -> (), sym_name = "f"}> ({
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %r = "linalg.generic"(%a, %b) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%x: f32, %y: f32, %z: f32):
      "linalg.yield"(%x) : (f32) -> ()
    }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xf32>, tensor<4xf32>) -> (), sym_name = "f"}> ({
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %r = "linalg.generic"(%a, %b) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%x: f32, %y: f32):
      "linalg.yield"() : () -> ()
    }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xf32>, tensor<4xf32>) -> (), sym_name = "f"}> ({
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %r = "linalg.generic"(%a, %b) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%x: f32, %y: i32):
      "linalg.yield"(%x) : (f32) -> ()
    }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xf32>, tensor<4xf32>) -> (), sym_name = "f"}> ({
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %r = "linalg.generic"(%a, %b) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%x: f32, %y: f32):
      "linalg.yield"(%x) : (f32) -> ()
    }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (f32) -> i32, sym_name = "f"}> ({
  ^bb0(%a: f32):
    "func.return"(%a) : (f32) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (f32) -> (), sym_name = "g"}> ({
  ^bb0(%a: f32):
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
  ^bb0(%a: i32):
    "func.call"(%a) <{callee = @g}> : (i32) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
  ^bb0(%a: i32):
    "cf.br"(%a)[^bb1] : (i32) -> ()
  ^bb1(%b: f32):
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> (), sym_name = "f", sym_visibility = "wrong"}> ({
  ^bb0(%a: i32):
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "llvm.func"() <{function_type = !llvm.func<i32 (i32)>, sym_name = "f", linkage = #llvm.linkage<external>, CConv = #llvm.cconv<ccc>, visibility_ = 0 : i64}> ({
  ^bb0(%a: i32):
    "llvm.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "llvm.func"() <{function_type = !llvm.func<i32 (i32)>, sym_name = "f", linkage = #llvm.linkage<external>, CConv = #llvm.cconv<ccc>, visibility_ = 0 : i64}> ({
  ^bb0(%a: i32, %b: i32):
    "llvm.return"(%a) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "llvm.func"() <{function_type = !llvm.func<void (i32)>, sym_name = "f", linkage = #llvm.linkage<external>, CConv = #llvm.cconv<ccc>, visibility_ = 0 : i64}> ({
  ^bb0(%a: i32):
    "llvm.return"(%a) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "llvm.func"() <{function_type = !llvm.func<i64 (i32)>, sym_name = "f", linkage = #llvm.linkage<external>, CConv = #llvm.cconv<ccc>, visibility_ = 0 : i64}> ({
  ^bb0(%a: i32):
    "llvm.return"(%a) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "llvm.func"() <{function_type = !llvm.func<void (!llvm.ptr)>, sym_name = "f", linkage = #llvm.linkage<external>, CConv = #llvm.cconv<ccc>, visibility_ = 0 : i64}> ({
  ^bb0(%a: i32):
    "llvm.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "llvm.func"() <{function_type = !llvm.func<void (i32)>, sym_name = "g", linkage = #llvm.linkage<external>, CConv = #llvm.cconv<ccc>, visibility_ = 0 : i64}> ({
  }) : () -> ()
  "llvm.func"() <{function_type = !llvm.func<void (i64)>, sym_name = "f", linkage = #llvm.linkage<external>, CConv = #llvm.cconv<ccc>, visibility_ = 0 : i64}> ({
  ^bb0(%a: i64):
    %r = "llvm.call"(%a) <{callee = @g, CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<none>, fastmathFlags = #llvm.fastmath<none>, operandSegmentSizes = array<i32: 1, 0>, op_bundle_sizes = array<i32>}> : (i64) -> i32
    "llvm.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (i32) -> i32, sym_name = "f"}> ({
  ^bb0(%a: i32):
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "pdl.pattern"() <{benefit = 1 : i16}> ({
    %0 = "pdl.operation"() <{attributeValueNames = [], opName = "foo.op", operandSegmentSizes = array<i32: 0, 0, 0>}> : () -> !pdl.operation
    %1 = "pdl.operation"() <{attributeValueNames = [], opName = "foo.op", operandSegmentSizes = array<i32: 0, 0, 0>}> : () -> !pdl.operation
    "pdl.rewrite"(%0, %1) <{name = "rewriter", operandSegmentSizes = array<i32: 1, 1>}> ({
    }) : (!pdl.operation, !pdl.operation) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "pdl.pattern"() <{benefit = 1 : i16}> ({
    %0 = "pdl.operation"() <{attributeValueNames = [], opName = "foo.op", operandSegmentSizes = array<i32: 0, 0, 0>}> : () -> !pdl.operation
    "pdl.rewrite"(%0) <{operandSegmentSizes = array<i32: 1, 0>}> ({
      %1 = "pdl.attribute"() : () -> !pdl.attribute
    }) : (!pdl.operation) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "pdl.pattern"() <{benefit = 1 : i16}> ({
    %0 = "pdl.operand"() : () -> !pdl.value
    %1 = "pdl.operation"(%0) <{attributeValueNames = [], opName = "foo.op", operandSegmentSizes = array<i32: 1, 0, 0>}> : (!pdl.value) -> !pdl.operation
    %2 = "pdl.result"(%1) <{index = 0 : i32}> : (!pdl.operation) -> !pdl.value
    %3 = "pdl.operation"(%2) <{attributeValueNames = [], opName = "foo.op", operandSegmentSizes = array<i32: 1, 0, 0>}> : (!pdl.value) -> !pdl.operation
    %4 = "pdl.operation"() <{attributeValueNames = [], opName = "foo.op", operandSegmentSizes = array<i32: 0, 0, 0>}> : () -> !pdl.operation
    "pdl.rewrite"(%3) <{operandSegmentSizes = array<i32: 1, 0>}> ({
      "pdl.erase"(%1) : (!pdl.operation) -> ()
      "pdl.replace"(%4, %3) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (!pdl.operation, !pdl.operation) -> ()
    }) : (!pdl.operation) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<i32>, memref<i32>) -> (), sym_name = "a"}> ({
  ^bb0(%arg0: memref<i32>, %arg1: memref<i32>):
    "acc.atomic.read"(%arg0, %arg0) <{element_type = i32}> : (memref<i32>, memref<i32>) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<i32>, f32) -> (), sym_name = "a"}> ({
  ^bb0(%arg0: memref<i32>, %arg1: f32):
    "acc.atomic.write"(%arg0, %arg1) : (memref<i32>, f32) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<i32>, i32) -> (), sym_name = "a"}> ({
  ^bb0(%arg0: memref<i32>, %arg1: i32):
    "acc.atomic.update"(%arg0) ({
    ^bb0(%arg2: i32, %arg3: i32):
      "acc.yield"(%arg2) : (i32) -> ()
    }) : (memref<i32>) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<i32>, i32) -> (), sym_name = "a"}> ({
  ^bb0(%arg0: memref<i32>, %arg1: i32):
    "acc.atomic.update"(%arg0) ({
    ^bb0(%arg2: f32):
      "acc.yield"(%arg2) : (f32) -> ()
    }) : (memref<i32>) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<i32>, i32) -> (), sym_name = "a"}> ({
  ^bb0(%arg0: memref<i32>, %arg1: i32):
    "acc.atomic.update"(%arg0) ({
    ^bb0(%arg2: i32):
      "acc.yield"(%arg2, %arg1) : (i32, i32) -> ()
    }) : (memref<i32>) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<i32>, f32) -> (), sym_name = "a"}> ({
  ^bb0(%arg0: memref<i32>, %arg1: f32):
    "acc.atomic.update"(%arg0) ({
    ^bb0(%arg2: i32):
      "acc.yield"(%arg1) : (f32) -> ()
    }) : (memref<i32>) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<i32>, memref<i32>, i32) -> (), sym_name = "a"}> ({
  ^bb0(%arg0: memref<i32>, %arg1: memref<i32>, %arg2: i32):
    "acc.atomic.capture"() ({
      "acc.atomic.read"(%arg0, %arg1) <{element_type = i32}> : (memref<i32>, memref<i32>) -> ()
      "acc.atomic.read"(%arg0, %arg1) <{element_type = i32}> : (memref<i32>, memref<i32>) -> ()
      "acc.terminator"() : () -> ()
    }) : () -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<i32>, memref<i32>, i32) -> (), sym_name = "a"}> ({
  ^bb0(%arg0: memref<i32>, %arg1: memref<i32>, %arg2: i32):
    "acc.atomic.capture"() ({
      "acc.atomic.read"(%arg0, %arg1) <{element_type = i32}> : (memref<i32>, memref<i32>) -> ()
      "acc.atomic.write"(%arg1, %arg2) : (memref<i32>, i32) -> ()
      "acc.terminator"() : () -> ()
    }) : () -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<i32>, memref<i32>, i32) -> (), sym_name = "a"}> ({
  ^bb0(%arg0: memref<i32>, %arg1: memref<i32>, %arg2: i32):
    "acc.atomic.capture"() ({
      "acc.atomic.read"(%arg0, %arg1) <{element_type = i32}> : (memref<i32>, memref<i32>) -> ()
      "acc.terminator"() : () -> ()
    }) : () -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<i32>, memref<i32>, i32) -> (), sym_name = "a"}> ({
  ^bb0(%arg0: memref<i32>, %arg1: memref<i32>, %arg2: i32):
    "omp.atomic.capture"() ({
      "omp.atomic.update"(%arg0) ({
      ^bb0(%arg3: i32):
        "omp.yield"(%arg3) : (i32) -> ()
      }) : (memref<i32>) -> ()
      "omp.atomic.read"(%arg1, %arg1) <{element_type = i32}> : (memref<i32>, memref<i32>) -> ()
      "omp.terminator"() : () -> ()
    }) : () -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "a"}> ({
    "acc.update"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>}> : () -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "a"}> ({
    "acc.enter_data"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0, 0>}> : () -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = () -> (), sym_name = "a"}> ({
    "acc.exit_data"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0, 0>}> : () -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
#map = affine_map<(d0, d1) -> (d0, d1)>
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> index, sym_name = "a"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "affine.min"(%arg0) <{map = #map}> : (index) -> index
    "func.return"(%0) : (index) -> ()
  }) : () -> ()
}) : () -> ()
// -----
#map = affine_map<(d0) -> (d0, d0)>
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> index, sym_name = "a"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "affine.apply"(%arg0) <{map = #map}> : (index) -> index
    "func.return"(%0) : (index) -> ()
  }) : () -> ()
}) : () -> ()
// -----
#map = affine_map<(d0) -> ()>
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> index, sym_name = "a"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "affine.max"(%arg0) <{map = #map}> : (index) -> index
    "func.return"(%0) : (index) -> ()
  }) : () -> ()
}) : () -> ()
// -----
#map = affine_map<() -> (0)>
#map1 = affine_map<() -> (10)>
"builtin.module"() ({
  "func.func"() <{function_type = (index, index) -> (), sym_name = "a"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "affine.for"(%arg0) <{lowerBoundMap = #map, operandSegmentSizes = array<i32: 0, 0, 1>, step = 1 : index, upperBoundMap = #map1}> ({
    ^bb0(%arg2: index, %arg3: index):
      "affine.yield"() : () -> ()
    }) : (index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
#map = affine_map<() -> (0)>
#map1 = affine_map<() -> (10)>
"builtin.module"() ({
  "func.func"() <{function_type = (index, f32) -> (), sym_name = "a"}> ({
  ^bb0(%arg0: index, %arg1: f32):
    %0 = "affine.for"(%arg0) <{lowerBoundMap = #map, operandSegmentSizes = array<i32: 0, 0, 1>, step = 1 : index, upperBoundMap = #map1}> ({
    ^bb0(%arg2: index, %arg3: index):
      "affine.yield"(%arg1) : (f32) -> ()
    }) : (index) -> index
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (index, f32) -> (), sym_name = "a"}> ({
  ^bb0(%arg0: index, %arg1: f32):
    "scf.execute_region"() ({
      "affine.yield"() : () -> ()
    }) : () -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (!async.value<f32>) -> (), sym_name = "a"}> ({
  ^bb0(%arg0: !async.value<f32>):
    %0:2 = "async.execute"(%arg0) <{operandSegmentSizes = array<i32: 0, 1>}> ({
    ^bb0(%arg1: f32):
      %1 = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32
      "async.yield"(%1) : (f32) -> ()
    }) : (!async.value<f32>) -> (!async.token, !async.value<i32>)
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (!async.value<f32>) -> (), sym_name = "a"}> ({
  ^bb0(%arg0: !async.value<f32>):
    %0:2 = "async.execute"(%arg0) <{operandSegmentSizes = array<i32: 0, 1>}> ({
    ^bb0(%arg1: i32):
      %1 = "arith.constant"() <{value = 1 : i32}> : () -> i32
      "async.yield"(%1) : (i32) -> ()
    }) : (!async.value<f32>) -> (!async.token, !async.value<i32>)
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>, sym_name = "a"}> ({
  ^bb0(%arg0: tensor<64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64xf32>):
    %0 = "linalg.map"(%arg0, %arg1, %arg2) ({
    ^bb0(%arg3: f32, %arg4: f32):
      "linalg.yield"(%arg3) : (f32) -> ()
    }) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    "func.return"(%0) : (tensor<64xf32>) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>, sym_name = "a"}> ({
  ^bb0(%arg0: tensor<64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64xf32>):
    %0 = "linalg.map"(%arg0, %arg1, %arg2) ({
    ^bb0(%arg3: f32, %arg4: f64, %arg5: f32):
      "linalg.yield"(%arg3) : (f32) -> ()
    }) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    "func.return"(%0) : (tensor<64xf32>) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<64xf32>, tensor<32xf32>, tensor<64xf32>) -> tensor<64xf32>, sym_name = "a"}> ({
  ^bb0(%arg0: tensor<64xf32>, %arg1: tensor<32xf32>, %arg2: tensor<64xf32>):
    %0 = "linalg.map"(%arg0, %arg1, %arg2) ({
    ^bb0(%arg3: f32, %arg4: f32, %arg5: f32):
      "linalg.yield"(%arg3) : (f32) -> ()
    }) : (tensor<64xf32>, tensor<32xf32>, tensor<64xf32>) -> tensor<64xf32>
    "func.return"(%0) : (tensor<64xf32>) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>, sym_name = "a"}> ({
  ^bb0(%arg0: tensor<64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64xf32>):
    %0 = "linalg.map"(%arg0, %arg1, %arg2) ({
    ^bb0(%arg3: f32, %arg4: f32, %arg5: f64):
      "linalg.yield"(%arg3) : (f32) -> ()
    }) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    "func.return"(%0) : (tensor<64xf32>) -> ()
  }) : () -> ()
}) : () -> ()
// -----
#map = affine_map<(d0, d1) -> (d1)>
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4x4xf32>, index, f32) -> vector<4xf32>, sym_name = "a"}> ({
  ^bb0(%arg0: memref<4x4xf32>, %arg1: index, %arg2: f32):
    %0 = "vector.transfer_read"(%arg0, %arg1, %arg2) <{in_bounds = [false], operandSegmentSizes = array<i32: 1, 1, 1, 0>, permutation_map = #map}> : (memref<4x4xf32>, index, f32) -> vector<4xf32>
    "func.return"(%0) : (vector<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
// -----
#map = affine_map<(d0, d1) -> (d1)>
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4x4xf32>, index, vector<4xf32>) -> (), sym_name = "a"}> ({
  ^bb0(%arg0: memref<4x4xf32>, %arg1: index, %arg2: vector<4xf32>):
    "vector.transfer_write"(%arg2, %arg0, %arg1) <{in_bounds = [false], operandSegmentSizes = array<i32: 1, 1, 1, 0>, permutation_map = #map}> : (vector<4xf32>, memref<4x4xf32>, index) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4x4xf32>, index, vector<4xi1>, vector<4xf32>) -> vector<4xf32>, sym_name = "a"}> ({
  ^bb0(%arg0: memref<4x4xf32>, %arg1: index, %arg2: vector<4xi1>, %arg3: vector<4xf32>):
    %0 = "vector.maskedload"(%arg0, %arg1, %arg2, %arg3) : (memref<4x4xf32>, index, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
    "func.return"(%0) : (vector<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4x4xi32>, index, vector<4xi1>, vector<4xf32>) -> vector<4xf32>, sym_name = "a"}> ({
  ^bb0(%arg0: memref<4x4xi32>, %arg1: index, %arg2: vector<4xi1>, %arg3: vector<4xf32>):
    %0 = "vector.maskedload"(%arg0, %arg1, %arg1, %arg2, %arg3) : (memref<4x4xi32>, index, index, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
    "func.return"(%0) : (vector<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4x4xf32>, index, vector<4xi1>, vector<4xf32>) -> (), sym_name = "a"}> ({
  ^bb0(%arg0: memref<4x4xf32>, %arg1: index, %arg2: vector<4xi1>, %arg3: vector<4xf32>):
    "vector.maskedstore"(%arg0, %arg1, %arg2, %arg3) : (memref<4x4xf32>, index, vector<4xi1>, vector<4xf32>) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4x4xi32>, index, vector<4xi1>, vector<4xf32>) -> (), sym_name = "a"}> ({
  ^bb0(%arg0: memref<4x4xi32>, %arg1: index, %arg2: vector<4xi1>, %arg3: vector<4xf32>):
    "vector.maskedstore"(%arg0, %arg1, %arg1, %arg2, %arg3) : (memref<4x4xi32>, index, index, vector<4xi1>, vector<4xf32>) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4x4xf32>, index, vector<4xi1>, vector<4xf32>) -> vector<4xf32>, sym_name = "a"}> ({
  ^bb0(%arg0: memref<4x4xf32>, %arg1: index, %arg2: vector<4xi1>, %arg3: vector<4xf32>):
    %0 = "vector.expandload"(%arg0, %arg1, %arg2, %arg3) : (memref<4x4xf32>, index, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
    "func.return"(%0) : (vector<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4x4xf32>, index, vector<4xi1>, vector<4xf32>) -> (), sym_name = "a"}> ({
  ^bb0(%arg0: memref<4x4xf32>, %arg1: index, %arg2: vector<4xi1>, %arg3: vector<4xf32>):
    "vector.compressstore"(%arg0, %arg1, %arg2, %arg3) : (memref<4x4xf32>, index, vector<4xi1>, vector<4xf32>) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4x4xi32>, index, vector<4xi1>, vector<4xf32>) -> vector<4xf32>, sym_name = "a"}> ({
  ^bb0(%arg0: memref<4x4xi32>, %arg1: index, %arg2: vector<4xi1>, %arg3: vector<4xf32>):
    %0 = "vector.expandload"(%arg0, %arg1, %arg1, %arg2, %arg3) : (memref<4x4xi32>, index, index, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
    "func.return"(%0) : (vector<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4x4xi32>, index, vector<4xi1>, vector<4xf32>) -> (), sym_name = "a"}> ({
  ^bb0(%arg0: memref<4x4xi32>, %arg1: index, %arg2: vector<4xi1>, %arg3: vector<4xf32>):
    "vector.compressstore"(%arg0, %arg1, %arg1, %arg2, %arg3) : (memref<4x4xi32>, index, index, vector<4xi1>, vector<4xf32>) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4xf32>, sym_name = "a"}> ({
  ^bb0(%arg0: tensor<4x8xf32>, %arg1: tensor<4xf32>):
    %0 = "linalg.generic"(%arg0, %arg1) <{indexing_maps = [#map, #map1], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg2: f32, %arg3: f32):
      "linalg.yield"(%arg2) : (f32) -> ()
    }) : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
// -----
#map = affine_map<(d0, d1) -> (d0 * 2 + d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<10xf32>, tensor<4xf32>) -> tensor<4xf32>, sym_name = "a"}> ({
  ^bb0(%arg0: tensor<10xf32>, %arg1: tensor<4xf32>):
    %0 = "linalg.generic"(%arg0, %arg1) <{indexing_maps = [#map, #map1], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg2: f32, %arg3: f32):
      "linalg.yield"(%arg2) : (f32) -> ()
    }) : (tensor<10xf32>, tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
// -----
#map = affine_map<(d0, d1) -> (d0 * 2 + d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1) -> (d0)>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xf32>, tensor<3xf32>, tensor<4xf32>) -> tensor<4xf32>, sym_name = "a"}> ({
  ^bb0(%arg0: tensor<4xf32>, %arg1: tensor<3xf32>, %arg2: tensor<4xf32>):
    %0 = "linalg.generic"(%arg0, %arg1, %arg2) <{indexing_maps = [#map, #map1, #map2], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg3: f32, %arg4: f32, %arg5: f32):
      "linalg.yield"(%arg3) : (f32) -> ()
    }) : (tensor<4xf32>, tensor<3xf32>, tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
// -----
#map = affine_map<(d0) -> (d0 - 1)>
#map1 = affine_map<(d0) -> (d0)>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>, sym_name = "a"}> ({
  ^bb0(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>):
    %0 = "linalg.generic"(%arg0, %arg1) <{indexing_maps = [#map, #map1], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg2: f32, %arg3: f32):
      "linalg.yield"(%arg2) : (f32) -> ()
    }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "transform.sequence"() <{failure_propagation_mode = 1 : i32, operandSegmentSizes = array<i32: 0, 0>}> ({
  ^bb0(%root: !transform.any_op):
    "transform.foreach"() ({
    ^bb1(%op: !transform.any_op):
      "transform.yield"() : () -> ()
    }) : () -> ()
    "transform.yield"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "transform.sequence"() <{failure_propagation_mode = 1 : i32, operandSegmentSizes = array<i32: 0, 0>}> ({
  ^bb0(%root: !transform.any_op):
    "transform.sequence"() <{failure_propagation_mode = 1 : i32, operandSegmentSizes = array<i32: 0, 0>}> ({
    ^bb1(%inner: !transform.any_op):
      "transform.yield"() : () -> ()
    }) : () -> ()
    "transform.yield"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "transform.sequence"() <{failure_propagation_mode = 1 : i32, operandSegmentSizes = array<i32: 0, 0>}> ({
  ^bb0(%root: !transform.any_op, %extra: i64):
    "transform.yield"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "wasmssa.func"() <{functionType = () -> i32, sym_name = "f"}> ({
  ^bb0(%a: !wasmssa<local ref to i32>):
    %0 = "wasmssa.const"() <{value = 3 : i32}> : () -> i32
    "wasmssa.return"(%0) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2x16xf32>) -> tensor<2x16x1xf32>, sym_name = "f"}> ({
  ^bb0(%a: tensor<2x16xf32>):
    %0 = "tensor.expand_shape"(%a) <{reassociation = [], static_output_shape = array<i64: 2, 16, 1>}> : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    "func.return"(%0) : (tensor<2x16x1xf32>) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<?x?xf32>, memref<?xf32>, memref<?xf32>) -> (), sym_name = "f"}> ({
  ^bb0(%m: memref<?x?xf32>, %v: memref<?xf32>, %o: memref<?xf32>):
    "linalg.matvec"(%v, %m, %o) <{operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%x: f32, %y: f32, %z: f32):
      %p = "arith.mulf"(%x, %y) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
      %s = "arith.addf"(%z, %p) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
      "linalg.yield"(%s) : (f32) -> ()
    }) : (memref<?xf32>, memref<?x?xf32>, memref<?xf32>) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4xf32>, index) -> i32, sym_name = "f"}> ({
  ^bb0(%m: memref<4xf32>, %i: index):
    %0 = "affine.load"(%m, %i) <{map = affine_map<(d0) -> (d0)>}> : (memref<4xf32>, index) -> i32
    "func.return"(%0) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void ()>, linkage = #llvm.linkage<external>, sym_name = "f", visibility_ = 0 : i64}> ({
    %0 = "nvvm.read.ptx.sreg.ntid.y"() : () -> index
    "llvm.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (i32)>, linkage = #llvm.linkage<external>, sym_name = "f", visibility_ = 0 : i64}> ({
  ^bb0(%n: i32):
    "nvvm.barrier"(%n) <{operandSegmentSizes = array<i32: 0, 1, 0>}> : (i32) -> ()
    "llvm.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
// -----
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4xf32, #gpu.address_space<global>>) -> f32, sym_name = "f"}> ({
  ^bb0(%m: memref<4xf32, #gpu.address_space<global>>):
    %0 = "amdgpu.raw_buffer_load"(%m) <{boundsCheck = true, operandSegmentSizes = array<i32: 1, 0, 0>}> : (memref<4xf32, #gpu.address_space<global>>) -> f32
    "func.return"(%0) : (f32) -> ()
  }) : () -> ()
}) : () -> ()
