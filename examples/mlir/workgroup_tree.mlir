// A tree reduction in workgroup memory: a workgroup attribution, gpu.barrier in an scf.while
// loop whose trip count is uniform, a divergent scf.if inside; work-item 0 writes the sum.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @workgroup_tree(%in: memref<?xf32, 1>, %out: memref<?xf32, 1>)
        workgroup(%tile : memref<256xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %gid = arith.addi %base, %tid : index
      %x = memref.load %in[%gid] : memref<?xf32, 1>
      memref.store %x, %tile[%tid] : memref<256xf32, 3>
      gpu.barrier
      %start = arith.divui %bdim, %c2 : index
      %last = scf.while (%stride = %start) : (index) -> index {
        %more = arith.cmpi ugt, %stride, %c0 : index
        scf.condition(%more) %stride : index
      } do {
      ^bb0(%s: index):
        %active = arith.cmpi ult, %tid, %s : index
        scf.if %active {
          %j = arith.addi %tid, %s : index
          %a = memref.load %tile[%tid] : memref<256xf32, 3>
          %b = memref.load %tile[%j] : memref<256xf32, 3>
          %sum = arith.addf %a, %b : f32
          memref.store %sum, %tile[%tid] : memref<256xf32, 3>
        }
        gpu.barrier
        %half = arith.divui %s, %c2 : index
        scf.yield %half : index
      }
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %total = memref.load %tile[%c0] : memref<256xf32, 3>
        memref.store %total, %out[%bid] : memref<?xf32, 1>
      }
      gpu.return
    }
  }
}
