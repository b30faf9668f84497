module {
  func.func @f(%arg0: i32, %arg1: i32) {
    cf.switch %arg0 : i32, [
      default: ^bb1(%arg1 : i32),
      42: ^bb3,
      7: ^bb2(%arg1 : i32)
    ]
  ^bb1(%0: i32):  // pred: ^bb0
    return
  ^bb2(%1: i32):  // pred: ^bb0
    return
  ^bb3:  // pred: ^bb0
    return
  }
}
