module {
  func.func @f(%arg0: memref<?xf32>, %arg1: index) -> f32 {
    memref.alloca_scope  {
      %2 = memref.load %arg0[%arg1] : memref<?xf32>
    }
    %0 = memref.alloca_scope  -> (f32) {
      %2 = memref.load %arg0[%arg1] : memref<?xf32>
      memref.alloca_scope.return %2 : f32
    }
    %1:2 = memref.alloca_scope  -> (f32, index) {
      %2 = memref.load %arg0[%arg1] : memref<?xf32>
      memref.alloca_scope.return %2, %arg1 : f32, index
    } {foo}
    return %0 : f32
  }
}
