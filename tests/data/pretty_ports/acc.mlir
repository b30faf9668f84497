module {
  func.func @f(%arg0: memref<10xf32>, %arg1: i64, %arg2: i32) {
    %0 = acc.create varPtr(%arg0 : memref<10xf32>) varType(tensor<10xf32>) async(%arg1 : i64) -> memref<10xf32>
    acc.enter_data async(%arg1 : i64) wait(%arg2 : i32) dataOperands(%0 : memref<10xf32>)
    %1 = acc.update_device varPtr(%arg0 : memref<10xf32>) varType(tensor<10xf32>) -> memref<10xf32>
    acc.update async(%arg1 : i64) wait({devnum: %arg2 : i32, %arg2 : i32} [#acc.device_type<nvidia>]) dataOperands(%1 : memref<10xf32>)
    acc.delete accPtr(%0 : memref<10xf32>)
    return
  }
}
