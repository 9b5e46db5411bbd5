// An scf.while loop with a divergent trip count: the number of Collatz steps from gid + 1
// down to 1, each lane leaving the loop on its own iteration.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @collatz(%out: memref<?xi32, 1>) kernel {
      %c1 = arith.constant 1 : index
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %three = arith.constant 3 : i32
      %zero = arith.constant 0 : i32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %gid = arith.addi %base, %tid : index
      %start = arith.addi %gid, %c1 : index
      %n0 = arith.index_cast %start : index to i32
      %res:2 = scf.while (%n = %n0, %steps = %zero) : (i32, i32) -> (i32, i32) {
        %go = arith.cmpi ne, %n, %one : i32
        scf.condition(%go) %n, %steps : i32, i32
      } do {
      ^bb0(%m: i32, %k: i32):
        %rem = arith.remui %m, %two : i32
        %odd = arith.cmpi ne, %rem, %zero : i32
        %next = scf.if %odd -> (i32) {
          %t = arith.muli %m, %three : i32
          %u = arith.addi %t, %one : i32
          scf.yield %u : i32
        } else {
          %h = arith.divui %m, %two : i32
          scf.yield %h : i32
        }
        %k1 = arith.addi %k, %one : i32
        scf.yield %next, %k1 : i32, i32
      }
      memref.store %res#1, %out[%gid] : memref<?xi32, 1>
      gpu.return
    }
  }
}
