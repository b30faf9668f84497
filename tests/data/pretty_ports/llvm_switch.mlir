module {
  llvm.func @f(%arg0: i32, %arg1: i64) {
    llvm.switch %arg0 : i32, ^bb1 [
      -1: ^bb2(%arg1 : i64),
      5: ^bb1
    ]
  ^bb1:  // 4 preds: ^bb0, ^bb0, ^bb3, ^bb3
    llvm.return
  ^bb2(%0: i64):  // pred: ^bb0
    llvm.switch %arg0 : i32, ^bb3(%arg1 : i64) [
    ]
  ^bb3(%1: i64):  // pred: ^bb2
    llvm.switch %arg0 : i32, ^bb1 [
      3: ^bb1
    ] {branch_weights = array<i32: 1, 2>}
  }
  llvm.func @g(%arg0: i64, %arg1: i1, %arg2: i32) {
    llvm.switch %arg0 : i64, ^bb1 [
      -9223372036854775808: ^bb1,
      9223372036854775807: ^bb2(%arg2, %arg2 : i32, i32)
    ]
  ^bb1:  // 5 preds: ^bb0, ^bb0, ^bb1, ^bb1, ^bb3
    llvm.switch %arg1 : i1, ^bb1 [
      0: ^bb1,
      -1: ^bb3
    ]
  ^bb2(%0: i32, %1: i32):  // pred: ^bb0
    llvm.return
  ^bb3:  // 3 preds: ^bb1, ^bb3, ^bb3
    llvm.switch %arg2 : i32, ^bb3 [
      7: ^bb3,
      7: ^bb1
    ]
  }
}
