module {
  util.func private @pcf_forms(%arg0: tensor<?xi32>, %arg1: memref<?x4xi32>, %arg2: index, %arg3: index) {
    %0:2 = pcf.generic sync true scope(#pcf.test_scope) 
      execute(%ref = %arg0, %ref_0)[%id: index, %count: index]
           : (!pcf.sref<?xi32, #pcf.test_scope>, !pcf.sref<?x4xi32, #pcf.test_scope>)
          -> (tensor<?xi32>, tensor<?x4xi32>{%arg2}) {
      pcf.return
    }  {tag = 1 : i32}
    %1 = pcf.generic scope(#pcf.test_scope) initialize {
      %c7 = arith.constant 7 : index
      pcf.yield %c7 : index
    } -> (%arg4: index)
      execute(%ref = %arg1)[%id: index, %count: index]
           : (!pcf.sref<?x4xi32, #pcf.test_scope>)
          -> (memref<?x4xi32>) {
      %2 = util.optimization_barrier %arg4 : index
      pcf.return
    } 
    pcf.loop scope(#pcf.test_scope) count(%arg3, %arg2) 
      execute[%id: index, %id_0: index] {
      pcf.return
    }
    util.return
  }
  llvm.func @traps() {
    llvm.intr.ubsantrap failureKind = 3 {note}
    llvm.intr.ubsantrap failureKind = 7
    llvm.return
  }
}
