module {
  util.func public @f(%arg0: tensor<?x?xf32>, %arg1: index, %arg2: index) -> (tensor<?x?xf32>, tensor<4xf32>) {
    %0:2 = flow.dispatch.region[%arg1, %arg2] -> (tensor<?x?xf32>{%arg1, %arg2}, tensor<4xf32>) attributes {foo} {
      %2 = tensor.empty() : tensor<4xf32>
      flow.return %arg0, %2 : tensor<?x?xf32>, tensor<4xf32>
    } count(%arg3: index, %arg4: index) -> (index, index, index) {
      flow.return %arg3, %arg4, %arg3 : index, index, index
    }
    %1 = flow.dispatch.region -> (tensor<4xf32>) {
      %2 = tensor.empty() : tensor<4xf32>
      flow.return %2 : tensor<4xf32>
    }
    util.return %0#0, %1 : tensor<?x?xf32>, tensor<4xf32>
  }
}
