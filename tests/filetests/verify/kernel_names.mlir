// Kernel names become assembler symbols and metadata strings, so the verifier accepts only
// identifiers ([A-Za-z_][A-Za-z0-9_]*, as in .k source) and unique names. (Before: each of
// these passed the verifier and was printed unquoted into a listing llvm-mc rejects.)
// RUN: for n in '"x y"' 1 '"a:b"' '".LBB0_1"' '"é"' '""'; do \
// RUN:   printf 'kernel.func @%%s {\n^entry:\n  kernel.return\n}\n' "$n" > %t.mlir; \
// RUN:   %kc %t.mlir -S; echo "exit $?"; \
// RUN: done 2>&1 | FileCheck %s
// CHECK: .mlir:1:1: error: kernel name "x y" is not an identifier ([A-Za-z_][A-Za-z0-9_]*)
// CHECK-NEXT: kernel.func @"x y" {
// CHECK-NEXT: ^
// CHECK-NEXT: note: in this IR:
// CHECK: exit 1
// CHECK: error: kernel name "1" is not an identifier
// CHECK: exit 1
// CHECK: error: kernel name "a:b" is not an identifier
// CHECK: exit 1
// CHECK: error: kernel name ".LBB0_1" is not an identifier
// CHECK: exit 1
// CHECK: error: kernel name "é" is not an identifier
// CHECK: exit 1
// CHECK: error: {{.*}}
// CHECK: exit 1
//
// Two kernels with one name.
// RUN: not %kc %S/Inputs/twice.mlir -S 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: twice.mlir:5:1: error: kernel `k` is defined twice (first at twice.mlir:1:1)
kernel.func @ok {
^entry:
  kernel.return
}
