// torch-mlir's C++ op forms and its other dialects, written by iree-opt as bytecode (tests/test_torch_models.py)
module {
  torch.class_type "private" @c {
    torch.attr "f" : !torch.float
    torch.method "m", @m
  }
  torch.global_slot "private" @slot0 : !torch.int
  torch.global_slot.module_initializer {
    %int7 = torch.constant.int 7
    torch.initialize.global_slots [
      @slot0(%int7 : !torch.int)
    ]
  }
  func.func private @m(%arg0: !torch.nn.Module<"c">, %arg1: !torch.float) -> !torch.float {
    return %arg1 : !torch.float
  }
  func.func @forms(%arg0: !torch.int, %arg1: !torch.vtensor<[?,16],f32>, %arg2: !torch.vtensor<[1,3,2,6],f32>, %arg3: !torch.vtensor, %arg4: !torch.vtensor, %arg5: !torch.vtensor, %arg6: tensor<8xi32>, %arg7: tensor<3x1xi32>, %arg8: tensor<3xi32>, %arg9: !torch.vtensor<[2],f32>, %arg10: !torch.nn.Module<"c">) -> (!torch.int, !torch.vtensor, tensor<8xi32>, !torch.vtensor<[2],f32>, !torch.float) {
    %true = torch.constant.bool true
    %0 = torch.prim.If %true -> (!torch.int) {
      %5 = torch.aten.add.int %arg0, %arg0 : !torch.int, !torch.int -> !torch.int
      torch.prim.If.yield %5 : !torch.int
    } else {
      %5 = torch.aten.mul.int %arg0, %arg0 : !torch.int, !torch.int -> !torch.int
      torch.prim.If.yield %5 : !torch.int
    }
    %s0 = torch.symbolic_int "s0" {min_val = 2, max_val = 1024} : !torch.int
    torch.bind_symbolic_shape %arg1, [%s0], affine_map<()[s0] -> (s0, 16)> : !torch.vtensor<[?,16],f32>
    %int0 = torch.constant.int 0
    %float1 = torch.constant.float 1.000000e+00
    %1 = torch.onnx.rotary_embedding %arg2, %arg3, %arg4, %arg5, %int0, %int0, %int0, %int0, %float1 : !torch.vtensor<[1,3,2,6],f32>, !torch.vtensor, !torch.vtensor, !torch.vtensor, !torch.int, !torch.int, !torch.int, !torch.int, !torch.float -> !torch.vtensor
    %2 = tm_tensor.scatter {dimension_map = array<i64: 0>} unique_indices(true) ins(%arg8, %arg7 : tensor<3xi32>, tensor<3x1xi32>) outs(%arg6 : tensor<8xi32>) {
    ^bb0(%a: i32, %b: i32):
      tm_tensor.yield %a : i32
    } -> tensor<8xi32>
    %3 = torch_c.to_builtin_tensor %arg9 : !torch.vtensor<[2],f32> -> tensor<2xf32>
    %4 = torch_c.from_builtin_tensor %3 : tensor<2xf32> -> !torch.vtensor<[2],f32>
    %t = torch.copy.to_tensor %4 : !torch.tensor<[2],f32>
    %v = torch.copy.to_vtensor %t : !torch.vtensor<[2],f32>
    %m = constant @m : (!torch.nn.Module<"c">, !torch.float) -> !torch.float
    %f = torch.constant.float 2.500000e-01
    %r = call_indirect %m(%arg10, %f) : (!torch.nn.Module<"c">, !torch.float) -> !torch.float
    return %0, %1, %2, %v, %r : !torch.int, !torch.vtensor, tensor<8xi32>, !torch.vtensor<[2],f32>, !torch.float
  }
}
