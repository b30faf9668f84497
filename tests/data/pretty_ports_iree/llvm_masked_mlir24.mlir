module {
  llvm.func @f(%arg0: !llvm.ptr, %arg1: vector<4xi1>, %arg2: vector<4xf32>, %arg3: vector<4xf32>) -> vector<4xf32> {
    %0 = llvm.intr.masked.load(%arg0, %arg1, %arg2), alignment(4) <nontemporal> : (!llvm.ptr, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
    %1 = llvm.intr.masked.load(%arg0, %arg1), alignment(8) : (!llvm.ptr, vector<4xi1>) -> vector<4xf32>
    llvm.intr.masked.store(%arg3, %arg0, %arg1), alignment(4) : vector<4xf32>, vector<4xi1> into !llvm.ptr
    llvm.return %0 : vector<4xf32>
  }
}
