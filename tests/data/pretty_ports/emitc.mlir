module {
  emitc.include <"stdio.h">
  emitc.include "myheader.h"
  emitc.func private @decl(i32, f32 {emitc.x}) -> i32 attributes {specifiers = ["extern"]}
  emitc.func @f(%arg0: i32, %arg1: i1, %arg2: index {foo.bar = 1 : i64}) -> i32 {
    if %arg1 {
      call_opaque "puts"() : () -> ()
    }
    if %arg1 {
      call_opaque "puts"() : () -> ()
    } else {
      verbatim "x"
    }
    %0 = "emitc.variable"() <{value = #emitc.opaque<"">}> : () -> !emitc.lvalue<i32>
    for %arg3 = %arg2 to %arg2 step %arg2 {
      assign %arg0 : i32 to %0 : <i32>
    }
    for %arg3 = %arg0 to %arg0 step %arg0  : i32 {
    }
    %1 = expression %arg0 : (i32) -> i32 {
      %4 = add %arg0, %arg0 : (i32, i32) -> i32
      yield %4 : i32
    }
    %2 = expression %1, %arg0 : (i32, i32) -> i32 {
      %4 = mul %1, %arg0 : (i32, i32) -> i32
      yield %4 : i32
    }
    %3 = expression  : () -> i32 {
      %4 = "emitc.constant"() <{value = 1 : i32}> : () -> i32
      yield %4 : i32
    }
    do {
      verbatim "y"
    } while {
      %4 = expression %arg1 : (i1) -> i1 {
        %5 = logical_not %arg1 : i1
        yield %5 : i1
      }
      yield %4 : i1
    }
    switch %arg0 : i32 
    case 2 {
      verbatim "z"
      yield
    }
    default {
    }
    do {
      verbatim "y"
    } while {
      %4 = expression %arg1 : (i1) -> i1 {
        %5 = logical_not %arg1 : i1
        yield %5 : i1
      }
      yield %4 : i1
    } attributes {foo = 1 : i64}
    if %arg1 {
    } {bar}
    for %arg3 = %arg1 to %arg1 step %arg1  : i1 {
    } {baz}
    return %arg0 : i32
  }
}
