module {
  llvm.func @g(i32) -> i32
  llvm.func @v(i32, ...)
  llvm.func @h()
  llvm.func @f(%arg0: i32, %arg1: !llvm.ptr, %arg2: f32) {
    %0 = llvm.call @g(%arg0) : (i32) -> i32
    %1 = llvm.call fastcc @g(%arg0) {fastmathFlags = #llvm.fastmath<fast>, no_unwind} : (i32) -> i32
    %2 = llvm.call tail @g(%arg0) : (i32 {llvm.noundef}) -> (i32 {llvm.zeroext})
    %3 = llvm.call %arg1(%arg0) : !llvm.ptr, (i32) -> i32
    llvm.call @v(%arg0, %arg0) vararg(!llvm.func<void (i32, ...)>) : (i32, i32) -> ()
    llvm.call @h() ["tag"(%arg0, %arg2 : i32, f32), "empty"()] : () -> ()
    llvm.call cc_10 musttail @h() {foo = 1 : i32} : () -> ()
    llvm.return
  }
}
