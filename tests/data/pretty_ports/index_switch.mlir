module {
  func.func @f(%arg0: index, %arg1: i32) -> i32 {
    %0 = scf.index_switch %arg0 -> i32 
    case 2 {
      scf.yield %arg1 : i32
    }
    case -5 {
      %c1_i32 = arith.constant 1 : i32
      scf.yield %c1_i32 : i32
    }
    default {
      %c7_i32 = arith.constant 7 : i32
      scf.yield %c7_i32 : i32
    }
    scf.index_switch %arg0 
    default {
    }
    scf.index_switch %arg0 {foo} 
    case 0 {
      scf.yield
    }
    default {
    }
    emitc.switch %arg1 : i32 
    case 2 {
      yield
    }
    default {
    }
    return %0 : i32
  }
}
