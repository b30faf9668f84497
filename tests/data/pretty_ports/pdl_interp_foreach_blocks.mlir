module {
  pdl_interp.func @matcher(%arg0: !pdl.operation) {
    %0 = pdl_interp.get_operand 0 of %arg0
    %1 = pdl_interp.get_users of %0 : !pdl.value
    pdl_interp.foreach %arg1 : !pdl.operation in %1 {
      pdl_interp.is_not_null %arg1 : !pdl.operation -> ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      pdl_interp.check_operand_count of %arg1 is 1 -> ^bb2, ^bb3
    ^bb2:  // 3 preds: ^bb0, ^bb1, ^bb3
      pdl_interp.continue
    ^bb3:  // pred: ^bb1
      pdl_interp.record_match @rewriters::@r(%arg1 : !pdl.operation) : benefit(1), loc([%arg1]) -> ^bb2
    } -> ^bb1
  ^bb1:  // pred: ^bb0
    pdl_interp.finalize
  }
  module @rewriters {
    pdl_interp.func @r(%arg0: !pdl.operation) {
      pdl_interp.finalize
    }
  }
}
