module {
  func.func @f(%arg0: index, %arg1: index) -> index {
    %0 = affine.min affine_map<(d0)[s0] -> (1000, d0 + 512, s0)>(%arg0)[%arg1]
    %1 = affine.max affine_map<()[s0, s1] -> (s0, s1)>()[%arg0, %arg1] {tag}
    %2 = affine.max affine_map<() -> (7)>()
    %3 = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 2)>(%0, %1)
    %4 = affine.apply affine_map<(d0)[s0] -> ((d0 - s0) floordiv 4)>(%3)[%2]
    return %4 : index
  }
}
