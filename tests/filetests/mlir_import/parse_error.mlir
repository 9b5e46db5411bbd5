// MLIR's own parse and verifier errors are kc diagnostics at their line and column.
// REQUIRES: kc-mlir
// RUN: not %kc %s -S 2>&1 | FileCheck %s
// CHECK: error: use of value '%v' expects different type than prior uses: 'f32' vs 'i32'
// CHECK-NEXT: parse_error.mlir:11:23
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<?xi32, 1>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %out[%c0] : memref<?xi32, 1>
      %w = arith.addf %v, %v : f32
      gpu.return
    }
  }
}
