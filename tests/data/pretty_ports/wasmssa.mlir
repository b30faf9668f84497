module {
  wasmssa.import_global "g" from "mod" as @g0 mutable : i32
  wasmssa.func exported @f(%arg0: !wasmssa<local ref to i32>, %arg1: !wasmssa<local ref to f32>) -> i32 {
    %0 = wasmssa.local_get %arg0 :  ref to i32
    %1 = wasmssa.local of type f64
    %2 = wasmssa.local_tee %arg0 :  ref to i32 to %0 : i32
    wasmssa.local_set %arg0 :  ref to i32 to %2 : i32
    wasmssa.return %0 : i32
  }
  wasmssa.func @h() {
    wasmssa.return
  }
}
