// An op kc cannot represent is a diagnostic naming the op, at its line and column.
// REQUIRES: kc-mlir
// RUN: not %kc %s -S 2>&1 | FileCheck %s
// CHECK: error: unsupported op 'memref.dim'
// CHECK-NEXT: unsupported.mlir:11:12
// CHECK: %n = memref.dim %out, %c0 : memref<?xi32, 1>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<?xi32, 1>) kernel {
      %c0 = arith.constant 0 : index
      %n = memref.dim %out, %c0 : memref<?xi32, 1>
      %v = arith.index_cast %n : index to i32
      memref.store %v, %out[%c0] : memref<?xi32, 1>
      gpu.return
    }
  }
}
