// A NUL byte in an upstream MLIR module is a diagnostic at its position (MLIR's parser takes a
// C string: it would end the module there), exit 1, never a panic.
// REQUIRES: kc-mlir
// RUN: printf 'module {\n  gpu.module @m {\n  }\0\n}\n' > %t.mlir
// RUN: not %kc %t.mlir -S 2>&1 | FileCheck %s
// RUN: %kc %t.mlir -S; test $? -eq 1
// CHECK: error: a NUL byte in the MLIR module
// CHECK-NEXT: {{.*}}.mlir:3:4
// CHECK-NOT: panicked
