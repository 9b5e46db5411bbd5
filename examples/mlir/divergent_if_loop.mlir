// An scf.for loop with a divergent scf.if inside: each work-item walks `in[0..n)` and adds
// the elements whose index has its own residue mod 3, subtracting 1 for every other one.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @divergent_if_loop(%in: memref<?xi32, 1>, %out: memref<?xi32, 1>, %n: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %tid = gpu.thread_id x
      %mine = arith.remui %tid, %c3 : index
      %ub = arith.index_cast %n : i32 to index
      %sum = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %zero) -> (i32) {
        %r = arith.remui %i, %c3 : index
        %match = arith.cmpi eq, %r, %mine : index
        %next = scf.if %match -> (i32) {
          %x = memref.load %in[%i] : memref<?xi32, 1>
          %a = arith.addi %acc, %x : i32
          scf.yield %a : i32
        } else {
          %s = arith.subi %acc, %one : i32
          scf.yield %s : i32
        }
        scf.yield %next : i32
      }
      memref.store %sum, %out[%tid] : memref<?xi32, 1>
      gpu.return
    }
  }
}
