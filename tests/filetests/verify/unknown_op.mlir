kernel.func @k {
^entry:
  %x = kernel.frobnicate : i32
  kernel.return
}
// IR parse errors are diagnostics with file:line:col and a snippet.
// RUN: not %kc %s 2>&1 | FileCheck %s
// CHECK: error: unknown operation `kernel.frobnicate`
// CHECK: unknown_op.mlir:3:8
