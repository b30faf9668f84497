module {
  func.func @f(%arg0: !smt.bv<32>, %arg1: !smt.bool) {
    %0 = smt.eq %arg0, %arg0 {x} : !smt.bv<32>
    %1 = smt.distinct %arg1, %arg1, %arg1 : !smt.bool
    %2 = smt.bv.repeat 3 times %arg0 : !smt.bv<32>
    %3 = smt.declare_fun : !smt.func<(!smt.bv<32>, !smt.bool) !smt.bool>
    %4 = smt.apply_func %3(%arg0, %arg1) : !smt.func<(!smt.bv<32>, !smt.bool) !smt.bool>
    return
  }
}
