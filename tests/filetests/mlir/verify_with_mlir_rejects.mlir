// kc --verify-with-mlir reports MLIR's verifier errors with the pass (here: reading the IR)
// and the op's source location, and exits 1: the kernel's block ends in kernel.store.
// REQUIRES: kc-mlir
// RUN: %kc %s -S --verify-with-mlir 2> %t.err; test $? -eq 1 && FileCheck %s < %t.err
// CHECK: error: MLIR's verifier rejects the IR after `parse-ir`:
// CHECK-NEXT: bad.k:2:5: error: block with no terminator, has "kernel.store"

"builtin.module"() ({
  "kernel.func"() ({
  ^entry(%out: !kernel.ptr<global, i32> loc("bad.k":1:10), %i: i32 loc("bad.k":1:20)):
    "kernel.store"(%i, %out, %i) : (i32, !kernel.ptr<global, i32>, i32) -> () loc("bad.k":2:5)
  }) {sym_name = "k"} : () -> () loc("bad.k":1:1)
}) : () -> ()
