module {
  func.func @two_edges_from_one_block(%arg0: i1, %arg1: i32) {
    cf.cond_br %arg0, ^bb1, ^bb1
  ^bb1:  // 2 preds: ^bb0, ^bb0
    cf.switch %arg1 : i32, [
      default: ^bb2,
      1: ^bb2,
      2: ^bb3
    ]
  ^bb2:  // 2 preds: ^bb1, ^bb1
    cf.br ^bb3
  ^bb3:  // 2 preds: ^bb1, ^bb2
    return
  }
}
