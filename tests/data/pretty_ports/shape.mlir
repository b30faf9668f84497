module {
  func.func @f(%arg0: !shape.shape, %arg1: tensor<?xindex>, %arg2: !shape.witness) -> index {
    %c1 = shape.const_size 1
    %0 = shape.reduce(%arg0, %c1) : !shape.shape -> !shape.size {
    ^bb0(%arg3: index, %arg4: !shape.size, %arg5: !shape.size):
      %3 = shape.mul %arg5, %arg4 : !shape.size, !shape.size -> !shape.size
      shape.yield %3 : !shape.size
    }
    %c0 = arith.constant 0 : index
    %1:2 = shape.reduce(%arg1, %c0, %c0) : tensor<?xindex> -> (index, index) {
    ^bb0(%arg3: index, %arg4: index, %arg5: index, %arg6: index):
      shape.yield %arg5, %arg6 : index, index
    } {foo}
    %2 = shape.assuming %arg2 -> (index) {
      shape.assuming_yield %c0 : index
    }
    shape.assuming %arg2 {
      %c1_0 = arith.constant 1 : index
    }
    return %2 : index
  }
}
