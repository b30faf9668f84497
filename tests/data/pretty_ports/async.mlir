module {
  func.func @f(%arg0: !async.value<f32>, %arg1: !async.token) -> f32 {
    %token, %bodyResults:2 = async.execute [%arg1] (%arg0 as %arg2: !async.value<f32>) -> (!async.value<f32>, !async.value<f32>) {
      async.yield %arg2, %arg2 : f32, f32
    }
    %0 = async.await %bodyResults#1 : !async.value<f32>
    async.await %token : !async.token
    return %0 : f32
  }
}
