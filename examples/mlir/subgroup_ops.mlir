// Subgroup operations under divergence: in the lanes whose input is even, the maximum
// (gpu.subgroup_reduce maxsi), the value of the first active lane (gpu.subgroup_broadcast)
// and the mask of those lanes (rocdl.ballot); the other lanes write a float sum of the wave.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @subgroup_ops(%in: memref<?xi32, 1>, %out: memref<?xi32, 1>, %mask: memref<?xi64, 1>,
                           %fsum: memref<?xf32, 1>) kernel {
      %c2 = arith.constant 2 : i32
      %zero = arith.constant 0 : i32
      %tid = gpu.thread_id x
      %v = memref.load %in[%tid] : memref<?xi32, 1>
      %r = arith.remui %v, %c2 : i32
      %even = arith.cmpi eq, %r, %zero : i32
      scf.if %even {
        %m = gpu.subgroup_reduce maxsi %v : (i32) -> i32
        %f = gpu.subgroup_broadcast %v, first_active_lane : i32
        %b = rocdl.ballot %even : i64
        %s = arith.addi %m, %f : i32
        memref.store %s, %out[%tid] : memref<?xi32, 1>
        memref.store %b, %mask[%tid] : memref<?xi64, 1>
      } else {
        %vf = arith.sitofp %v : i32 to f32
        %t = gpu.subgroup_reduce add %vf : (f32) -> f32
        memref.store %t, %fsum[%tid] : memref<?xf32, 1>
      }
      gpu.return
    }
  }
}
