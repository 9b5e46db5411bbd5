// A func.func kernel (the gpu.kernel attribute, no gpu.module) with memrefs in the default
// address space (global memory): a 16-bin histogram with memref.atomic_rmw addi, and each
// element's bin written back.
func.func @histogram(%in: memref<?xi32>, %hist: memref<16xi32>, %seen: memref<?xi32>) attributes {gpu.kernel} {
  %c16 = arith.constant 16 : i32
  %one = arith.constant 1 : i32
  %tid = gpu.thread_id x
  %bid = gpu.block_id x
  %bdim = gpu.block_dim x
  %base = arith.muli %bid, %bdim : index
  %gid = arith.addi %base, %tid : index
  %v = memref.load %in[%gid] : memref<?xi32>
  %bin = arith.remui %v, %c16 : i32
  %b = arith.index_cast %bin : i32 to index
  %old = memref.atomic_rmw addi %one, %hist[%b] : (i32, memref<16xi32>) -> i32
  memref.store %bin, %seen[%gid] : memref<?xi32>
  return
}
