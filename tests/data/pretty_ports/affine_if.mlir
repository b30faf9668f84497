module {
  func.func @f(%arg0: index, %arg1: index) -> f32 {
    %cst = arith.constant 0.000000e+00 : f32
    affine.if affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 == 0)>(%arg0)[%arg1] {
      "foo"() : () -> ()
    } else {
      "bar"() : () -> ()
    } {tag}
    %0 = affine.if affine_set<() : (0 == 0)>() -> f32 {
      affine.yield %cst : f32
    } else {
      affine.yield %cst : f32
    }
    %1:2 = affine.if affine_set<(d0, d1) : (d0 - d1 >= 0)>(%arg0, %arg1) -> (f32, f32) {
      affine.yield %0, %cst : f32, f32
    } else {
      affine.yield %cst, %0 : f32, f32
    }
    affine.if affine_set<()[s0] : (s0 - 1 >= 0)>()[%arg0] {
    }
    return %1#1 : f32
  }
}
