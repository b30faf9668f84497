module {
  util.func public @params() -> (tensor<20xf32>, tensor<2x3xi8>, tensor<4xf32>) {
    %0 = flow.tensor.constant #flow.parameter.named<"model"::"weight"> : tensor<20xf32>
    %1 = flow.tensor.constant {note = "x"} #flow.parameter.named<"bias"> : tensor<2x3xi8>
    %2 = flow.tensor.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
    util.return %0, %1, %2 : tensor<20xf32>, tensor<2x3xi8>, tensor<4xf32>
  }
}
