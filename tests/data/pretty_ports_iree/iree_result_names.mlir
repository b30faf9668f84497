module {
  util.func public @names(%arg0: !hal.buffer, %arg1: !hal.buffer_view) -> (!util.buffer, !util.buffer, index) {
    %storage = hal_inline.buffer.storage<%arg0 : !hal.buffer> : !util.buffer
    %storage_0 = hal_inline.buffer.storage<%arg0 : !hal.buffer> : !util.buffer
    %length = hal_inline.buffer.length<%arg0 : !hal.buffer> : index
    util.return %storage, %storage_0, %length : !util.buffer, !util.buffer, index
  }
  vm.module public @m {
    vm.func @tables() -> !vm.buffer {
      %table_result, %data_result = vm.rodata.table.inline i32 : !vm.buffer, !vm.buffer = [dense<[1, 2]> : vector<2xi8>, "text"]
      vm.return %data_result : !vm.buffer
    }
  }
}
