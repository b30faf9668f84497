// expect: 172:19 use of undefined SSA value %arg50
// like: upstream/Dialect__GPU__ops.mlirbc
// mlirbc: {"producer": "MLIR22.1.8", "version": 6}
"builtin.module"() ({
  "func.func"() <{function_type = (index) -> (), sym_name = "no_args"}> ({
  ^bb0(%arg50: index loc("Dialect__GPU__ops.mlir":3:22)):
    "gpu.launch"(%arg50, %arg50, %arg50, %arg50, %arg50, %arg50) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}> ({
    ^bb0(%arg51: index loc("Dialect__GPU__ops.mlir":4:23), %arg52: index loc("Dialect__GPU__ops.mlir":4:28), %arg53: index loc("Dialect__GPU__ops.mlir":4:33), %arg54: index loc("Dialect__GPU__ops.mlir":5:24), %arg55: index loc("Dialect__GPU__ops.mlir":5:29), %arg56: index loc("Dialect__GPU__ops.mlir":5:34), %arg57: index loc("Dialect__GPU__ops.mlir":4:42), %arg58: index loc("Dialect__GPU__ops.mlir":4:57), %arg59: index loc("Dialect__GPU__ops.mlir":4:72), %arg60: index loc("Dialect__GPU__ops.mlir":5:43), %arg61: index loc("Dialect__GPU__ops.mlir":5:59), %arg62: index loc("Dialect__GPU__ops.mlir":5:75)):
      "gpu.terminator"() : () -> () loc("Dialect__GPU__ops.mlir":6:7)
    }) {workgroup_attributions = 0 : i64} : (index, index, index, index, index, index) -> () loc("Dialect__GPU__ops.mlir":4:5)
    "func.return"() : () -> () loc("Dialect__GPU__ops.mlir":8:5)
  }) : () -> () loc("Dialect__GPU__ops.mlir":3:3)
  "func.func"() <{function_type = (index, index, f32, memref<?xf32, 1>) -> (), sym_name = "args"}> ({
  ^bb0(%arg34: index loc("Dialect__GPU__ops.mlir":11:19), %arg35: index loc("Dialect__GPU__ops.mlir":11:33), %arg36: f32 loc("Dialect__GPU__ops.mlir":11:48), %arg37: memref<?xf32, 1> loc("Dialect__GPU__ops.mlir":11:62)):
    "gpu.launch"(%arg34, %arg34, %arg34, %arg35, %arg35, %arg35) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}> ({
    ^bb0(%arg38: index loc("Dialect__GPU__ops.mlir":12:23), %arg39: index loc("Dialect__GPU__ops.mlir":12:28), %arg40: index loc("Dialect__GPU__ops.mlir":12:33), %arg41: index loc("Dialect__GPU__ops.mlir":13:24), %arg42: index loc("Dialect__GPU__ops.mlir":13:29), %arg43: index loc("Dialect__GPU__ops.mlir":13:34), %arg44: index loc("Dialect__GPU__ops.mlir":12:42), %arg45: index loc("Dialect__GPU__ops.mlir":12:58), %arg46: index loc("Dialect__GPU__ops.mlir":12:74), %arg47: index loc("Dialect__GPU__ops.mlir":13:43), %arg48: index loc("Dialect__GPU__ops.mlir":13:61), %arg49: index loc("Dialect__GPU__ops.mlir":13:79)):
      "use"(%arg36) : (f32) -> () loc("Dialect__GPU__ops.mlir":14:7)
      "use"(%arg37) : (memref<?xf32, 1>) -> () loc("Dialect__GPU__ops.mlir":15:7)
      "gpu.terminator"() : () -> () loc("Dialect__GPU__ops.mlir":16:7)
    }) {workgroup_attributions = 0 : i64} : (index, index, index, index, index, index) -> () loc("Dialect__GPU__ops.mlir":12:5)
    "func.return"() : () -> () loc("Dialect__GPU__ops.mlir":18:5)
  }) : () -> () loc("Dialect__GPU__ops.mlir":11:3)
  "func.func"() <{function_type = (index, index) -> (), sym_name = "launch_async"}> ({
  ^bb0(%arg20: index loc("Dialect__GPU__ops.mlir":21:27), %arg21: index loc("Dialect__GPU__ops.mlir":21:41)):
    %52 = "gpu.wait"() : () -> !gpu.async.token loc("Dialect__GPU__ops.mlir":22:10)
    %53 = "gpu.launch"(%52, %arg20, %arg20, %arg20, %arg21, %arg21, %arg21) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}> ({
    ^bb0(%arg22: index loc("Dialect__GPU__ops.mlir":23:42), %arg23: index loc("Dialect__GPU__ops.mlir":23:49), %arg24: index loc("Dialect__GPU__ops.mlir":23:56), %arg25: index loc("Dialect__GPU__ops.mlir":24:24), %arg26: index loc("Dialect__GPU__ops.mlir":24:31), %arg27: index loc("Dialect__GPU__ops.mlir":24:38), %arg28: index loc("Dialect__GPU__ops.mlir":23:67), %arg29: index loc("Dialect__GPU__ops.mlir":23:83), %arg30: index loc("Dialect__GPU__ops.mlir":23:99), %arg31: index loc("Dialect__GPU__ops.mlir":24:49), %arg32: index loc("Dialect__GPU__ops.mlir":24:67), %arg33: index loc("Dialect__GPU__ops.mlir":24:85)):
      "gpu.terminator"() : () -> () loc("Dialect__GPU__ops.mlir":25:7)
    }) {workgroup_attributions = 0 : i64} : (!gpu.async.token, index, index, index, index, index, index) -> !gpu.async.token loc("Dialect__GPU__ops.mlir":23:13)
    "func.return"() : () -> () loc("Dialect__GPU__ops.mlir":27:5)
  }) : () -> () loc("Dialect__GPU__ops.mlir":21:3)
  "gpu.module"() <{sym_name = "kernels"}> ({
    "gpu.func"() <{function_type = (f32, memref<?xf32, 1>) -> ()}> ({
    ^bb0(%arg16: f32 loc("Dialect__GPU__ops.mlir":31:24), %arg17: memref<?xf32, 1> loc("Dialect__GPU__ops.mlir":31:37)):
      %18 = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index loc("Dialect__GPU__ops.mlir":32:15)
      %19 = "gpu.thread_id"() <{dimension = #gpu<dim y>}> : () -> index loc("Dialect__GPU__ops.mlir":33:15)
      %20 = "gpu.thread_id"() <{dimension = #gpu<dim z>}> : () -> index loc("Dialect__GPU__ops.mlir":34:15)
      %21 = "gpu.block_dim"() <{dimension = #gpu<dim x>}> : () -> index loc("Dialect__GPU__ops.mlir":36:16)
      %22 = "gpu.block_dim"() <{dimension = #gpu<dim y>}> : () -> index loc("Dialect__GPU__ops.mlir":37:16)
      %23 = "gpu.block_dim"() <{dimension = #gpu<dim z>}> : () -> index loc("Dialect__GPU__ops.mlir":38:16)
      %24 = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index loc("Dialect__GPU__ops.mlir":40:15)
      %25 = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index loc("Dialect__GPU__ops.mlir":41:15)
      %26 = "gpu.block_id"() <{dimension = #gpu<dim z>}> : () -> index loc("Dialect__GPU__ops.mlir":42:15)
      %27 = "gpu.grid_dim"() <{dimension = #gpu<dim x>}> : () -> index loc("Dialect__GPU__ops.mlir":44:16)
      %28 = "gpu.grid_dim"() <{dimension = #gpu<dim y>}> : () -> index loc("Dialect__GPU__ops.mlir":45:16)
      %29 = "gpu.grid_dim"() <{dimension = #gpu<dim z>}> : () -> index loc("Dialect__GPU__ops.mlir":46:16)
      %30 = "gpu.global_id"() <{dimension = #gpu<dim x>}> : () -> index loc("Dialect__GPU__ops.mlir":48:15)
      %31 = "gpu.global_id"() <{dimension = #gpu<dim y>}> : () -> index loc("Dialect__GPU__ops.mlir":49:15)
      %32 = "gpu.global_id"() <{dimension = #gpu<dim z>}> : () -> index loc("Dialect__GPU__ops.mlir":50:15)
      %33 = "gpu.subgroup_id"() : () -> index loc("Dialect__GPU__ops.mlir":52:15)
      %34 = "gpu.num_subgroups"() : () -> index loc("Dialect__GPU__ops.mlir":53:16)
      %35 = "gpu.subgroup_size"() : () -> index loc("Dialect__GPU__ops.mlir":54:15)
      %36 = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32 loc("Dialect__GPU__ops.mlir":56:14)
      %37 = "vector.broadcast"(%arg16) : (f32) -> vector<4xf32> loc("Dialect__GPU__ops.mlir":58:14)
      %38 = "gpu.all_reduce"(%36) <{op = #gpu<all_reduce_op add>}> ({
      }) : (f32) -> f32 loc("Dialect__GPU__ops.mlir":60:14)
      %39 = "gpu.all_reduce"(%36) <{op = #gpu<all_reduce_op add>, uniform}> ({
      }) : (f32) -> f32 loc("Dialect__GPU__ops.mlir":62:15)
      %40 = "gpu.all_reduce"(%36) ({
      ^bb0(%arg18: f32 loc("Dialect__GPU__ops.mlir":65:11), %arg19: f32 loc("Dialect__GPU__ops.mlir":65:23)):
        %51 = "arith.addf"(%arg18, %arg19) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc("Dialect__GPU__ops.mlir":66:16)
        "gpu.yield"(%51) : (f32) -> () loc("Dialect__GPU__ops.mlir":67:9)
      }) : (f32) -> f32 loc("Dialect__GPU__ops.mlir":64:15)
      %41 = "gpu.subgroup_reduce"(%36) <{cluster_stride = 1 : i32, op = #gpu<all_reduce_op add>}> : (f32) -> f32 loc("Dialect__GPU__ops.mlir":70:23)
      %42 = "gpu.subgroup_reduce"(%36) <{cluster_stride = 1 : i32, op = #gpu<all_reduce_op add>, uniform}> : (f32) -> f32 loc("Dialect__GPU__ops.mlir":72:24)
      %43 = "gpu.subgroup_reduce"(%37) <{cluster_stride = 1 : i32, op = #gpu<all_reduce_op add>}> : (vector<4xf32>) -> vector<4xf32> loc("Dialect__GPU__ops.mlir":74:24)
      %44 = "arith.constant"() <{value = 7 : i32}> : () -> i32 loc("Dialect__GPU__ops.mlir":76:16)
      %45 = "arith.constant"() <{value = 3 : i32}> : () -> i32 loc("Dialect__GPU__ops.mlir":77:17)
      %46:2 = "gpu.shuffle"(%arg16, %45, %44) <{mode = #gpu<shuffle_mode xor>}> : (f32, i32, i32) -> (f32, i1) loc("Dialect__GPU__ops.mlir":78:22)
      %47:2 = "gpu.shuffle"(%arg16, %45, %44) <{mode = #gpu<shuffle_mode up>}> : (f32, i32, i32) -> (f32, i1) loc("Dialect__GPU__ops.mlir":79:24)
      %48:2 = "gpu.shuffle"(%arg16, %45, %44) <{mode = #gpu<shuffle_mode down>}> : (f32, i32, i32) -> (f32, i1) loc("Dialect__GPU__ops.mlir":80:24)
      %49:2 = "gpu.shuffle"(%arg16, %45, %44) <{mode = #gpu<shuffle_mode idx>}> : (f32, i32, i32) -> (f32, i1) loc("Dialect__GPU__ops.mlir":81:24)
      "gpu.barrier"() : () -> () loc("Dialect__GPU__ops.mlir":83:7)
      "some_op"(%24, %18) : (index, index) -> () loc("Dialect__GPU__ops.mlir":85:7)
      %50 = "memref.load"(%arg17, %24) : (memref<?xf32, 1>, index) -> f32 loc("Dialect__GPU__ops.mlir":86:13)
      "gpu.return"() : () -> () loc("Dialect__GPU__ops.mlir":87:7)
    }) {gpu.kernel, sym_name = "kernel_1", workgroup_attributions = 0 : i64} : () -> () loc("Dialect__GPU__ops.mlir":31:5)
    "gpu.func"() <{function_type = () -> ()}> ({
      "gpu.return"() : () -> () loc("Dialect__GPU__ops.mlir":91:7)
    }) {gpu.kernel, sym_name = "kernel_2", workgroup_attributions = 0 : i64} : () -> () loc("Dialect__GPU__ops.mlir":90:5)
  }) : () -> () loc("Dialect__GPU__ops.mlir":30:3)
  "gpu.binary"() <{objects = [#gpu.object<#nvvm.target, "">], offloadingHandler = #gpu.select_object, sym_name = "binary_1"}> : () -> () loc("Dialect__GPU__ops.mlir":95:3)
  "gpu.binary"() <{objects = [#gpu.object<#nvvm.target, "">, #gpu.object<#nvvm.target<chip = "sm_90">, "">], offloadingHandler = #gpu.select_object<#nvvm.target<chip = "sm_90">>, sym_name = "binary_2"}> : () -> () loc("Dialect__GPU__ops.mlir":97:3)
  "gpu.binary"() <{objects = [#gpu.object<#nvvm.target, "">, #gpu.object<#nvvm.target<chip = "sm_90">, "">], offloadingHandler = #gpu.select_object<1 : i64>, sym_name = "binary_3"}> : () -> () loc("Dialect__GPU__ops.mlir":99:3)
  "gpu.binary"() <{objects = [#gpu.object<#nvvm.target, bin = "">, #gpu.object<#nvvm.target, assembly = "">, #gpu.object<#nvvm.target, offload = "">, #gpu.object<#nvvm.target, properties = {O = 3 : i32}, offload = "">], offloadingHandler = #gpu.select_object, sym_name = "binary_4"}> : () -> () loc("Dialect__GPU__ops.mlir":101:3)
  "gpu.binary"() <{objects = [#gpu.object<#nvvm.target, properties = {O = 3 : i32}, "">], offloadingHandler = #gpu.select_object, sym_name = "binary_5"}> : () -> () loc("Dialect__GPU__ops.mlir":107:3)
  "func.func"() <{function_type = () -> (f32, memref<?xf32, 1>), sym_name = "two_value_generator", sym_visibility = "private"}> ({
  }) : () -> () loc("Dialect__GPU__ops.mlir":109:3)
  "func.func"() <{function_type = () -> (), sym_name = "foo"}> ({
    %9 = "op"() : () -> f32 loc("Dialect__GPU__ops.mlir":112:10)
    %10 = "op"() : () -> memref<?xf32, 1> loc("Dialect__GPU__ops.mlir":113:10)
    %11 = "arith.constant"() <{value = 8 : index}> : () -> index loc("Dialect__GPU__ops.mlir":114:12)
    %12 = "arith.constant"() <{value = 8 : i64}> : () -> i64 loc("Dialect__GPU__ops.mlir":115:15)
    %13 = "arith.constant"() <{value = 0 : i32}> : () -> i32 loc("Dialect__GPU__ops.mlir":116:11)
    %14 = "gpu.wait"() : () -> !gpu.async.token loc("Dialect__GPU__ops.mlir":117:11)
    %15 = "llvm.mlir.zero"() : () -> !llvm.ptr loc("Dialect__GPU__ops.mlir":118:18)
    "gpu.launch_func"(%11, %11, %11, %11, %11, %11, %9, %10) <{kernel = @kernels::@kernel_1, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2, 0>}> : (index, index, index, index, index, index, f32, memref<?xf32, 1>) -> () loc("Dialect__GPU__ops.mlir":120:5)
    "gpu.launch_func"(%11, %11, %11, %11, %11, %11, %11, %11, %11, %9, %10) <{kernel = @kernels::@kernel_1, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 2, 0>}> : (index, index, index, index, index, index, index, index, index, f32, memref<?xf32, 1>) -> () loc("Dialect__GPU__ops.mlir":122:5)
    "gpu.launch_func"(%11, %11, %11, %11, %11, %11, %13, %9, %10) <{kernel = @kernels::@kernel_1, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 2, 0>}> : (index, index, index, index, index, index, i32, f32, memref<?xf32, 1>) -> () loc("Dialect__GPU__ops.mlir":124:5)
    "gpu.launch_func"(%11, %11, %11, %11, %11, %11) <{kernel = @kernels::@kernel_2, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (index, index, index, index, index, index) -> () loc("Dialect__GPU__ops.mlir":126:5)
    %16 = "gpu.launch_func"(%14, %11, %11, %11, %11, %11, %11) <{kernel = @kernels::@kernel_2, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (!gpu.async.token, index, index, index, index, index, index) -> !gpu.async.token loc("Dialect__GPU__ops.mlir":128:11)
    "gpu.launch_func"(%12, %12, %12, %12, %12, %12, %9, %10, %15) <{kernel = @kernels::@kernel_1, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2, 1>}> : (i64, i64, i64, i64, i64, i64, f32, memref<?xf32, 1>, !llvm.ptr) -> () loc("Dialect__GPU__ops.mlir":130:5)
    "gpu.launch_func"(%13, %13, %13, %13, %13, %13, %9, %10) <{kernel = @kernels::@kernel_1, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2, 0>}> : (i32, i32, i32, i32, i32, i32, f32, memref<?xf32, 1>) -> () loc("Dialect__GPU__ops.mlir":132:5)
    "gpu.launch_func"(%13, %13, %13, %13, %13, %13, %9, %10) <{kernel = @binary_1::@kernel, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2, 0>}> : (i32, i32, i32, i32, i32, i32, f32, memref<?xf32, 1>) -> () loc("Dialect__GPU__ops.mlir":134:5)
    %17:2 = "func.call"() <{callee = @two_value_generator}> : () -> (f32, memref<?xf32, 1>) loc("Dialect__GPU__ops.mlir":136:17)
    "gpu.launch_func"(%11, %11, %11, %11, %11, %11, %17#0, %17#1) <{kernel = @kernels::@kernel_1, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2, 0>}> : (index, index, index, index, index, index, f32, memref<?xf32, 1>) -> () loc("Dialect__GPU__ops.mlir":137:5)
    "func.return"() : () -> () loc("Dialect__GPU__ops.mlir":139:5)
  }) : () -> () loc("Dialect__GPU__ops.mlir":111:3)
  "gpu.module"() <{sym_name = "gpu_funcs"}> ({
    "gpu.func"() <{function_type = (f32) -> ()}> ({
    ^bb0(%arg12: f32 loc("Dialect__GPU__ops.mlir":143:24), %arg13: memref<42xf32, 3> loc("Dialect__GPU__ops.mlir":144:19), %arg14: memref<2xf32, 5> loc("Dialect__GPU__ops.mlir":145:17), %arg15: memref<1xf32, 5> loc("Dialect__GPU__ops.mlir":145:42)):
      "use"(%arg13) : (memref<42xf32, 3>) -> () loc("Dialect__GPU__ops.mlir":148:7)
      "use"(%arg14) : (memref<2xf32, 5>) -> () loc("Dialect__GPU__ops.mlir":149:7)
      "use"(%arg15) : (memref<1xf32, 5>) -> () loc("Dialect__GPU__ops.mlir":150:7)
      "gpu.return"() : () -> () loc("Dialect__GPU__ops.mlir":151:7)
    }) {foo = "bar", gpu.kernel, sym_name = "kernel_1", workgroup_attributions = 1 : i64} : () -> () loc("Dialect__GPU__ops.mlir":143:5)
    "gpu.func"() <{function_type = (i32) -> ()}> ({
    ^bb0(%arg11: i32 loc("Dialect__GPU__ops.mlir":154:27)):
      "gpu.printf"(%arg11) <{format = "Value: %d"}> : (i32) -> () loc("Dialect__GPU__ops.mlir":155:7)
      "gpu.return"() : () -> () loc("Dialect__GPU__ops.mlir":156:7)
    }) {sym_name = "printf_test", workgroup_attributions = 0 : i64} : () -> () loc("Dialect__GPU__ops.mlir":154:5)
    "gpu.func"() <{function_type = (i32) -> ()}> ({
    ^bb0(%arg10: i32 loc("Dialect__GPU__ops.mlir":159:28)):
      "gpu.printf"() <{format = "]"}> : () -> () loc("Dialect__GPU__ops.mlir":160:7)
      %8 = "arith.cmpi"(%arg10, %arg10) <{predicate = 2 : i64}> : (i32, i32) -> i1 loc("Dialect__GPU__ops.mlir":161:12)
      "scf.if"(%8) ({
        "gpu.printf"() <{format = ", "}> : () -> () loc("Dialect__GPU__ops.mlir":163:9)
        "scf.yield"() : () -> () loc("Dialect__GPU__ops.mlir":162:7)
      }, {
      }) : (i1) -> () loc("Dialect__GPU__ops.mlir":162:7)
      "gpu.return"() : () -> () loc("Dialect__GPU__ops.mlir":165:7)
    }) {sym_name = "printf_empty", workgroup_attributions = 0 : i64} : () -> () loc("Dialect__GPU__ops.mlir":159:5)
    "gpu.func"() <{function_type = (f32) -> ()}> ({
    ^bb0(%arg9: f32 loc("Dialect__GPU__ops.mlir":168:30)):
      "gpu.return"() : () -> () loc("Dialect__GPU__ops.mlir":169:7)
    }) {sym_name = "no_attribution", workgroup_attributions = 0 : i64} : () -> () loc("Dialect__GPU__ops.mlir":168:5)
    "gpu.func"() <{function_type = (f32) -> ()}> ({
    ^bb0(%arg8: f32 loc("Dialect__GPU__ops.mlir":172:36)):
      "gpu.return"() : () -> () loc("Dialect__GPU__ops.mlir":173:7)
    }) {foo = "bar", sym_name = "no_attribution_attrs", workgroup_attributions = 0 : i64} : () -> () loc("Dialect__GPU__ops.mlir":172:5)
    "gpu.func"() <{function_type = () -> ()}> ({
    ^bb0(%arg7: memref<42xf32, 3> loc("Dialect__GPU__ops.mlir":176:42)):
      "gpu.return"() : () -> () loc("Dialect__GPU__ops.mlir":177:7)
    }) {sym_name = "workgroup_only", workgroup_attributions = 1 : i64} : () -> () loc("Dialect__GPU__ops.mlir":176:5)
    "gpu.func"() <{function_type = () -> ()}> ({
    ^bb0(%arg6: memref<2xf32, 5> loc("Dialect__GPU__ops.mlir":179:38)):
      "gpu.return"() : () -> () loc("Dialect__GPU__ops.mlir":180:7)
    }) {sym_name = "private_only", workgroup_attributions = 0 : i64} : () -> () loc("Dialect__GPU__ops.mlir":179:5)
    "gpu.func"() <{function_type = (f32) -> ()}> ({
    ^bb0(%arg5: f32 loc("Dialect__GPU__ops.mlir":183:33)):
      "gpu.return"() : () -> () loc("Dialect__GPU__ops.mlir":184:7)
    }) {sym_name = "empty_attribution", workgroup_attributions = 0 : i64} : () -> () loc("Dialect__GPU__ops.mlir":183:5)
  }) : () -> () loc("Dialect__GPU__ops.mlir":142:3)
  "gpu.module"() <{sym_name = "explicit_attributions"}> ({
    "gpu.func"() <{function_type = (f32, memref<?xf32>) -> ()}> ({
    ^bb0(%arg1: f32 loc("Dialect__GPU__ops.mlir":190:10), %arg2: memref<?xf32> loc("Dialect__GPU__ops.mlir":190:22), %arg3: memref<5xf32, 3> loc("Dialect__GPU__ops.mlir":190:44), %arg4: memref<5xf32, 5> loc("Dialect__GPU__ops.mlir":190:69)):
      "gpu.return"() : () -> () loc("Dialect__GPU__ops.mlir":191:7)
    }) {gpu.kernel, sym_name = "kernel_1", workgroup_attributions = 1 : i64} : () -> () loc("Dialect__GPU__ops.mlir":189:5)
  }) : () -> () loc("Dialect__GPU__ops.mlir":188:3)
  "func.func"() <{function_type = () -> (), sym_name = "alloc"}> ({
    %3 = "gpu.alloc"() <{operandSegmentSizes = array<i32: 0, 0, 0>}> : () -> memref<13xf32, 1> loc("Dialect__GPU__ops.mlir":196:11)
    "gpu.dealloc"(%3) : (memref<13xf32, 1>) -> () loc("Dialect__GPU__ops.mlir":197:5)
    %4 = "gpu.wait"() : () -> !gpu.async.token loc("Dialect__GPU__ops.mlir":199:11)
    %5:2 = "gpu.alloc"(%4) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!gpu.async.token) -> (memref<13xf32, 1>, !gpu.async.token) loc("Dialect__GPU__ops.mlir":200:16)
    %6 = "gpu.dealloc"(%5#1, %5#0) : (!gpu.async.token, memref<13xf32, 1>) -> !gpu.async.token loc("Dialect__GPU__ops.mlir":201:11)
    %7 = "gpu.alloc"() <{hostShared, operandSegmentSizes = array<i32: 0, 0, 0>}> : () -> memref<13xf32, 1> loc("Dialect__GPU__ops.mlir":203:11)
    "gpu.dealloc"(%7) : (memref<13xf32, 1>) -> () loc("Dialect__GPU__ops.mlir":204:5)
    "func.return"() : () -> () loc("Dialect__GPU__ops.mlir":206:5)
  }) : () -> () loc("Dialect__GPU__ops.mlir":195:3)
  "func.func"() <{function_type = (!gpu.async.token) -> !gpu.async.token, sym_name = "async_token"}> ({
  ^bb0(%arg0: !gpu.async.token loc("Dialect__GPU__ops.mlir":209:26)):
    "func.return"(%arg50) : (!gpu.async.token) -> () loc("Dialect__GPU__ops.mlir":210:5)
  }) : () -> () loc("Dialect__GPU__ops.mlir":209:3)
  "func.func"() <{function_type = () -> (), sym_name = "async_wait"}> ({
    %0 = "gpu.wait"() : () -> !gpu.async.token loc("Dialect__GPU__ops.mlir":214:10)
    %1 = "gpu.wait"(%0) : (!gpu.async.token) -> !gpu.async.token loc("Dialect__GPU__ops.mlir":215:10)
    %2 = "gpu.wait"(%0, %1) : (!gpu.async.token, !gpu.async.token) -> !gpu.async.token loc("Dialect__GPU__ops.mlir":216:10)
    "gpu.wait"(%0, %1) : (!gpu.async.token, !gpu.async.token) -> () loc("Dialect__GPU__ops.mlir":217:5)
    "gpu.wait"() : () -> () loc("Dialect__GPU__ops.mlir":218:5)
    "func.return"() : () -> () loc("Dialect__GPU__ops.mlir":219:5)
  }) : () -> () loc("Dialect__GPU__ops.mlir":213:3)
}) {gpu.container_module} : () -> () loc("Dialect__GPU__ops.mlir":1:1)
