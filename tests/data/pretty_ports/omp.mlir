module {
  func.func @lowered(%arg0: index, %arg1: index, %arg2: index, %arg3: memref<10xf32>) {
    %c0 = arith.constant 0 : index
    %cst = arith.constant 1.000000e+00 : f32
    omp.parallel {
      omp.wsloop {
        omp.loop_nest (%arg4, %arg5) : index = (%arg0, %c0) to (%arg1, %arg1) step (%arg2, %arg2) collapse(2) {
          memref.store %cst, %arg3[%arg4] : memref<10xf32>
          omp.yield
        }
      }
      omp.terminator
    }
    return
  }
  func.func @clauses(%arg0: i32, %arg1: i1, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: i32, %arg6: memref<i32>, %arg7: memref<i32>, %arg8: i32) {
    omp.parallel allocate(%arg6 : memref<i32> -> %arg6 : memref<i32>) if(%arg1) num_threads(%arg0 : i32) proc_bind(spread) {
      omp.wsloop nowait schedule(dynamic = %arg5 : i32, nonmonotonic, simd) {
        omp.loop_nest (%arg9) : i64 = (%arg2) to (%arg3) inclusive step (%arg4) {
          omp.yield
        }
      }
      omp.terminator
    }
    omp.wsloop order(reproducible:concurrent) ordered(2) schedule(runtime) {
      omp.loop_nest (%arg9, %arg10) : i64 = (%arg2, %arg2) to (%arg3, %arg3) step (%arg4, %arg4) tiles(2, 4) {
        omp.yield
      }
    } {tag}
    omp.parallel proc_bind(master) {
      omp.wsloop schedule(static, none, simd) {
        omp.loop_nest (%arg9) : i64 = (%arg2) to (%arg3) step (%arg4) {
          omp.yield
        }
      }
      omp.terminator
    }
    return
  }
  omp.private {type = private} @x.privatizer : i32
  omp.declare_reduction @add_f32 : !llvm.ptr init {
  ^bb0(%arg0: !llvm.ptr):
    omp.yield(%arg0 : !llvm.ptr)
  } combiner {
  ^bb0(%arg0: !llvm.ptr, %arg1: !llvm.ptr):
    omp.yield(%arg0 : !llvm.ptr)
  }
  func.func @clause_args(%arg0: memref<i32>, %arg1: memref<i32>, %arg2: !llvm.ptr, %arg3: !llvm.ptr, %arg4: index) {
    omp.parallel private(@x.privatizer %arg0 -> %arg5, @x.privatizer %arg1 -> %arg6 : memref<i32>, memref<i32>) private_barrier reduction(mod: inscan, byref @add_f32 %arg2 -> %arg7, @add_f32 %arg3 -> %arg8 : !llvm.ptr, !llvm.ptr) {
      omp.terminator
    }
    omp.parallel reduction(mod: task, @add_f32 %arg2 -> %arg5 : !llvm.ptr) {
      omp.terminator
    }
    omp.parallel reduction(mod: defaultmod, @add_f32 %arg2 -> %arg5 : !llvm.ptr) {
      omp.terminator
    }
    omp.wsloop private(@x.privatizer %arg0 -> %arg5 : memref<i32>) reduction(@add_f32 %arg2 -> %arg6 : !llvm.ptr) {
      omp.loop_nest (%arg7) : index = (%arg4) to (%arg4) step (%arg4) {
        omp.yield
      }
    }
    return
  }
}
