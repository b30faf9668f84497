module {
  vm.module public @cond_fail_folds {
    vm.func @cond_fail_to_cond_br_fail(%arg0: i32) {
      %c2_i32 = arith.constant 2 : i32
      vm.cond_fail %arg0, %c2_i32, "message"
      vm.return
    }
  }
  vm.module public @global_i32_folds {
    vm.global.i32 public mutable @g0 : i32
    vm.initializer {
      %c123 = vm.const.i32 123
      vm.global.store.i32 %c123, @g0 : i32
      vm.return
    }
    vm.global.i32 public mutable @g1 = 0 : i32
    vm.global.i32 public @g2 = 0 : i32
    vm.global.i32 public mutable @g3 : i32
    vm.initializer {
      %zero = vm.const.i32 0
      vm.global.store.i32 %zero, @g3 : i32
      vm.return
    }
  }
  vm.module public @cast_any_ref_folds {
    vm.func @cast_any_ref_nop(%arg0: !vm.buffer) -> !vm.buffer {
      %buffer = vm.cast.any.ref %arg0 : !vm.buffer -> !vm.buffer
      vm.return %buffer : !vm.buffer
    }
    vm.func @cast_ref_any_ref(%arg0: !vm.buffer) -> !vm.buffer {
      %ref = vm.cast.ref.any %arg0 : !vm.buffer -> !vm.ref<?>
      %buffer = vm.cast.any.ref %ref : !vm.ref<?> -> !vm.buffer
      vm.return %buffer : !vm.buffer
    }
    vm.func @cast_any_ref_null() -> !vm.buffer {
      %null = vm.const.ref.zero : !vm.ref<?>
      %buffer = vm.cast.any.ref %null : !vm.ref<?> -> !vm.buffer
      vm.return %buffer : !vm.buffer
    }
  }
  vm.module public @module {
    vm.func @list_common() {
      %c42 = vm.const.i32 42
      %list = vm.list.alloc %c42 : (i32) -> !vm.list<i32>
      %c43 = vm.const.i32 43
      vm.list.reserve %list, %c43 : (!vm.list<i32>, i32)
      %0 = vm.list.size %list : (!vm.list<i32>) -> i32
      %c44 = vm.const.i32 44
      vm.list.resize %list, %c44 : (!vm.list<i32>, i32)
      vm.return
    }
  }
}
