module {
  emitc.global @g0 : !emitc.array<2xf32> = dense<[1.000000e+00, 2.000000e+00]>
  emitc.global extern const @g1 : i32 = 5
  emitc.global static @g2 : !emitc.opaque<"x"> = #emitc.opaque<"1">
  emitc.global @g3 : i64
  emitc.file "main" {
    func @f() {
      %0 = "emitc.variable"() <{value = 0 : i32}> : () -> !emitc.lvalue<i32>
      %1 = load %0 : <i32>
      %2 = address_of %0 : !emitc.lvalue<i32>
      %3 = dereference %2 : !emitc.ptr<i32>
      return
    }
  }
  emitc.class @c {
    emitc.field @x : !emitc.array<1xf32>
    emitc.field @y : i32 = 4 {foo}
  }
}
