module {
  ml_program.global private @g(dense<4> : tensor<4xi32>) : tensor<4xi32>
  ml_program.global public mutable @m : tensor<?xi32>
  ml_program.func @f(%arg0: !ml_program.token) -> tensor<?xi32> {
    %g = ml_program.global_load_const @g : tensor<4xi32>
    %result, %produceToken = ml_program.global_load_graph @m ordering(() -> !ml_program.token) : tensor<?xi32>
    %0 = ml_program.global_store_graph @m = %result ordering(%arg0, %produceToken -> !ml_program.token) : tensor<?xi32>
    %m = ml_program.global_load @m : tensor<?xi32>
    ml_program.return %m : tensor<?xi32>
  }
  irdl.dialect @d {
    irdl.type @t {
      %0 = irdl.any
      irdl.parameters(elem: %0, other: %0)
    }
    irdl.operation @op {
      %0 = irdl.any
      irdl.operands(a: %0, b: optional %0, c: variadic %0)
      irdl.results()
    }
  }
}
