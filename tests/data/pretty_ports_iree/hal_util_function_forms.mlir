module {
  hal.executable private @ex {
    hal.executable.variant public @v target(<"llvm-cpu", "embedded-elf-x86_64">) {
      hal.executable.condition(%arg0: !hal.device) -> i1 {
        %ok, %value = hal.device.query<%arg0 : !hal.device> key("cpu" :: "avx2") : i1, i1
        hal.return %value : i1
      }
      hal.executable.constant.block() -> i32 as "one" attributes {tag = 3 : i32} {
        %c1_i32 = arith.constant 1 : i32
        hal.return %c1_i32 : i32
      }
      hal.executable.constant.block(%arg0: !hal.device) -> (i32, i32, i32) as ("a", "b", "c") {
        %c0_i32 = arith.constant 0 : i32
        hal.return %c0_i32, %c0_i32, %c0_i32 : i32, i32, i32
      }
    }
  }
  util.func public @conv(%arg0: vector<4xf32>, %arg1: vector<4xf32>, %arg2: tensor<4xi32>) -> (vector<2x2xf32>, vector<4xf32>, tensor<4xi32>) {
    %0:2 = util.hoistable_conversion "pack" inverts("unpack") (%arg3 = %arg0, %arg4 = %arg1) : (vector<4xf32>, vector<4xf32>) -> (vector<2x2xf32>, vector<4xf32>) {
      %2 = vector.shape_cast %arg3 : vector<4xf32> to vector<2x2xf32>
      util.return %2, %arg4 : vector<2x2xf32>, vector<4xf32>
    } {note}
    %c4 = arith.constant 4 : index
    %1 = hal.dispatch.extern "kernel"[%c4](%arg2) : (tensor<4xi32>) -> %arg2 count(%arg3: !hal.device, %arg4: index) -> (index, index, index) {
      %c1 = arith.constant 1 : index
      hal.return %arg4, %c1, %c1 : index, index, index
    } layout(<bindings = [#hal.pipeline.binding<storage_buffer>]>) objects({
      #hal.executable.target<"llvm-cpu", "x"> ordinal(1) = [#hal.executable.object<{path = "x.o"}>],
      #hal.executable.target<"llvm-cpu", "y"> if(%arg3: !hal.device) -> i1 {
        %true = arith.constant true
        hal.return %true : i1
      } ordinal(2) = [#hal.executable.object<{path = "y.o"}>]
    })
    util.return %0#0, %0#1, %1 : vector<2x2xf32>, vector<4xf32>, tensor<4xi32>
  }
}
