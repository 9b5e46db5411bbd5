// Upstream kernels are held to the same limits as `.k` source: workgroup attributions beyond the
// 65536 bytes of LDS (also when the byte count exceeds 32 bits) and global memrefs of i1 (no
// host buffer can be bound to them) are diagnostics at the attribution or parameter.
// REQUIRES: kc-mlir
// RUN: not %kc %s -S 2>&1 | FileCheck %s
// CHECK-DAG: workgroup_limit.mlir:13:53: error: kernel `big` needs 400000 bytes of shared memory
// CHECK-DAG: workgroup_limit.mlir:16:54: error: kernel `huge` needs 4294967296 bytes of shared memory
// CHECK-DAG: workgroup_limit.mlir:19:21: error: a kernel parameter cannot point to i1
// CHECK-NOT: panicked
module attributes {gpu.container_module} {
  gpu.module @m {
    // 100000 i32: 400000 bytes.
    gpu.func @big(%out: memref<?xi32, 1>) workgroup(%w: memref<100000xi32, 3>) kernel {
      gpu.return
    }
    gpu.func @huge(%out: memref<?xi32, 1>) workgroup(%w: memref<1073741824xi32, 3>) kernel {
      gpu.return
    }
    gpu.func @flags(%f: memref<?xi1, 1>) kernel {
      gpu.return
    }
  }
}
