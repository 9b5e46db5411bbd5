// kc's shuffle reads across the whole wave: a gpu.shuffle whose width is not the constant 64
// is refused at the op.
// REQUIRES: kc-mlir
// RUN: not %kc %s -S 2>&1 | FileCheck %s
// CHECK: error: unsupported op 'gpu.shuffle': kc shuffles whole waves: the width must be the constant 64
// CHECK-NEXT: shuffle_width.mlir:12:17
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<?xi32, 1>, %w: i32) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0] : memref<?xi32, 1>
      %s, %ok = gpu.shuffle xor %v, %w, %w : i32
      memref.store %s, %a[%c0] : memref<?xi32, 1>
      gpu.return
    }
  }
}
