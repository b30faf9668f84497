// Integer work in a loop: scf.for with iter_args, unsigned casts, shifts, select, and a small table
// lookup through tensor.extract; the dispatch gets an scf loop and the host side a cf loop.
func.func @collatz(%start: tensor<8xi32>, %steps: index) -> (tensor<8xi32>, tensor<8xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %three = arith.constant 3 : i32
  %zero32 = arith.constant 0 : i32
  %init = tensor.empty() : tensor<8xi32>
  %wide = tensor.empty() : tensor<8xi64>
  %r = scf.for %i = %c0 to %steps step %c1 iter_args(%acc = %start) -> (tensor<8xi32>) {
    %next = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%acc : tensor<8xi32>) outs(%init : tensor<8xi32>) {
    ^bb0(%v: i32, %o: i32):
      %odd = arith.andi %v, %one : i32
      %isodd = arith.cmpi ne, %odd, %zero32 : i32
      %half = arith.shrui %v, %one : i32
      %t = arith.muli %v, %three : i32
      %t1 = arith.addi %t, %one : i32
      %n = arith.select %isodd, %t1, %half : i32
      linalg.yield %n : i32
    } -> tensor<8xi32>
    scf.yield %next : tensor<8xi32>
  }
  %ext = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r : tensor<8xi32>) outs(%wide : tensor<8xi64>) {
  ^bb0(%v: i32, %o: i64):
    %u = arith.extui %v : i32 to i64
    %idx = arith.index_castui %v : i32 to index
    %back = arith.index_cast %idx : index to i64
    %s = arith.addi %u, %back : i64
    linalg.yield %s : i64
  } -> tensor<8xi64>
  return %r, %ext : tensor<8xi32>, tensor<8xi64>
}
