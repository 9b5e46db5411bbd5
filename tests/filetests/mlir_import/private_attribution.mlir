// A private attribution (per-work-item memory, address space 5) has no kc counterpart: an
// error at the kernel, not a parameter of a strange type.
// REQUIRES: kc-mlir
// RUN: not %kc %s -S 2>&1 | FileCheck %s
// CHECK: error: private attributions (memory in address space 5) are not supported
// CHECK-NEXT: private_attribution.mlir:9:5
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<?xi32, 1>) private(%p : memref<4xi32, 5>) kernel {
      gpu.return
    }
  }
}
