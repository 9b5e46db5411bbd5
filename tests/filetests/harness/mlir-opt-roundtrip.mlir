// Harness self-test: a .mlir file piped through LLVM 22's mlir-opt into
// FileCheck. mlir-opt prints unregistered ops back in generic form.
// REQUIRES: mlir-opt
// RUN: mlir-opt-22 --allow-unregistered-dialect %s | FileCheck %s
// RUN: %mlir-opt --allow-unregistered-dialect %s | FileCheck %s --check-prefix=SUBST

// CHECK:      "kernel.func"() ({
// CHECK-NEXT:   "kernel.return"() : () -> ()
// CHECK-NEXT: }) {sym_name = "k"} : () -> ()
// SUBST: sym_name = "k"

"kernel.func"() ({
^bb0:
  "kernel.return"() : () -> ()
}) {sym_name = "k"} : () -> ()
