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
