// A wave-wide sum with a gpu.shuffle xor butterfly in an scf.for loop (offsets 32, 16, ..., 1):
// every lane ends with the sum of its wave, and lane 0 of each wave writes it.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @shuffle_reduce(%in: memref<?xi32, 1>, %out: memref<?xi32, 1>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c6 = arith.constant 6 : index
      %c64 = arith.constant 64 : i32
      %c32 = arith.constant 32 : i32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %gid = arith.addi %base, %tid : index
      %v0 = memref.load %in[%gid] : memref<?xi32, 1>
      %sum, %off = scf.for %i = %c0 to %c6 step %c1 iter_args(%acc = %v0, %o = %c32) -> (i32, i32) {
        %other, %valid = gpu.shuffle xor %acc, %o, %c64 : i32
        %next = arith.addi %acc, %other : i32
        %c1_i32 = arith.constant 1 : i32
        %half = arith.shrui %o, %c1_i32 : i32
        scf.yield %next, %half : i32, i32
      }
      %lane = gpu.lane_id
      %first = arith.cmpi eq, %lane, %c0 : index
      scf.if %first {
        %c64_idx = arith.constant 64 : index
        %wave = arith.divui %gid, %c64_idx : index
        memref.store %sum, %out[%wave] : memref<?xi32, 1>
      }
      gpu.return
    }
  }
}
